"""The relevance floor: how much of a query's meaning a candidate actually covers."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from brainbridge.store.sqlite.fts import query_terms

_WORD = re.compile(r"\w+", re.UNICODE)
_SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ied", "ers", "er", "es", "ed", "ly", "s")


def stem(word: str) -> str:
    """A crude suffix stripper, applied alike to queries and documents."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def term_coverage(query: str, text: str, doc_freq: Mapping[str, int], total_docs: int) -> float:
    """IDF-weighted share of the query's terms that occur in `text` (0..1)."""
    terms = query_terms(query)
    if not terms:
        return 0.0
    words = {stem(w) for w in _WORD.findall(text.lower())}
    have = want = 0.0
    for term in terms:
        df = doc_freq.get(term, 0)
        idf = math.log(1 + (total_docs - df + 0.5) / (df + 0.5))
        want += idf
        if stem(term) in words:
            have += idf
    return have / want if want else 0.0
