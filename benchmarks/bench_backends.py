"""SQLite and PostgreSQL side by side, in one run: the same brain, the same queries.

For each backend a synthetic brain of 100k knowledge entities + 200k chat exchanges
(`bench_bridge.Synth`) goes in through `Brain.upsert_many`; then search (top 10, no
vectors: text + graph + context, as the hooks' cold path) and the bridge's `enrich`
are timed on the same 400 messages. PostgreSQL is the embedded server
(`store/postgres/embedded.py`, PostgreSQL 18 on a Unix socket on this machine).

The PostgreSQL brain is timed again as a person of a team brain (through the workspace
views, `store/postgres/people.py`); 20 writer processes write into one brain on each
backend (nothing may be lost; p95 write latency); and LoCoMo evidence recall is scored on
both (their text ranking differs: FTS5's BM25 against BM25F-like SQL). Each ratio is shown
beside its target: PostgreSQL within 2x of the file, a person within 1.2x of the owner,
ingest at least half the file's rate. The 1M-row point is its own, slower suite
(`bench_backends_large.py`, about 25 minutes here).

Run: python -m benchmarks --only backends [--quick]
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from benchmarks.bench_bridge import Synth, build_synthetic, enrich_latency
from benchmarks.bench_locomo import RECIPES, evaluate
from benchmarks.locomo_data import load_conversations
from benchmarks.timing import p50_p95, percentile
from benchmarks.vector_cache import CachingEmbedder
from benchmarks.writer import run_writers
from brainbridge.brain import Brain
from brainbridge.embed import load_embedder
from brainbridge.store.postgres.embedded import EmbeddedServer

FULL = {"entities": 100_000, "exchanges": 200_000, "large": 1_000_000, "messages": 400}
QUICK = {"entities": 5_000, "exchanges": 10_000, "large": 50_000, "messages": 100}
WRITERS, UPSERTS = 20, 100
BACKENDS = ("SQLite", "PostgreSQL")
LOCOMO_RECIPES = (
    "BM25 only (product index, no vectors)",
    "default: convex fusion + conversation context",
)


async def _timed_search(brain: Brain, messages: list[str]) -> list[float]:
    took = []
    for message in messages:
        started = time.perf_counter()
        await brain.search(message, 10)
        took.append((time.perf_counter() - started) * 1000)
    return took


async def _measure(brain: Brain, messages: list[str]) -> dict[str, Any]:
    stats = await brain.stats()
    search = await _timed_search(brain, messages)
    enrich = await enrich_latency(brain, messages)
    enrich_ms = [t * 1000 for ts in enrich["by"].values() for t in ts]
    return {
        "rows": stats["entities"],
        "bytes": stats["bytes"],
        "search": search,
        "enrich": enrich_ms,
    }


async def _one_backend(folder: Path, url: str, cfg: dict[str, int]) -> dict[str, Any]:
    brain, synth, build_s = await build_synthetic(folder, cfg["entities"], cfg["exchanges"], url)
    try:
        messages = synth.messages(cfg["messages"])
        out = await _measure(brain, messages)
        out["ingest_per_s"] = (cfg["entities"] + cfg["exchanges"]) / build_s
        out["messages"] = messages
    finally:
        await brain.close()
    return out


async def _as_person(folder: Path, url: str, messages: list[str]) -> dict[str, Any]:
    """The PostgreSQL brain measured again through a person's eyes: a member of the
    shared workspace, whose every statement goes through the workspace views."""
    from brainbridge.store.postgres import people

    owner = await Brain.open(folder, embedder=None, background_indexing=False, database_url=url)
    try:
        await owner._run(people.add, owner.store.conn, "bench")  # type: ignore[attr-defined]
    finally:
        await owner.close()
    brain = await Brain.open(
        folder,
        embedder=None,
        background_indexing=False,
        database_url=url,
        user="bench",
        workspace="main",
    )
    try:
        return await _measure(brain, messages)
    finally:
        await brain.close()


async def _grow(folder: Path, url: str, cfg: dict[str, int], messages: list[str]) -> dict[str, Any]:
    """The PostgreSQL brain grown to `large` rows with more knowledge entities, measured
    on the same messages."""
    brain = await Brain.open(folder, embedder=None, background_indexing=False, database_url=url)
    try:
        synth = Synth(seed=11)
        have = (await brain.stats())["entities"]
        rows = synth.entities(cfg["large"] - have)
        started = time.perf_counter()
        for k in range(0, len(rows), 5000):
            await brain.upsert_many(
                [(t, f"{n} #{k + i}", d, a) for i, (t, n, d, a) in enumerate(rows[k : k + 5000])]
            )
        grow_s = time.perf_counter() - started
        out = await _measure(brain, messages)
        out["ingest_per_s"] = len(rows) / grow_s
    finally:
        await brain.close()
    return out


async def _locomo(root: Path, server: EmbeddedServer, quick: bool) -> dict[str, dict[str, float]]:
    """Turn-level recall@10 and budgeted recall of two recipes, on each backend."""
    convs = load_conversations()[:1] if quick else load_conversations()
    embedder = CachingEmbedder(load_embedder("minilm"), "minilm")
    recipes = {name: RECIPES[name] for name in LOCOMO_RECIPES}
    out: dict[str, dict[str, float]] = {}
    for backend in BACKENDS:
        with ExitStack() as stack:

            def fresh(stack: ExitStack = stack, backend: str = backend) -> str:
                if backend == "SQLite":
                    return ""
                return stack.enter_context(server.fresh_database("locomo"))

            scores, _ = await evaluate(
                convs, "turn", recipes, root / f"locomo-{backend}", embedder, database_url=fresh
            )
        for name, score in scores.items():
            out[f"{backend}|{name}"] = {
                "@10": sum(score.at[10]) / len(score.at[10]),
                "budgeted": sum(score.budgeted) / len(score.budgeted),
                "n": len(score.at[10]),
            }
    return out


async def _run(quick: bool) -> str:
    cfg = QUICK if quick else FULL
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-backends-") as tmp:
        root = Path(tmp)
        server = EmbeddedServer.start(root / "pg")
        try:
            results = {}
            with server.fresh_database("bench") as url:
                for backend, db in zip(BACKENDS, ("", url), strict=True):
                    results[backend] = await _one_backend(root / backend, db, cfg)
                messages = results["PostgreSQL"]["messages"]
                person = await _as_person(root / "PostgreSQL", url, messages)
            writers = {}
            for backend in BACKENDS:
                with ExitStack() as stack:
                    db = (
                        stack.enter_context(server.fresh_database("writers"))
                        if backend == "PostgreSQL"
                        else ""
                    )
                    writers[backend] = await asyncio.to_thread(
                        run_writers, root / f"w-{backend}", WRITERS, UPSERTS, db
                    )
            locomo = await _locomo(root, server, quick)
        finally:
            server.stop()
    return report(cfg, results, person, writers, locomo, time.perf_counter() - started)


def _ratio(a: list[float], b: list[float], q: float) -> float:
    return percentile(a, q) / max(percentile(b, q), 1e-9)


def report(
    cfg: dict[str, int],
    results: dict[str, dict[str, Any]],
    person: dict[str, Any],
    writers: dict[str, dict[str, Any]],
    locomo: dict[str, dict[str, float]],
    seconds: float,
) -> str:
    sq, pg = results["SQLite"], results["PostgreSQL"]

    def vs(a: list[float], b: list[float], target: float) -> str:
        r50, r95 = _ratio(a, b, 0.5), _ratio(a, b, 0.95)
        ok = "met" if max(r50, r95) <= target else "NOT met"
        return f"×{r50:.2f} / ×{r95:.2f} (≤ ×{target}: {ok})"

    ingest = pg["ingest_per_s"] / max(sq["ingest_per_s"], 1e-9)
    lines = [
        f"Synthetic brain: {cfg['entities']:,} knowledge entities + {cfg['exchanges']:,} chat"
        f" exchanges through `upsert_many` (batches of 5,000), no vectors; {cfg['messages']}"
        " messages searched (top 10) and enriched (local judge). PostgreSQL 18.6 is the"
        " embedded server on this machine (Unix socket). p50 / p95 ms.",
        "",
        "| | SQLite | PostgreSQL (owner) | PostgreSQL (a person) | PostgreSQL / SQLite p50 / p95 |"
        " person / owner p50 / p95 |",
        "|---|---|---|---|---|---|",
        f"| rows | {sq['rows']:,} | {pg['rows']:,} | {person['rows']:,} | | |",
        f"| ingest (rows/s) | {sq['ingest_per_s']:,.0f} | {pg['ingest_per_s']:,.0f} | |"
        f" ×{ingest:.2f} (≥ ×0.5: {'met' if ingest >= 0.5 else 'NOT met'}) | |",
        f"| size on disk | {sq['bytes'] / 2**20:,.0f} MB | {pg['bytes'] / 2**20:,.0f} MB | | | |",
        f"| search | {p50_p95(sq['search'])} | {p50_p95(pg['search'])} |"
        f" {p50_p95(person['search'])} | {vs(pg['search'], sq['search'], 2)} |"
        f" {vs(person['search'], pg['search'], 1.2)} |",
        f"| enrich | {p50_p95(sq['enrich'])} | {p50_p95(pg['enrich'])} |"
        f" {p50_p95(person['enrich'])} | {vs(pg['enrich'], sq['enrich'], 2)} |"
        f" {vs(person['enrich'], pg['enrich'], 1.2)} |",
        "",
        f"{WRITERS} writer processes × {UPSERTS} upserts (one transaction each) into one brain:",
        "",
        "| | writes/s | stored | errors | write p50 / p95 ms |",
        "|---|---|---|---|---|",
    ]
    for backend in BACKENDS:
        w = writers[backend]
        lost = w["expected"] - w["stored"]
        lines.append(
            f"| {backend} | {w['writes_per_s']:,.0f} | {w['stored']:,} of {w['expected']:,}"
            f" ({'nothing lost' if lost == 0 else f'{lost} LOST'}) | {len(w['errors'])} |"
            f" {p50_p95(w['latency'])} |"
        )
    lines += [
        "",
        "LoCoMo, turn level, every conversation of the dev file (MiniLM vectors):",
        "",
        "| recipe | SQLite @10 / budgeted | PostgreSQL @10 / budgeted |",
        "|---|---|---|",
    ]
    for name in LOCOMO_RECIPES:
        a, b = locomo[f"SQLite|{name}"], locomo[f"PostgreSQL|{name}"]
        lines.append(
            f"| {name} | {a['@10']:.3f} / {a['budgeted']:.3f} |"
            f" {b['@10']:.3f} / {b['budgeted']:.3f} (n={int(b['n'])}) |"
        )
    lines += ["", f"Suite time {seconds:.0f} s."]
    return "\n".join(lines) + "\n"


def run(quick: bool = False) -> str:
    return asyncio.run(_run(quick))
