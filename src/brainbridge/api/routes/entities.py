"""Entities and relations: create, read with their neighbourhood, delete, end."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from brainbridge.api.deps import brain, check_types, ref
from brainbridge.api.models import EntityIn, InvalidateIn, RelationIn
from brainbridge.brain import Brain
from brainbridge.errors import NotFound

router = APIRouter()


@router.post("/entities")
async def upsert(body: EntityIn, b: Brain = Depends(brain)) -> dict[str, Any]:
    ent = await b.upsert_entity(body.type, body.name, body.attributes, body.description)
    return ent.to_dict()


@router.get("/entities/{etype}/{name:path}")
async def get_entity(
    etype: str,
    name: str,
    hops: int = 1,
    as_of: str | None = None,
    superseded: bool = True,
    b: Brain = Depends(brain),
) -> dict[str, Any]:
    if await b.get_entity(etype, name) is None:
        check_types(b, [etype])
        raise NotFound(f"no {etype} named {name!r}")
    sub = await b.subgraph(
        (etype, name), hops=max(0, min(hops, 3)), as_of=as_of, superseded=superseded
    )
    return {"entity": sub.nodes[0].to_dict(), **sub.to_dict()}


@router.delete("/entities/{etype}/{name:path}")
async def delete_entity(etype: str, name: str, b: Brain = Depends(brain)) -> dict[str, Any]:
    if not await b.delete_entity(etype, name):
        check_types(b, [etype])
        raise NotFound(f"no {etype} named {name!r}")
    return {"deleted": True}


@router.post("/entities/{etype}/{name:path}/invalidate")
async def invalidate(
    etype: str, name: str, body: InvalidateIn, b: Brain = Depends(brain)
) -> dict[str, Any]:
    check_types(b, [etype])
    return (await b.invalidate((etype, name), body.on)).to_dict()


@router.post("/relations")
async def relate(body: RelationIn, b: Brain = Depends(brain)) -> dict[str, Any]:
    rel = await b.relate(ref(body.src), body.relation, ref(body.dst), body.attributes)
    return rel.to_dict()
