"""PostgreSQL only: pgvector's HNSW index answers what the in-memory index answers for
the same stored vectors, and a brain outlives a restart of its server."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from brainbridge.brain import Brain
from brainbridge.search.pgvectors import PgVectorIndex
from brainbridge.search.vectors import VectorIndex
from brainbridge.store.postgres.embedded import EmbeddedServer

TOPICS = [
    "quarterly budget review with finance",
    "campus map for the new office",
    "penicillin allergy and antibiotics",
    "flight to Denver for the summit",
    "release plan for the Orion app",
    "kids' school pickup on Fridays",
]


async def test_hnsw_nearest_matches_the_exact_in_memory_answer(
    tmp_path: Path, pg_server: EmbeddedServer
) -> None:
    with pg_server.fresh_database() as url:
        brain = await Brain.open(tmp_path / "b", embedder="hashing", database_url=url)
        try:
            for i in range(60):
                topic = TOPICS[i % len(TOPICS)]
                etype = "Topic" if i % 3 else "Document"
                await brain.upsert_entity(etype, f"note {i}", {}, f"{topic}, note {i}")
            assert await brain.wait_for_vectors(60)
            index = brain.searcher.index
            assert isinstance(index, PgVectorIndex)
            store = brain.searcher.store
            exact = VectorIndex(store, index.model, index.dim, cluster_after=None)
            assert brain.embedder is not None
            query = brain.embedder.embed(["budget review with finance"])[0]

            def both() -> None:
                index.refresh()
                exact.refresh()
                assert len(index) == len(exact) == 60
                for types in (None, ["Document"]):
                    got, mean = index.nearest(query, 5, types)
                    want, want_mean = exact.nearest(query, 5, types)
                    assert np.allclose([c for _, c in got], [c for _, c in want], atol=1e-4)
                    assert _ranked(got) == _ranked(want)  # equal cosines in any order
                    assert mean == pytest.approx(want_mean, abs=1e-4)
                ids = [e for e, _ in want] + [999_999]
                assert index.cosines(ids, query) == pytest.approx(exact.cosines(ids, query))

            await brain._run(both)
            hits = await brain.search("budget review", 3)
            assert hits and "budget" in hits[0].entity.description
        finally:
            await brain.close()


def _ranked(hits: list[tuple[int, float]]) -> list[tuple[float, int]]:
    """The hits by cosine, ties in id order; those tied with the last are left out, as
    either index may keep any of several entities at the same cosine."""
    last = min((round(c, 4) for _, c in hits), default=0.0)
    return sorted((-round(c, 4), e) for e, c in hits if round(c, 4) > last)


async def test_a_brain_outlives_a_server_restart(tmp_path: Path) -> None:
    """A team server restarts (maintenance, failover): a long-lived brain (`brain serve`)
    connects again on its next statement instead of failing from then on."""
    server = EmbeddedServer.start(tmp_path / "pg")
    try:
        url = server.create_database("brain")
        brain = await Brain.open(tmp_path / "b", embedder=None, database_url=url)
        try:
            await brain.upsert_entity("Project", "Atlas", {}, "the campus map")
            server.stop()
            server = EmbeddedServer.start(tmp_path / "pg")
            assert [h.entity.name for h in await brain.search("campus map")] == ["Atlas"]
            await brain.upsert_entity("Project", "Orion", {}, "the release plan")
            assert (await brain.stats())["entities"] == 2
        finally:
            await brain.close()
    finally:
        server.stop()
