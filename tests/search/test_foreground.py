"""Nothing in the foreground waits for pending vectors: search answers from BM25 meanwhile."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import numpy as np
from tests.conftest import BrainFactory

from brainbridge.embed.hashing import HashingEmbedder


class HeldEmbedder(HashingEmbedder):
    """Hashing vectors, but a batch of stored entities is held until `release` is set."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.holding = threading.Event()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) > 1:  # the indexer's batch, not a query
            self.holding.set()
            self.release.wait(30)
        return super().embed(texts)


async def test_search_answers_while_pending_vectors_are_embedded(
    make_brain: BrainFactory,
) -> None:
    embedder = HeldEmbedder()
    brain = await make_brain(embedder=embedder, background_indexing=False)
    await brain.upsert_many(
        [("Person", f"Person {i}", f"works on project {i}", {}) for i in range(20)]
        + [("Person", "Maria Gonzalez", "Pastry chef who bakes sourdough", {})]
    )
    indexing = asyncio.create_task(brain.index_vectors())
    try:
        assert await asyncio.to_thread(embedder.holding.wait, 10)
        hits = await asyncio.wait_for(brain.search("sourdough"), 10)
        assert [h.entity.name for h in hits] == ["Maria Gonzalez"]
    finally:
        embedder.release.set()
    assert await indexing == 21
    assert (await brain.stats())["pending_vectors"] == 0
