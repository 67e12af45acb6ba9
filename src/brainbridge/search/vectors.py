"""An in-memory NumPy index over the vectors table, refreshed incrementally.

An entity has one row for its whole text and one per sentence embedded on its own
(`parts.py`), side by side; its cosine with a query is the best of its rows.
Brute force over float32 rows while the index is small: exact, no extension to load.
Past `IvfParams.min_rows` a long-lived process clusters the rows in a background thread
(`ivf.py`) and, once that is published, scans only the cells nearest the query plus the
rows written since (the tail), scored exactly; see docs/benchmarks.md for the trade.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from brainbridge.ports import Store
from brainbridge.search import ivf
from brainbridge.search.ivf import Ivf, IvfParams, matvec
from brainbridge.search.parts import MAX_PARTS

log = logging.getLogger(__name__)

# Counting the vectors table reads its `seq` index (~1.4 ms at 300k rows), so on a big index
# deletions are looked for at most this often (a deleted entity is never returned anyway:
# its row is gone); a small index recounts after any write of this connection.
RECOUNT_SECONDS = 10.0
SMALL_INDEX = 20_000
# A process still searching this long after the index grew big is long-lived (a server):
# worth clustering for. A CLI call or a hook is done by then and stays on brute force.
CLUSTER_AFTER_SECONDS = 5.0
# Recluster once the rows outside the cells (new or re-embedded) reach this share.
RECLUSTER_SHARE = 0.05
# Types searched on their own most of the time get cells of their own.
SEPARATE_TYPES = ("Chat_Exchange",)


@dataclass
class _Build:
    """A clustering in flight on a builder thread; only `done` and `result` cross threads."""

    covered: int
    generation: int
    done: threading.Event = field(default_factory=threading.Event)
    result: Ivf | None = None
    stale: set[int] = field(default_factory=set)  # rows < covered overwritten since it began


class VectorIndex:
    """Cosine search over every stored vector of one embedding model.

    Use from one thread at a time (the store's, or the query-embedding thread while the
    store's waits for it); a clustering runs on its own thread and is only published from
    the using thread.
    """

    # Searched from memory: `HybridSearch` may probe it on its embedding thread.
    concurrent_reads = True

    def __init__(
        self,
        store: Store,
        model: str,
        dim: int,
        params: IvfParams | None = None,
        cluster_after: float | None = CLUSTER_AFTER_SECONDS,
    ) -> None:
        """`cluster_after`: seconds a big index waits before clustering in the background
        (0: at once; None: never, brute force always unless `cluster_now` is called)."""
        self.store = store
        self.model = model
        self.dim = dim
        self.params = params or IvfParams()
        self.cluster_after = cluster_after
        self._big_since: float | None = None
        self._build: _Build | None = None
        self._generation = 0
        self._broken = False
        self._reset()

    def _reset(self) -> None:
        self._generation += 1  # a clustering in flight belongs to the rows dropped here
        self._seq = 0
        self._n = 0
        self._ids = np.zeros(0, dtype=np.int64)  # -1: a row replaced by others
        self._codes = np.zeros(0, dtype=np.int32)  # entity type of each row, as a code
        self._code_of: dict[str, int] = {}
        self._matrix = np.zeros((0, self.dim), dtype=np.float32)
        self._row_of: dict[int, int] = {}  # entity -> its first row (the whole text)
        self._span: dict[int, int] = {}  # entity -> its number of rows
        self._dead = 0
        self._sums = np.zeros((0, self.dim), dtype=np.float64)  # per type code: the
        self._counts = np.zeros(0, dtype=np.int64)  # background is (mean row) . query
        self._ivf: Ivf | None = None
        self._stale: set[int] = set()  # rows < ivf.covered overwritten since its build began
        self._changes = -1
        self._counted = 0.0

    def __len__(self) -> int:
        return len(self._row_of)

    @property
    def rows(self) -> int:
        """Vectors searched: each entity's whole text and its sentences."""
        return self._n - self._dead

    @property
    def clustered(self) -> bool:
        """Whether searches probe cells (False: brute force over every row)."""
        self._publish()
        return self._ivf is not None

    @property
    def unclustered(self) -> int:
        """Rows outside the cells (written or re-embedded since), scanned exactly; all rows
        when not clustered."""
        self._publish()
        if self._ivf is None:
            return self._n
        return self._n - self._ivf.covered + len(self._stale)

    def refresh(self) -> None:
        """Load vectors written since the last refresh; reload fully after deletions."""
        changes, now = self.store.changes(), time.monotonic()
        changed = changes != self._changes and len(self._row_of) < SMALL_INDEX
        if changed or now - self._counted >= RECOUNT_SECONDS:
            # Fewer vectors in all than this model's loaded rows: some were deleted. (While
            # a brain moves to another model, a deletion may go unseen until it has moved;
            # a deleted entity is never returned anyway.)
            if self.store.vector_count() < len(self._row_of):
                self._reset()
            self._changes, self._counted = changes, now
        while True:
            rows = self.store.vectors_since(self.model, self._seq)
            if not rows:
                break
            self._append(rows)
        self._publish()
        self._maybe_cluster(now)

    def _append(self, rows: list[tuple[int, int, bytes, str, bytes | None]]) -> None:
        blocks: list[np.ndarray] = []
        new_ids: list[int] = []
        new_types: list[int] = []
        wholes: list[np.ndarray] = []  # each entity's whole-text vector: the background's
        whole_codes: list[int] = []
        added = 0
        for eid, seq, blob, etype, parts in rows:
            self._seq = max(self._seq, seq)
            block = self._block(blob, parts)
            if block is None:
                continue
            code = self._code(etype)
            wholes.append(block[0])
            whole_codes.append(code)
            row = self._row_of.get(eid)
            if row is not None:  # re-embedded after an edit: its old text leaves the sums
                span = self._span[eid]
                self._sums[self._codes[row]] -= self._matrix[row]
                self._counts[self._codes[row]] -= 1
                for r in range(row, row + span):
                    self._mark_stale(r)
                if span == len(block):  # as many rows as before: overwrite in place
                    self._matrix[row : row + span] = block
                    self._codes[row : row + span] = code
                    continue
                self._ids[row : row + span] = -1  # else its old rows are left out
                self._dead += span
            self._row_of[eid] = self._n + added
            self._span[eid] = len(block)
            blocks.append(block)
            new_ids.extend([eid] * len(block))
            new_types.extend([code] * len(block))
            added += len(block)
        if wholes:
            vecs, codes = np.stack(wholes), np.array(whole_codes, dtype=np.int32)
            for code in np.unique(codes).tolist():
                self._sums[code] += vecs[codes == code].sum(axis=0, dtype=np.float64)
            self._counts += np.bincount(codes, minlength=len(self._counts))
        if blocks:
            self._grow(self._n + added)
            end = self._n + added
            self._ids[self._n : end] = new_ids
            self._matrix[self._n : end] = np.concatenate(blocks)
            self._codes[self._n : end] = new_types
            self._n = end

    def _block(self, blob: bytes, parts: bytes | None) -> np.ndarray | None:
        """The rows of one entity: its whole text's vector, then its sentences'."""
        vec = np.frombuffer(blob, dtype=np.float32)
        if vec.shape[0] != self.dim:
            return None
        extra = np.frombuffer(parts, dtype=np.float32) if parts else vec[:0]
        if extra.shape[0] % self.dim:
            extra = vec[:0]
        return np.concatenate([vec, extra]).reshape(-1, self.dim)

    def _code(self, etype: str) -> int:
        code = self._code_of.get(etype)
        if code is None:
            code = self._code_of[etype] = len(self._code_of)
            self._sums = np.vstack([self._sums, np.zeros((1, self.dim))])
            self._counts = np.append(self._counts, 0)
        return code

    def _grow(self, need: int) -> None:
        """Room for `need` rows; a new array (never a resize) so a builder's view stays valid."""
        if need <= len(self._matrix):
            return
        cap = max(need, len(self._matrix) * 5 // 4, 1024)
        matrix = np.empty((cap, self.dim), dtype=np.float32)
        matrix[: self._n] = self._matrix[: self._n]
        ids, codes = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int32)
        ids[: self._n], codes[: self._n] = self._ids[: self._n], self._codes[: self._n]
        self._matrix, self._ids, self._codes = matrix, ids, codes

    def _mark_stale(self, row: int) -> None:
        if self._ivf is not None and row < self._ivf.covered:
            self._stale.add(row)
        if self._build is not None and row < self._build.covered:
            self._build.stale.add(row)

    # -- clustering -----------------------------------------------------------------

    def _maybe_cluster(self, now: float) -> None:
        if self._n < self.params.min_rows:
            return
        if self._big_since is None:
            self._big_since = now
        if self.cluster_after is None or now - self._big_since < self.cluster_after:
            return
        if self._build is None and not self._broken and self._needs_cluster():
            self._start(background=True)

    def _needs_cluster(self) -> bool:
        if self._n < self.params.min_rows:
            return False
        if self._ivf is None:
            return True
        return self.unclustered > RECLUSTER_SHARE * self._ivf.covered

    def cluster_now(self, wait: bool = True) -> None:
        """Cluster the current rows whatever their number: blocking, or (`wait=False`) in
        the background while searches go on as before."""
        if self._build is not None:
            if not wait:
                return
            self._build.done.wait()
            self._publish()
        self._start(background=not wait)
        self._publish()

    def wait_clustered(self, timeout: float | None = None) -> bool:
        """Wait for the clustering in flight (and any it makes due) and publish it; True if
        searches now probe cells."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._build is not None:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self._build.done.wait(left):
                break
            self._publish()
            self._maybe_cluster(time.monotonic())  # one made for rows since reloaded
        return self.clustered

    def _start(self, background: bool) -> None:
        if self._n == 0:
            return
        n = self._n
        job = _Build(n, self._generation)
        matrix, codes = self._matrix[:n], self._codes[:n].copy()
        partition_of = np.zeros(len(self._code_of), dtype=np.int64)
        for i, name in enumerate(SEPARATE_TYPES, start=1):
            if name in self._code_of:
                partition_of[self._code_of[name]] = i
        self._build = job

        def run() -> None:
            try:
                job.result = ivf.build(matrix, codes, partition_of, self.params)
            except Exception:  # a failed clustering leaves brute force, which still works
                log.exception("clustering the vector index failed; staying on brute force")
            finally:
                job.done.set()

        if background:
            threading.Thread(target=run, name="brain-vector-cells", daemon=True).start()
        else:
            run()

    def _publish(self) -> None:
        job = self._build
        if job is None or not job.done.is_set():
            return
        self._build = None
        if job.generation != self._generation:
            return  # the rows were reloaded while it ran
        if job.result is None:
            self._broken = True
            return
        self._ivf, self._stale = job.result, job.stale

    # -- search -----------------------------------------------------------------------

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
        Cosines are exact; on a clustered index the top-k may miss a row in a cell not
        probed (recall@10 is measured in docs/benchmarks.md).
        """
        return self.nearest_many([query], k, entity_types, exclude_types)[0]

    def nearest_many(
        self,
        queries: Sequence[np.ndarray],
        k: int,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> list[tuple[list[tuple[int, float]], float]]:
        """`nearest` for several queries under one type filter; on a clustered index the
        cells any of them probes are read once for all (`Ivf.candidates_many`)."""
        self._publish()
        if not self._row_of or k <= 0 or not len(queries):
            return [([], 0.0) for _ in queries]
        allowed = self._allowed(entity_types, exclude_types)
        counts = self._counts if allowed is None else np.where(allowed, self._counts, 0)
        total = int(counts.sum())
        if total == 0:
            return [([], 0.0) for _ in queries]
        sums = (self._sums if allowed is None else self._sums[allowed]).sum(axis=0)
        qs = np.stack([q.astype(np.float32) for q in queries])
        if self._ivf is None:
            ids, codes = self._ids[: self._n], self._codes[: self._n]
            scanned = [(ids, codes, matvec(self._matrix[: self._n], q)) for q in qs]
        else:
            scanned = [
                (self._ids[rows], self._codes[rows], sims)
                for rows, sims in self._probe(self._ivf, qs, k, allowed)
            ]
        return [
            (self._top(ids, codes, sims, k, allowed), float(sums @ q) / total)
            for (ids, codes, sims), q in zip(scanned, qs, strict=True)
        ]

    def _top(
        self,
        ids: np.ndarray,
        codes: np.ndarray,
        sims: np.ndarray,
        k: int,
        allowed: np.ndarray | None,
    ) -> list[tuple[int, float]]:
        """The k best entities of scored rows, each at its best row."""
        if allowed is not None:
            sims = np.where(allowed[codes], sims, -np.inf)
        if self._dead:
            sims = np.where(ids >= 0, sims, -np.inf)
        # An entity has at most 1 + MAX_PARTS rows: this many rows hold the best k entities.
        rows_k = min(k * (1 + MAX_PARTS), len(sims))
        if rows_k == 0:
            return []
        top = np.argpartition(-sims, rows_k - 1)[:rows_k]
        top = top[np.argsort(-sims[top])]
        best: dict[int, float] = {}  # each entity at its best row, the first seen
        for i in top:
            if not np.isfinite(sims[i]):
                break
            best.setdefault(int(ids[i]), float(sims[i]))
            if len(best) >= k:
                break
        return list(best.items())

    def _probe(
        self, cells: Ivf, qs: np.ndarray, k: int, allowed: np.ndarray | None
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """(rows, exact cosines) for each query: the best of the probed cells, the tail,
        stale rows."""
        stale = np.fromiter(self._stale, dtype=np.int64, count=len(self._stale))
        tail = np.arange(cells.covered, self._n)
        out = []
        for found, q in zip(cells.candidates_many(qs, k, allowed), qs, strict=True):
            if len(stale):
                found = np.concatenate([found[~np.isin(found, stale)], stale])
            sims = np.concatenate(
                [matvec(self._matrix[found], q), matvec(self._matrix[cells.covered : self._n], q)]
            )
            out.append((np.concatenate([found, tail]), sims))
        return out

    def _allowed(
        self, entity_types: Sequence[str] | None, exclude_types: Sequence[str] | None
    ) -> np.ndarray | None:
        """A bool per type code: may a row of that type be returned (None: every type)."""
        if not entity_types and not exclude_types:
            return None
        allowed = np.zeros(len(self._code_of), dtype=bool)
        if entity_types:
            allowed[[self._code_of[t] for t in entity_types if t in self._code_of]] = True
        else:
            allowed[:] = True
        if exclude_types:
            allowed[[self._code_of[t] for t in exclude_types if t in self._code_of]] = False
        return allowed

    def cosines(self, ids: Sequence[int], query: np.ndarray) -> dict[int, float]:
        """Cosine of the query with each listed entity that has a vector: the best of its
        rows."""
        found = [eid for eid in ids if eid in self._row_of]
        if not found:
            return {}
        spans = np.fromiter((self._span[e] for e in found), dtype=np.int64, count=len(found))
        starts = np.fromiter((self._row_of[e] for e in found), dtype=np.int64, count=len(found))
        # Every row of every entity, entity after entity: starts repeated, plus 0..span-1.
        firsts = np.cumsum(spans) - spans  # where each entity's rows begin in that list
        offsets = np.arange(int(spans.sum())) - np.repeat(firsts, spans)
        sims = matvec(self._matrix[np.repeat(starts, spans) + offsets], query.astype(np.float32))
        best = np.maximum.reduceat(sims, firsts)
        return {eid: float(s) for eid, s in zip(found, best, strict=True)}
