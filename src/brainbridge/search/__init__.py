"""Retrieval: BM25, vectors and graph expansion fused into one ranking."""

from brainbridge.search.hybrid import HybridSearch, SearchOptions

__all__ = ["HybridSearch", "SearchOptions"]
