"""Fusing several retrievers' scores into one ranking: convex combination or RRF."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

RRF_K = 60


def rrf(
    rankings: Mapping[str, Sequence[int]],
    weights: Mapping[str, float] | None = None,
    k: int = RRF_K,
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


def scale(scores: Mapping[int, float], low: float | None = None) -> dict[int, float]:
    """Min-max scale to 0..1 over these candidates; `low` pins the minimum (0 for BM25)."""
    if not scores:
        return {}
    lo = min(scores.values()) if low is None else low
    span = max(scores.values()) - lo
    if span <= 0:
        return {eid: 1.0 for eid in scores}
    return {eid: max(0.0, (s - lo) / span) for eid, s in scores.items()}


def convex(
    signals: Mapping[str, Mapping[int, float]], weights: Mapping[str, float]
) -> dict[int, float]:
    """Weighted mean of already scaled signals; an id missing from a signal scores 0 there.

    Unlike RRF it keeps how far apart the scores are, not just their order: a strong
    lexical match is not pulled level with a vector neighbour that merely ranks well.
    """
    total = sum(weights.get(name, 0.0) for name in signals) or 1.0
    out: dict[int, float] = {}
    for name, scores in signals.items():
        w = weights.get(name, 0.0) / total
        for eid, s in scores.items():
            out[eid] = out.get(eid, 0.0) + w * s
    return out
