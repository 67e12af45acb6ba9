"""Tool calls over HTTP: `POST /observations` for any agent, and the two hooks that hand
their work to a running server (`/hooks/tool`, `/hooks/pre-compact`, see hooks/observe.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from brainbridge.api.models import Attributes
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import InvalidInput
from brainbridge.hooks.observe import mark_compacted
from brainbridge.hooks.spool import received_turn
from brainbridge.hooks.work import store_turn
from brainbridge.observations.calls import ToolEvent, tool_event
from brainbridge.observations.record import observe_events

MAX_TURNS = 200


class ToolCallIn(BaseModel):
    """One tool call as Claude Code's PostToolUse hook describes it."""

    session_id: str = Field(min_length=1, max_length=200)
    cwd: str = Field(min_length=1, max_length=4096)
    tool_name: str = Field(min_length=1, max_length=200)
    tool_input: Attributes = Field(default_factory=dict)
    tool_response: Any = None
    error: str | None = Field(default=None, max_length=100_000)
    exit_code: int | None = None
    tool_use_id: str | None = Field(default=None, max_length=200)  # a call sent twice counts once


def observation_routes(
    brain: Callable[..., Awaitable[Brain]], bridge: Callable[..., Awaitable[Bridge]]
) -> APIRouter:
    """The routes, on the app's own dependencies for the brain and bridge of the caller."""
    router = APIRouter()

    @router.post("/observations")
    async def observe_tool_call(body: ToolCallIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        payload = body.model_dump()
        if body.error:
            payload["hook_event_name"] = "PostToolUseFailure"
        event = tool_event(payload)
        if event is None:
            return {"stored": False, "reason": "noise", "observations": []}
        written = await observe_events(b, [event])
        return {"stored": bool(written), "observations": [o.to_dict() for o in written]}

    @router.post("/hooks/tool")
    async def hook_tool(
        body: dict[str, Any], b: Brain = Depends(brain), br: Bridge = Depends(bridge)
    ) -> dict[str, Any]:
        given = body.get("event")
        event = ToolEvent.from_dict(given if isinstance(given, dict) else {})
        if event is None:
            raise InvalidInput("expected {'event': {...}} as the PostToolUse hook sends it")
        # The hook process must not wait for the write: answer now, store after.
        br._background(observe_events(b, [event]))
        return {"context": None, "accepted": True}

    @router.post("/hooks/pre-compact")
    async def hook_pre_compact(
        body: dict[str, Any], b: Brain = Depends(brain), br: Bridge = Depends(bridge)
    ) -> dict[str, Any]:
        given, marked = body.get("turns"), body.get("compact")
        turns: list[Any] = given if isinstance(given, list) else []
        mark: dict[str, Any] = marked if isinstance(marked, dict) else {}
        records = [r for t in turns[-MAX_TURNS:] if (r := received_turn({"turn": t}))]
        session = str(mark.get("session_id") or "")[:200]

        async def store() -> None:
            for record in records:
                if not await b._run(b.store.has_turn_key, record["key"]):
                    await store_turn(b, br, record)
            if session:
                await mark_compacted(b, session)

        br._background(store())
        return {"context": None, "accepted": True, "turns": len(records)}

    return router
