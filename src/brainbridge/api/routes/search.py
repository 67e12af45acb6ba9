"""Finding things: search, recall (search with the graph around it), project context."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query

from brainbridge.api.deps import brain, check_types
from brainbridge.api.models import ContextIn, RecallIn
from brainbridge.brain import Brain

router = APIRouter()


@router.get("/search")
async def search(
    q: str = "",
    n: int = 5,
    type: list[str] | None = Query(None, description="Only these entity types."),
    exclude_type: list[str] | None = Query(None, description="Leave out these types."),
    as_of: str | None = Query(None, description="What held on this day (YYYY-MM-DD)."),
    superseded: bool = Query(False, description="Keep facts that were replaced since."),
    b: Brain = Depends(brain),
) -> dict[str, Any]:
    check_types(b, [*(type or []), *(exclude_type or [])])
    hits = await b.search(
        q, max(1, min(n, 100)), type, exclude_type, as_of=as_of, superseded=superseded
    )
    return {"query": q, "results": [h.to_dict() for h in hits], "count": len(hits)}


@router.post("/recall")
async def recall(body: RecallIn, b: Brain = Depends(brain)) -> dict[str, Any]:
    check_types(b, [*(body.entity_types or []), *(body.exclude_types or [])])
    return await b.recall(
        body.query,
        body.num_results,
        body.entity_types,
        body.exclude_types,
        as_of=body.as_of,
        superseded=body.superseded,
    )


@router.post("/brain-context")
async def brain_context(body: ContextIn, b: Brain = Depends(brain)) -> dict[str, Any]:
    entries = await b.brain_context(body.project_root, body.recent_files, body.limit)
    return {"project_root": body.project_root, "entries": entries}
