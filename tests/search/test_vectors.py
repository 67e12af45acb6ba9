"""The vector index on a real brain file: exact below the threshold, clustered above it.

Clustering is switched on at 500 rows here (`IvfParams.min_rows`) so a few thousand
synthetic vectors, grouped around random topics, exercise what a big brain would.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from brainbridge.search.ivf import IvfParams
from brainbridge.search.vectors import VectorIndex
from brainbridge.store.sqlite.store import SqliteStore

MODEL, DIM = "synthetic", 32
# Cells of ~20 rows, scanned in 16 of 32 principal directions before exact scoring.
PARAMS = IvfParams(min_rows=500, cluster_rows=20, dims=16)
# (type, how many): knowledge of two types, and conversation history.
MIX = (("Person", 150), ("Project", 850), ("Chat_Exchange", 2000))
KNOWLEDGE = {"exclude_types": ["Chat_Exchange"]}
HISTORY = {"entity_types": ["Chat_Exchange"]}
RECALL_AT_10 = 0.9


class Corpus:
    """A store with typed entities and a vector each, and the ground truth beside it."""

    def __init__(self, path: Path, mix: Sequence[tuple[str, int]], seed: int = 7) -> None:
        self.rng = np.random.default_rng(seed)
        self.topics = _unit(self.rng.standard_normal((40, DIM)))
        self.store = SqliteStore.open(path)
        self.vectors: dict[int, np.ndarray] = {}
        self.parts: dict[int, np.ndarray] = {}  # sentence vectors, one per row
        self.types: dict[int, str] = {}
        for etype, n in mix:
            self.add(etype, n)

    def near_topics(self, n: int) -> np.ndarray:
        """Unit vectors scattered around random topics."""
        topics = self.topics[self.rng.integers(0, len(self.topics), n)]
        return _unit(topics + 0.25 * self.rng.standard_normal((n, DIM)))

    def add(self, etype: str, n: int, vectors: np.ndarray | None = None) -> list[int]:
        start = len(self.types)
        rows = [(etype, f"{etype} {start + i}", "", None) for i in range(n)]
        ids = [e.id for e in self.store.upsert_many(rows)]
        self.put(ids, self.near_topics(n) if vectors is None else vectors)
        self.types.update(dict.fromkeys(ids, etype))
        return ids

    def put(
        self, ids: Sequence[int], vectors: np.ndarray, parts: dict[int, np.ndarray] | None = None
    ) -> None:
        """Store a vector for each id, and sentence vectors for those in `parts`."""
        vectors = vectors.astype(np.float32)
        parts = {e: p.astype(np.float32) for e, p in (parts or {}).items()}
        self.store.put_vectors(
            MODEL,
            [(e, v.tobytes()) for e, v in zip(ids, vectors, strict=True)],
            parts={e: p.tobytes() for e, p in parts.items()},
        )
        self.vectors.update(zip(ids, vectors, strict=True))
        for eid in ids:
            self.parts.pop(eid, None)
        self.parts.update(parts)

    def delete(self, eid: int) -> None:
        assert self.store.delete_entity(self.types.pop(eid), self.name_of(eid))
        del self.vectors[eid]
        self.parts.pop(eid, None)

    def name_of(self, eid: int) -> str:
        return next(iter(self.store.get_entities([eid]).values())).name

    def exact(
        self, q: np.ndarray, k: int, entity_types=None, exclude_types=None
    ) -> tuple[list[int], dict[int, float], float]:
        """(top-k ids, every kept cosine, the mean cosine of their whole texts) by brute
        force over the truth; an entity's cosine is the best of its whole text's and its
        sentences'."""
        kept = [
            e
            for e in self.vectors
            if (not entity_types or self.types[e] in entity_types)
            and not (exclude_types and self.types[e] in exclude_types)
        ]
        whole = {e: float(self.vectors[e] @ q) for e in kept}
        best = {
            e: max(whole[e], float((self.parts[e] @ q).max())) if e in self.parts else whole[e]
            for e in kept
        }
        top = sorted(best, key=lambda e: -best[e])[:k]
        return top, best, float(np.mean(list(whole.values()))) if whole else 0.0


@pytest.fixture
def brain(tmp_path: Path) -> Iterator[Corpus]:
    b = Corpus(tmp_path / "brain.db", MIX)
    yield b
    b.store.close()


def clustered_index(brain: Corpus) -> VectorIndex:
    index = VectorIndex(brain.store, MODEL, DIM, PARAMS, cluster_after=None)
    index.refresh()
    index.cluster_now()
    assert index.clustered
    return index


def recall_at_10(index: VectorIndex, brain: Corpus, queries: np.ndarray, **filters) -> float:
    found = 0
    for q in queries:
        truth, cosines, _ = brain.exact(q, 10, **filters)
        hits, _ = index.nearest(q, 10, **filters)
        found += len(set(truth) & {eid for eid, _ in hits})
        for eid, cos in hits:  # whatever is returned carries its exact cosine
            assert cos == pytest.approx(cosines[eid], abs=1e-5)
    return found / (10 * len(queries))


def test_a_small_index_is_exact(tmp_path: Path) -> None:
    brain = Corpus(tmp_path / "brain.db", (("Person", 100), ("Chat_Exchange", 300)))
    index = VectorIndex(brain.store, MODEL, DIM, PARAMS, cluster_after=0)
    index.refresh()
    assert not index.clustered and len(index) == 400
    for q in brain.near_topics(20):
        for filters in ({}, KNOWLEDGE, HISTORY, {"entity_types": ["Person", "Nobody"]}):
            truth, cosines, mean = brain.exact(q, 10, **filters)
            hits, background = index.nearest(q, 10, **filters)
            assert [eid for eid, _ in hits] == truth
            assert [c for _, c in hits] == pytest.approx([cosines[e] for e in truth], abs=1e-5)
            assert background == pytest.approx(mean, abs=1e-5)
    assert index.nearest(brain.near_topics(1)[0], 5, entity_types=["Nobody"]) == ([], 0.0)
    brain.store.close()


def test_a_clustered_index_finds_the_nearest(brain: Corpus) -> None:
    index = clustered_index(brain)
    queries = brain.near_topics(60)
    assert recall_at_10(index, brain, queries) >= RECALL_AT_10
    assert recall_at_10(index, brain, queries, **KNOWLEDGE) >= RECALL_AT_10
    assert recall_at_10(index, brain, queries, **HISTORY) >= RECALL_AT_10


def test_filters_return_only_the_kept_types(brain: Corpus) -> None:
    index = clustered_index(brain)
    cases = [
        (KNOWLEDGE, {"Person", "Project"}),
        (HISTORY, {"Chat_Exchange"}),
        ({"entity_types": ["Project"]}, {"Project"}),  # most of its partition: probed
        ({"entity_types": ["Person"]}, {"Person"}),  # a small share: scored exactly
        ({"exclude_types": ["Project", "Chat_Exchange"]}, {"Person"}),
    ]
    queries = brain.near_topics(30)
    for filters, kept in cases:
        for q in queries:
            hits, _ = index.nearest(q, 20, **filters)
            assert len(hits) == 20
            assert {brain.types[eid] for eid, _ in hits} <= kept
        assert recall_at_10(index, brain, queries, **filters) >= RECALL_AT_10
    for q in queries:  # a small share of a partition is ranked exactly
        truth, _, _ = brain.exact(q, 10, entity_types=["Person"])
        hits, _ = index.nearest(q, 10, entity_types=["Person"])
        assert [eid for eid, _ in hits] == truth


def test_rows_written_after_clustering_are_found(brain: Corpus) -> None:
    index = clustered_index(brain)
    targets = brain.near_topics(5)
    new = brain.add("Chat_Exchange", 5, targets)
    index.refresh()
    for eid, q in zip(new, targets, strict=True):
        hits, _ = index.nearest(q, 3, **HISTORY)
        assert hits[0][0] == eid and hits[0][1] == pytest.approx(1.0, abs=1e-5)
        assert eid not in {e for e, _ in index.nearest(q, 3, **KNOWLEDGE)[0]}
    assert recall_at_10(index, brain, brain.near_topics(30), **HISTORY) >= RECALL_AT_10


def test_a_re_embedded_row_is_found_where_it_now_points(brain: Corpus) -> None:
    index = clustered_index(brain)
    moved = [eid for eid, t in brain.types.items() if t == "Project"][:3]
    old = {eid: brain.vectors[eid] for eid in moved}
    elsewhere = brain.near_topics(3)
    brain.put(moved, elsewhere)
    index.refresh()
    for eid, q in zip(moved, elsewhere, strict=True):
        hits, _ = index.nearest(q, 1, **KNOWLEDGE)
        assert hits[0][0] == eid and hits[0][1] == pytest.approx(1.0, abs=1e-5)
        stale = {e: c for e, c in index.nearest(old[eid], 50)[0]}
        assert eid not in stale or stale[eid] == pytest.approx(float(q @ old[eid]), abs=1e-5)
        assert index.cosines([eid], q)[eid] == pytest.approx(1.0, abs=1e-5)
    assert recall_at_10(index, brain, brain.near_topics(30), **KNOWLEDGE) >= RECALL_AT_10


def test_deleted_entities_are_never_returned(brain: Corpus) -> None:
    index = clustered_index(brain)
    index.cluster_after = 0
    gone = [eid for eid, t in brain.types.items() if t == "Chat_Exchange"][:10]
    queries = [brain.vectors[eid] for eid in gone]
    for eid in gone:
        brain.delete(eid)
    index.refresh()  # a small index recounts after a write: it reloads, then reclusters
    assert len(index) == len(brain.vectors)
    assert index.wait_clustered(timeout=60)
    for q in queries:
        hits, _ = index.nearest(q, 10, **HISTORY)
        assert not set(gone) & {eid for eid, _ in hits}
    assert recall_at_10(index, brain, np.array(queries), **HISTORY) >= RECALL_AT_10


def test_a_clustering_of_rows_since_reloaded_is_never_published(brain: Corpus) -> None:
    index = VectorIndex(brain.store, MODEL, DIM, PARAMS, cluster_after=0)
    index.refresh()  # starts clustering these rows in the background
    gone = [eid for eid, t in brain.types.items() if t == "Project"][:10]
    queries = [brain.vectors[eid] for eid in gone]
    for eid in gone:
        brain.delete(eid)
    index.refresh()  # reloads: row numbers change under the clustering in flight
    assert index.wait_clustered(timeout=60)
    for q in queries:
        assert not set(gone) & {eid for eid, _ in index.nearest(q, 10, **KNOWLEDGE)[0]}
    assert recall_at_10(index, brain, np.array(queries), **KNOWLEDGE) >= RECALL_AT_10


def test_background_is_the_exact_mean_cosine(brain: Corpus) -> None:
    index = clustered_index(brain)
    brain.add("Project", 50)
    brain.put([eid for eid, t in brain.types.items() if t == "Chat_Exchange"][:20],
              brain.near_topics(20))  # fmt: skip
    index.refresh()
    for q in brain.near_topics(10):
        for filters in ({}, KNOWLEDGE, HISTORY, {"entity_types": ["Person"]}):
            _, _, mean = brain.exact(q, 1, **filters)
            assert index.nearest(q, 5, **filters)[1] == pytest.approx(mean, abs=1e-5)


def test_a_long_lived_index_clusters_in_the_background(brain: Corpus) -> None:
    never = VectorIndex(brain.store, MODEL, DIM, PARAMS, cluster_after=None)
    never.refresh()
    assert not never.wait_clustered(timeout=0) and never.unclustered == len(brain.vectors)
    index = VectorIndex(brain.store, MODEL, DIM, PARAMS, cluster_after=0)
    index.refresh()  # starts clustering; searches stay exact until it is published
    assert index.wait_clustered(timeout=60)
    assert recall_at_10(index, brain, brain.near_topics(30), **KNOWLEDGE) >= RECALL_AT_10
    assert index.unclustered == 0
    for _ in range(2):  # grow past the recluster share: the new rows are clustered too
        brain.add("Chat_Exchange", 400)
        index.refresh()
        assert index.wait_clustered(timeout=60) and index.unclustered == 0
    assert recall_at_10(index, brain, brain.near_topics(30), **HISTORY) >= RECALL_AT_10


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


def give_sentences(brain: Corpus, ids: Sequence[int], seed: int = 3) -> None:
    """Re-store these entities with one to four sentence vectors each, on other topics."""
    rng = np.random.default_rng(seed)
    parts = {eid: brain.near_topics(int(rng.integers(1, 5))) for eid in ids}
    brain.put(ids, np.stack([brain.vectors[e] for e in ids]), parts)


def test_an_entity_is_as_near_as_its_best_sentence(tmp_path: Path) -> None:
    brain = Corpus(tmp_path / "brain.db", (("Person", 100), ("Chat_Exchange", 300)))
    exchanges = [e for e, t in brain.types.items() if t == "Chat_Exchange"]
    give_sentences(brain, exchanges[::2])
    # Brute force: with their sentences, the 400 entities fill more than PARAMS.min_rows.
    index = VectorIndex(brain.store, MODEL, DIM, PARAMS, cluster_after=None)
    index.refresh()
    assert not index.clustered and len(index) == 400 and index.unclustered > 500
    for q in brain.near_topics(20):
        for filters in ({}, KNOWLEDGE, HISTORY):
            truth, cosines, mean = brain.exact(q, 10, **filters)
            hits, background = index.nearest(q, 10, **filters)
            assert [eid for eid, _ in hits] == truth  # each entity once, at its best
            assert [c for _, c in hits] == pytest.approx([cosines[e] for e in truth], abs=1e-5)
            assert background == pytest.approx(mean, abs=1e-5)  # whole texts only
        some = exchanges[:40]
        _, cosines, _ = brain.exact(q, 10)
        assert index.cosines(some, q) == pytest.approx({e: cosines[e] for e in some}, abs=1e-5)
    brain.store.close()


def test_a_clustered_index_finds_entities_by_their_sentences(brain: Corpus) -> None:
    exchanges = [e for e, t in brain.types.items() if t == "Chat_Exchange"]
    give_sentences(brain, exchanges[::3])
    index = clustered_index(brain)
    queries = brain.near_topics(60)
    assert recall_at_10(index, brain, queries) >= RECALL_AT_10
    assert recall_at_10(index, brain, queries, **HISTORY) >= RECALL_AT_10


@pytest.mark.parametrize("clustered", [False, True])
def test_sentences_replaced_by_fewer_are_never_matched_again(
    brain: Corpus, clustered: bool
) -> None:
    if clustered:
        index = clustered_index(brain)
    else:
        index = VectorIndex(brain.store, MODEL, DIM, PARAMS, cluster_after=None)
        index.refresh()
    eid = next(e for e, t in brain.types.items() if t == "Chat_Exchange")
    old = brain.near_topics(3)
    brain.put([eid], brain.vectors[eid][None, :], {eid: old})
    index.refresh()
    assert index.nearest(old[1], 1)[0][0][0] == eid  # found by its second sentence
    brain.put([eid], brain.vectors[eid][None, :], {eid: -old[:1]})  # edited: one sentence
    index.refresh()
    for q in old:
        truth, cosines, _ = brain.exact(q, 10)
        hits, _ = index.nearest(q, 10)
        assert dict(hits).get(eid, cosines[eid]) == pytest.approx(cosines[eid], abs=1e-5)
        assert index.cosines([eid], q)[eid] == pytest.approx(cosines[eid], abs=1e-5)
    assert recall_at_10(index, brain, brain.near_topics(30)) >= RECALL_AT_10


@pytest.mark.parametrize("filters", [KNOWLEDGE, HISTORY, {}])
def test_queries_searched_together_find_what_each_finds_alone(brain: Corpus, filters) -> None:
    """Enrich's 1-3 queries read the cells once for all (`nearest_many`): each query still
    gets its exact cosines, its background and at least the recall it has alone."""
    index = clustered_index(brain)
    queries = brain.near_topics(30)
    together_found = alone_found = 0
    for group in (queries[i : i + 3] for i in range(0, len(queries), 3)):
        together = index.nearest_many(list(group), 10, **filters)
        assert len(together) == len(group)
        for q, (hits, background) in zip(group, together, strict=True):
            truth, cosines, _ = brain.exact(q, 10, **filters)
            alone, alone_background = index.nearest(q, 10, **filters)
            assert background == pytest.approx(alone_background, abs=1e-6)
            for eid, cos in hits:
                assert cos == pytest.approx(cosines[eid], abs=1e-5)
            together_found += len(set(truth) & {eid for eid, _ in hits})
            alone_found += len(set(truth) & {eid for eid, _ in alone})
    assert together_found >= alone_found
    assert index.nearest_many([], 10, **filters) == []
