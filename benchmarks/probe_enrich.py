"""Where an enrich's (and a search's) time goes on PostgreSQL, beside SQLite.

Uses the brain `probe_person.py` keeps (ENTITIES + EXCHANGES rows in an embedded
PostgreSQL server left running; built on first use) and a SQLite brain of the same rows
kept beside it, then enriches (the bridge's local path, as the backends suite does) and
searches the same messages on both, interleaved. For PostgreSQL every statement is timed
and charged to the bridge or search function that ran it. Prints p50 / p95 of each
backend, statements and their time per enrich, and the statements by total time.

Run: PYTHONPATH=src:. python -m benchmarks.probe_enrich [--entities 100000]
     [--exchanges 200000] [--messages 200] [--folder /tmp/probe-person] [--search]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.bench_bridge import Synth, build_synthetic
from benchmarks.probe_person import _ensure, _open
from benchmarks.timing import percentile
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.model import Session
from brainbridge.store.postgres.embedded import EmbeddedServer

OURS = ("brainbridge/bridge/", "brainbridge/search/")


def _caller() -> str:
    """The bridge or search function whose call reached the store."""
    frame: Any = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if any(part in name for part in OURS):
            return f"{Path(name).stem}.{frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


class CallerRecorder:
    """Times every statement a connection runs while `on`: (sql, ms, the bridge or search
    function that ran it)."""

    def __init__(self, conn: Any) -> None:
        self.calls: list[tuple[str, float, str]] = []
        self.on = False
        inner = conn.execute

        def execute(sql: str, params: Any = ()) -> Any:
            if not self.on:
                return inner(sql, params)
            caller = _caller()
            started = time.perf_counter()
            cur = inner(sql, params)
            self.calls.append((sql, (time.perf_counter() - started) * 1000, caller))
            return cur

        conn.execute = execute


async def _sqlite(folder: Path, args: argparse.Namespace) -> Brain:
    if not (folder / "brain.db").exists():
        brain, _, took = await build_synthetic(folder, args.entities, args.exchanges)
        print(f"built the SQLite brain in {took:.0f} s")
        return brain
    return await Brain.open(folder, embedder=None, background_indexing=False)


async def _probe(url: str, args: argparse.Namespace) -> None:
    pg = await _open(url, args.folder / "brain", None)
    sq = await _sqlite(args.folder / "sqlite", args)
    try:
        rec = CallerRecorder(pg.store.conn)  # type: ignore[attr-defined]
        synth = Synth()
        synth.entities(args.entities)
        synth.exchanges(args.exchanges)
        messages = synth.messages(args.messages)
        bridges = {"SQLite": Bridge(sq), "PostgreSQL": Bridge(pg)}
        brains = {"SQLite": sq, "PostgreSQL": pg}
        for b in bridges.values():
            await b.enrich(messages[0], None)
        took: dict[str, list[float]] = {k: [] for k in bridges}
        sql_ms: list[float] = []
        per_enrich: list[int] = []
        by_sql: Counter[str] = Counter()
        by_caller: Counter[str] = Counter()
        calls: Counter[str] = Counter()
        for i, message in enumerate(messages):
            session = Session(f"bench-{i % 50}", message_count=i // 50)
            order = list(bridges) if i % 2 == 0 else list(reversed(bridges))
            for who in order:
                if who == "PostgreSQL":
                    rec.calls.clear()
                    rec.on = True
                started = time.perf_counter()
                if args.search:
                    await brains[who].search(message, 10)
                else:
                    await bridges[who].enrich(message, session)
                took[who].append((time.perf_counter() - started) * 1000)
                rec.on = False
                await bridges[who].drain()
            sql_ms.append(sum(c[1] for c in rec.calls))
            per_enrich.append(len(rec.calls))
            for sql, ms, caller in rec.calls:
                key = " ".join(sql.split())[:110]
                by_sql[key] += ms
                by_caller[caller] += ms
                calls[key] += 1
                calls[caller] += 1
        n = len(messages)
        what = "search" if args.search else "enrich"
        for who, t in took.items():
            print(
                f"{who:10s} {what} p50 {percentile(t, 0.5):6.1f}  p95 {percentile(t, 0.95):6.1f} ms"
            )
        pg_t, sq_t = took["PostgreSQL"], took["SQLite"]
        print(
            f"PostgreSQL / SQLite x{percentile(pg_t, 0.5) / percentile(sq_t, 0.5):.2f}"
            f" / x{percentile(pg_t, 0.95) / percentile(sq_t, 0.95):.2f}"
        )
        print(
            f"PostgreSQL statements per {what} {sum(per_enrich) / n:.1f}; time in them"
            f" p50 {percentile(sql_ms, 0.5):.1f} ms, mean {sum(sql_ms) / n:.1f} ms"
            f" of mean {sum(pg_t) / n:.1f}"
        )
        print(f"\nby caller (ms per {what} | statements per {what}):")
        for caller, ms in by_caller.most_common(14):
            print(f"  {ms / n:7.2f} | {calls[caller] / n:5.2f}  {caller}")
        print(f"\nby statement (ms per {what} | statements per {what}):")
        for key, ms in by_sql.most_common(14):
            print(f"  {ms / n:7.2f} | {calls[key] / n:5.2f}  {key}")
    finally:
        await pg.close()
        await sq.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--exchanges", type=int, default=200_000)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/probe-person"))
    parser.add_argument("--search", action="store_true", help="time search, not enrich")
    args = parser.parse_args()
    server = EmbeddedServer.start(args.folder / "pg", keep_running=True)
    args.explain = 0
    url = asyncio.run(_ensure(server, args.folder / "brain", args))
    asyncio.run(_probe(url, args))


if __name__ == "__main__":
    main()
