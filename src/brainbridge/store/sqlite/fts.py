"""Turning any user text into a safe FTS5 MATCH expression."""

from __future__ import annotations

from brainbridge.words import query_terms

MAX_TERMS = 24


def fts_match_expression(text: str) -> str | None:
    """An FTS5 expression OR-ing the quoted terms of `text`; None when nothing is searchable.

    Every term is double-quoted, so operators (AND, OR, NEAR, *, :, ^, quotes) in user
    text are matched as words, never interpreted.
    """
    terms = query_terms(text) or query_terms(text, keep_stopwords=True)
    if not terms:
        return None
    return match_terms(terms)


def match_terms(terms: list[str]) -> str:
    """The FTS5 expression OR-ing these (already tokenised) terms, each quoted."""
    return " OR ".join(f'"{t}"' for t in terms[:MAX_TERMS])
