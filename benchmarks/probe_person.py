"""A quick probe of PostgreSQL search as the owner and as a person, on the same messages.

Builds (once, kept in FOLDER between runs) a synthetic brain of ENTITIES knowledge rows
+ EXCHANGES chat exchanges in an embedded PostgreSQL server left running, adds a person
of the shared workspace, then searches the same messages as the owner and as the person,
interleaved, timing every statement each search runs. Prints p50 / p95 of both, the
statements per search, the person's slowest statements beside the owner's same
statement, and EXPLAIN (ANALYZE, BUFFERS) of the slowest ones as each.

Run: PYTHONPATH=src:. python -m benchmarks.probe_person [--entities 20000]
     [--exchanges 40000] [--messages 200] [--explain 3] [--folder /tmp/probe-person]
     [--stop]  (stops the server kept running)
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.bench_bridge import Synth, build_synthetic
from benchmarks.timing import percentile
from brainbridge.brain import Brain
from brainbridge.store.postgres import people
from brainbridge.store.postgres.embedded import EmbeddedServer

PERSON = "probe"


class Recorder:
    """Times every statement a connection runs (sql, params, ms), while `on`."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.calls: list[tuple[str, Any, float]] = []
        self.on = False
        inner: Callable[..., Any] = conn.execute

        def execute(sql: str, params: Any = ()) -> Any:
            started = time.perf_counter()
            cur = inner(sql, params)
            if self.on:
                self.calls.append((sql, params, (time.perf_counter() - started) * 1000))
            return cur

        conn.execute = execute


async def _open(url: str, folder: Path, user: str | None) -> Brain:
    return await Brain.open(
        folder,
        embedder=None,
        background_indexing=False,
        database_url=url,
        user=user,
        workspace="main" if user else None,
    )


async def _ensure(server: EmbeddedServer, folder: Path, args: argparse.Namespace) -> str:
    name = f"probe_{args.entities}_{args.exchanges}"
    url = server.create_database(name)
    brain = await _open(url, folder, None)
    try:
        if (await brain.stats())["entities"] == 0:
            await brain.close()
            brain, _, took = await build_synthetic(folder, args.entities, args.exchanges, url)
            print(f"built {args.entities} + {args.exchanges} rows in {took:.0f} s")
            brain.store.conn.execute("ANALYZE")  # type: ignore[attr-defined]
        if not any(p.name == PERSON for p in people.people(brain.store.conn)):  # type: ignore[attr-defined]
            people.add(brain.store.conn, PERSON)  # type: ignore[attr-defined]
    finally:
        await brain.close()
    return url


async def _search(brain: Brain, rec: Recorder, message: str) -> tuple[float, list[Any]]:
    rec.calls.clear()
    rec.on = True
    started = time.perf_counter()
    await brain.search(message, 10)
    took = (time.perf_counter() - started) * 1000
    rec.on = False
    return took, list(rec.calls)


def _explain(conn: Any, sql: str, params: Any) -> str:
    text = "EXPLAIN (ANALYZE, BUFFERS) " + sql
    rows = conn.execute(text, params).fetchall()
    return "\n".join(str(r[0]) for r in rows)


async def _probe(url: str, folder: Path, args: argparse.Namespace) -> None:
    owner, person = await _open(url, folder, None), await _open(url, folder, PERSON)
    try:
        recs = {
            "owner": Recorder(owner.searcher.store.conn),
            "person": Recorder(person.searcher.store.conn),
        }
        brains = {"owner": owner, "person": person}
        synth = Synth()  # as the build made it, so its names are the brain's
        synth.entities(args.entities)
        synth.exchanges(args.exchanges)
        messages = synth.messages(args.messages)
        for b in brains.values():  # warm caches (averages, counts) alike
            await b.search(messages[0], 10)
        took: dict[str, list[float]] = {k: [] for k in brains}
        statements: dict[str, list[int]] = {k: [] for k in brains}
        slow: list[tuple[float, float, str, Any, str]] = []
        for i, message in enumerate(messages):
            order = ("owner", "person") if i % 2 == 0 else ("person", "owner")
            calls = {}
            for who in order:
                t, calls[who] = await _search(brains[who], recs[who], message)
                took[who].append(t)
                statements[who].append(len(calls[who]))
            for sql, params, ms in calls["person"]:
                same = [c[2] for c in calls["owner"] if c[0] == sql and c[1] == params]
                slow.append((ms, same[0] if same else -1.0, sql, params, message))
        for who in brains:
            t = took[who]
            print(
                f"{who:7s} search p50 {percentile(t, 0.5):6.1f}  p95 {percentile(t, 0.95):6.1f}"
                f"  max {max(t):6.1f} ms;  statements/search"
                f" {sum(statements[who]) / len(statements[who]):.1f}"
            )
        r50 = percentile(took["person"], 0.5) / percentile(took["owner"], 0.5)
        r95 = percentile(took["person"], 0.95) / percentile(took["owner"], 0.95)
        print(f"person / owner  x{r50:.2f} / x{r95:.2f}")
        total = {k: sum(c[0] for c in slow if c[2] == k) for k in {c[2] for c in slow}}
        print("\nstatements by the person's total time (person ms | owner ms | calls):")
        for sql, ms in sorted(total.items(), key=lambda kv: -kv[1])[:8]:
            same = [c for c in slow if c[2] == sql]
            owner_ms = sum(max(c[1], 0) for c in same)
            print(f"  {ms:8.1f} | {owner_ms:8.1f} | {len(same):4d}  {' '.join(sql.split())[:150]}")
        slow.sort(key=lambda s: -s[0])
        print("\nslowest statements of the person (person ms / owner ms on the same):")
        for ms, owner_ms, sql, _, message in slow[:10]:
            print(f"  {ms:7.1f} / {owner_ms:7.1f}  {' '.join(sql.split())[:120]}  <- {message!r}")
        for _, _, sql, params, message in slow[: args.explain]:
            print(f"\n=== {message!r}: {' '.join(sql.split())[:200]}\n{params!r}"[:600])
            for who in ("person", "owner"):
                conn = brains[who].searcher.store.conn
                plan = await brains[who]._run(_explain, conn, sql, params)
                print(f"--- as {who}\n{plan}")
    finally:
        await owner.close()
        await person.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entities", type=int, default=20_000)
    parser.add_argument("--exchanges", type=int, default=40_000)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--explain", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=Path("/tmp/probe-person"))
    parser.add_argument("--stop", action="store_true")
    args = parser.parse_args()
    server = EmbeddedServer.start(args.folder / "pg", keep_running=not args.stop)
    if args.stop:
        server.stop()
        return
    url = asyncio.run(_ensure(server, args.folder / "brain", args))
    asyncio.run(_probe(url, args.folder / "brain", args))


if __name__ == "__main__":
    main()
