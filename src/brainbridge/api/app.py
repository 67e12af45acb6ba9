"""`brain serve`: one process owns the brain, the bridge and background work."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from brainbridge.api.browse import add_browse_routes
from brainbridge.api.digest import add_digest_routes
from brainbridge.api.forget import add_forget_routes
from brainbridge.api.guard import PERSON, Guard, People, is_loopback
from brainbridge.api.models import (
    ContextIn,
    EnrichIn,
    EntityIn,
    InvalidateIn,
    MergeIn,
    ObserveIn,
    RecallIn,
    RelationIn,
    SessionPatch,
)
from brainbridge.api.observations import observation_routes
from brainbridge.api.page import web_file
from brainbridge.api.people import McpByPerson, Team
from brainbridge.bounds import MAX_NUMBER, TooDeep, load_json
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import BrainError, Forbidden, InvalidInput, NotFound, StoreBusy
from brainbridge.hooks.payload import field as payload_field
from brainbridge.hooks.spool import received_turn, start_drainer, waiting
from brainbridge.hooks.work import note_project, run_hook, store_turn
from brainbridge.mcp import build_server
from brainbridge.model.directives import DirectiveConfig

log = logging.getLogger(__name__)


@dataclass
class ServerConfig:
    brain_path: Path
    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = None
    embedder: str | None = "auto"
    make_bridge: Callable[[Brain], Bridge] | None = None
    on_start: list[Callable[[Brain, Bridge], Awaitable[Any]]] = field(default_factory=list)
    # The `[directives]` settings (calendar), so the page shows what a run would receive.
    directives: DirectiveConfig | None = None


def create_app(config: ServerConfig) -> FastAPI:
    """The ASGI app. A token is required unless bound to loopback.

    Raises: InvalidInput when bound to a non-loopback address without a token.
    """
    if not is_loopback(config.host) and not config.token:
        raise InvalidInput(f"binding to {config.host} needs a token (--token or BRAIN_TOKEN)")
    token = config.token
    state: dict[str, Any] = {}

    # Each request acts as the brain's owner or as the person whose token it carries
    # (a team brain in PostgreSQL; see `api/people.py`).
    async def brain(request: Request) -> Brain:
        person = request.scope.get(PERSON)
        return (await state["team"].seat(person)).brain if person else state["brain"]

    async def bridge(request: Request) -> Bridge:
        person = request.scope.get(PERSON)
        return (await state["team"].seat(person)).bridge if person else state["bridge"]

    async def next_exchange(b: Brain, session_id: str, wanted: int | None = None) -> int:
        # Taken in the database before observing starts in the background: turns sent in
        # quick succession, here or by hooks running without the server, never share one.
        return await b._run(b.sessions.next_turn, session_id, wanted)

    mcp = build_server(
        lambda: _ready(state), make_bridge=lambda _: state["bridge"], own_brain=False
    )
    mcp_app = mcp.streamable_http_app(streamable_http_path="/", host=config.host)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        b = await Brain.open(config.brain_path, embedder=config.embedder)
        br = config.make_bridge(b) if config.make_bridge else Bridge(b)
        state.update(
            brain=b, bridge=br, team=Team(b, config.make_bridge, config.host, config.on_start)
        )
        for hook in config.on_start:
            await hook(b, br)
        if waiting(config.brain_path):
            # Turns a Stop hook spooled before this server ran (a drainer that died, a
            # crash): stored by a drainer of their own, as the hooks would.
            start_drainer(config.brain_path)
        try:
            async with mcp.session_manager.run():
                yield
        finally:
            await state["team"].close()
            await br.drain()
            await b.close()

    # No /docs or /redoc: FastAPI's pages load their scripts from a CDN (blank offline,
    # and third-party code next to the token). The schema stays at /openapi.json.
    app = FastAPI(
        title="brainbridge", version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None
    )
    app.mount("/mcp", McpByPerson(mcp_app, lambda: state.get("team")))
    app.state.brainbridge = state

    people = People(
        lambda: state["team"].enabled() if "team" in state else _no(),
        lambda token: state["team"].who(token),
    )
    app.add_middleware(Guard, bind_host=config.host, token=token, people=people)

    @app.exception_handler(BrainError)
    async def brain_error(_: Request, exc: BrainError) -> JSONResponse:
        status = (
            404
            if isinstance(exc, NotFound)
            else 400
            if isinstance(exc, InvalidInput)
            else 403
            if isinstance(exc, Forbidden)
            else 503
            if isinstance(exc, StoreBusy)
            else 500
        )
        return JSONResponse({"error": str(exc), "kind": type(exc).__name__}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        return JSONResponse(
            {"error": _describe(errors), "kind": "InvalidRequest", "detail": jsonable(errors)},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            {"error": str(exc.detail), "detail": exc.detail},
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    @app.get("/health")
    async def health() -> dict[str, Any]:
        # No token here: say only whether the server is up, not where the brain lives.
        return {"ok": "brain" in state}

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page() -> str:
        return web_file("index.html")

    @app.get("/app.js", include_in_schema=False)
    async def script() -> Response:
        return Response(web_file("app.js"), media_type="text/javascript")

    @app.get("/app.css", include_in_schema=False)
    async def style() -> Response:
        return Response(web_file("app.css"), media_type="text/css")

    add_browse_routes(app, brain, bridge, config.directives)
    # Before /hooks/{kind}: /hooks/tool and /hooks/pre-compact are served there.
    app.include_router(observation_routes(brain, bridge))
    add_digest_routes(app, brain)
    add_forget_routes(app, brain)

    @app.get("/stats")
    async def stats(b: Brain = Depends(brain)) -> dict[str, Any]:
        return await b.stats()

    @app.post("/entities")
    async def upsert(body: EntityIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        ent = await b.upsert_entity(body.type, body.name, body.attributes, body.description)
        return ent.to_dict()

    @app.get("/entities/{etype}/{name:path}")
    async def get_entity(
        etype: str,
        name: str,
        hops: int = 1,
        as_of: str | None = None,
        superseded: bool = True,
        b: Brain = Depends(brain),
    ) -> dict[str, Any]:
        if await b.get_entity(etype, name) is None:
            _check_types(b, [etype])
            raise NotFound(f"no {etype} named {name!r}")
        sub = await b.subgraph(
            (etype, name), hops=max(0, min(hops, 3)), as_of=as_of, superseded=superseded
        )
        return {"entity": sub.nodes[0].to_dict(), **sub.to_dict()}

    @app.delete("/entities/{etype}/{name:path}")
    async def delete_entity(etype: str, name: str, b: Brain = Depends(brain)) -> dict[str, Any]:
        if not await b.delete_entity(etype, name):
            _check_types(b, [etype])
            raise NotFound(f"no {etype} named {name!r}")
        return {"deleted": True}

    @app.post("/relations")
    async def relate(body: RelationIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        rel = await b.relate(_ref(body.src), body.relation, _ref(body.dst), body.attributes)
        return rel.to_dict()

    @app.get("/search")
    async def search(
        q: str = "",
        n: int = 5,
        type: list[str] | None = Query(None, description="Only these entity types."),
        exclude_type: list[str] | None = Query(None, description="Leave out these types."),
        as_of: str | None = Query(None, description="What held on this day (YYYY-MM-DD)."),
        superseded: bool = Query(False, description="Keep facts that were replaced since."),
        b: Brain = Depends(brain),
    ) -> dict[str, Any]:
        _check_types(b, [*(type or []), *(exclude_type or [])])
        hits = await b.search(
            q, max(1, min(n, 100)), type, exclude_type, as_of=as_of, superseded=superseded
        )
        return {"query": q, "results": [h.to_dict() for h in hits], "count": len(hits)}

    @app.post("/recall")
    async def recall(body: RecallIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        _check_types(b, [*(body.entity_types or []), *(body.exclude_types or [])])
        return await b.recall(
            body.query,
            body.num_results,
            body.entity_types,
            body.exclude_types,
            as_of=body.as_of,
            superseded=body.superseded,
        )

    @app.get("/merges")
    async def list_merges(
        status: str | None = "pending", b: Brain = Depends(brain)
    ) -> dict[str, Any]:
        rows = await b.merges(status or None)
        return {"merges": rows, "count": len(rows)}

    @app.post("/merges")
    async def merge(body: MergeIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        return await b.merge(_ref(body.keep), _ref(body.other))

    @app.post("/merges/{merge_id}/{action}")
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

    @app.post("/entities/{etype}/{name:path}/invalidate")
    async def invalidate(
        etype: str, name: str, body: InvalidateIn, b: Brain = Depends(brain)
    ) -> dict[str, Any]:
        _check_types(b, [etype])
        return (await b.invalidate((etype, name), body.on)).to_dict()

    @app.post("/brain-context")
    async def brain_context(body: ContextIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        entries = await b.brain_context(body.project_root, body.recent_files, body.limit)
        return {"project_root": body.project_root, "entries": entries}

    @app.post("/enrich")
    async def enrich(body: EnrichIn, br: Bridge = Depends(bridge)) -> dict[str, Any]:
        return (await br.enrich(body.message, body.session_id)).to_dict()

    @app.post("/observe", status_code=202)
    async def observe(
        body: ObserveIn, b: Brain = Depends(brain), br: Bridge = Depends(bridge)
    ) -> dict[str, Any]:
        n = await next_exchange(b, body.session_id, body.exchange_number)
        if body.wait:
            obs = await br.observe_now(body.session_id, n, body.message, body.response)
            return {
                "exchange_number": n,
                "exchange": obs.exchange,
                "stored": list(obs.stored),
                "skipped": obs.skipped,
                "error": obs.error,
            }
        br.observe(body.session_id, n, body.message, body.response)
        return {"exchange_number": n, "accepted": True}

    @app.get("/sessions")
    async def sessions(limit: int = 50, b: Brain = Depends(brain)) -> list[dict[str, Any]]:
        return [s.to_dict() for s in await b._run(b.sessions.recent, max(1, min(limit, 500)))]

    @app.get("/sessions/{session_id}")
    async def session(session_id: str, b: Brain = Depends(brain)) -> dict[str, Any]:
        s = await b._run(b.sessions.get, session_id)
        if s is None:
            raise NotFound(f"no session {session_id!r}")
        return s.to_dict()

    @app.patch("/sessions/{session_id}")
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

    @app.get("/sessions/{session_id}/curator-runs")
    async def curator_runs(
        session_id: str, limit: int = 20, b: Brain = Depends(brain)
    ) -> list[dict[str, Any]]:
        return await b._run(b.sessions.curator_runs, session_id, max(1, min(limit, 200)))

    @app.post("/hooks/{kind}")
    async def hook(
        kind: str, request: Request, b: Brain = Depends(brain), br: Bridge = Depends(bridge)
    ) -> dict[str, Any]:
        if kind not in ("prompt", "stop", "session-start"):
            raise NotFound(f"no hook {kind!r}")
        # Parsed here, bounded: a payload nested thousands deep is refused (TooDeep, a
        # 400), not a 500; one that is not JSON reads as empty, as in the hook process.
        try:
            payload = load_json(await request.body(), "the hook payload")
        except TooDeep:
            raise
        except InvalidInput:
            payload = {}
        if not isinstance(payload, dict):
            payload = {}
        if kind == "stop":
            # The hook process must not wait for extraction: answer now, observe after.
            record = received_turn(payload)
            if record is None or await b._run(b.store.has_turn_key, record["key"]):
                return {"context": None, "accepted": False}
            n = await next_exchange(b, record["session_id"])
            br._background(store_turn(b, br, record, n))
            return {"context": None, "accepted": True, "exchange_number": n}
        result = await run_hook(b, kind, payload, br)
        if kind == "session-start":  # after the answer: which project this session is in
            br._background(
                note_project(b, payload_field(payload, "session_id"), payload_field(payload, "cwd"))
            )
        return result

    @app.get("/export", response_class=PlainTextResponse)
    async def export(b: Brain = Depends(brain)) -> str:
        return "\n".join(await b.export_jsonl()) + "\n"

    return app


def _check_types(b: Brain, names: list[str]) -> None:
    unknown = [n for n in names if n not in b.types]
    if unknown:
        raise InvalidInput(
            f"unknown entity type {', '.join(map(repr, unknown))};"
            f" known types: {', '.join(sorted(b.types))}"
        )


def _describe(errors: Any) -> str:
    """One readable sentence for FastAPI's validation errors."""
    parts = []
    for err in list(errors)[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        msg = err.get("msg", "invalid")
        if err.get("type") == "json_invalid":
            msg = f"the body is not valid JSON ({(err.get('ctx') or {}).get('error', msg)})"
            parts.append(msg)
            continue
        if err.get("type") == "model_attributes_type":
            parts.append("the body must be a JSON object (send Content-Type: application/json)")
            continue
        parts.append(f"{where}: {msg}")
    return "invalid request: " + "; ".join(parts)


def jsonable(errors: Any) -> Any:
    """Validation errors as JSON, without echoing the (possibly megabytes of) input."""
    from fastapi.encoders import jsonable_encoder

    return jsonable_encoder([{k: v for k, v in e.items() if k != "input"} for e in errors])


async def _no() -> bool:
    return False


async def _ready(state: dict[str, Any]) -> Brain:
    if "brain" not in state:
        raise BrainError("the server is still starting")
    return state["brain"]


def _ref(ref: Any) -> Any:
    if isinstance(ref, str):
        if ":" in ref:
            etype, name = ref.split(":", 1)
            if etype and etype[0].isupper() and " " not in etype:
                return (etype, name)
        return ref
    return (ref.type, ref.name) if ref.type else ref.name
