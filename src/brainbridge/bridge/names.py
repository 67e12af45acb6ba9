"""Which known entities a message mentions, by name, matched in memory."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from brainbridge.store.sqlite.fts import STOPWORDS

_TOKEN = re.compile(r"[\w][\w'’\-.&]*", re.UNICODE)
MAX_NGRAM = 6


@dataclass(frozen=True)
class Mention:
    type: str
    name: str
    matched: str  # the words of the message that matched


def _norm(text: str) -> str:
    return " ".join(t.strip("'’.-").lower() for t in _TOKEN.findall(text)).replace("'s", "")


class NameIndex:
    """Lower-cased entity names (and people's first and last names) to entities.

    `load` returns (id, type, name) rows; new rows are fetched when `max_id` grows,
    and everything is reloaded every `ttl` seconds so renames and deletions show up.
    """

    def __init__(
        self,
        load: Callable[[int], list[tuple[int, str, str]]],
        max_id: Callable[[], int],
        ttl: float = 60.0,
    ) -> None:
        self._load = load
        self._max_id = max_id
        self.ttl = ttl
        self._full: dict[str, list[tuple[str, str]]] = {}
        self._parts: dict[str, list[tuple[str, str]]] = {}
        self._seen = 0
        self._loaded_at = 0.0

    def refresh(self) -> None:
        """Bring the index up to date with the store (cheap when nothing changed)."""
        if time.monotonic() - self._loaded_at > self.ttl:
            self._full.clear()
            self._parts.clear()
            self._seen = 0
            self._loaded_at = time.monotonic()
        top = self._max_id()
        if top <= self._seen:
            return
        for eid, etype, name in self._load(self._seen):
            self._seen = max(self._seen, eid)
            key = _norm(name)
            if not key:
                continue
            self._full.setdefault(key, []).append((etype, name))
            if etype == "Person":
                for part in key.split():
                    if len(part) >= 3 and part not in STOPWORDS:
                        self._parts.setdefault(part, []).append((etype, name))
        self._seen = max(self._seen, top)

    def find(self, message: str, limit: int = 8) -> list[Mention]:
        """Entities named in `message`: whole names first, then unambiguous person names.

        Single-word names only count when the message capitalises them, so a
        Topic called "design" is not mentioned by every sentence with "design".
        """
        words = _TOKEN.findall(message)
        lowered = [_norm(w) for w in words]
        found: list[Mention] = []
        taken: set[int] = set()
        for n in range(min(MAX_NGRAM, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                if any(j in taken for j in range(i, i + n)):
                    continue
                key = " ".join(lowered[i : i + n])
                if not key or (n == 1 and (key in STOPWORDS or not words[i][:1].isupper())):
                    continue
                hits = self._full.get(key)
                if not hits and n == 1:
                    hits = self._parts.get(key)
                    if hits and len({h[1] for h in hits}) > 1:
                        hits = None  # "Kevin" with two Kevins: let search decide
                if hits:
                    taken.update(range(i, i + n))
                    for etype, name in hits[:2]:
                        found.append(Mention(etype, name, " ".join(words[i : i + n])))
        return found[:limit]
