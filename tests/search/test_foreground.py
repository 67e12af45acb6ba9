"""Nothing in the foreground waits for pending vectors: search answers from BM25 meanwhile."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from tests.conftest import BrainFactory

from brainbridge.embed.hashing import HashingEmbedder
from projects.graph_brain import fill


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


async def test_a_search_right_after_a_bulk_import_answers_while_vectors_are_pending(
    make_brain: BrainFactory, tmp_path: Path
) -> None:
    """`brain import`: the rows are searchable by BM25 at once; the background indexer
    embeds them meanwhile, and the search neither waits for it nor embeds them itself."""
    embedder = HeldEmbedder()
    brain = await make_brain(embedder=embedder, background_indexing=True)
    source = await make_brain(tmp_path / "source", embedder="none")
    await source.upsert_many(
        [("Person", f"Person {i}", f"works on project {i}", {}) for i in range(20)]
        + [("Person", "Maria Gonzalez", "Pastry chef who bakes sourdough", {})]
    )
    await brain.import_jsonl(await source.export_jsonl())
    try:
        assert await asyncio.to_thread(embedder.holding.wait, 10)  # the indexer is held
        assert (await brain.stats())["pending_vectors"] == 21
        hits = await asyncio.wait_for(brain.search("sourdough"), 10)
        assert [h.entity.name for h in hits] == ["Maria Gonzalez"]
    finally:
        embedder.release.set()
    assert await brain.wait_for_vectors(30)
    assert (await brain.stats())["pending_vectors"] == 0


async def test_a_row_still_waiting_for_its_vector_ranks_by_its_text(
    make_brain: BrainFactory,
) -> None:
    """Found as a flake of the MCP suite under load: right after `remember`, "Ana Souza" was
    found for "helm chart proxy" but not first: the row had no vector yet and counted as
    meaning nothing, beside rows whose vectors were in."""
    brain = await make_brain(embedder="hashing", background_indexing=False)
    await fill(brain)
    assert await brain.index_vectors() > 0
    await brain.upsert_entity(
        "Person", "Ana Souza", description="Platform engineer who owns the proxy's Helm chart."
    )
    hits = await brain.search("helm chart proxy")
    assert hits[0].entity.name == "Ana Souza", [h.entity.name for h in hits]
    assert await brain.index_vectors() == 1
    assert (await brain.search("helm chart proxy"))[0].entity.name == "Ana Souza"
