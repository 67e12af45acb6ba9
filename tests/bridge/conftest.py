"""Bridge fixtures: a real brain holding the judge set's fixture, and the fake LLM server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from tests.pg import backend  # noqa: F401  (runs this suite on both backends)

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from bridge.judge_set import fill, load
from fakes.llm_server import fake_llm_server  # noqa: F401  (a pytest fixture)


@pytest.fixture
async def life(tmp_path: Path, database_url: str | None) -> AsyncIterator[Brain]:
    """A brain holding the judge set's people, projects, documents and past exchanges."""
    brain = await Brain.open(
        tmp_path / "life", embedder="hashing", background_indexing=False, database_url=database_url
    )
    fixture, _ = load()
    await fill(brain, fixture)
    await brain.index_vectors()
    yield brain
    await brain.close()


@pytest.fixture
async def bridge(life: Brain) -> AsyncIterator[Bridge]:
    """A bridge with the local judge over `life`; its background work is drained after."""
    b = Bridge(life)
    yield b
    await b.drain()
