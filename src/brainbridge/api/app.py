"""`brain serve`: one process owns the brain, the bridge and background work.

This module builds the app: start-up and shut-down, the guard, error handlers, MCP at
/mcp and the routers (`api/routes/`, `api/browse.py`)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from brainbridge.api import deps
from brainbridge.api.browse import add_browse_routes
from brainbridge.api.digest import add_digest_routes
from brainbridge.api.errors import add_error_handlers
from brainbridge.api.forget import add_forget_routes
from brainbridge.api.guard import Guard, People, is_loopback
from brainbridge.api.observations import observation_routes
from brainbridge.api.people import McpByPerson, Team
from brainbridge.api.routes import bridge, entities, merges, page, search, sessions, status
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import BrainError, InvalidInput
from brainbridge.hooks.spool import start_drainer, waiting
from brainbridge.mcp import build_server
from brainbridge.model.directives import DirectiveConfig

__all__ = ["ServerConfig", "create_app", "is_loopback"]

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
    # The brain, the bridge and the team, set at start-up; routes read it through `deps`.
    state: dict[str, Any] = {}

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
    app.add_middleware(Guard, bind_host=config.host, token=config.token, people=people)
    add_error_handlers(app)

    app.include_router(status.router)
    app.include_router(page.router)
    add_browse_routes(app, deps.brain, deps.bridge, config.directives)
    # Before /hooks/{kind}: /hooks/tool and /hooks/pre-compact are served there.
    app.include_router(observation_routes(deps.brain, deps.bridge))
    add_digest_routes(app, deps.brain)
    add_forget_routes(app, deps.brain)
    for router in (entities, search, merges, bridge, sessions):
        app.include_router(router.router)
    return app


async def _no() -> bool:
    return False


async def _ready(state: dict[str, Any]) -> Brain:
    if "brain" not in state:
        raise BrainError("the server is still starting")
    return state["brain"]
