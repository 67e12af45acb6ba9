"""What each hook does with an open brain; shared by the hook process and `brain serve`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from brainbridge.bridge import Bridge

if TYPE_CHECKING:
    from brainbridge.brain import Brain

log = logging.getLogger(__name__)


async def run_hook(
    brain: Brain, kind: str, payload: dict[str, Any], bridge: Bridge | None = None
) -> dict[str, Any]:
    """Handle one hook event: {"context": text or None, ...}. Raises whatever the brain raises."""
    from brainbridge.hooks.runner import last_exchange

    own = bridge is None
    bridge = bridge or Bridge(brain)
    session_id = str(payload.get("session_id") or "claude-code")
    if kind == "session-start":
        cwd = str(payload.get("cwd") or "")
        if not cwd:
            return {"context": None}
        entries = await brain.brain_context(cwd, limit=8)
        if not entries:
            return {"context": None}
        from brainbridge.mcp.text import context_text

        return {"context": context_text(entries, cwd)}
    if kind == "prompt":
        prompt = str(payload.get("prompt") or "")
        await brain._run(brain.sessions.ensure, session_id)
        result = await bridge.enrich(prompt, session_id)
        if own:  # a shared (server) bridge finishes its background work on its own
            await bridge.drain()
        return {"context": result.block, "judgment": result.judgment.value}
    if kind == "stop":
        prompt, reply = last_exchange(payload)
        if not prompt and not reply:
            return {"context": None}
        if own:  # the server attaches its curator once, at start-up
            from brainbridge.curator.wiring import attach_curator

            await attach_curator(brain, bridge)
        session = await brain._run(brain.sessions.ensure, session_id)
        obs = await bridge.observe_now(session_id, session.message_count + 1, prompt, reply)
        if own:
            await bridge.drain()
        return {"context": None, "stored": list(obs.stored)}
    raise ValueError(f"unknown hook {kind!r}")
