"""The brain as a whole: is the server up, its counts, everything as JSON lines."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import PlainTextResponse

from brainbridge.api.deps import brain
from brainbridge.brain import Brain

router = APIRouter()


@router.get("/health")
async def health(request: Request) -> dict[str, Any]:
    # No token here: say only whether the server is up, not where the brain lives.
    return {"ok": "brain" in request.app.state.brainbridge}


@router.get("/stats")
async def stats(b: Brain = Depends(brain)) -> dict[str, Any]:
    return await b.stats()


@router.get("/export", response_class=PlainTextResponse)
async def export(b: Brain = Depends(brain)) -> str:
    return "\n".join(await b.export_jsonl()) + "\n"
