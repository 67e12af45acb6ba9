"""The relevance floor: how much of a query's meaning a candidate actually covers."""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Collection, Mapping

import snowballstemmer

from brainbridge.model import Entity
from brainbridge.words import query_terms

_CAMEL = re.compile(r"([a-z])([A-Z])")
# What the floor reads of an entity; the FTS index holds the same words.
MAX_TEXT_ATTRS = 12
# The original Porter algorithm, as FTS5's `porter` tokenizer applies it: the floor must
# count the words BM25 matched ("countries" found "country"), or it drops what BM25 found.
_PORTER = snowballstemmer.stemmer("porter")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The word as FTS5 indexes it: diacritics removed, then Porter-stemmed from 3 letters."""
    if not word.isascii():
        word = "".join(
            c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c)
        )
    return word if len(word) < 3 else _PORTER.stemWord(word)


def entity_text(ent: Entity) -> str:
    """Name (also split at camelCase), description and text attributes, lists included."""
    parts = [ent.name, _CAMEL.sub(r"\1 \2", ent.name), ent.description]
    for value in list(ent.attributes.values())[:MAX_TEXT_ATTRS]:
        if isinstance(value, str):
            if value not in ent.description:  # a chat message is in both: read it once
                parts.append(value)
        elif isinstance(value, list | tuple):
            parts.extend(v for v in value if isinstance(v, str))
    return " ".join(parts)


class Coverage:
    """IDF-weighted share of a query's terms that occur in a text (0..1), query prepared once."""

    def __init__(
        self,
        query: str,
        doc_freq: Mapping[str, int],
        total_docs: int,
        known: Collection[str] | None = None,
        aliases: Mapping[str, Collection[str]] | None = None,
    ) -> None:
        """`known`: the query's words that some entry holds (default: those with a document
        frequency); when there are any, the others do not count. `aliases`: other words
        that count as a query word where a text uses them ("mum": mother, mom)."""
        self.weights: dict[str, float] = {}
        aliases = aliases or {}
        idf = {
            term: math.log(1 + (total_docs - df + 0.5) / (df + 0.5))
            for term in query_terms(query)
            for df in (max(doc_freq.get(w, 0) for w in (term, *aliases.get(term, ()))),)
        }
        # A word no document holds tells no candidate from another, yet IDF weighs it most:
        # in a young brain "letter deadline" would hide the letter, and "where is our office,
        # a candidate asked for the address" the office. When the brain knows some of the
        # words, a candidate is judged by those alone.
        held = (
            {t for t in idf if any(doc_freq.get(w, 0) for w in (t, *aliases.get(t, ())))}
            if known is None
            else set(known) & set(idf)
        )
        if held:
            idf = {t: w for t, w in idf.items() if t in held}
        for term, weight in idf.items():
            key = stem(term)
            self.weights[key] = self.weights.get(key, 0.0) + weight
        self.want = math.fsum(self.weights.values())
        self._alias = {
            stem(other.lower()): key
            for word, others in aliases.items()
            if (key := stem(word.lower())) in self.weights
            for other in others
            if stem(other.lower()) not in self.weights
        }
        # Only words that start like a query term can stem to one: find just those, in C.
        heads = sorted({k[:3] for k in (*self.weights, *self._alias)}, key=len, reverse=True)
        self._candidates = (
            re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, heads)) + r")[^\W_]*", re.I)
            if heads
            else None
        )

    def names(self, name: str) -> bool:
        """Whether the query holds every word of `name` ("Priya" in "the roadmap Priya
        asked for"): a thing the query names is relevant however little else it covers."""
        words = {stem(t) for t in query_terms(name)}
        return bool(words) and words <= self.weights.keys()

    def key(self, word: str) -> str | None:
        """The query term (a key of `weights`) that `word` of a text counts as, if any."""
        stemmed = stem(word.lower())
        return stemmed if stemmed in self.weights else self._alias.get(stemmed)

    def found(self, text: str) -> set[str]:
        """The query's terms (stemmed, as keys of `weights`) that occur in `text`."""
        if self._candidates is None:
            return set()
        return {k for w in self._candidates.findall(text) if (k := self.key(w)) is not None}

    def count(self, text: str) -> int:
        """How many of the query's distinct terms occur in `text`."""
        return len(self.found(text))

    def of(self, text: str) -> float:
        if not self.want:
            return 0.0
        return math.fsum(self.weights[key] for key in self.found(text)) / self.want


def term_coverage(query: str, text: str, doc_freq: Mapping[str, int], total_docs: int) -> float:
    """IDF-weighted share of the query's terms that occur in `text` (0..1)."""
    return Coverage(query, doc_freq, total_docs).of(text)
