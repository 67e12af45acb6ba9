"""PostgreSQL at 1M rows: the backends suite's brain (100k knowledge entities + 200k
exchanges) grown to 1,000,000 entities with more knowledge, searched and enriched on the
same messages at 300k and at 1M (growth = p50 at 1M over p50 at 300k). Its own suite
because growing it takes most of half an hour on two shared cores.

Run: python -m benchmarks --only backends_large [--quick]
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from benchmarks.bench_backends import FULL, QUICK, _grow, _one_backend
from benchmarks.timing import p50_p95, percentile
from brainbridge.store.postgres.embedded import EmbeddedServer


async def _run(quick: bool) -> str:
    cfg = QUICK if quick else FULL
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-large-") as tmp:
        root = Path(tmp)
        server = EmbeddedServer.start(root / "pg")
        try:
            with server.fresh_database("large") as url:
                base = await _one_backend(root / "pg-brain", url, cfg)
                large = await _grow(root / "pg-brain", url, cfg, base["messages"])
        finally:
            server.stop()
    growth = percentile(large["search"], 0.5) / max(percentile(base["search"], 0.5), 1e-9)
    enrich_growth = percentile(large["enrich"], 0.5) / max(percentile(base["enrich"], 0.5), 1e-9)
    lines = [
        f"PostgreSQL 18.6 (embedded, Unix socket), owner, no vectors; {cfg['messages']}"
        " messages searched (top 10) and enriched (local judge). p50 / p95 ms.",
        "",
        f"| | {base['rows']:,} rows | {large['rows']:,} rows |",
        "|---|---|---|",
        f"| ingest (rows/s) | {base['ingest_per_s']:,.0f} | {large['ingest_per_s']:,.0f}"
        " (the added rows) |",
        f"| size on disk | {base['bytes'] / 2**20:,.0f} MB | {large['bytes'] / 2**20:,.0f} MB |",
        f"| search | {p50_p95(base['search'])} | {p50_p95(large['search'])} |",
        f"| enrich | {p50_p95(base['enrich'])} | {p50_p95(large['enrich'])} |",
        "",
        f"Growth from {base['rows']:,} to {large['rows']:,} rows: search p50 ×{growth:.2f},"
        f" enrich p50 ×{enrich_growth:.2f}. Suite time {time.perf_counter() - started:.0f} s.",
    ]
    return "\n".join(lines) + "\n"


def run(quick: bool = False) -> str:
    return asyncio.run(_run(quick))
