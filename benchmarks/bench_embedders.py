"""Embedders side by side (#34): query cost, and how soon a turn's vector is ready.

On LoCoMo's tuned conversations (1-3; timing only, nothing is scored here), each
consecutive pair of turns stored as one chat exchange, as the bridge stores a turn:

- raw rate: the embedder alone on each exchange's embed text, one text per turn, in
  batches of 64 (the rate nothing can beat);
- bulk: `upsert_many` with the background indexer on; writes alone, then until every
  vector is written ("vectors ready"), against the target: within 1.2x of the raw rate;
- per turn: the same exchanges through `Bridge.observe_now`, one turn at a time;
- MiniLM with the exchanges' sentence vectors (the default layout; without them,
  `BRAIN_EXCHANGE_SENTENCES=0`, is what the 1.2x target is stated for), embedded apart
  (the default) or pooled from the pass over the whole text (`BRAIN_POOL_SENTENCES=1`);
- one query embedded alone, p50 / p95.

Run: PYTHONPATH=src python -m benchmarks.bench_embedders [--quick]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks import locomo_data
from benchmarks.bench_locomo import SPLITS
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.embed import load_embedder
from brainbridge.ports import Embedder
from brainbridge.search import parts

TUNED = list(SPLITS.values())[0]
TARGET = 1.2


@contextmanager
def exchange_sentences(on: bool, pooled: bool = False) -> Iterator[None]:
    """Exchanges embedded with their sentence vectors (the default) or without, and the
    sentences embedded apart (the default) or pooled from the whole text's pass."""
    before = parts.EXCHANGE_SENTENCES, parts.POOL_SENTENCES
    parts.EXCHANGE_SENTENCES, parts.POOL_SENTENCES = on, pooled
    try:
        yield
    finally:
        parts.EXCHANGE_SENTENCES, parts.POOL_SENTENCES = before


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _rows(conversations: list[dict[str, Any]]) -> list[tuple[str, str, str, dict[str, Any]]]:
    """The exchanges `locomo_data.ingest` stores, captured instead of written."""
    out: list[tuple[str, str, str, dict[str, Any]]] = []

    class Capture:
        async def upsert_many(self, rows: Any) -> list[Any]:
            out.extend(rows)
            return []

    for c in conversations:
        await locomo_data.ingest(Capture(), c)  # type: ignore[arg-type]
    return out


def raw_rate(embedder: Embedder, texts: list[str]) -> float:
    """Texts per second through the embedder alone, in batches of 64."""
    started = time.perf_counter()
    for i in range(0, len(texts), 64):
        embedder.embed(texts[i : i + 64])
    return len(texts) / (time.perf_counter() - started)


async def bulk(folder: Path, name: str, rows: list[Any]) -> dict[str, float]:
    """`upsert_many` with background indexing: (writes, vectors ready) seconds."""
    brain = await Brain.open(folder, embedder=name, background_indexing=True)
    try:
        assert brain.embedder is not None
        brain.embedder.embed(["warm up"])  # loading the model is not ingest
        started = time.perf_counter()
        for i in range(0, len(rows), 500):
            await brain.upsert_many(rows[i : i + 500])
        writes = time.perf_counter() - started
        await brain.wait_for_vectors()
        ready = time.perf_counter() - started
        stats = await brain.stats()
        assert not stats["pending_vectors"], stats
        return {"writes": writes, "ready": ready}
    finally:
        await brain.close()


async def per_turn(folder: Path, name: str, rows: list[Any]) -> dict[str, float]:
    """Each exchange through `observe_now`, background indexing on."""
    brain = await Brain.open(folder, embedder=name, background_indexing=True)
    try:
        assert brain.embedder is not None
        brain.embedder.embed(["warm up"])
        bridge = Bridge(brain)
        started = time.perf_counter()
        for _, _, _, attrs in rows:
            await bridge.observe_now(
                attrs["session_id"],
                attrs["exchange_number"],
                attrs["user_message"],
                attrs["ai_response"],
                attributes={"date": attrs["session_date"]},
            )
        await bridge.drain()
        writes = time.perf_counter() - started
        await brain.wait_for_vectors()
        return {"writes": writes, "ready": time.perf_counter() - started}
    finally:
        await brain.close()


async def _run(quick: bool) -> str:
    data = locomo_data.load_conversations(locomo_data.locomo_path())
    chosen = TUNED[:1] if quick else TUNED
    rows = await _rows([data[c] for c in chosen])
    if quick:
        rows = rows[:200]
    texts = [f"{name} ({etype}): {desc}" for etype, name, desc, _ in rows]
    questions = [q.text for c in TUNED for q in locomo_data.questions(data[c])][:200]
    n = len(rows)
    lines = [
        "## Embedders: query cost and ingest (#34)",
        "",
        f"{os.cpu_count()} CPUs, load average at start {os.getloadavg()[0]:.1f}. LoCoMo"
        f" conversations {', '.join(str(c + 1) for c in chosen)}: {n:,} exchanges (a pair"
        " of turns each). Rates in exchanges per second; target:"
        f" vectors ready within {TARGET}x of the embedder's raw rate, or of the writes' rate"
        " where writing alone is slower than the embedder.",
        "",
        "| embedder | layout | query p50 / p95 ms | raw rate /s | bulk: writes /s"
        " | bulk: vectors ready /s (target) | per turn: writes /s | per turn: vectors ready /s"
        " (target) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory(prefix="bench-embedders-") as tmp:
        root = Path(tmp)
        # One text per exchange (the rate the target is stated for), then MiniLM with the
        # exchanges' sentence vectors (the default layout), to show what they cost.
        cases = [("static", False, False), ("minilm", False, False)]
        if not quick:
            cases += [("minilm", True, False), ("minilm", True, True)]
        for name, sentences, pooled in cases:
            embedder = load_embedder(name)
            assert embedder is not None
            embedder.embed(["warm up"])
            query = []
            for q in questions:
                started = time.perf_counter()
                embedder.embed([q])
                query.append(time.perf_counter() - started)
            with exchange_sentences(sentences, pooled):
                said = [parts.parts_of(t) for t in texts]
                per_text = 1 + statistics.mean(len(s) for s in said)
                raw = raw_rate(embedder, texts)
                label = f"{name}{'-sentences' if sentences else ''}{'-pooled' if pooled else ''}"
                b = await bulk(root / f"bulk-{label}", name, rows)
                t = await per_turn(root / f"turn-{label}", name, rows)

            def verdict(rate: float, writes: float, raw: float = raw) -> str:
                # When writing is slower than embedding, vectors cannot be ready sooner.
                target = min(raw, writes) / TARGET
                return f"**{rate:,.0f}** ({'met' if rate >= target else 'missed'}: ≥ {target:,.0f})"

            # Pooled (BRAIN_POOL_SENTENCES=1), MiniLM takes sentence vectors from its pass
            # over the whole text: one model pass per exchange (`embed_parts`).
            layout = "whole + sentences" if sentences else "whole"
            lines.append(
                f"| {name} | {layout} ({per_text:.1f} vectors per exchange"
                f"{', pooled from 1 model pass' if pooled else ''}) | {_pct(query, 0.5) * 1e3:.2f} /"
                f" {_pct(query, 0.95) * 1e3:.2f} | {raw:,.0f} | {n / b['writes']:,.0f}"
                f" | {verdict(n / b['ready'], n / b['writes'])} | {n / t['writes']:,.0f}"
                f" | {verdict(n / t['ready'], n / t['writes'])} |"
            )
    lines += [
        "",
        "- raw rate: one text per exchange, batches of 64, the embedder alone; vectors ready:"
        " from the first write until the background indexer has written the last vector.",
        f"- _load average at end {os.getloadavg()[0]:.1f}; timings are wall-clock on a shared"
        " machine._",
    ]
    return "\n".join(lines)


def run(quick: bool = False) -> str:
    """The embedders' query cost and ingest rates as Markdown."""
    return asyncio.run(_run(quick))


if __name__ == "__main__":
    started = time.perf_counter()
    print(run(quick="--quick" in sys.argv[1:]))
    print(f"wall time {time.perf_counter() - started:.0f} s", file=sys.stderr)
