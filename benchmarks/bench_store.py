"""The store at 100k entities: ingest, search latency, graph walks, embedding, concurrency.

A deterministic synthetic brain (`synth.py`) goes in through the public API
(`Brain.upsert_many` in batches of 1,000; relations through `Brain.import_jsonl`).
Search latency is measured for ~200 varied queries three ways: plain FTS5 BM25
(the store's `bm25()` alone, the baseline), hybrid search without vectors, and
hybrid search with MiniLM vectors for every entity. Vectors for 100k entities
take ~10 minutes to embed on 2 cores, so they are embedded once and cached under
`benchmarks/.cache/`; embedding throughput is measured separately, live, on the
background indexer.

Vector search alone is measured last, brute force against the clustered index
(`search/ivf.py`) on the same rows, first over the 100k entities, then with 200k
stand-in chat exchanges added (two noisy copies of every entity's vector).

Run: python -m benchmarks --only store [--quick]
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.synth import SyntheticBrain, generate, iter_batches, queries
from benchmarks.timing import ms_since, p50_p95
from benchmarks.vector_cache import cached_vectors
from benchmarks.writer import run_writers
from brainbridge.brain import Brain
from brainbridge.embed import load_embedder
from brainbridge.model import Entity
from brainbridge.search.ivf import IvfParams
from brainbridge.search.parts import vector_model
from brainbridge.search.vectors import VectorIndex
from brainbridge.store.sqlite.store import embed_text

BATCH = 1000
FULL = {"size": 100_000, "embed_seconds": 30.0, "writers": 4, "upserts": 500}
QUICK = {"size": 2_000, "embed_seconds": 5.0, "writers": 2, "upserts": 100}
NOISE = "noise (must find nothing)"
# The chat stand-in: copies of every entity's vector, each with noise of this relative
# norm (cosine ~0.96 to the original); quick mode clusters from 1,000 rows.
CHAT_COPIES, CHAT_NOISE = 2, 0.3
VECTOR_SEARCHES = (
    ("all", {}),
    ("knowledge", {"exclude_types": ["Chat_Exchange"]}),
    ("history", {"entity_types": ["Chat_Exchange"]}),
    ("Person only", {"entity_types": ["Person"]}),
)


async def _ingest(brain: Brain, synthetic: SyntheticBrain, out: dict[str, Any]) -> list[Entity]:
    stored: list[Entity] = []
    started = time.perf_counter()
    for batch in iter_batches(synthetic.entities, BATCH):
        stored += await brain.upsert_many(batch)
        if len(stored) == len(batch):  # the very first batch: searchable at once?
            probe = batch[-1][1]
            hits = await brain.search(probe, 3)
            out["searchable_at_once"] = any(h.entity.name == probe for h in hits)
    out["insert_s"] = time.perf_counter() - started
    lines = (
        json.dumps(
            {
                "kind": "relation",
                "src": {"type": s[0], "name": s[1]},
                "type": rel,
                "dst": {"type": d[0], "name": d[1]},
            }
        )
        for s, rel, d in synthetic.relations
    )
    started = time.perf_counter()
    counts = await brain.import_jsonl(lines)
    out["relations"] = counts["relations"]
    out["relations_s"] = time.perf_counter() - started
    return stored


async def _time_queries(brain: Brain, qs: list[tuple[str, str]], mode: str) -> dict[str, Any]:
    """Latency per query kind, and how many noise queries returned anything."""
    by_kind: dict[str, list[float]] = defaultdict(list)
    noise_hits = 0
    for kind, q in qs:
        started = time.perf_counter()
        if mode == "bm25":
            found = brain.store.bm25(q, 10)
        else:
            found = await brain.search(q, 10)
        by_kind[kind].append(ms_since(started))
        noise_hits += kind == NOISE and bool(found)
    by_kind["all"] = [v for vs in by_kind.values() for v in vs]
    return {"latency": dict(by_kind), "noise_hits": noise_hits}


async def _subgraph(brain: Brain, people: list[Entity]) -> tuple[list[float], float]:
    times, sizes = [], []
    for ent in people:
        started = time.perf_counter()
        sub = await brain.subgraph(ent, hops=2)
        times.append(ms_since(started))
        sizes.append(len(sub.nodes))
    return times, float(np.mean(sizes))


async def _embedding_rate(folder: Path, seconds: float) -> float | None:
    """Vectors/s of the background indexer right after a bulk import."""
    embedder = load_embedder("auto")
    if embedder is None:
        return None
    brain = await Brain.open(folder, embedder=embedder, background_indexing=True)
    try:
        await asyncio.to_thread(embedder.embed, ["warm up"])  # model load is not throughput
        before = (await brain.stats())["vectors"]
        brain._written()  # poke the indexer, as a write would
        await asyncio.sleep(seconds)
        after = (await brain.stats())["vectors"]
    finally:
        await brain.close()
    return (after - before) / seconds


async def _with_vectors(
    folder: Path, stored: list[Entity], out: dict[str, Any]
) -> tuple[Brain, np.ndarray] | None:
    embedder = load_embedder("auto")
    if embedder is None:
        return None
    texts = [embed_text(e.type, e.name, e.description) for e in stored]
    started = time.perf_counter()
    vectors, out["vectors_cached"] = await asyncio.to_thread(cached_vectors, embedder, texts)
    out["vectors_s"] = time.perf_counter() - started
    brain = await Brain.open(folder, embedder=embedder, background_indexing=False)
    await _put_vectors(brain, [e.id for e in stored], vectors)
    assert brain.searcher.index is not None
    brain.searcher.index.cluster_after = None  # brute force, then clustered, both timed
    started = time.perf_counter()
    await brain.search("warm up the vector index", 1)
    out["index_load_ms"] = ms_since(started)
    return brain, vectors


async def _put_vectors(brain: Brain, ids: list[int], vectors: np.ndarray) -> None:
    assert brain.embedder is not None
    for chunk in iter_batches(list(range(len(ids))), 5000):
        items = [(ids[i], vectors[i].astype(np.float32).tobytes()) for i in chunk]
        await brain._run(brain.store.put_vectors, vector_model(brain.embedder), items)


def _time_nearest(index: VectorIndex, queries: np.ndarray, kinds: list[str]) -> dict[str, Any]:
    """Per kind of search: ms per `nearest(k=60)` (what hybrid search asks) and its ids."""
    out: dict[str, Any] = {}
    for name, filters in VECTOR_SEARCHES:
        if name not in kinds:
            continue
        times, found = [], []
        for q in queries:
            started = time.perf_counter()
            hits, _ = index.nearest(q, 60, **filters)
            times.append(ms_since(started))
            found.append([eid for eid, _ in hits])
        out[name] = {"ms": times, "found": found}
    return out


def _cells(brain: Brain, queries: np.ndarray, params: IvfParams, background: bool) -> dict:
    """On the store's thread: brute force, then clustering, then cells, on one index."""
    assert brain.embedder is not None
    store = brain.searcher.store
    model = vector_model(brain.embedder)
    index = VectorIndex(store, model, brain.embedder.dim, params, cluster_after=None)
    started = time.perf_counter()
    index.refresh()
    out: dict[str, Any] = {"rows": len(index), "load_s": time.perf_counter() - started}
    # Without chat exchanges, "knowledge" is "all" and "history" finds nothing.
    kinds = [n for n, _ in VECTOR_SEARCHES if background or n not in ("knowledge", "history")]
    out["exact"] = _time_nearest(index, queries, kinds)
    if background:  # as a server does: searches go on (brute force) while it clusters
        during: list[float] = []
        started = time.perf_counter()
        index.cluster_now(wait=False)
        while not index.clustered and time.perf_counter() - started < 900:
            for q in queries[:10]:
                at = time.perf_counter()
                index.nearest(q, 60, entity_types=["Chat_Exchange"])
                during.append(ms_since(at))
        out["background_s"], out["during"] = time.perf_counter() - started, during
    started = time.perf_counter()
    index.cluster_now()
    out["build_s"] = time.perf_counter() - started
    out["cells"] = _time_nearest(index, queries, kinds)
    return out


async def _vector_cells(
    brain: Brain, vectors: np.ndarray, qs: list[tuple[str, str]], quick: bool
) -> dict[str, Any]:
    """Brute force against cells at the brain's size, then with chat exchanges added."""
    assert brain.embedder is not None
    queries = await asyncio.to_thread(brain.embedder.embed, [q for _, q in qs])
    params = IvfParams(min_rows=1_000) if quick else IvfParams()
    out = {"base": await brain._run(_cells, brain, queries, params, False)}
    rng = np.random.default_rng(20261122)
    started = time.perf_counter()
    for copy in range(CHAT_COPIES):
        noise = rng.standard_normal(vectors.shape).astype(np.float32)
        noisy = vectors + CHAT_NOISE * noise / np.sqrt(vectors.shape[1])
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        rows = [("Chat_Exchange", f"bench{copy}:ex:{i}", "", None) for i in range(len(noisy))]
        ids = []
        for batch in iter_batches(rows, BATCH):
            ids += [e.id for e in await brain.upsert_many(batch)]
        await _put_vectors(brain, ids, noisy)
    out["chat_s"] = time.perf_counter() - started
    out["chat"] = await brain._run(_cells, brain, queries, params, True)
    return out


def _concurrency(writers: int, upserts: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-writers-") as tmp:
        return run_writers(Path(tmp) / "brain", writers, upserts)


async def _run(quick: bool) -> str:
    cfg = QUICK if quick else FULL
    out: dict[str, Any] = {"cfg": cfg}
    synthetic = generate(cfg["size"])
    qs = queries(synthetic, 200)
    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
        folder = Path(tmp) / "brain"
        async with await Brain.open(folder, embedder=None) as brain:
            stored = await _ingest(brain, synthetic, out)
            out["stats"] = await brain.stats()
            out["bm25"] = await _time_queries(brain, qs, "bm25")
            out["hybrid_novec"] = await _time_queries(brain, qs, "search")
            people = [e for e in stored if e.type == "Person"][:200]
            out["subgraph"], out["subgraph_nodes"] = await _subgraph(brain, people)
        out["embed_rate"] = await _embedding_rate(folder, cfg["embed_seconds"])
        with_vectors = await _with_vectors(folder, stored, out)
        if with_vectors is not None:
            brain_v, vectors = with_vectors
            async with brain_v:
                out["hybrid"] = await _time_queries(brain_v, qs, "search")
                assert brain_v.searcher.index is not None
                await brain_v._run(brain_v.searcher.index.cluster_now)
                out["hybrid_cells"] = await _time_queries(brain_v, qs, "search")
                out["cells"] = await _vector_cells(brain_v, vectors, qs, quick)
    out["concurrency"] = await asyncio.to_thread(_concurrency, cfg["writers"], cfg["upserts"])
    return report(out, qs)


def report(out: dict[str, Any], qs: list[tuple[str, str]]) -> str:
    """The results as Markdown."""
    st, cfg = out["stats"], out["cfg"]
    size = st["entities"]
    lines = [
        f"Synthetic brain: {size:,} entities "
        + ", ".join(f"{n:,} {t}" for t, n in st["entities_by_type"].items())
        + f"; {st['relations']:,} relations; database {st['bytes'] / 1e6:,.0f} MB.",
        "",
        "| ingest | result |",
        "|---|---|",
        f"| entities via `upsert_many` (batches of {BATCH:,}) | "
        f"{size / out['insert_s']:,.0f} entities/s ({out['insert_s']:.1f} s) |",
        f"| BM25-searchable right after the first batch | "
        f"{'yes' if out.get('searchable_at_once') else 'NO'} |",
        f"| relations via `import_jsonl` | {out['relations'] / out['relations_s']:,.0f} "
        f"relations/s ({out['relations_s']:.1f} s) |",
    ]
    if out.get("embed_rate") is not None:
        lines.append(
            f"| background embedding (MiniLM int8, live, {cfg['embed_seconds']:.0f} s sample) | "
            f"{out['embed_rate']:,.0f} vectors/s |"
        )
    if "hybrid" in out:
        how = "loaded from cache" if out["vectors_cached"] else "embedded now and cached"
        lines.append(
            f"| vectors for all {size:,} entities | {how} ({out['vectors_s']:.0f} s); "
            f"index load into memory on first search {out['index_load_ms']:,.0f} ms |"
        )
    kinds = list(dict.fromkeys(k for k, _ in qs)) + ["all"]
    counts = defaultdict(int)
    for k, _ in qs:
        counts[k] += 1
    counts["all"] = len(qs)
    modes = [("bm25", "plain FTS5 BM25 (baseline)"), ("hybrid_novec", "hybrid, no vectors")]
    if "hybrid" in out:
        modes.append(("hybrid", "hybrid with vectors"))
        modes.append(("hybrid_cells", "hybrid, vectors in cells"))
    lines += [
        "",
        "Search, top 10, p50 / p95 ms (each query run once, in order):",
        "",
        "| queries | n | " + " | ".join(label for _, label in modes) + " |",
        "|---|---|" + "---|" * len(modes),
    ]
    for kind in kinds:
        cells = [p50_p95(out[m]["latency"][kind]) for m, _ in modes]
        lines.append(f"| {kind} | {counts[kind]} | " + " | ".join(cells) + " |")
    noise = counts[NOISE]
    lines += [
        "",
        "Noise queries (made-up words) returning any result: "
        + ", ".join(f"{label} {out[m]['noise_hits']} of {noise}" for m, label in modes)
        + ".",
        "",
        f"`subgraph(hops=2)` from 200 people: p50 / p95 {p50_p95(out['subgraph'])} ms, "
        f"{out['subgraph_nodes']:.0f} nodes on average.",
    ]
    if "cells" in out:
        lines += ["", *_cells_report(out["cells"])]
    c = out["concurrency"]
    lost = c["expected"] - c["stored"]
    lines += [
        "",
        f"Concurrency: {c['writers']} writer processes x {c['upserts']} upserts (one transaction "
        f"each) into one brain: {c['writes_per_s']:,.0f} writes/s in total, {c['stored']:,} of "
        f"{c['expected']:,} stored ({'nothing lost' if lost == 0 else f'{lost} LOST'}), "
        f"{len(c['errors'])} errors.",
    ]
    return "\n".join(lines) + "\n"


def _cells_report(cells: dict[str, Any]) -> list[str]:
    base, chat, p = cells["base"], cells["chat"], IvfParams()
    lines = [
        "Vector search alone, `VectorIndex.nearest(k=60)` for the 200 queries above (MiniLM): "
        f"brute force over every row against cells (`search/ivf.py`: k-means cells of "
        f"~{p.cluster_rows} rows, the nearest {p.probe:g}·√cells probed in {p.dims} principal "
        f"directions, the best {max(200, p.rerank * 60)} rescored exactly). Recall: share of "
        "brute force's top 10 / top 60 that the cells return.",
        "",
        "| rows | search | brute force p50 / p95 ms | cells p50 / p95 ms | recall@10 | recall@60 |",
        "|---|---|---|---|---|---|",
    ]
    for run, label in ((base, f"{base['rows']:,} entities"), (chat, f"{chat['rows']:,}")):
        for name in run["exact"]:
            exact, probed = run["exact"][name], run["cells"][name]
            lines.append(
                f"| {label} | {name} | {p50_p95(exact['ms'])} | {p50_p95(probed['ms'])} | "
                f"{_recall(exact['found'], probed['found'], 10):.3f} | "
                f"{_recall(exact['found'], probed['found'], 60):.3f} |"
            )
    lines += [
        "",
        f"Rows {base['rows']:,}: first load {base['load_s']:.1f} s, clustering "
        f"{base['build_s']:.1f} s. Rows {chat['rows']:,} (entities plus "
        f"{chat['rows'] - base['rows']:,} stand-in chat exchanges: {CHAT_COPIES} copies of every "
        f"entity's vector with {CHAT_NOISE:.0%} noise, written in {cells['chat_s']:.0f} s): "
        f"first load {chat['load_s']:.1f} s, clustering {chat['build_s']:.1f} s alone, "
        f"{chat['background_s']:.1f} s in the background while history searches ran on brute "
        f"force (p50 / p95 {p50_p95(chat['during'])} ms meanwhile).",
    ]
    return lines


def _recall(exact: list[list[int]], found: list[list[int]], k: int) -> float:
    hits = sum(len(set(e[:k]) & set(f[:k])) for e, f in zip(exact, found, strict=True))
    return hits / max(1, sum(len(e[:k]) for e in exact))


def run(quick: bool = False) -> str:
    """Run the suite and return its report as Markdown."""
    return asyncio.run(_run(quick))


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv[1:]))
