"""The review queue's middle band, decided by the configured LLM in one batched call.

Guardrails: only pending pairs are ever sent or acted on; an id the answer invents is
ignored; a pair the answer leaves out, or calls different, stays in the queue for the
user (an LLM "no" is not a rejection the user made); a malformed or late answer changes
nothing. Without an LLM the queue simply waits for the user.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from brainbridge.bridge.prompts import MERGE_SCHEMA, MERGE_SYSTEM, merge_user_prompt
from brainbridge.errors import BrainError, LLMError
from brainbridge.ports import LLM

if TYPE_CHECKING:
    from brainbridge.brain import Brain

log = logging.getLogger(__name__)
MERGE_TIMEOUT = 15.0
MAX_PAIRS = 20


async def decide_with_llm(brain: Brain, llm: LLM, limit: int = MAX_PAIRS) -> list[dict[str, Any]]:
    """Merge the pending pairs the LLM calls the same; the merges made (never raises)."""
    pending = (await brain.merges("pending"))[:limit]
    if not pending:
        return []
    pairs = []
    for m in pending:
        a = await brain.get_entity(m["entity_type"], m["keep_name"])
        b = await brain.get_entity(m["entity_type"], m["other_name"])
        if a is None or b is None:
            continue
        pairs.append((m["id"], a.name, a.description, b.name, b.description))
    if not pairs:
        return []
    try:
        data = await llm.complete_json(
            MERGE_SYSTEM, merge_user_prompt(pairs), schema=MERGE_SCHEMA, timeout=MERGE_TIMEOUT
        )
    except LLMError as exc:
        log.warning("LLM merge review failed; the pairs stay in the queue: %s", exc)
        return []
    asked = {pid for pid, *_ in pairs}
    same = {
        d["id"]
        for d in data.get("decisions") or []
        if isinstance(d, dict) and d.get("same") is True and d.get("id") in asked
    }
    done = []
    for merge_id in sorted(same):
        try:
            done.append(await brain.decide_merge(merge_id, accept=True))
        except BrainError as exc:  # changed meanwhile (decided by the user, deleted)
            log.info("merge #%s not made: %s", merge_id, exc)
    return done
