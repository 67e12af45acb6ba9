"""`POST /forget`: the same forget as `brain forget` and the MCP tool, with a preview."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Depends, FastAPI
from pydantic import BaseModel, Field

from brainbridge.brain import Brain
from brainbridge.errors import InvalidInput


class ForgetIn(BaseModel):
    type: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=500)  # a session: its id (type Chat_Session)
    preview: bool = False


def add_forget_routes(app: FastAPI, brain: Callable[..., Awaitable[Brain]]) -> None:
    """Register `POST /forget` on `app`, behind the same token guard as the rest."""

    @app.post("/forget")
    async def forget(body: ForgetIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        """What goes with the item (`preview`), or forget it: `done` says it is gone.
        404 when there is no such item."""
        if body.type not in b.types:
            raise InvalidInput(f"unknown entity type {body.type!r}")
        plan = await b.forget((body.type, body.name), preview=body.preview, via="http")
        return plan.to_dict()
