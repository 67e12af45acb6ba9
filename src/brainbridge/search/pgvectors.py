"""Vector search in PostgreSQL with pgvector: the same questions `VectorIndex` answers
from memory, asked of the server's HNSW index instead, so no process has to hold every
vector (a million 384-dimension vectors are 1.5 GB in each process's memory).

Used by `HybridSearch` when the brain is in PostgreSQL and the server has pgvector.
Nearest neighbours are approximate (HNSW) and found by their whole text's vector; an
entity's cosine is then, as in memory, the best of that and its sentences' (`parts.py`),
computed here from the sentence blobs of the few candidates.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

# The count and the mean vectors drift slowly; both are read again after this long.
CACHE_SECONDS = 30.0


class PgVectorIndex:
    """Cosine search over one model's vectors in PostgreSQL. Use from the store's thread."""

    # Asked through the store's connection: only from the store's thread.
    concurrent_reads = False

    def __init__(self, store: Any, model: str, dim: int) -> None:
        self.store = store
        self.model = model
        self.dim = dim
        self._count = (0, -1, 0.0)  # (vectors, total_changes, when)
        self._means: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[np.ndarray, float]] = {}

    def __len__(self) -> int:
        return self._count[0]

    def refresh(self) -> None:
        """Recount this model's vectors when this connection wrote, or now and then."""
        count, changes, when = self._count
        now = time.monotonic()
        if changes != self.store.changes() or now - when > CACHE_SECONDS:
            self._count = (self.store.model_vector_count(self.model), self.store.changes(), now)

    def nearest(
        self,
        query: np.ndarray,
        k: int,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> tuple[list[tuple[int, float]], float]:
        """(top-k (entity id, cosine), the query's mean cosine over the searched vectors),
        as `VectorIndex.nearest`."""
        if k <= 0 or not len(self):
            return [], 0.0
        q = [float(x) for x in query]
        hits = dict(self.store.nearest_vectors(self.model, q, k, entity_types, exclude_types))
        self._best_of_parts(hits, query)
        ranked = sorted(hits.items(), key=lambda h: -h[1])
        return ranked, float(self._mean(entity_types, exclude_types) @ query.astype(np.float32))

    def nearest_many(
        self,
        queries: Sequence[np.ndarray],
        k: int,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> list[tuple[list[tuple[int, float]], float]]:
        """`nearest` for each query (the server's index answers each on its own)."""
        return [self.nearest(q, k, entity_types, exclude_types) for q in queries]

    def cosines(self, ids: Sequence[int], query: np.ndarray) -> dict[int, float]:
        """Cosine of the query with each listed entity that has a vector: the best of its
        whole text's and its sentences'."""
        found = self.store.vector_cosines(self.model, list(ids), [float(x) for x in query])
        self._best_of_parts(found, query)
        return found

    def _best_of_parts(self, cosines: dict[int, float], query: np.ndarray) -> None:
        q = query.astype(np.float32)
        for eid, blob in self.store.vector_parts(self.model, list(cosines)).items():
            parts = np.frombuffer(blob, dtype=np.float32)
            if len(parts) and len(parts) % self.dim == 0:
                best = float((parts.reshape(-1, self.dim) @ q).max())
                cosines[eid] = max(cosines[eid], best)

    def _mean(
        self, entity_types: Sequence[str] | None, exclude_types: Sequence[str] | None
    ) -> np.ndarray:
        key = (tuple(entity_types or ()), tuple(exclude_types or ()))
        now = time.monotonic()
        cached = self._means.get(key)
        if cached is None or now - cached[1] > CACHE_SECONDS:
            mean, _ = self.store.vector_mean(self.model, entity_types, exclude_types)
            vector = np.asarray(mean or [0.0] * self.dim, dtype=np.float32)
            cached = self._means[key] = (vector, now)
        return cached[0]
