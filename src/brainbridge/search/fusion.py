"""Reciprocal rank fusion of several ranked lists."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

RRF_K = 60


def rrf(
    rankings: Mapping[str, Sequence[int]], weights: Mapping[str, float] | None = None, k: int = RRF_K
) -> dict[int, tuple[float, tuple[str, ...]]]:
    """Fuse ranked id lists: {id: (score, retrievers that returned it)}."""
    scores: dict[int, float] = {}
    found: dict[int, list[str]] = {}
    for name, ids in rankings.items():
        w = (weights or {}).get(name, 1.0)
        for rank, eid in enumerate(ids):
            scores[eid] = scores.get(eid, 0.0) + w / (k + rank + 1)
            found.setdefault(eid, []).append(name)
    return {eid: (s, tuple(found[eid])) for eid, s in scores.items()}
