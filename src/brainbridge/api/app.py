"""`brain serve`: one process owns the brain, the bridge and background work."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse

from brainbridge.api.models import (
    ContextIn,
    EnrichIn,
    EntityIn,
    ObserveIn,
    RecallIn,
    RelationIn,
    SessionPatch,
)
from brainbridge.api.page import PAGE_HTML
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import BrainError, InvalidInput, NotFound, StoreBusy
from brainbridge.hooks.work import run_hook
from brainbridge.mcp import build_server

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


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def create_app(config: ServerConfig) -> FastAPI:
    """The ASGI app. A token is required unless bound to loopback.

    Raises: InvalidInput when bound to a non-loopback address without a token.
    """
    if not is_loopback(config.host) and not config.token:
        raise InvalidInput(f"binding to {config.host} needs a token (--token or BRAIN_TOKEN)")
    token = config.token
    state: dict[str, Any] = {}

    def brain() -> Brain:
        return state["brain"]

    def bridge() -> Bridge:
        return state["bridge"]

    mcp = build_server(
        lambda: _ready(state), make_bridge=lambda _: state["bridge"], own_brain=False
    )
    mcp_app = mcp.streamable_http_app(streamable_http_path="/", host=config.host)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        b = await Brain.open(config.brain_path, embedder=config.embedder)
        br = config.make_bridge(b) if config.make_bridge else Bridge(b)
        state.update(brain=b, bridge=br)
        for hook in config.on_start:
            await hook(b, br)
        try:
            async with mcp.session_manager.run():
                yield
        finally:
            await br.drain()
            await b.close()

    app = FastAPI(title="brainbridge", version="0.1.0", lifespan=lifespan)
    app.mount("/mcp", mcp_app)
    app.state.brainbridge = state

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[[Request], Awaitable[Any]]) -> Any:
        if is_loopback(config.host):
            # A page on another site must not reach a loopback server by rebinding DNS.
            host = (request.headers.get("host") or "").rsplit(":", 1)[0].strip("[]")
            if host and not is_loopback(host) and host != config.host:
                return JSONResponse({"error": f"host {host!r} not allowed"}, status_code=403)
        if request.url.path != "/health" and token:
            sent = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
            sent = sent or request.query_params.get("token", "")
            if not secrets.compare_digest(sent, token) and not (
                is_loopback(config.host) and request.url.path == "/" and request.method == "GET"
            ):
                return JSONResponse({"error": "missing or wrong token"}, status_code=401)
        return await call_next(request)

    @app.exception_handler(BrainError)
    async def brain_error(_: Request, exc: BrainError) -> JSONResponse:
        status = (
            404
            if isinstance(exc, NotFound)
            else 400
            if isinstance(exc, InvalidInput)
            else 503
            if isinstance(exc, StoreBusy)
            else 500
        )
        return JSONResponse({"error": str(exc), "kind": type(exc).__name__}, status_code=status)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"ok": "brain" in state, "brain": str(config.brain_path)}

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page() -> str:
        return PAGE_HTML

    @app.get("/stats")
    async def stats(b: Brain = Depends(brain)) -> dict[str, Any]:
        return await b.stats()

    @app.post("/entities")
    async def upsert(body: EntityIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        ent = await b.upsert_entity(body.type, body.name, body.attributes, body.description)
        return ent.to_dict()

    @app.get("/entities/{etype}/{name}")
    async def get_entity(
        etype: str, name: str, hops: int = 1, b: Brain = Depends(brain)
    ) -> dict[str, Any]:
        sub = await b.subgraph((etype, name), hops=max(0, min(hops, 3)))
        return {"entity": sub.nodes[0].to_dict(), **sub.to_dict()}

    @app.delete("/entities/{etype}/{name}")
    async def delete_entity(etype: str, name: str, b: Brain = Depends(brain)) -> dict[str, Any]:
        if not await b.delete_entity(etype, name):
            raise HTTPException(404, f"no {etype} named {name!r}")
        return {"deleted": True}

    @app.post("/relations")
    async def relate(body: RelationIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        rel = await b.relate(_ref(body.src), body.relation, _ref(body.dst), body.attributes)
        return rel.to_dict()

    @app.get("/search")
    async def search(
        q: str = "",
        n: int = 5,
        type: list[str] | None = None,
        exclude_type: list[str] | None = None,
        b: Brain = Depends(brain),
    ) -> dict[str, Any]:
        hits = await b.search(q, max(1, min(n, 100)), type, exclude_type)
        return {"query": q, "results": [h.to_dict() for h in hits], "count": len(hits)}

    @app.post("/recall")
    async def recall(body: RecallIn, b: Brain = Depends(brain)) -> dict[str, Any]:
        return await b.recall(body.query, body.num_results, body.entity_types, body.exclude_types)

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
        n = body.exchange_number
        if n is None:
            n = (await b._run(b.sessions.ensure, body.session_id)).message_count + 1
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
        return [s.to_dict() for s in await b._run(b.sessions.list, max(1, min(limit, 500)))]

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
        await b._run(b.sessions.ensure, session_id)
        fields: dict[str, Any] = {}
        if body.title is not None:
            fields.update(
                title=body.title, title_source="user"
            )  # a person's title is never overwritten
        if body.summary is not None:
            fields["summary"] = body.summary
        s = (
            await b._run(b.sessions.update, session_id, **fields)
            if fields
            else await b._run(b.sessions.get, session_id)
        )
        return s.to_dict()

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
        try:
            payload = await request.json()
        except ValueError:
            payload = {}
        if not isinstance(payload, dict):
            payload = {}
        if kind == "stop":
            # The hook process must not wait for extraction: answer now, observe after.
            br._background(run_hook(b, kind, payload, br))
            return {"context": None, "accepted": True}
        return await run_hook(b, kind, payload, br)

    @app.get("/export", response_class=PlainTextResponse)
    async def export(b: Brain = Depends(brain)) -> str:
        return "\n".join(await b.export_jsonl()) + "\n"

    return app


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
