"""The #34 figures, each measured on this tree and on the previous main (`previous.py`).

Each measurement below is driven by `benchmarks/side.py` in its own process: `setup`
builds what it times (timing the one-off parts, such as ingest), `round(i, n)` times the
i-th of n slices of its messages. They reuse the suites' own building blocks
(`bench_bridge`, `bench_embedders`, `bench_backends`, `bench_team`), so a figure here is
measured the way its suite measures it; the suites' own sections keep their fuller tables.

| suite | figure | target |
|---|---|---|
| bridge | (d) enrich p95, vectors on, 100k + 200k | ≤ 15 ms |
| embedders | vectors ready vs the embedder's raw rate (MiniLM, bulk) | within 1.2× |
| backends | PostgreSQL / SQLite search and enrich p50 / p95; person / owner; ingest | ≤ 2×; ≤ 1.2×; ≥ 0.5× |
| backends_large | PostgreSQL at 1M rows: search and enrich, growth from 300k | none set |
| team | 20 people through `brain serve`: enrich p95, turns/s, errors | p95 ≤ 30 ms; ≥ one person; 0 |
"""

from __future__ import annotations

import re
import statistics
import zlib
from collections.abc import Sequence
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.previous import Comparison, Figure, Samples
from benchmarks.timing import percentile

# -- reading figures from samples -----------------------------------------------------


def _ms(values: list[float]) -> str:
    return f"{percentile(values, 0.5):.1f} / **{percentile(values, 0.95):.1f}** ms"


def p95_at_most(label: str, key: str, limit_ms: float, target: str) -> Figure:
    """p50 / p95 of `key` (ms), met when p95 ≤ limit_ms."""

    def read(s: Samples) -> tuple[str, bool | None]:
        return _ms(s[key]), percentile(s[key], 0.95) <= limit_ms

    return Figure(label, target, read)


def latency(label: str, key: str) -> Figure:
    """p50 / p95 of `key` (ms), no target."""
    return Figure(label, "—", lambda s: (_ms(s[key]), None))


def ratio_at_most(label: str, num: str, den: str, limit: float | None) -> Figure:
    """p50 and p95 of `num` over those of `den`, met when both are ≤ limit (no target
    when limit is None)."""

    def read(s: Samples) -> tuple[str, bool | None]:
        r = [percentile(s[num], q) / percentile(s[den], q) for q in (0.5, 0.95)]
        return f"×{r[0]:.2f} / ×{r[1]:.2f}", None if limit is None else max(r) <= limit

    return Figure(label, "—" if limit is None else f"≤ ×{limit:g} (p50 / p95)", read)


def median_at_least(label: str, key: str, limit: float, target: str, unit: str = "×") -> Figure:
    """The median of `key` (one value per round), met when ≥ limit."""

    def read(s: Samples) -> tuple[str, bool | None]:
        value = statistics.median(s[key])
        return f"{unit}{value:.2f}", value >= limit

    return Figure(label, target, read)


def _count(label: str, key: str) -> Figure:
    def read(s: Samples) -> tuple[str, bool | None]:
        total = int(sum(s[key]))
        return str(total), total == 0

    return Figure(label, "0", read)


def _per_s(label: str, key: str, baseline: str, target: str) -> Figure:
    def read(s: Samples) -> tuple[str, bool | None]:
        value, base = statistics.median(s[key]), statistics.median(s[baseline])
        return f"{value:.1f} (one person: {base:.1f})", value >= base

    return Figure(label, target, read)


def _chunk(items: list[Any], i: int, n: int) -> list[Any]:
    return items[i::n]


# -- bridge (d) -------------------------------------------------------------------------


class HashedWords:
    """384-d stand-in vectors from the library-independent hashing of words (signed
    feature hashing, L2-normalised): near for texts sharing words. The bridge suite's
    own stand-in rotates the static embedder's vectors, which earlier trees lack; both
    sides of a comparison must index the same vectors, so this one uses NumPy only."""

    name, dim = "hashed-words-384", 384

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            words = re.findall(r"\w+", text.lower())
            if words:
                h = np.fromiter((zlib.crc32(w.encode()) for w in words), np.uint32, len(words))
                np.add.at(out[i], h % self.dim, np.where((h >> 16) & 1, 1.0, -1.0))
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
        return out


class QueryCost:
    """Stand-in vectors; once `charge` is set every text embedded (enrich's queries) also
    runs through the side's own default embedder (`load_embedder("auto")`, MiniLM where
    installed), so its cost is in the times."""

    def __init__(self, costly: Any) -> None:
        self.inner = HashedWords()
        self.name, self.dim = self.inner.name, self.inner.dim
        self.costly = costly
        self.charge = False

    def embed(self, texts: Any) -> Any:
        if self.charge and self.costly is not None:
            self.costly.embed(list(texts))
        return self.inner.embed(list(texts))


class BridgeEnrich:
    """(d) of the bridge suite: the synthetic brain (quick 10k + 20k, full 100k + 200k),
    a stand-in vector (`HashedWords`) for every row and its sentences, clustered into
    cells as `brain serve` has it, each query also through the side's default embedder."""

    def __init__(self, workdir: Path, quick: bool) -> None:
        self.folder = workdir / "synthetic"
        self.sizes = (10_000, 20_000) if quick else (100_000, 200_000)
        self.n_messages = 200 if quick else 800
        self.stack = AsyncExitStack()

    async def setup(self) -> Samples:
        from benchmarks.bench_bridge import _stand_in_vectors, build_synthetic
        from brainbridge.brain import Brain
        from brainbridge.embed import load_embedder

        brain, synth, build_s = await build_synthetic(self.folder, *self.sizes)
        await brain.close()
        self.messages = synth.messages(self.n_messages)
        embedder = QueryCost(load_embedder("auto"))
        self.brain = await Brain.open(self.folder, embedder=embedder, background_indexing=False)
        self.stack.push_async_callback(self.brain.close)
        await _stand_in_vectors(self.brain, embedder)  # type: ignore[arg-type]  # same shape
        index = self.brain.searcher.index
        assert index is not None
        await self.brain._run(index.refresh)
        await self.brain._run(index.cluster_now)
        embedder.charge = True
        return {"build_rows_per_s": [sum(self.sizes) / build_s], "vectors": [len(index)]}

    async def round(self, i: int, n: int) -> Samples:
        from benchmarks.bench_bridge import enrich_latency

        res = await enrich_latency(self.brain, _chunk(self.messages, i, n))
        return {"enrich_ms": [t * 1000 for ts in res["by"].values() for t in ts]}

    async def close(self) -> None:
        await self.stack.aclose()


# -- embedders: vectors ready against the raw rate ------------------------------------


class VectorsReady:
    """MiniLM on LoCoMo's tuned conversations, as the embedders suite times them (quick:
    the first, 200 exchanges; timing only): the embedder's
    raw rate, then `upsert_many` with the background indexer until every vector is
    written, each round on a fresh brain. slowdown = min(raw, writes) / vectors ready."""

    def __init__(self, workdir: Path, quick: bool) -> None:
        self.workdir = workdir
        self.quick = quick

    async def setup(self) -> Samples:
        from benchmarks import locomo_data
        from benchmarks.bench_embedders import TUNED, _rows
        from brainbridge.embed import load_embedder

        data = locomo_data.load_conversations(locomo_data.locomo_path())
        chosen = TUNED[:1] if self.quick else TUNED
        rows = await _rows([data[c] for c in chosen])
        self.rows = rows[:200] if self.quick else rows
        self.texts = [f"{name} ({etype}): {desc}" for etype, name, desc, _ in self.rows]
        self.embedder = load_embedder("minilm")
        assert self.embedder is not None
        self.embedder.embed(["warm up"])
        return {}

    async def round(self, i: int, n: int) -> Samples:
        from benchmarks.bench_embedders import bulk, raw_rate

        raw = raw_rate(self.embedder, self.texts)
        took = await bulk(self.workdir / f"bulk-{i}", "minilm", self.rows)
        count = len(self.rows)
        ready, writes = count / took["ready"], count / took["writes"]
        return {
            "raw_per_s": [raw],
            "ready_per_s": [ready],
            "writes_per_s": [writes],
            "slowdown": [min(raw, writes) / ready],
        }

    async def close(self) -> None:
        return None


def _slowdown() -> Figure:
    def read(s: Samples) -> tuple[str, bool | None]:
        value = statistics.median(s["slowdown"])
        raw, ready = statistics.median(s["raw_per_s"]), statistics.median(s["ready_per_s"])
        return f"×{value:.2f} ({ready:,.0f} /s ready, raw {raw:,.0f} /s)", value <= 1.2

    return Figure("vectors ready, bulk MiniLM: raw (or writes) rate ÷ ready rate", "≤ ×1.2", read)


# -- backends: PostgreSQL against SQLite, a person against the owner --------------------


class Backends:
    """The backends suite's brains (quick 5k + 10k, full 100k + 200k) on SQLite and on
    PostgreSQL (embedded server), the latter also opened as a person of the team;
    each round searches (top 10) and enriches a slice of the messages on all three."""

    large = False

    def __init__(self, workdir: Path, quick: bool) -> None:
        from benchmarks.bench_backends import FULL, QUICK

        self.workdir = workdir
        self.cfg = QUICK if quick else FULL
        self.stack = AsyncExitStack()
        self.brains: dict[str, Any] = {}

    async def _server(self) -> str:
        from brainbridge.store.postgres.embedded import EmbeddedServer

        server = EmbeddedServer.start(self.workdir / "pg")
        self.stack.callback(server.stop)
        return str(self.stack.enter_context(server.fresh_database("bench")))

    async def setup(self) -> Samples:
        from benchmarks.bench_bridge import build_synthetic
        from brainbridge.brain import Brain
        from brainbridge.store.postgres import people

        url = await self._server()
        total = self.cfg["entities"] + self.cfg["exchanges"]
        out: Samples = {}
        for name, db in (("sqlite", ""), ("pg", url)):
            brain, synth, build_s = await build_synthetic(
                self.workdir / name, self.cfg["entities"], self.cfg["exchanges"], db
            )
            self.stack.push_async_callback(brain.close)
            self.brains[name] = brain
            out[f"ingest_{name}"] = [total / build_s]
        self.messages = synth.messages(self.cfg["messages"])
        owner = self.brains["pg"]
        await owner._run(people.add, owner.store.conn, "bench")
        person = await Brain.open(
            self.workdir / "pg",
            embedder=None,
            background_indexing=False,
            database_url=url,
            user="bench",
            workspace="main",
        )
        self.stack.push_async_callback(person.close)
        self.brains["person"] = person
        out["ingest_ratio"] = [out["ingest_pg"][0] / out["ingest_sqlite"][0]]
        return out

    async def round(self, i: int, n: int) -> Samples:
        from benchmarks.bench_backends import _timed_search
        from benchmarks.bench_bridge import enrich_latency

        chunk = _chunk(self.messages, i, n)
        out: Samples = {}
        for name, brain in self.brains.items():
            out[f"search_{name}"] = await _timed_search(brain, chunk)
            res = await enrich_latency(brain, chunk)
            out[f"enrich_{name}"] = [t * 1000 for ts in res["by"].values() for t in ts]
        return out

    async def close(self) -> None:
        await self.stack.aclose()


class BackendsLarge(Backends):
    """PostgreSQL alone: the backends brain grown to `large` rows (quick 50k, full 1M)
    with more knowledge entities; search and enrich timed at the base size in setup and
    at the large size in the rounds."""

    async def setup(self) -> Samples:
        from benchmarks.bench_backends import _timed_search
        from benchmarks.bench_bridge import Synth, build_synthetic, enrich_latency

        url = await self._server()
        brain, synth, _ = await build_synthetic(
            self.workdir / "pg", self.cfg["entities"], self.cfg["exchanges"], url
        )
        self.stack.push_async_callback(brain.close)
        self.brains["pg"] = brain
        self.messages = synth.messages(self.cfg["messages"])
        base_search = await _timed_search(brain, self.messages)
        res = await enrich_latency(brain, self.messages)
        base_enrich = [t * 1000 for ts in res["by"].values() for t in ts]
        have = (await brain.stats())["entities"]
        rows = Synth(seed=11).entities(self.cfg["large"] - have)
        for k in range(0, len(rows), 5000):
            await brain.upsert_many(
                [(t, f"{nm} #{k + j}", d, a) for j, (t, nm, d, a) in enumerate(rows[k : k + 5000])]
            )
        return {"search_base": base_search, "enrich_base": base_enrich}


# -- team load through brain serve ----------------------------------------------------


class TeamLoad:
    """The team suite's server (quick 4 people, full 20; PostgreSQL, `brain serve`):
    one person alone in setup, then each round every person runs a slice of their turns
    at once (POST /enrich, POST /observe waiting until stored)."""

    def __init__(self, workdir: Path, quick: bool) -> None:
        from benchmarks.bench_team import FULL, QUICK

        self.workdir = workdir
        self.cfg = QUICK if quick else FULL
        self.stack = AsyncExitStack()

    async def setup(self) -> Samples:
        from benchmarks.bench_team import _free_port, _init, _round, _seed, _serve
        from brainbridge.store.postgres.embedded import EmbeddedServer

        server = EmbeddedServer.start(self.workdir / "pg")
        self.stack.callback(server.stop)
        self.db = str(self.stack.enter_context(server.fresh_database("team")))
        home = self.workdir / "brain"
        _init(home, self.db)
        self.tokens, synth = await _seed(home, self.db, self.cfg)
        names = sorted(self.tokens)
        turns = self.cfg["turns"]
        texts = synth.messages(turns * len(names))
        self.messages = {n: texts[i * turns : (i + 1) * turns] for i, n in enumerate(names)}
        port = _free_port()
        proc = _serve(home, port, self.workdir / "serve.log")
        self.stack.callback(proc.wait, 60)
        self.stack.callback(proc.terminate)
        self.url = f"http://127.0.0.1:{port}"
        alone = names[:1]
        self.team = names[1:]
        one = await _round(self.url, {n: self.tokens[n] for n in alone}, self.messages, self.db)
        return {"alone_turns_per_s": [one["turns_per_s"]], "alone_enrich_ms": one["enrich"]}

    async def round(self, i: int, n: int) -> Samples:
        from benchmarks.bench_team import _round

        part = {p: _chunk(self.messages[p], i, n) for p in self.team}
        r = await _round(self.url, {p: self.tokens[p] for p in self.team}, part, self.db)
        return {
            "enrich_ms": r["enrich"],
            "turns_per_s": [r["turns_per_s"]],
            "errors": [float(len(r["errors"]))],
            "stored": [float(r["stored"])],
            "turns": [float(r["turns"])],
        }

    async def close(self) -> None:
        await self.stack.aclose()


def _missing() -> Figure:
    def read(s: Samples) -> tuple[str, bool | None]:
        # `stored` counts every turn of the team's sessions so far: the last round's is all.
        missing = int(sum(s["turns"]) - s["stored"][-1])
        return str(missing), missing == 0

    return Figure("team turns missing from the database", "0", read)


COMPARISONS: dict[str, Comparison] = {
    c.suite: c
    for c in (
        Comparison(
            "bridge",
            "#34 (d) enrich with vectors",
            "benchmarks.targets:BridgeEnrich",
            (
                p95_at_most(
                    "(d) enrich p50 / p95, vectors on (hashed-word stand-ins), 100k + 200k"
                    " (quick: 10k + 20k)",
                    "enrich_ms",
                    15.0,
                    "p95 ≤ 15 ms",
                ),
            ),
            rounds=4,
        ),
        Comparison(
            "embedders",
            "#34 vectors ready against the raw rate",
            "benchmarks.targets:VectorsReady",
            (_slowdown(),),
        ),
        Comparison(
            "backends",
            "#34 PostgreSQL against SQLite",
            "benchmarks.targets:Backends",
            (
                ratio_at_most("search: PostgreSQL / SQLite", "search_pg", "search_sqlite", 2),
                ratio_at_most("enrich: PostgreSQL / SQLite", "enrich_pg", "enrich_sqlite", 2),
                ratio_at_most("search: a person / the owner", "search_person", "search_pg", 1.2),
                ratio_at_most("enrich: a person / the owner", "enrich_person", "enrich_pg", 1.2),
                median_at_least(
                    "ingest rows/s: PostgreSQL / SQLite", "ingest_ratio", 0.5, "≥ ×0.5"
                ),
                latency("search p50 / p95, PostgreSQL owner", "search_pg"),
                latency("enrich p50 / p95, PostgreSQL owner", "enrich_pg"),
            ),
        ),
        Comparison(
            "backends_large",
            "#34 PostgreSQL at 1M rows",
            "benchmarks.targets:BackendsLarge",
            (
                latency("search p50 / p95 at 1M rows (quick: 50k)", "search_pg"),
                latency("enrich p50 / p95 at 1M rows (quick: 50k)", "enrich_pg"),
                ratio_at_most(
                    "search growth from 300k (quick: 15k)", "search_pg", "search_base", None
                ),
                ratio_at_most(
                    "enrich growth from 300k (quick: 15k)", "enrich_pg", "enrich_base", None
                ),
            ),
            rounds=2,
            previous_quick=True,  # growing to 1M takes ~25 min a side here
        ),
        Comparison(
            "team",
            "#34 team load through brain serve",
            "benchmarks.targets:TeamLoad",
            (
                p95_at_most(
                    "team enrich p50 / p95 (20 people; quick: 4)",
                    "enrich_ms",
                    30.0,
                    "p95 ≤ 30 ms (one person's, 300k)",
                ),
                _per_s(
                    "team turns stored per second",
                    "turns_per_s",
                    "alone_turns_per_s",
                    "≥ one person alone",
                ),
                _count("team errors", "errors"),
                _missing(),
            ),
        ),
    )
}
