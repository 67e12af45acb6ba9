"""An in-memory NumPy index over the vectors table, refreshed incrementally.

Brute force over float32 rows: exact, no extension to load, and measured fast
enough for a personal brain (see docs/benchmarks.md).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from brainbridge.store.sqlite.store import SqliteStore

# Counting the vectors table is a full scan (50-400 ms at 100k rows), so on a big index
# deletions are looked for at most this often (a deleted entity is never returned anyway:
# its row is gone); a small index recounts after any write of this connection.
RECOUNT_SECONDS = 10.0
SMALL_INDEX = 20_000


class VectorIndex:
    """Exact cosine search over every stored vector of one embedding model."""

    def __init__(self, store: SqliteStore, model: str, dim: int) -> None:
        self.store = store
        self.model = model
        self.dim = dim
        self._seq = 0
        self._ids = np.zeros(0, dtype=np.int64)
        self._codes = np.zeros(0, dtype=np.int32)  # entity type of each row, as a code
        self._code_of: dict[str, int] = {}
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._row_of: dict[int, int] = {}
        self._changes = -1
        self._counted = 0.0

    def __len__(self) -> int:
        return len(self._row_of)

    def refresh(self) -> None:
        """Load vectors written since the last refresh; reload fully after deletions."""
        changes, now = self.store.conn.total_changes, time.monotonic()
        changed = changes != self._changes and len(self._row_of) < SMALL_INDEX
        if changed or now - self._counted >= RECOUNT_SECONDS:
            if self.store.vector_count(self.model) < len(self._row_of):
                self.__init__(self.store, self.model, self.dim)  # type: ignore[misc]
            self._changes, self._counted = changes, now
        while True:
            rows = self.store.vectors_since(self.model, self._seq)
            if not rows:
                return
            self._append(rows)

    def _append(self, rows: list[tuple[int, int, bytes, str]]) -> None:
        new_ids, new_vecs, new_types = [], [], []
        for eid, seq, blob, etype in rows:
            self._seq = max(self._seq, seq)
            vec = np.frombuffer(blob, dtype=np.float32)
            if vec.shape[0] != self.dim:
                continue
            code = self._code_of.setdefault(etype, len(self._code_of))
            row = self._row_of.get(eid)
            if row is not None:  # re-embedded after an edit: overwrite in place
                self._matrix[row] = vec
                self._codes[row] = code
                continue
            self._row_of[eid] = len(self._ids) + len(new_ids)
            new_ids.append(eid)
            new_vecs.append(vec)
            new_types.append(code)
        if new_ids:
            self._ids = np.concatenate([self._ids, np.array(new_ids, dtype=np.int64)])
            self._matrix = np.vstack([self._matrix, np.stack(new_vecs)])
            self._codes = np.concatenate([self._codes, np.array(new_types, dtype=np.int32)])

    def search(
        self,
        query: np.ndarray,
        k: int,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> list[tuple[int, float]]:
        """Top-k (entity id, cosine) for a normalised query vector."""
        return self.nearest(query, k, entity_types, exclude_types)[0]

    def nearest(
        self,
        query: np.ndarray,
        k: int,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> tuple[list[tuple[int, float]], float]:
        """(top-k (entity id, cosine), the query's mean cosine over the searched vectors).

        The mean is the query's background: a query of made-up words sits fairly close to
        every short text, so its best match is only a little above its average.
        """
        if not self._row_of or k <= 0:
            return [], 0.0
        sims = self._matrix @ query.astype(np.float32)
        if entity_types or exclude_types:
            mask = self._type_mask(entity_types, exclude_types)
            if not mask.any():
                return [], 0.0
            background = float(sims[mask].mean())
            sims = np.where(mask, sims, -np.inf)
        else:
            background = float(sims.mean())
        k = min(k, len(sims))
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top])]
        return [
            (int(self._ids[i]), float(sims[i])) for i in top if np.isfinite(sims[i])
        ], background

    def _type_mask(
        self, entity_types: Sequence[str] | None, exclude_types: Sequence[str] | None
    ) -> np.ndarray:
        mask = np.ones(len(self._codes), dtype=bool)
        if entity_types:
            keep = [self._code_of[t] for t in entity_types if t in self._code_of]
            mask &= np.isin(self._codes, keep)
        if exclude_types:
            drop = [self._code_of[t] for t in exclude_types if t in self._code_of]
            mask &= ~np.isin(self._codes, drop)
        return mask

    def cosines(self, ids: Sequence[int], query: np.ndarray) -> dict[int, float]:
        """Cosine of the query with each listed entity that has a vector."""
        pairs = [(eid, self._row_of[eid]) for eid in ids if eid in self._row_of]
        if not pairs:
            return {}
        rows = np.fromiter((r for _, r in pairs), dtype=np.int64, count=len(pairs))
        sims = self._matrix[rows] @ query.astype(np.float32)
        return {eid: float(s) for (eid, _), s in zip(pairs, sims, strict=True)}
