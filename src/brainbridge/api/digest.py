"""The project digest and its disclosure calls over HTTP, as over MCP and the hooks:
GET /digest?cwd=..., GET /items/{id}, GET /sessions/{session}/timeline."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.responses import PlainTextResponse

from brainbridge.brain import Brain


def add_digest_routes(app: FastAPI, brain: Callable[..., Awaitable[Brain]]) -> None:
    """Register the digest routes on `app` (behind the same token guard as the rest)."""

    @app.get("/digest")
    async def digest(cwd: str, session_id: str = "", b: Brain = Depends(brain)) -> dict[str, Any]:
        from brainbridge.projects.digest import digest_dict

        return digest_dict(await b.project_digest(cwd, session_id))

    @app.get("/items/{item_id}", response_class=PlainTextResponse)
    async def item(item_id: str, b: Brain = Depends(brain)) -> str:
        return await b.item_text(item_id)

    @app.get("/sessions/{session}/timeline")
    async def timeline(session: str, b: Brain = Depends(brain)) -> dict[str, Any]:
        from brainbridge.projects.disclose import timeline_text

        sid, steps = await b.timeline(session)
        return {
            "session_id": sid,
            "steps": [s.to_dict() for s in steps],
            "text": timeline_text(sid, steps),
        }
