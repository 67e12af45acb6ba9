"""HTTP fixtures: the real app through an ASGI client (with its lifespan) and over a socket."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from tests.pg import backend, database_env  # noqa: F401  (runs this suite on both backends)

from api.seed import seed, seed_folder
from api.served import Served, serve_brain
from brainbridge.api import create_app
from brainbridge.api.app import ServerConfig
from brainbridge.curator.wiring import attach_curator

TOKEN = "test-token-0123456789"
BASE = "http://127.0.0.1:8765"


def make_app(path: Path, **kwargs: object) -> FastAPI:
    """The app as `brain serve` builds it: hashing vectors, the curator behind the bridge."""
    kwargs.setdefault("token", TOKEN)
    return create_app(
        ServerConfig(path, embedder="hashing", on_start=[attach_curator], **kwargs)  # type: ignore[arg-type]
    )


@asynccontextmanager
async def running(application: FastAPI) -> AsyncIterator[FastAPI]:
    """Run the app's lifespan as a server would: entered and left in one task of its own.

    (An async fixture's setup and teardown run in different tasks, and the MCP session
    manager's task group must be left in the task that entered it.)
    """
    up, down = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with application.router.lifespan_context(application):
            up.set()
            await down.wait()

    task = asyncio.create_task(hold())
    waiter = asyncio.create_task(up.wait())
    await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        waiter.cancel()
        task.result()  # start-up failed: raise its error here
    try:
        yield application
    finally:
        down.set()
        await task


@pytest.fixture
async def app(tmp_path: Path, database_env: None) -> AsyncIterator[FastAPI]:  # noqa: F811
    """The app with its lifespan running (brain open, MCP session manager started), on the
    test's backend."""
    async with running(make_app(tmp_path / "brain")) as application:
        yield application


@pytest.fixture
async def api(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An ASGI client sending the token."""
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url=BASE,
        headers={"Authorization": f"Bearer {TOKEN}"},
        timeout=60,
    ) as client:
        yield client


@pytest.fixture
async def seeded(app: FastAPI, api: httpx.AsyncClient) -> httpx.AsyncClient:
    """`api` on a brain holding the shared seed data and one curated session."""
    await seed(app.state.brainbridge["brain"])
    return api


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One `brain serve` subprocess per module on a seeded brain."""
    home = seed_folder(tmp_path_factory.mktemp("served") / "brain")
    with serve_brain(home) as server:
        yield server
