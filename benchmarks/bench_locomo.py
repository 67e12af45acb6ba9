"""LoCoMo evidence recall: our search against plain turn-level BM25, in the same run.

For each conversation a fresh brain in a temporary folder; its turns are ingested
through the public API as Chat_Exchange entities (`locomo_data.ingest`), either one
turn or two consecutive turns per exchange. Each question of categories 1-4 is then
searched as it is written; recall@k is the share of its evidence turns (dia_ids)
inside the top k exchanges. Nothing reads the gold labels except the scoring.

Run: python -m benchmarks --only locomo [--quick]
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.locomo_baseline import TurnBM25
from benchmarks.locomo_data import (
    UNITS,
    Question,
    ingest,
    items,
    load_conversations,
    locomo_path,
    questions,
    turn_text,
    turns,
)
from benchmarks.synth import noise_query
from benchmarks.timing import percentile
from benchmarks.vector_cache import CachingEmbedder
from brainbridge.brain import Brain
from brainbridge.embed import load_embedder
from brainbridge.model import Hit
from brainbridge.ports import Embedder
from brainbridge.search import SearchOptions

KS = (1, 5, 10, 20)
# Conversations 1-3 are what retrieval was tuned on; 4-5 are scored, never tuned on.
SPLITS = {"tuned on (conversations 1-3)": (0, 1, 2), "untuned (conversations 4-5)": (3, 4)}
CATEGORIES = (1, 2, 3, 4)
BUDGET_CHARS = 6000  # ~1500 tokens, the bridge's default block budget
NOISE_QUERIES = 20
# Enough items to fill the budget with single turns (~150 characters each).
FETCH = 60
CHARS_PER_TOKEN = 4.0

# Named recipes, compared side by side; "default" is what Brain.search uses.
RECIPES: dict[str, SearchOptions] = {
    "BM25 only (product index, no vectors)": SearchOptions(
        vectors=False, context_weight=0.0, fusion="rrf"
    ),
    "hybrid, RRF, no context (the first version)": SearchOptions(
        candidates=40,
        fusion="rrf",
        context_weight=0.0,
        weights=(("bm25", 1.0), ("vector", 1.0), ("graph", 0.5)),
    ),
    "hybrid, convex fusion, no context": SearchOptions(context_weight=0.0),
    "default with context one exchange away only": SearchOptions(context_reach=1),
    "default: convex fusion + conversation context": SearchOptions(),
    "default without the relevance floor": SearchOptions(
        min_coverage=0.0, min_cosine=-1.0, min_margin=-1.0, min_cosine_unknown_words=-1.0
    ),
}
QUICK_RECIPES = (
    "BM25 only (product index, no vectors)",
    "default: convex fusion + conversation context",
)


@dataclass
class Score:
    """Recall accumulators for one recipe on one unit."""

    at: dict[int, list[float]] = field(default_factory=lambda: {k: [] for k in KS})
    by_cat: dict[int, list[float]] = field(default_factory=lambda: {c: [] for c in CATEGORIES})
    budgeted: list[float] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)

    def add(
        self, q: Question, ranked: list[tuple[set[str], str]], wide: list[tuple[set[str], str]]
    ) -> None:
        """Score the top-20 list, and the budget filled from a longer list of the same search."""
        for k in KS:
            self.at[k].append(_covered(q, [ids for ids, _ in ranked[:k]]))
        self.by_cat[q.category].append(self.at[10][-1])
        used, fitting = 0, []
        for ids, text in wide:
            used += len(text) + 1
            if used > BUDGET_CHARS:
                break
            fitting.append(ids)
        self.budgeted.append(_covered(q, fitting))


def _listed(hits: list[Hit]) -> list[tuple[set[str], str]]:
    return [(set(h.entity.attributes["dia_ids"]), h.entity.description) for h in hits]


def _covered(q: Question, groups: list[set[str]]) -> float:
    seen = set().union(*groups) if groups else set()
    return sum(e in seen for e in q.evidence) / len(q.evidence)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


async def evaluate(
    convs: list[dict[str, Any]],
    unit: str,
    recipes: dict[str, SearchOptions],
    folder: Path,
    embedder: Embedder | None,
    database_url: Callable[[], str] | None = None,
) -> tuple[dict[str, Score], dict[str, Any]]:
    """Ingest each conversation into a fresh brain under `folder` and score every recipe;
    `database_url()` names an empty database for each (default: a brain file each)."""
    scores = {name: Score() for name in recipes}
    st: dict[str, Any] = dict.fromkeys(("items", "ingest_s", "noise", "noise_hits"), 0)
    st["splits"] = {name: {split: Score() for split in SPLITS} for name in recipes}
    groups = [g for c in convs for g in items(c, unit)]
    st["tokens"] = (
        sum(len(turn_text(t)) for g in groups for t in g) / CHARS_PER_TOKEN / max(1, len(groups))
    )
    for i, conv in enumerate(convs):
        brain = await Brain.open(
            folder / f"{unit}-{i}",
            embedder=embedder,
            background_indexing=False,
            database_url=database_url() if database_url else "",
        )
        try:
            started = time.perf_counter()
            st["items"] += await ingest(brain, conv, unit)
            st["ingest_s"] += time.perf_counter() - started
            await brain.index_vectors()
            for q in questions(conv):
                for name, options in recipes.items():
                    started = time.perf_counter()
                    hits = await brain.search(q.text, max(KS), options=options)
                    scores[name].latency_ms.append((time.perf_counter() - started) * 1000)
                    wide = await brain.search(q.text, FETCH, options=options)
                    scores[name].add(q, _listed(hits), _listed(wide))
                    for split, members in SPLITS.items():
                        if i in members:
                            st["splits"][name][split].add(q, _listed(hits), _listed(wide))
            rng = random.Random(conv["sample_id"])
            for _ in range(NOISE_QUERIES):
                st["noise"] += 1
                st["noise_hits"] += bool(await brain.search(noise_query(rng), 10))
        finally:
            await brain.close()
    return scores, st


async def _run(quick: bool) -> str:
    convs = load_conversations()[:1] if quick else load_conversations()
    names = QUICK_RECIPES if quick else tuple(RECIPES)
    recipes = {name: RECIPES[name] for name in names}
    baseline = Score()
    for conv in convs:
        bm25 = TurnBM25(turns(conv))
        for q in questions(conv):
            ranked = bm25.search(q.text, FETCH)
            baseline.add(q, ranked, ranked)
    inner = load_embedder("auto")
    embedder = CachingEmbedder(inner, "locomo") if inner else None
    results: dict[str, dict[str, Score]] = {}
    stats: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-locomo-") as tmp:
            for unit in UNITS:
                results[unit], stats[unit] = await evaluate(
                    convs, unit, recipes, Path(tmp), embedder
                )
    finally:
        if isinstance(embedder, CachingEmbedder):
            embedder.save()
    return report(convs, baseline, results, stats, time.perf_counter() - started, quick)


def report(
    convs: list[dict[str, Any]],
    baseline: Score,
    results: dict[str, dict[str, Score]],
    stats: dict[str, dict[str, Any]],
    elapsed: float,
    quick: bool,
) -> str:
    """The results as Markdown tables."""
    n = len(baseline.at[1])
    turn_tokens = (
        sum(len(t.text) for c in convs for t in turns(c))
        / CHARS_PER_TOKEN
        / max(1, sum(len(turns(c)) for c in convs))
    )
    embedder = load_embedder("auto")
    lines = [
        f"Data: `{locomo_path().name}`, {len(convs)} conversation(s), n = {n} questions of "
        f"categories 1-4 (category 5 excluded). Embedder: "
        f"{embedder.name if embedder else 'none'}. Tokens/item estimated at "
        f"{CHARS_PER_TOKEN:g} characters per token. "
        f"Recall@k = share of a question's evidence turns inside the top k items; "
        f"budgeted = inside the best items that fit {BUDGET_CHARS:,} characters (~1500 tokens).",
        "",
        "| unit | recipe | tokens/item | @1 | @5 | @10 | @20 | budgeted | "
        + " | ".join(f"cat {c} @10" for c in CATEGORIES)
        + " | p50 / p95 ms |",
        "|---|---|---|---|---|---|---|---|" + "---|" * len(CATEGORIES) + "---|",
        _row(
            "turn",
            "baseline: plain turn-level BM25 (FTS5, question as written)",
            turn_tokens,
            baseline,
        ),
    ]
    for unit, scores in results.items():
        for name, score in scores.items():
            lines.append(_row(unit, name, stats[unit]["tokens"], score))
    if len(convs) > max(i for m in SPLITS.values() for i in m):
        lines += [
            "",
            "By split (the untuned conversations were never looked at while tuning):",
            "",
            "| unit | recipe | " + " | ".join(f"{s} @10 / budgeted" for s in SPLITS) + " |",
            "|---|---|" + "---|" * len(SPLITS),
        ]
        for unit, st in stats.items():
            for name, by_split in st["splits"].items():
                cells = [
                    f"{_mean(sc.at[10]):.3f} / {_mean(sc.budgeted):.3f} (n={len(sc.at[10])})"
                    for sc in by_split.values()
                ]
                lines.append(f"| {unit} | {name} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| unit | items | ingest (items/s, BM25-searchable) | noise queries with any result |",
        "|---|---|---|---|",
    ]
    for unit, st in stats.items():
        lines.append(
            f"| {unit} | {st['items']:,} | {st['items'] / max(st['ingest_s'], 1e-9):,.0f} | "
            f"{st['noise_hits']} of {st['noise']} |"
        )
    lines += [
        "",
        f"Suite time {elapsed:.0f} s{' (quick: first conversation only)' if quick else ''}.",
    ]
    return "\n".join(lines) + "\n"


def _row(unit: str, name: str, tokens: float, s: Score) -> str:
    cells = [f"{_mean(s.at[k]):.3f}" for k in KS]
    cats = [f"{_mean(s.by_cat[c]):.2f} (n={len(s.by_cat[c])})" for c in CATEGORIES]
    lat = s.latency_ms
    timing = f"{percentile(lat, 0.5):.1f} / {percentile(lat, 0.95):.1f}" if lat else "-"
    return (
        f"| {unit} | {name} | {tokens:.0f} | "
        + " | ".join(cells)
        + f" | {_mean(s.budgeted):.3f} | "
        + " | ".join(cats)
        + f" | {timing} |"
    )


def run(quick: bool = False) -> str:
    """Run the suite and return its report as Markdown."""
    return asyncio.run(_run(quick))


if __name__ == "__main__":
    import sys

    print(run(quick="--quick" in sys.argv[1:]))
