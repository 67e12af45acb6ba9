"""The relevance floor: how much of a query's meaning a candidate actually covers."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from brainbridge.model import Entity
from brainbridge.store.sqlite.fts import query_terms

# Letters and digits only: FTS5's unicode61 tokenizer also splits at "_".
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ied", "ers", "er", "es", "ed", "ly", "s")
_CAMEL = re.compile(r"([a-z])([A-Z])")
# What the floor reads of an entity; the FTS index holds the same words.
MAX_TEXT_ATTRS = 12


def stem(word: str) -> str:
    """A crude suffix stripper, applied alike to queries and documents."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def entity_text(ent: Entity) -> str:
    """Name (also split at camelCase), description and text attributes, lists included."""
    parts = [ent.name, _CAMEL.sub(r"\1 \2", ent.name), ent.description]
    for value in list(ent.attributes.values())[:MAX_TEXT_ATTRS]:
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, list | tuple):
            parts.extend(v for v in value if isinstance(v, str))
    return " ".join(parts)


def term_coverage(query: str, text: str, doc_freq: Mapping[str, int], total_docs: int) -> float:
    """IDF-weighted share of the query's terms that occur in `text` (0..1)."""
    terms = query_terms(query)
    if not terms:
        return 0.0
    wanted = {stem(t) for t in terms}
    # Stemming every word of a long text is the floor's main cost; only words that
    # start like a query term can stem to one.
    heads = {w[:3] for w in wanted}
    words = {stem(w) for w in set(_WORD.findall(text.lower())) if w[:3] in heads}
    have = want = 0.0
    for term in terms:
        df = doc_freq.get(term, 0)
        idf = math.log(1 + (total_docs - df + 0.5) / (df + 0.5))
        want += idf
        if stem(term) in words:
            have += idf
    return have / want if want else 0.0
