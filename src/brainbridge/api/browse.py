"""The web app's reads and actions: session transcripts with what the bridge did per turn,
the brain by type, an entity's page (relations, where it came from, what ended), a
neighbourhood graph, the directives an autonomous run would get, running the curator."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Depends, FastAPI, Query

from brainbridge.bounds import MAX_NUMBER
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import NotFound
from brainbridge.model import CHAT_SESSION, Entity, holds_at
from brainbridge.model.directives import DirectiveConfig

EXCHANGE = "Chat_Exchange"
# What a judgment means, for people (the log keeps the machine's words).
JUDGMENT_WORDS = {
    "enrich": "The message leaned on things the brain knows, so context was loaded.",
    "step_back": "You were working with the brain directly, so only a note was added.",
    "pass_through": "Ordinary conversation: nothing was loaded.",
}


def add_browse_routes(
    app: FastAPI,
    brain: Callable[..., Awaitable[Brain]],
    bridge: Callable[..., Awaitable[Bridge]],
    directive_config: DirectiveConfig | None = None,
) -> None:
    """Register the web app's routes on `app` (behind the same token guard as the rest);
    `directive_config` is the `[directives]` settings the brain's runs use."""

    @app.get("/types")
    async def types(b: Brain = Depends(brain)) -> list[dict[str, Any]]:
        counts = (await b._run(b.store.stats))["entities_by_type"]  # no vector count: fast
        names = sorted(set(b.types) | set(counts), key=lambda t: (-counts.get(t, 0), t))
        return [
            {
                "type": t,
                "count": counts.get(t, 0),
                "description": str((b.types.get(t) or {}).get("description") or ""),
            }
            for t in names
        ]

    @app.get("/browse")
    async def browse(
        type: str | None = None,
        q: str = "",
        limit: int = Query(50, ge=1, le=500),
        offset: int = Query(0, ge=0, le=MAX_NUMBER),
        b: Brain = Depends(brain),
    ) -> dict[str, Any]:
        rows, total = await b._run(b.store.list_entities, type, q.strip(), limit, offset)
        return {"entities": [_brief(e) for e in rows], "total": total, "offset": offset}

    @app.get("/entity")
    async def entity_page(type: str, name: str, b: Brain = Depends(brain)) -> dict[str, Any]:
        ent = await b.get_entity(type, name)
        if ent is None:
            raise NotFound(f"no {type} named {name!r}")
        sub = await b.subgraph((type, name), hops=1, limit=300)
        ids = {(n.type, n.name): n for n in sub.nodes}
        relations: list[dict[str, Any]] = []
        sources: list[dict[str, Any]] = []
        for edge in sub.edges:
            mine = (edge.src_type, edge.src_name) == (type, name)
            if not mine and (edge.dst_type, edge.dst_name) != (type, name):
                continue  # between two of its neighbours: not a relation of this entity
            other = ids.get(
                (edge.dst_type, edge.dst_name) if mine else (edge.src_type, edge.src_name)
            )
            if other is None or (other.type, other.name) == (ent.type, ent.name):
                continue
            if other.type == EXCHANGE:
                if all(x["name"] != other.name for x in sources):  # one line per exchange
                    sources.append(_exchange(other))
                continue
            relations.append(
                {
                    "relation": edge.type,
                    "direction": "out" if mine else "in",
                    "other": _brief(other),
                    "current": holds_at(other),
                    "valid_from": other.attributes.get("valid_from"),
                    "valid_to": other.attributes.get("valid_to"),
                }
            )
        relations.sort(key=lambda r: (not r["current"], r["relation"], r["other"]["name"]))
        sources.sort(key=lambda x: (x["date"] or "", x["exchange_number"] or 0))
        attrs = dict(ent.attributes)
        # Ids among the attributes ("superseded_by": "f96a6b0c:ex:5", "session_id") link
        # to what they name; a session by its title.
        said = [str(v) for v in attrs.values() if isinstance(v, str) and 0 < len(v) <= 200]
        named = await b._run(b.store.entities_named, said) if said else {}
        links = {k: _brief(named[v]) for k, v in attrs.items() if isinstance(v, str) and v in named}
        session_id = attrs.get("session_id")
        if isinstance(session_id, str) and session_id:
            sessions = await b._run(b.sessions.get, session_id, 1)
            links["session_id"] = {
                "type": CHAT_SESSION,
                "name": session_id,
                "title": (sessions.title if sessions else "") or f"Conversation {session_id[:8]}",
                "session": True,
            }
        return {
            "links": links,
            "entity": ent.to_dict(),
            "aliases": list(attrs.get("aliases") or []),
            "current": holds_at(ent),
            "valid_from": attrs.get("valid_from"),
            "valid_to": attrs.get("valid_to"),
            "superseded_by": attrs.get("superseded_by"),
            "relations": relations,
            "sources": sources,
        }

    @app.get("/graph")
    async def graph(
        type: str, name: str, hops: int = Query(2, ge=1, le=2), b: Brain = Depends(brain)
    ) -> dict[str, Any]:
        sub = await b.subgraph((type, name), hops=hops, limit=60)
        return {
            "root": {"type": type, "name": name},
            "nodes": [_brief(n) | {"current": holds_at(n)} for n in sub.nodes],
            "edges": [
                {"src": [e.src_type, e.src_name], "dst": [e.dst_type, e.dst_name], "type": e.type}
                for e in sub.edges
            ],
        }

    @app.get("/sessions/{session_id}/transcript")
    async def transcript(session_id: str, b: Brain = Depends(brain)) -> dict[str, Any]:
        session = await b._run(b.sessions.get, session_id, 1000)
        if session is None:
            raise NotFound(f"no session {session_id!r}")
        exchanges = await b._run(b.sessions.session_exchanges, session_id, 1000)
        log = {int(e.get("turn") or 0): e for e in session.bridge_context_log}
        names = [str(x) for e in log.values() for x in e.get("loaded") or []]
        names += [
            m.group(3)
            for e in log.values()
            for x in e.get("stored") or []
            if (m := _STORED.match(str(x)))
        ]
        known = await b._run(b.store.entities_named, names)
        turns = []
        for ex in exchanges:
            n = int(ex.attributes.get("exchange_number") or 0)
            turns.append({**_exchange(ex), "context": _context(log.pop(n, None), known)})
        for n, entry in sorted(log.items()):  # turns with a log but no stored exchange
            turns.append(
                {
                    "exchange_number": n,
                    "user": "",
                    "ai": "",
                    "date": None,
                    "name": None,
                    "context": _context(entry, known),
                }
            )
        turns.sort(key=lambda t: t["exchange_number"] or 0)
        data = session.to_dict()
        data.pop("bridge_context_log", None)
        return {"session": data, "turns": turns}

    @app.post("/sessions/{session_id}/curate")
    async def curate_now(
        session_id: str, b: Brain = Depends(brain), br: Bridge = Depends(bridge)
    ) -> dict[str, Any]:
        from brainbridge.curator.wiring import curator_for

        return (await curator_for(b, br).curate(session_id)).to_dict()

    @app.get("/directives")
    async def directives(b: Brain = Depends(brain)) -> dict[str, Any]:
        return await asyncio.to_thread(_directives, b, directive_config)


def _brief(e: Entity) -> dict[str, Any]:
    return {
        "type": e.type,
        "name": e.name,
        "title": _title(e),
        "description": e.description[:240],
        "updated_at": e.updated_at,
        # Replaced (a later statement took its place) or ended: every list marks it.
        "replaced": bool(e.attributes.get("superseded_by")) or not holds_at(e),
    }


def _title(e: Entity) -> str:
    """What a person calls the entity: an exchange by its question, not `a1b2c3d4:ex:3`."""
    if e.type == EXCHANGE:
        said = str(e.attributes.get("user_message") or "").strip()
        return (said[:80] + "…") if len(said) > 80 else said or e.name
    if e.type == CHAT_SESSION:
        return str(e.attributes.get("title") or "") or f"Conversation {e.name[:8]}"
    return e.name


def _exchange(e: Entity) -> dict[str, Any]:
    a = e.attributes
    return {
        "name": e.name,
        "title": _title(e),
        "session_id": a.get("session_id"),
        "exchange_number": a.get("exchange_number"),
        "user": a.get("user_message") or "",
        "ai": a.get("ai_response") or "",
        "date": a.get("date") or e.created_at[:10],
    }


def _context(entry: dict[str, Any] | None, known: dict[str, Entity]) -> dict[str, Any] | None:
    """A turn's bridge log entry for people: the judgment in words and each loaded item
    with its type and title, to link to (an item deleted since keeps only its name)."""
    if not entry:
        return None
    judgment = str(entry.get("judgment") or "")
    loaded = []
    for item in entry.get("loaded") or []:
        ent = known.get(str(item))
        loaded.append(_brief(ent) if ent else {"type": "", "name": str(item), "title": str(item)})
    return {
        "judgment": judgment,
        "why": "; ".join(entry.get("reasons") or []) or JUDGMENT_WORDS.get(judgment, ""),
        "queries": list(entry.get("queries") or []),
        "loaded": loaded,
        "stored": [_stored(str(x), known) for x in entry.get("stored") or []],
    }


# What observe stored, as it logs it: "Type:name" or "retired Type:name", "merge? ...".
_STORED = re.compile(r"^((?:[a-z?]+ )*)([A-Z][A-Za-z_]*):(.+)$")


def _stored(line: str, known: dict[str, Entity]) -> dict[str, Any]:
    """One stored line for people: its verb and the item it names, to link to."""
    m = _STORED.match(line)
    ent = known.get(m.group(3)) if m else None
    if m is None or ent is None or ent.type != m.group(2):
        return {"text": line}
    return {"text": m.group(1).strip(), "item": _brief(ent)}


def _directives(b: Brain, config: DirectiveConfig | None) -> dict[str, Any]:
    """The directive items in every state, and the text an autonomous run would get now."""
    from brainbridge.directives.bridge import DirectiveBridge
    from brainbridge.store.location import open_store
    from brainbridge.store.sqlite.directives import SqliteDirectiveStore

    # A connection of its own: off the store thread.
    store = open_store(b.path, b.database_url, b.user, b.workspace)
    try:
        ctx = DirectiveBridge(SqliteDirectiveStore(store.conn), config).build()
        data = ctx.to_dict()
    finally:
        store.close()
    return {k: data[k] for k in ("text", "stats", "items") if k in data}
