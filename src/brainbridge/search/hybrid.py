"""Hybrid search: BM25 + dense vectors, fused by RRF, widened through the graph, floored."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from brainbridge.model import Entity, Hit
from brainbridge.ports import Embedder
from brainbridge.search.fusion import rrf
from brainbridge.search.relevance import term_coverage
from brainbridge.search.vectors import VectorIndex
from brainbridge.store.sqlite.fts import query_terms
from brainbridge.store.sqlite.store import SqliteStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SearchOptions:
    """Knobs of one retrieval recipe; the defaults are what `Brain.search` uses."""

    candidates: int = 40
    graph_seeds: int = 3
    graph_hops: int = 1
    weights: tuple[tuple[str, float], ...] = (("bm25", 1.0), ("vector", 1.0), ("graph", 0.5))
    # A candidate must cover this IDF share of the query's terms, or be this close in
    # meaning, or hang off a candidate that does: weak matches are dropped, not returned.
    min_coverage: float = 0.3
    min_cosine: float = 0.35
    graph_types_excluded: tuple[str, ...] = ("Chat_Exchange",)


class HybridSearch:
    """Runs one query against the store's retrievers. Use from the store's thread."""

    def __init__(self, store: SqliteStore, embedder: Embedder | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.index = VectorIndex(store, embedder.name, embedder.dim) if embedder else None

    def search(
        self,
        query: str,
        num_results: int = 5,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
        options: SearchOptions | None = None,
        query_vector: np.ndarray | None = None,
    ) -> list[Hit]:
        """Best entities for free text, strongest first; [] when nothing clears the floor."""
        opt = options or SearchOptions()
        if num_results <= 0 or not query.strip():
            return []
        k = max(opt.candidates, num_results * 3)
        bm25 = self.store.bm25(query, k, entity_types, exclude_types)
        cosine: dict[int, float] = {}
        rankings: dict[str, list[int]] = {"bm25": [eid for eid, _ in bm25]}
        if self.index is not None and self.embedder is not None:
            self.index.refresh()
            if len(self.index):
                qv = query_vector if query_vector is not None else self.embedder.embed([query])[0]
                vec = self.index.search(qv, k, entity_types, exclude_types)
                cosine = dict(vec)
                rankings["vector"] = [eid for eid, _ in vec]
        fused = rrf(rankings, dict(opt.weights))
        entities = self.store.get_entities(list(fused))
        kept = self._floor(query, fused, entities, cosine, opt)
        if opt.graph_hops > 0 and kept:
            self._expand(kept, fused, entities, entity_types, exclude_types, opt)
        ranked = sorted(kept, key=lambda eid: -fused[eid][0])[:num_results]
        hits = [Hit(entities[eid], fused[eid][0], fused[eid][1]) for eid in ranked]
        log.debug("search %r: %d bm25, %d vector, %d kept", query[:80], len(bm25), len(cosine), len(kept))
        return hits

    def _floor(
        self,
        query: str,
        fused: dict[int, tuple[float, tuple[str, ...]]],
        entities: dict[int, Entity],
        cosine: dict[int, float],
        opt: SearchOptions,
    ) -> list[int]:
        terms = query_terms(query) or query_terms(query, keep_stopwords=True)
        df = self.store.doc_freq(terms)
        total = max(self.store.count_entities(), 1)
        kept = []
        for eid in fused:
            ent = entities.get(eid)
            if ent is None:
                continue
            text = " ".join([ent.name, ent.description, *_text_attrs(ent)])
            if cosine.get(eid, -1.0) >= opt.min_cosine or (
                term_coverage(query, text, df, total) >= opt.min_coverage
            ):
                kept.append(eid)
        return kept

    def _expand(
        self,
        kept: list[int],
        fused: dict[int, tuple[float, tuple[str, ...]]],
        entities: dict[int, Entity],
        entity_types: Sequence[str] | None,
        exclude_types: Sequence[str] | None,
        opt: SearchOptions,
    ) -> None:
        seeds = sorted(kept, key=lambda eid: -fused[eid][0])[: opt.graph_seeds]
        near = self.store.neighbors(seeds, opt.graph_hops, limit=200)
        new = [eid for eid in near if eid not in fused]
        if not new:
            return
        entities.update(self.store.get_entities(new))
        graph_w = dict(opt.weights).get("graph", 0.5)
        for rank, eid in enumerate(sorted(new, key=lambda e: near[e])):
            ent = entities.get(eid)
            if ent is None or ent.type in opt.graph_types_excluded:
                continue
            if entity_types and ent.type not in entity_types:
                continue
            if exclude_types and ent.type in exclude_types:
                continue
            fused[eid] = (graph_w / (60 + rank + 1) / near[eid], ("graph",))
            kept.append(eid)


def _text_attrs(ent: Entity) -> list[str]:
    return [v for v in ent.attributes.values() if isinstance(v, str)][:8]
