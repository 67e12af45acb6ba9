"""Which known entities a message mentions, by name, matched in memory."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from brainbridge.store.sqlite.fts import STOPWORDS

_TOKEN = re.compile(r"[\w][\w'’\-.&]*", re.UNICODE)
MAX_NGRAM = 6
# Types whose single-word names are proper nouns, so a lower-case writer may still mean them.
PROPER_TYPES = frozenset({"Person", "Project", "Organization"})
# A name word shared by more entities than this says nothing about which one is meant.
MAX_WORD_OWNERS = 12
# A full reload only catches deleted names (names never change in place), so on a big brain
# it must stay rare: the TTL grows to this many times the last reload's duration.
RELOAD_COST_FACTOR = 500
_INDEFINITE = frozenset({"a", "an", "any", "some", "another", "every", "each"})
# Words that open many names and say nothing about which thing is meant.
_NAME_NOISE = frozenset(
    """draft new old final notes note plan project meeting call doc document file report
    jan feb mar apr jun jul aug sep sept oct nov dec january february march april may june
    july august september october november december monday tuesday wednesday thursday
    friday saturday sunday""".split()
)


@dataclass(frozen=True)
class Mention:
    type: str
    name: str
    matched: str  # the words of the message that matched
    # exact: the whole name (or an unambiguous person name) as written; loose: a lower-case
    # proper name, or several distinctive words of one longer name ("the board deck");
    # history: a capitalised word no entity is named, used in past conversations.
    strength: str = "exact"


# A capitalised word inside a sentence, or any capitalised possessive ("Kevin's").
_CAPITALISED = re.compile(r"(?<=[a-z,;:] )(?!I\b)[A-Z][a-z]{2,}\b|\b[A-Z][a-z]{2,}(?=['’]s\b)")


def capitalised_words(message: str) -> list[str]:
    """Words written like names ("when did Caroline go", "Kevin's cohort"), once each."""
    return list(dict.fromkeys(_CAPITALISED.findall(message)))


def _norm(text: str) -> str:
    return " ".join(t.strip("'’.-").lower() for t in _TOKEN.findall(text)).replace("'s", "")


def _distinctive(word: str) -> bool:
    return (
        len(word) >= 3 and word not in STOPWORDS and word not in _NAME_NOISE and not word.isdigit()
    )


class NameIndex:
    """Lower-cased entity names (and people's first and last names) to entities.

    `load` returns (id, type, name) rows; new rows are fetched when `max_id` grows, and
    everything is reloaded every `ttl` seconds so deletions show up -- less often on a
    brain whose reload takes long (see RELOAD_COST_FACTOR).
    """

    def __init__(
        self,
        load: Callable[[int], list[tuple[int, str, str]]],
        max_id: Callable[[], int],
        ttl: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._load = load
        self._max_id = max_id
        self.ttl = ttl
        self._clock = clock
        self._ttl_now = ttl
        self._full: dict[str, list[tuple[str, str]]] = {}
        self._parts: dict[str, list[tuple[str, str]]] = {}
        # distinctive word of a multi-word name -> (type, name, distinctive words in that name)
        self._words: dict[str, list[tuple[str, str, int]]] = {}
        self._seen = 0
        self._loaded_at = 0.0

    def refresh(self) -> None:
        """Bring the index up to date with the store (cheap when nothing changed)."""
        started = self._clock()
        reload = self._seen == 0 or started - self._loaded_at > self._ttl_now
        if reload:
            self._full.clear()
            self._parts.clear()
            self._words.clear()
            self._seen = 0
        self._add_new()
        if reload:
            self._loaded_at = self._clock()
            self._ttl_now = max(self.ttl, RELOAD_COST_FACTOR * (self._loaded_at - started))

    def _add_new(self) -> None:
        top = self._max_id()
        if top <= self._seen:
            return
        for eid, etype, name in self._load(self._seen):
            self._seen = max(self._seen, eid)
            key = _norm(name)
            if not key:
                continue
            self._full.setdefault(key, []).append((etype, name))
            words = key.split()
            if etype == "Person":
                for part in words:
                    if len(part) >= 3 and part not in STOPWORDS:
                        self._parts.setdefault(part, []).append((etype, name))
            elif len(words) > 1:
                own = [w for w in dict.fromkeys(words) if _distinctive(w)]
                for word in own:
                    owners = self._words.setdefault(word, [])
                    if len(owners) <= MAX_WORD_OWNERS:
                        owners.append((etype, name, len(own)))
        self._seen = max(self._seen, top)

    def find(self, message: str, limit: int = 8) -> list[Mention]:
        """Entities named in `message`: whole names first, then unambiguous person names,
        then longer names of which the message uses several distinctive words.

        Single-word names only count when the message capitalises them, so a Topic called
        "design" is not mentioned by every sentence with "design" -- unless the writer
        capitalises nothing at all, when people, projects and organisations still count
        (never after "a"/"an": "a trellis" is no reference to a project named Trellis).
        """
        words = _TOKEN.findall(message)
        lowered = [_norm(w) for w in words]
        uncased = not any(c.isupper() for c in message)
        found: list[Mention] = []
        taken: set[int] = set()
        for n in range(min(MAX_NGRAM, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                if any(j in taken for j in range(i, i + n)):
                    continue
                key = " ".join(lowered[i : i + n])
                if not key or (n == 1 and key in STOPWORDS):
                    continue
                loose = n == 1 and not words[i][:1].isupper()
                if loose and not (uncased and (i == 0 or lowered[i - 1] not in _INDEFINITE)):
                    continue
                hits = self._full.get(key)
                if hits and loose:
                    hits = [h for h in hits if h[0] in PROPER_TYPES]
                if not hits and n == 1:
                    hits = self._parts.get(key)
                    if hits and len({h[1] for h in hits}) > 1:
                        hits = None  # "Kevin" with two Kevins: let search decide
                if hits:
                    taken.update(range(i, i + n))
                    strength = "loose" if loose else "exact"
                    for etype, name in hits[:2]:
                        found.append(Mention(etype, name, " ".join(words[i : i + n]), strength))
        found += self._partial(lowered, taken, {m.name for m in found})
        return found[:limit]

    def _partial(self, lowered: list[str], taken: set[int], named: set[str]) -> list[Mention]:
        """Longer names of which the message holds two or more distinctive words."""
        matched: dict[tuple[str, str], list[str]] = {}
        sizes: dict[tuple[str, str], int] = {}
        for i, word in enumerate(lowered):
            if i in taken or not _distinctive(word):
                continue
            owners = self._words.get(word)
            if not owners or len(owners) > MAX_WORD_OWNERS:
                continue
            for etype, name, size in owners:
                got = matched.setdefault((etype, name), [])
                if word not in got:
                    got.append(word)
                sizes[(etype, name)] = size
        out = [
            Mention(etype, name, " ".join(got), "loose")
            for (etype, name), got in matched.items()
            if name not in named and len(got) >= 2 and 2 * len(got) >= sizes[(etype, name)]
        ]
        out.sort(key=lambda m: -len(m.matched.split()))
        return out[:3]
