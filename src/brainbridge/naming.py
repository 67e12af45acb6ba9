"""Entity names as lookup keys: lower-cased, without diacritics or possessives (`norm`).

Each knowledge entity gets its whole name (FULL); a person also each part of the name
(PART: "Kevin", "Alvarez"); a longer name of any other type each distinctive word (WORD,
with the number of distinctive words in the name). Chat exchanges get none: nobody names
an exchange. A store indexes these keys; the bridge computes the same keys to look up.
"""

from __future__ import annotations

import re
import unicodedata

from brainbridge.words import STOPWORDS

EXCHANGE_TYPE = "Chat_Exchange"
FULL, PART, WORD = 0, 1, 2
TOKEN = re.compile(r"[\w][\w'’\-.&]*", re.UNICODE)
# Words that open many names and say nothing about which thing is meant.
NAME_NOISE = frozenset(
    """draft new old final notes note plan project meeting call doc document file report
    jan feb mar apr jun jul aug sep sept oct nov dec january february march april may june
    july august september october november december monday tuesday wednesday thursday
    friday saturday sunday""".split()
)


def fold(text: str) -> str:
    """`text` without diacritics ("José Müller" -> "Jose Muller")."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def norm(text: str) -> str:
    """A name as a lookup key: lower case, no diacritics, no possessive, single spaces."""
    return " ".join(t.strip("'’.-").lower() for t in TOKEN.findall(fold(text))).replace("'s", "")


def distinctive(word: str) -> bool:
    return (
        len(word) >= 3 and word not in STOPWORDS and word not in NAME_NOISE and not word.isdigit()
    )


def keys_of(entity_type: str, name: str) -> list[tuple[str, int, int]]:
    """(key, kind, size) rows for one entity's name."""
    if entity_type == EXCHANGE_TYPE:
        return []
    key = norm(name)
    if not key:
        return []
    out = [(key, FULL, 0)]
    words = key.split()
    if entity_type == "Person":
        out += [
            (part, PART, 0)
            for part in dict.fromkeys(words)
            if len(part) >= 3 and part not in STOPWORDS
        ]
    elif len(words) > 1:
        own = [w for w in dict.fromkeys(words) if distinctive(w)]
        out += [(word, WORD, len(own)) for word in own]
    return out
