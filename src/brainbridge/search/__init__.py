"""Retrieval: BM25, vectors and graph expansion fused into one ranking."""

from brainbridge.search.hybrid import HybridSearch, SearchOptions, SearchRequest

__all__ = ["HybridSearch", "SearchOptions", "SearchRequest"]
