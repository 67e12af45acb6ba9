"""An inverted-file layer for big vector indexes: k-means cells, the nearest few scanned.

`build` takes a snapshot of the index's rows and returns an immutable `Ivf`, so it can run
in a background thread and be published whole. Each partition of entity types (chat
exchanges apart from everything else) gets its own cells, so a search that keeps one side
never scans the other. Rows are projected onto their top principal directions and stored
cell by cell, so probing a cell is a matmul over a contiguous slice; the best of the
scanned rows are handed back to the caller to score exactly on their full vectors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# Rows per BLAS call while building: short calls, so a search on another thread never
# waits long for the BLAS threads.
CHUNK = 2048
TOP_ITERS, TOP_SAMPLE = 10, 256  # k-means iterations, training rows per centroid
LEAF_ITERS, LEAF_SAMPLE = 8, 32
PCA_SAMPLE = 20_000
# OpenBLAS runs a matrix-vector product of this many elements or more on its thread pool
# (GEMM_MULTITHREAD_THRESHOLD 4 x 2304), and a search then waits for threads that other
# work may hold the cores of: on a busy 2-core machine the 12k x 128 centroid product took
# 3.3 ms threaded, 0.55 ms in one BLAS thread and 0.4 ms in NumPy's own loop.
BLAS_THREADED = 9216
# A filter that keeps less than this share of a partition scores its rows exactly instead
# of probing ever more cells for them.
EXACT_SHARE = 0.2


@dataclass(frozen=True)
class IvfParams:
    """How big indexes are clustered and probed (docs/benchmarks.md measures the defaults)."""

    min_rows: int = 50_000  # below this many rows: brute force (also per partition)
    dims: int = 128  # rows are scanned projected to this many principal directions
    cluster_rows: int = 50  # average rows per cell
    probe: float = 6.0  # cells probed: probe * sqrt(cells)
    rerank: int = 4  # rows scored exactly per result wanted (at least 200)


@dataclass(frozen=True)
class Partition:
    """The rows of some entity types, cell by cell (or all together, scanned exactly)."""

    rows: np.ndarray  # (m,) index row of each position
    codes: np.ndarray  # (m,) type code of each position
    vectors: np.ndarray  # (m, dims) projected; (m, dim) full vectors when exact
    centroids: np.ndarray | None  # (cells, dims) unit vectors; None: scan every row exactly
    offsets: np.ndarray  # (cells + 1,) start of each cell
    code_counts: dict[int, int]

    def matching(self, allowed: np.ndarray | None) -> int:
        """How many rows a type filter (a bool per type code, None: all) keeps."""
        if allowed is None:
            return len(self.rows)
        return sum(n for c, n in self.code_counts.items() if c < len(allowed) and allowed[c])


@dataclass(frozen=True)
class Ivf:
    """Cells over rows [0, covered) of the index as they were when the build began."""

    covered: int
    projection: np.ndarray  # (dim, dims)
    partitions: tuple[Partition, ...]
    params: IvfParams

    def candidates(self, query: np.ndarray, k: int, allowed: np.ndarray | None) -> np.ndarray:
        """Index rows to score exactly for the top k: the best of the probed cells.

        `allowed` is a bool per type code (None: every type).
        """
        return self.candidates_many(query[None, :], k, allowed)[0]

    def candidates_many(
        self, queries: np.ndarray, k: int, allowed: np.ndarray | None
    ) -> list[np.ndarray]:
        """`candidates` for each row of `queries` (the 1-3 queries of one enrich): the cells
        probed for any of them are scanned once for all. Scanning is bound by reading the
        cells from memory, so three queries cost about what one does (docs/benchmarks.md),
        and each query is ranked over every probed cell, its own and the others'."""
        qy = queries @ self.projection
        want = max(200, self.params.rerank * k)
        found: list[list[np.ndarray]] = [[] for _ in queries]
        for part in self.partitions:
            keep = part.matching(allowed)
            if keep == 0:
                continue
            mixed = keep < len(part.rows)
            if part.centroids is None:
                for j, query in enumerate(queries):
                    scores = matvec(part.vectors, query)
                    if mixed:
                        assert allowed is not None
                        scores[~allowed[part.codes]] = -np.inf
                    found[j].append(part.rows[_best(scores, want)])
            elif mixed and keep < EXACT_SHARE * len(part.rows):
                assert allowed is not None
                for rows in found:
                    rows.append(part.rows[allowed[part.codes]])
            else:
                probed = self._probe(part, qy, want, allowed if mixed else None, keep)
                for rows, best in zip(found, probed, strict=True):
                    rows.append(best)
        return [np.concatenate(f) if f else np.zeros(0, dtype=np.int64) for f in found]

    def _probe(
        self, part: Partition, qy: np.ndarray, want: int, allowed: np.ndarray | None, keep: int
    ) -> list[np.ndarray]:
        """The best `want` rows of the probed cells for each projected query (a row of qy)."""
        assert part.centroids is not None
        cells = len(part.centroids)
        share = keep / len(part.rows)
        nprobe = min(cells, math.ceil(self.params.probe * math.sqrt(cells) / share))
        if nprobe < cells:
            near = part.centroids @ qy.T if len(qy) > 1 else matvec(part.centroids, qy[0])[:, None]
            chosen = np.argpartition(-near, nprobe - 1, axis=0)[:nprobe]
            probed = np.unique(chosen)
        else:
            probed = np.arange(cells)
        # Neighbouring cells are neighbours in memory too: scan each run of them at once.
        starts, ends = part.offsets[probed], part.offsets[probed + 1]
        first = np.ones(len(probed), dtype=bool)
        first[1:] = starts[1:] != ends[:-1]
        last = np.ones(len(probed), dtype=bool)
        last[:-1] = first[1:]
        runs = [
            (a, b)
            for a, b in zip(starts[first].tolist(), ends[last].tolist(), strict=True)
            if b > a
        ]
        if not runs:
            return [np.zeros(0, dtype=np.int64) for _ in qy]
        at = np.zeros(len(runs) + 1, dtype=np.int64)
        at[1:] = np.cumsum([b - a for a, b in runs])
        scores = np.empty((int(at[-1]), len(qy)), dtype=np.float32)
        if len(qy) == 1:
            for i, (a, b) in enumerate(runs):
                matvec(part.vectors[a:b], qy[0], out=scores[at[i] : at[i + 1], 0])
        else:  # one small product per run: (rows, dims) by (dims, queries)
            columns = np.ascontiguousarray(qy.T)
            for i, (a, b) in enumerate(runs):
                np.matmul(part.vectors[a:b], columns, out=scores[at[i] : at[i + 1]])
        if allowed is not None:
            codes = np.concatenate([part.codes[a:b] for a, b in runs])
            scores[~allowed[codes]] = -np.inf
        firsts = np.array([a for a, _ in runs], dtype=np.int64)
        out = []
        for j in range(len(qy)):
            best = _best(np.ascontiguousarray(scores[:, j]), want)
            run = np.searchsorted(at, best, side="right") - 1
            out.append(part.rows[firsts[run] + best - at[run]])
        return out


def matvec(matrix: np.ndarray, vector: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """`matrix @ vector` in the calling thread: BLAS below its threading threshold, NumPy's
    own SIMD loop above it (searches run many small products; see BLAS_THREADED)."""
    if matrix.size < BLAS_THREADED:
        return np.matmul(matrix, vector, out=out)
    return np.einsum("ij,j->i", matrix, vector, out=out)


def build(
    matrix: np.ndarray,
    codes: np.ndarray,
    partition_of: np.ndarray,
    params: IvfParams,
    seed: int = 0,
) -> Ivf:
    """Cluster rows [0, len(codes)) of `matrix` (unit vectors), each partition apart.

    `partition_of[code]` names the partition of each type code.
    """
    rng = np.random.default_rng(seed)
    n = len(codes)
    sample = matrix[_sample(rng, n, PCA_SAMPLE)]
    gram = np.zeros((matrix.shape[1], matrix.shape[1]))
    for i in range(0, len(sample), CHUNK):
        gram += sample[i : i + CHUNK].T @ sample[i : i + CHUNK]
    _, vectors = np.linalg.eigh(gram)  # principal directions, weakest first
    projection = np.ascontiguousarray(vectors[:, ::-1][:, : params.dims], dtype=np.float32)
    of_row = partition_of[codes]
    parts = []
    for p in range(int(partition_of.max(initial=0)) + 1):
        idx = np.flatnonzero(of_row == p)
        if len(idx) == 0:
            continue
        if len(idx) < params.min_rows:
            parts.append(_exact(matrix, codes, idx))
            continue
        projected = np.empty((len(idx), projection.shape[1]), dtype=np.float32)
        for i in range(0, len(idx), CHUNK):
            projected[i : i + CHUNK] = matrix[idx[i : i + CHUNK]] @ projection
        cells = max(2, round(len(idx) / params.cluster_rows))
        centroids, labels = _cluster(_unit(projected), cells, rng)
        order = np.argsort(labels, kind="stable")
        offsets = np.zeros(len(centroids) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum(np.bincount(labels, minlength=len(centroids)))
        rows = idx[order]
        parts.append(
            Partition(rows, codes[rows], projected[order], centroids, offsets, _counts(codes[rows]))
        )
    return Ivf(n, projection, tuple(parts), params)


def _exact(matrix: np.ndarray, codes: np.ndarray, idx: np.ndarray) -> Partition:
    offsets = np.array([0, len(idx)], dtype=np.int64)
    return Partition(idx, codes[idx], matrix[idx], None, offsets, _counts(codes[idx]))


def _cluster(
    units: np.ndarray, cells: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Two-level spherical k-means: ~sqrt(cells) parents, each split into leaves in
    proportion to its rows, so no row is ever compared with every leaf."""
    n = len(units)
    top = _kmeans(units, max(1, round(math.sqrt(cells))), TOP_ITERS, TOP_SAMPLE, rng)
    parent = _assign(units, top)
    members = np.argsort(parent, kind="stable")
    bounds = np.zeros(len(top) + 1, dtype=np.int64)
    bounds[1:] = np.cumsum(np.bincount(parent, minlength=len(top)))
    labels = np.empty(n, dtype=np.int64)
    leaves: list[np.ndarray] = []
    made = 0
    for t in range(len(top)):
        idx = members[bounds[t] : bounds[t + 1]]
        if len(idx) == 0:
            continue
        sub = units[idx]
        k = min(max(1, round(cells * len(idx) / n)), len(idx))
        centroids = _kmeans(sub, k, LEAF_ITERS, LEAF_SAMPLE, rng)
        labels[idx] = _assign(sub, centroids) + made
        leaves.append(centroids)
        made += len(centroids)
    return np.vstack(leaves), labels


def _kmeans(
    units: np.ndarray, k: int, iters: int, per: int, rng: np.random.Generator
) -> np.ndarray:
    """k unit centroids trained on a sample of `per` rows per centroid."""
    k = min(k, len(units))
    train = units[_sample(rng, len(units), k * per)]
    centroids = train[rng.choice(len(train), k, replace=False)].copy()
    for _ in range(iters if k > 1 else 1):
        labels = _assign(train, centroids)
        counts = np.bincount(labels, minlength=k)
        filled = counts > 0
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))[filled]
        sums = np.add.reduceat(train[np.argsort(labels, kind="stable")], starts, axis=0)
        centroids[filled] = _unit(sums)
        empty = np.flatnonzero(~filled)  # re-seed an empty cell at a random row
        centroids[empty] = train[rng.choice(len(train), len(empty), replace=False)]
    return centroids


def _assign(units: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    labels = np.empty(len(units), dtype=np.int64)
    for i in range(0, len(units), CHUNK):
        labels[i : i + CHUNK] = np.argmax(units[i : i + CHUNK] @ centroids.T, axis=1)
    return labels


def _best(scores: np.ndarray, want: int) -> np.ndarray:
    """Positions of the `want` highest finite scores (all finite ones if fewer)."""
    if len(scores) > want:
        top = np.argpartition(-scores, want - 1)[:want]
    else:
        top = np.arange(len(scores))
    return top[np.isfinite(scores[top])]


def _sample(rng: np.random.Generator, n: int, size: int) -> np.ndarray:
    if n <= size:
        return np.arange(n)
    return np.sort(rng.choice(n, size, replace=False))


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return (rows / np.maximum(norms, 1e-12)).astype(np.float32)


def _counts(codes: np.ndarray) -> dict[int, int]:
    values, counts = np.unique(codes, return_counts=True)
    return dict(zip(values.tolist(), counts.tolist(), strict=True))
