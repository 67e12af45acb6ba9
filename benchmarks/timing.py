"""Small helpers for timing and percentiles."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) by the nearest-rank method; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def p50_p95(values_ms: Sequence[float]) -> str:
    """'p50 / p95 ms' with sensible precision."""
    return f"{_fmt(percentile(values_ms, 0.5))} / {_fmt(percentile(values_ms, 0.95))}"


def _fmt(ms: float) -> str:
    return f"{ms:.2f}" if ms < 10 else f"{ms:.1f}"


class Stopwatch:
    """`with Stopwatch() as sw: ...` then `sw.seconds`."""

    def __enter__(self) -> Stopwatch:
        self._start = time.perf_counter()
        self.seconds = 0.0
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self._start


def ms_since(start: float) -> float:
    return (time.perf_counter() - start) * 1000
