"""What each hook does with an open brain; shared by the hook process and `brain serve`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from brainbridge.bridge import Bridge

if TYPE_CHECKING:
    from brainbridge.brain import Brain

log = logging.getLogger(__name__)

SESSION_START_ENTRIES = 8


async def run_hook(
    brain: Brain,
    kind: str,
    payload: dict[str, Any],
    bridge: Bridge | None = None,
    exchange_number: int | None = None,
) -> dict[str, Any]:
    """Handle one hook event: {"context": text or None, ...}.

    `exchange_number` numbers a Stop's exchange (default: the session's next turn).
    Raises: whatever the brain raises; ValueError for an unknown kind.
    """
    from brainbridge.hooks.runner import last_exchange

    own = bridge is None
    bridge = bridge or Bridge(brain)
    session_id = str(payload.get("session_id") or "claude-code")
    if kind == "session-start":
        cwd = str(payload.get("cwd") or "")
        if not cwd:
            return {"context": None}
        entries = await brain.brain_context(cwd, limit=SESSION_START_ENTRIES)
        if not entries:
            return {"context": None}
        from brainbridge.mcp.text import context_text

        return {"context": context_text(entries, cwd)}
    if kind == "prompt":
        # No session write before enrich: the turn is logged after, so a locked
        # database delays only the log, never the context.
        result = await bridge.enrich(str(payload.get("prompt") or ""), session_id)
        if own:  # a shared (server) bridge finishes its background work on its own
            await bridge.drain()
        return {"context": result.block, "judgment": result.judgment.value}
    if kind == "stop":
        prompt, reply = last_exchange(payload)
        if not prompt and not reply:
            return {"context": None}
        if exchange_number is None:  # taken atomically: concurrent Stops get their own
            exchange_number = await brain._run(brain.sessions.next_turn, session_id)
        obs = await bridge.observe_now(session_id, exchange_number, prompt, reply)
        if own:
            await bridge.drain()
        return {"context": None, "stored": list(obs.stored), "error": obs.error}
    raise ValueError(f"unknown hook {kind!r}")
