"""Duplicate entities: proposed merges, merging, accepting, rejecting, undoing."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from fastapi import Path as PathParam

from brainbridge.api.deps import brain, ref
from brainbridge.api.models import MergeIn
from brainbridge.bounds import MAX_NUMBER
from brainbridge.brain import Brain
from brainbridge.errors import NotFound

router = APIRouter()


@router.get("/merges")
async def list_merges(status: str | None = "pending", b: Brain = Depends(brain)) -> dict[str, Any]:
    rows = await b.merges(status or None)
    return {"merges": rows, "count": len(rows)}


@router.post("/merges")
async def merge(body: MergeIn, b: Brain = Depends(brain)) -> dict[str, Any]:
    return await b.merge(ref(body.keep), ref(body.other))


@router.post("/merges/{merge_id}/{action}")
async def decide_merge(
    action: str,
    merge_id: int = PathParam(ge=1, le=MAX_NUMBER),
    b: Brain = Depends(brain),
) -> dict[str, Any]:
    if action == "unmerge":
        return await b.unmerge(merge_id)
    if action not in ("accept", "reject"):
        raise NotFound(f"no action {action!r} (accept, reject, unmerge)")
    return await b.decide_merge(merge_id, action == "accept")
