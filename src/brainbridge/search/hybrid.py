"""Hybrid search: BM25 + dense vectors + conversation context, fused, floored, widened by graph.

One query runs as:

1. BM25 over name, description and text attributes (`candidates` deep);
2. conversation context: exchanges next to a matching exchange inherit a share of its
   BM25 score (see `context.py`);
3. dense vectors: the `candidates` nearest, plus the exact cosine of every other candidate;
4. fusion: each signal scaled to 0..1 over the candidates, then a weighted mean
   (`fusion="convex"`; `"rrf"` keeps reciprocal rank fusion for comparison);
5. the relevance floor drops candidates that neither cover enough of the query's terms nor
   come close enough in meaning (and stand out from the query's mean cosine over the brain,
   which junk queries never do); a context-only exchange passes through its neighbour;
6. the graph adds the relations of the strongest survivors.

docs/benchmarks.md measures each choice (LoCoMo recall and latency at 100k entities).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from brainbridge.model import CHAT_EXCHANGE, Entity, Hit, holds_at
from brainbridge.ports import Embedder, Store
from brainbridge.search.context import REACH, conversation_context
from brainbridge.search.fusion import convex, rrf, scale
from brainbridge.search.parts import vector_model
from brainbridge.search.relevance import Coverage, entity_text
from brainbridge.words import query_terms

if TYPE_CHECKING:
    # NumPy and the vector index load with an embedder only: the hooks' cold path has none.
    import numpy as np

    from brainbridge.search.pgvectors import PgVectorIndex
    from brainbridge.search.vectors import VectorIndex

log = logging.getLogger(__name__)

Scored = dict[int, tuple[float, tuple[str, ...]]]


@dataclass(frozen=True)
class SearchOptions:
    """Knobs of one retrieval recipe; the defaults are what `Brain.search` uses."""

    candidates: int = 60
    graph_seeds: int = 3
    graph_hops: int = 1
    graph_per_seed: int = 50
    weights: tuple[tuple[str, float], ...] = (("bm25", 0.5), ("vector", 0.5), ("graph", 0.5))
    fusion: str = "convex"  # or "rrf"
    vectors: bool = True  # False: BM25, context and graph only, even with an embedder
    # Share of a matching exchange's BM25 score that the exchanges beside it inherit,
    # halved for each further position up to `context_reach` away.
    context_weight: float = 0.5
    context_reach: int = REACH
    # A candidate must cover this IDF share of the query's terms, or be this close in
    # meaning, or hang off a candidate that does: weak matches are dropped, not returned.
    min_coverage: float = 0.25
    min_cosine: float | None = None  # None: the embedder's calibration (CALIBRATION)
    # ...and, to pass on meaning alone, sit this far above the query's mean cosine over
    # the brain: made-up words score ~0.3-0.4 against short texts, but evenly so.
    min_margin: float = 0.2
    # When no word of the query occurs anywhere in the brain, only a close paraphrase counts.
    min_cosine_unknown_words: float | None = None
    graph_types_excluded: tuple[str, ...] = ("Chat_Exchange",)


@dataclass(frozen=True)
class SearchRequest:
    """One search of a `search_many` batch."""

    query: str
    num_results: int = 5
    entity_types: Sequence[str] | None = None
    exclude_types: Sequence[str] | None = None
    # What held on this day (YYYY-MM-DD; None: now); `superseded` keeps what has ended.
    as_of: str | None = None
    superseded: bool = False


# Cosine thresholds depend on the model: (min_cosine, min_cosine_unknown_words). MiniLM puts
# made-up words at up to ~0.45 from short texts in a 100k brain (docs/benchmarks.md).
CALIBRATION: dict[str, tuple[float, float]] = {"minilm-l6-int8": (0.35, 0.5)}
DEFAULT_CALIBRATION = (0.35, 0.35)
# The floor reads candidates' text in batches of this many as it walks down the ranking.
FLOOR_BATCH = 16
# Query vectors remembered per brain: an agent's retries and a session's repeated names
# are embedded once.
QUERY_CACHE = 512

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _embedding_pool() -> ThreadPoolExecutor:
    """One thread that embeds queries while the store's thread runs BM25 (onnxruntime and
    the tokenizer release the GIL)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="query-embed")
        return _pool


# A query's nearest vectors under a request's filter: ((entity id, cosine) best first, the
# query's mean cosine over the searched vectors).
_Near = tuple[list[tuple[int, float]], float]


def _k(req: SearchRequest, opt: SearchOptions) -> int:
    """Candidates each retriever returns for a request."""
    return max(opt.candidates, req.num_results * 3)


class _Text(NamedTuple):
    k: int
    bm25: dict[int, float]
    context: dict[int, tuple[float, list[int]]]
    text: dict[int, float]


class HybridSearch:
    """Runs one query against the store's retrievers. Use from the store's thread."""

    def __init__(self, store: Store, embedder: Embedder | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.index: VectorIndex | PgVectorIndex | None = None
        if embedder is not None and getattr(store, "pgvector", False):
            # A brain in PostgreSQL with pgvector: the server's HNSW index answers.
            from brainbridge.search.pgvectors import PgVectorIndex

            self.index = PgVectorIndex(store, vector_model(embedder), embedder.dim)
        elif embedder is not None:
            from brainbridge.search.vectors import VectorIndex

            self.index = VectorIndex(store, vector_model(embedder), embedder.dim)
        self._total = (0, -1, 0.0)  # (entity count, total_changes, when) for IDF
        self._cache: dict[str, np.ndarray] = {}  # query -> vector, oldest first
        # query -> (its embedding in flight, its position in that call), from `prepare`
        self._pending: dict[str, tuple[Future[np.ndarray], int]] = {}

    def entity_count(self) -> int:
        """The brain's size for IDF: exact on small brains, asked of the store at most every
        5 s on big ones (SQLite counts 300k rows in ~3 ms; PostgreSQL answers from its text
        index's row count, itself kept a few minutes), as IDF needs the size only roughly."""
        count, changes, when = self._total
        now = time.monotonic()
        changed = changes != self.store.changes()
        if (changed and count < 20_000) or now - when > 5.0:
            count = self.store.count_entities()
            self._total = (count, self.store.changes(), now)
        return max(count, 1)

    def search(
        self,
        query: str,
        num_results: int = 5,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
        options: SearchOptions | None = None,
    ) -> list[Hit]:
        """Best entities for free text, strongest first; [] when nothing clears the floor."""
        request = SearchRequest(query, num_results, entity_types, exclude_types)
        return self.search_many([request], options)[0]

    def search_many(
        self, requests: Sequence[SearchRequest], options: SearchOptions | None = None
    ) -> list[list[Hit]]:
        """Several searches, one result list each. The vector half runs on another thread
        while BM25 runs on this one: the distinct queries embedded in one model call (and
        remembered for repeated text), then the index probed for all of them."""
        opt = options or SearchOptions()
        live = [r.num_results > 0 and bool(r.query.strip()) for r in requests]
        vector_half = self._vector_half(requests, live, opt) if opt.vectors else None
        texts = [self._text(r, opt) if ok else None for r, ok in zip(requests, live, strict=True)]
        vectors, near = vector_half() if vector_half else ({}, {})
        return [
            self._search(r, text, vectors.get(r.query), near.get(i), opt)
            if text is not None
            else []
            for i, (r, text) in enumerate(zip(requests, texts, strict=True))
        ]

    def prepare(self, queries: Sequence[str]) -> None:
        """Start embedding `queries` on the embedding thread now, for a search that will
        likely follow (the bridge calls this before its judge decides): that search then
        waits less, or not at all, for its query vectors."""
        self._settle()
        if self.embedder is None or self.index is None:
            return
        if not len(self.index):  # else the search refreshes it; a count a moment old will do
            self.index.refresh()
        if not len(self.index):
            return
        todo = [
            q for q in dict.fromkeys(queries) if q not in self._cache and q not in self._pending
        ]
        if todo:
            future = _embedding_pool().submit(self.embedder.embed, todo)
            self._pending.update((q, (future, i)) for i, q in enumerate(todo))

    def _settle(self) -> None:
        """Move finished prepared vectors into the cache (a search may never have come)."""
        for q, (future, i) in list(self._pending.items()):
            if future.done():
                del self._pending[q]
                if future.exception() is None:
                    self._remember(q, future.result()[i])

    def _remember(self, query: str, vector: np.ndarray) -> None:
        self._cache[query] = vector
        while len(self._cache) > QUERY_CACHE:
            self._cache.pop(next(iter(self._cache)))

    def _vector_half(
        self, requests: Sequence[SearchRequest], live: Sequence[bool], opt: SearchOptions
    ) -> Callable[[], tuple[dict[str, np.ndarray], dict[int, _Near]]] | None:
        """A call that returns (the query vectors, each live request's nearest vectors by
        position), started now on the embedding thread; None without an embedder or with
        nothing indexed to compare with (no model call).

        The in-memory index is probed on that thread too: this thread runs only BM25 and
        the store's reads until the call returns, so nothing else touches the index
        meanwhile (its refresh happens here, first). PostgreSQL's index asks the server
        through the store's connection, so it is asked on this thread, afterwards."""
        if self.embedder is None or self.index is None:
            return None
        self.index.refresh()
        queries = [r.query for r, ok in zip(requests, live, strict=True) if ok]
        if not len(self.index) or not queries:
            return None
        self._settle()
        known = {q: v for q in dict.fromkeys(queries) if (v := self._cache.get(q)) is not None}
        # Prepared but still in flight: the work below waits for it on the same thread,
        # which runs it first.
        coming = {q: self._pending.pop(q) for q in dict.fromkeys(queries) if q in self._pending}
        todo = [q for q in dict.fromkeys(queries) if q not in known and q not in coming]
        # Requests that share a type filter are probed together (enrich searches knowledge
        # and history for each of its queries): the index reads its cells once per filter.
        groups: dict[tuple[tuple[str, ...], tuple[str, ...], int], list[int]] = {}
        for i, (req, ok) in enumerate(zip(requests, live, strict=True)):
            if ok:
                key = (tuple(req.entity_types or ()), tuple(req.exclude_types or ()), _k(req, opt))
                groups.setdefault(key, []).append(i)
        embedder = self.embedder
        here = not self.index.concurrent_reads

        def work() -> tuple[dict[str, np.ndarray], dict[int, _Near]]:
            vectors = dict(known)
            vectors.update((q, future.result()[i]) for q, (future, i) in coming.items())
            if todo:
                vectors.update(zip(todo, embedder.embed(todo), strict=True))
            return vectors, ({} if here else self._nearest(requests, groups, vectors))

        future = _embedding_pool().submit(work)

        def collect() -> tuple[dict[str, np.ndarray], dict[int, _Near]]:
            vectors, near = future.result()
            for q in (*todo, *coming):
                self._remember(q, vectors[q])
            return vectors, (self._nearest(requests, groups, vectors) if here else near)

        return collect

    def _nearest(
        self,
        requests: Sequence[SearchRequest],
        groups: dict[tuple[tuple[str, ...], tuple[str, ...], int], list[int]],
        vectors: dict[str, np.ndarray],
    ) -> dict[int, _Near]:
        """Each grouped request's nearest vectors, by position: one probe per group."""
        assert self.index is not None
        out: dict[int, _Near] = {}
        for (types, excluded, k), members in groups.items():
            found = self.index.nearest_many(
                [vectors[requests[i].query] for i in members], k, types or None, excluded or None
            )
            out.update(zip(members, found, strict=True))
        return out

    def _text(self, req: SearchRequest, opt: SearchOptions) -> _Text:
        """The text half of a search: BM25, and the exchanges beside its matches."""
        k = _k(req, opt)
        bm25 = dict(self.store.bm25(req.query, k, req.entity_types, req.exclude_types))
        # A search that leaves exchanges out has no neighbours to read.
        history = CHAT_EXCHANGE not in (req.exclude_types or ()) and (
            not req.entity_types or CHAT_EXCHANGE in req.entity_types
        )
        context = (
            conversation_context(self.store, bm25, opt.context_weight, opt.context_reach)
            if history
            else {}
        )
        text = dict(bm25)
        for eid, (inherited, _) in context.items():
            text[eid] = text.get(eid, 0.0) + inherited
        return _Text(k, bm25, context, text)

    def _search(
        self,
        req: SearchRequest,
        found_text: _Text,
        query_vector: np.ndarray | None,
        near: _Near | None,
        opt: SearchOptions,
    ) -> list[Hit]:
        k, bm25, context, text = found_text
        cosine, nearest, background = self._vectors(query_vector, near, text)
        entities: dict[int, Entity] = {}  # loaded as the floor walks down the ranking

        found: dict[int, list[str]] = {}
        for name, ids in (("bm25", bm25), ("vector", nearest), ("context", context)):
            for eid in ids:
                found.setdefault(eid, []).append(name)
        weights = dict(opt.weights)
        signals: dict[str, dict[int, float]] = {}
        if opt.fusion == "rrf":
            ranked_text = sorted(text, key=lambda e: -text[e])
            fused_rrf = rrf({"bm25": ranked_text, "vector": nearest}, weights)
            score = {eid: s for eid, (s, _) in fused_rrf.items()}
        else:
            signals["bm25"] = scale(text, low=0.0)
            if cosine:
                signals["vector"] = scale(cosine)
            score = convex(signals, weights)
            if cosine:
                # A text hit with no vector yet (written a moment ago, its vector still being
                # made) ranks by its text alone, not as if it meant nothing: right after
                # `remember`, "Ana Souza" lost "helm chart proxy" to rows whose vectors were in.
                for eid in text.keys() - cosine.keys():
                    score[eid] = signals["bm25"].get(eid, 0.0)
        fused: Scored = {eid: (score.get(eid, 0.0), tuple(found[eid])) for eid in found}

        want = max(req.num_results, opt.graph_seeds)
        kept, coverage, measured = self._floor(
            req, fused, entities, cosine, background, context, opt, want
        )
        if opt.graph_hops > 0 and kept:
            self._expand(kept, fused, entities, req, opt)
        ranked = sorted(kept, key=lambda eid: (-fused[eid][0], eid))[: req.num_results]
        log.debug(
            "search %r: %d bm25, %d context, %d vector, %d kept",
            req.query[:80],
            len(bm25),
            len(context),
            len(nearest),
            len(kept),
        )
        scaled = signals.get("bm25", {}) if opt.fusion != "rrf" else scale(text, low=0.0)
        return [
            Hit(
                entities[eid],
                fused[eid][0],
                fused[eid][1],
                {
                    "bm25": bm25.get(eid, 0.0),
                    "text": scaled.get(eid, 0.0),
                    "coverage": measured[eid]
                    if eid in measured
                    else coverage.of(entity_text(entities[eid])),
                    "names": float(coverage.names(entities[eid].name)),
                    **({"cosine": cosine[eid]} if eid in cosine else {}),
                },
            )
            for eid in ranked
        ]

    def _vectors(
        self,
        query_vector: np.ndarray | None,
        near: _Near | None,
        text: dict[int, float],
    ) -> tuple[dict[int, float], list[int], float]:
        """(cosine of every candidate that has a vector, ids of the k nearest, background),
        from the request's nearest vectors (`_nearest`) and the cosines of its text hits."""
        if self.index is None or query_vector is None or near is None:
            return {}, [], 0.0
        nearest, background = near
        cosine = dict(nearest)
        cosine.update(self.index.cosines([e for e in text if e not in cosine], query_vector))
        return cosine, [eid for eid, _ in nearest], background

    @property
    def calibration(self) -> tuple[float, float]:
        """The embedder's (min_cosine, min_cosine_unknown_words): how close in meaning a
        text must be to pass on meaning alone."""
        return CALIBRATION.get(self.embedder.name if self.embedder else "", DEFAULT_CALIBRATION)

    @property
    def min_cosine(self) -> float:
        return self.calibration[0]

    def _floor(
        self,
        req: SearchRequest,
        fused: Scored,
        entities: dict[int, Entity],
        cosine: dict[int, float],
        background: float,
        context: dict[int, tuple[float, list[int]]],
        opt: SearchOptions,
        want: int,
    ) -> tuple[list[int], Coverage, dict[int, float]]:
        """The candidates that clear the floor, best first, at most `want` of them, and the
        query's coverage measure and the coverage of each candidate it measured."""
        query = req.query
        terms = query_terms(query) or query_terms(query, keep_stopwords=True)
        df = self.store.doc_freq(terms)
        # Known means known anywhere: a word only past conversations use is still the
        # brain's word, so the words of the query no entry holds are the ones left out.
        history = self.store.history_freq(terms)
        known = {t for t in terms if df.get(t, 0) or history.get(t, 0)}
        total = self.entity_count()
        base, unknown = self.calibration
        if any(df.values()):
            min_cos = base if opt.min_cosine is None else opt.min_cosine
        else:
            min_cos = (
                unknown if opt.min_cosine_unknown_words is None else opt.min_cosine_unknown_words
            )
        close = {
            eid for eid, c in cosine.items() if c >= min_cos and c - background >= opt.min_margin
        }

        coverage = Coverage(query, df, total, known)
        direct: dict[int, bool] = {}
        measured: dict[int, float] = {}

        ranked = sorted(fused, key=lambda e: (-fused[e][0], e))
        position = {eid: i for i, eid in enumerate(ranked)}

        def passes(eid: int) -> bool:
            if eid not in direct:
                if eid not in entities:  # the next few candidates, read in one query
                    at = position.get(eid, 0)
                    batch = [e for e in ranked[at : at + FLOOR_BATCH] if e not in entities]
                    entities.update(self.store.get_entities([eid, *batch]))
                ent = entities.get(eid)
                direct[eid] = (
                    ent is not None
                    and holds_at(ent, req.as_of, req.superseded)
                    and (
                        eid in close
                        or measured.setdefault(eid, coverage.of(entity_text(ent)))
                        >= opt.min_coverage
                        or coverage.names(ent.name)
                    )
                )
            return direct[eid]

        # Walk down the ranking and stop once there are enough: measuring coverage is the
        # floor's cost, and what ranks below the first `want` survivors is never returned.
        kept = []
        for eid in ranked:
            # An exchange found only beside a match stands on that match.
            if passes(eid) or (
                eid in context
                and any(passes(s) for s in context[eid][1])
                and (ent := entities.get(eid)) is not None
                and holds_at(ent, req.as_of, req.superseded)
            ):
                kept.append(eid)
                if len(kept) >= want:
                    break
        return kept, coverage, measured

    def _expand(
        self,
        kept: list[int],
        fused: Scored,
        entities: dict[int, Entity],
        req: SearchRequest,
        opt: SearchOptions,
    ) -> None:
        entity_types, exclude_types = req.entity_types, req.exclude_types
        graph_w = dict(opt.weights).get("graph", 0.5)
        seeds = sorted(kept, key=lambda eid: (-fused[eid][0], eid))[: opt.graph_seeds]
        reached: dict[int, float] = {}
        for seed in seeds:
            near = self.store.neighbors([seed], opt.graph_hops, limit=opt.graph_per_seed + 1)
            for eid, hops in near.items():
                if hops > 0:
                    s = graph_w * fused[seed][0] / (1 + hops)
                    reached[eid] = max(reached.get(eid, 0.0), s)
        kept_set = set(kept)
        # A neighbour the floor dropped may come back through the graph, but only as graph.
        new = [eid for eid in reached if eid not in kept_set]
        entities.update(self.store.get_entities([e for e in new if e not in entities]))
        for eid in new:
            ent = entities.get(eid)
            if ent is None or ent.type in opt.graph_types_excluded:
                continue
            if not holds_at(ent, req.as_of, req.superseded):
                continue
            if entity_types and ent.type not in entity_types:
                continue
            if exclude_types and ent.type in exclude_types:
                continue
            fused[eid] = (reached[eid], ("graph",))
            kept.append(eid)
