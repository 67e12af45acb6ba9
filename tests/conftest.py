"""Shared fixtures: real brains in temporary folders."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from brainbridge.brain import Brain

BrainFactory = Callable[..., Awaitable[Brain]]


@pytest.fixture
async def brain(tmp_path: Path) -> AsyncIterator[Brain]:
    """A fresh brain with the model-free hashing embedder and background indexing."""
    b = await Brain.open(tmp_path / "brain", embedder="hashing")
    yield b
    await b.close()


@pytest.fixture
async def make_brain(tmp_path: Path) -> AsyncIterator[BrainFactory]:
    """Open brains with any options (default folder `tmp_path/brain`); all closed afterwards."""
    opened: list[Brain] = []

    async def _open(path: Path | None = None, **kwargs: Any) -> Brain:
        kwargs.setdefault("embedder", "hashing")
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
