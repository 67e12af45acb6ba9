"""What each hook does with an open brain; shared by the hook process and `brain serve`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from brainbridge.hooks.payload import field

if TYPE_CHECKING:
    from brainbridge.brain import Brain
    from brainbridge.bridge import Bridge, Observation

log = logging.getLogger(__name__)


async def run_hook(
    brain: Brain, kind: str, payload: dict[str, Any], bridge: Bridge | None = None
) -> dict[str, Any]:
    """Handle a SessionStart or UserPromptSubmit event: {"context": text or None, ...}.

    A Stop's turn goes through `spool.turn_record` and `store_turn` instead.
    Raises: whatever the brain raises; ValueError for any other kind.
    """
    if kind == "session-start":  # project context only: no bridge (and none of its imports)
        cwd = field(payload, "cwd")
        if not cwd:
            return {"context": None}
        digest = await brain.project_digest(cwd, field(payload, "session_id"))
        return {"context": digest.text() or None}
    if kind != "prompt":
        raise ValueError(f"unknown hook {kind!r}")
    from brainbridge.bridge import Bridge

    own = bridge is None
    bridge = bridge or Bridge(brain)
    # No session write before enrich: the turn is logged after, so a locked database
    # delays only the log, never the context.
    session_id = field(payload, "session_id", "claude-code")
    result = await bridge.enrich(field(payload, "prompt"), session_id)
    if own:  # a shared (server) bridge finishes its background work on its own
        await bridge.drain()
    return {"context": result.block, "judgment": result.judgment.value}


async def store_turn(
    brain: Brain, bridge: Bridge, record: dict[str, Any], exchange_number: int | None = None
) -> Observation | None:
    """Observe one turn of a Stop (see `spool.turn_record`); None if its key is stored.

    `exchange_number` numbers it (default: the session's next turn, taken atomically, so
    concurrent Stops get their own)."""
    from brainbridge.hooks.payload import day_of

    if await brain._run(brain.store.has_turn_key, record["key"]):
        return None  # the same turn again: a repeated event, a replay, a back-fill
    session = str(record.get("session_id") or "claude-code")
    await note_project(brain, session, str(record.get("cwd") or ""))
    if exchange_number is None:
        exchange_number = await brain._run(brain.sessions.next_turn, session)
    return await bridge.observe_now(
        session,
        exchange_number,
        str(record.get("prompt") or ""),
        str(record.get("reply") or ""),
        attributes={"turn_key": record["key"]},
        today=day_of(str(record.get("at") or "")),
    )


async def note_project(brain: Brain, session_id: str, cwd: str) -> None:
    """Record which project the session runs in (for the next SessionStart's digest).

    Never raises: a session without its project only drops out of the digest.
    """
    if not cwd or not session_id:
        return
    try:
        await brain.note_session_project(session_id, cwd)
    except Exception:
        log.exception("could not record the project of session %s", session_id)
