"""Conversations: the recent ones, one session, renaming it, its curator runs."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from brainbridge.api.deps import brain
from brainbridge.api.models import SessionPatch
from brainbridge.brain import Brain
from brainbridge.errors import NotFound

router = APIRouter()


@router.get("/sessions")
async def sessions(limit: int = 50, b: Brain = Depends(brain)) -> list[dict[str, Any]]:
    return [s.to_dict() for s in await b._run(b.sessions.recent, max(1, min(limit, 500)))]


@router.get("/sessions/{session_id}")
async def session(session_id: str, b: Brain = Depends(brain)) -> dict[str, Any]:
    s = await b._run(b.sessions.get, session_id)
    if s is None:
        raise NotFound(f"no session {session_id!r}")
    return s.to_dict()


@router.patch("/sessions/{session_id}")
async def patch_session(
    session_id: str, body: SessionPatch, b: Brain = Depends(brain)
) -> dict[str, Any]:
    session = await b._run(b.sessions.ensure, session_id)
    fields: dict[str, Any] = {}
    if body.title is not None:
        # A person's title: the curator never overwrites it.
        fields.update(title=body.title, title_source="user")
    if body.summary is not None:
        fields["summary"] = body.summary
    if fields:
        session = await b._run(b.sessions.update, session_id, **fields)
    return session.to_dict()


@router.get("/sessions/{session_id}/curator-runs")
async def curator_runs(
    session_id: str, limit: int = 20, b: Brain = Depends(brain)
) -> list[dict[str, Any]]:
    return await b._run(b.sessions.curator_runs, session_id, max(1, min(limit, 200)))
