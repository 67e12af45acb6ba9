"""Who is who: a name as mentioned, resolved to the entity the brain already knows.

Certain matches only, with no LLM: the same name with case, spacing, punctuation,
diacritics, titles ("Dr.") and company suffixes ("Ltd.") ignored; an alias the user gave
("everyone calls her Jess"); or one word that is part of exactly one known name ("Theo"
when the brain knows one Theo). Two known Theos leave a bare "Theo" ambiguous: nothing
new is minted for it. Look-alikes ("Dan Park" / "Dan Alvarez", "Anna" / "Hanna") never
merge, and neither do short words or initials.
"""

from __future__ import annotations

from rapidfuzz.distance import JaroWinkler

from brainbridge.naming import FULL, PART, WORD, norm
from brainbridge.ports import Store
from brainbridge.words import STOPWORDS

AMBIGUOUS = "\0ambiguous"
TITLES = frozenset({"dr", "mr", "mrs", "ms", "mx", "prof", "sir", "dame"})
SUFFIXES = frozenset({"ltd", "inc", "llc", "gmbh", "bv", "plc", "co", "corp", "sa", "ag"})
# A single word shorter than this never stands for a longer name ("Li", "KO").
MIN_PART = 3


def form(name: str) -> tuple[str, ...]:
    """The words that identify a name: no titles, suffixes, joining words or plural -s."""
    words = [w for w in norm(name.replace("&", " and ")).split() if w not in TITLES]
    words = [w for w in words if w not in SUFFIXES and w not in STOPWORDS and w != "and"]
    return tuple(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words)


def resolve_name(store: Store, entity_type: str, name: str) -> str | None:
    """The known name `name` refers to, None for someone new, AMBIGUOUS when several fit."""
    key = " ".join(w for w in norm(name).split() if w not in TITLES)
    if not key:
        return None
    exact = _of_type(store, store.name_key_owners(key, FULL), entity_type)
    if exact:
        return exact[0] if len(exact) == 1 else AMBIGUOUS
    wanted = form(name)
    if not wanted:
        return None
    seen = _sharing_a_word(store, entity_type, wanted)
    same = [n for n in seen if form(n) == wanted]
    if same:
        return same[0] if len(same) == 1 else AMBIGUOUS
    if len(wanted) == 1 and len(wanted[0]) >= MIN_PART:
        # One word of exactly one known name: "Theo" for Theo Nakamura, "Dr Okafor".
        holders = [n for n in seen if wanted[0] in form(n)]
        if len(holders) == 1:
            return holders[0]
        if len(holders) > 1:
            return AMBIGUOUS
    return None


# Jaro-Winkler similarity of folded names above which two names go to the review queue
# ("Oskar"/"Oscar Lindqvist", "Marta"/"Martha Ruiz"); a person decides, never this number.
REVIEW_SIMILARITY = 0.88


def lookalikes(
    store: Store, entity_type: str, name: str, limit: int = 3
) -> list[tuple[str, float]]:
    """Known names so close to `name` that they may be the same (for review, not merging):
    they share a word of the name and are spelled nearly alike."""
    wanted = form(name)
    if not wanted:
        return []
    seen = _sharing_a_word(store, entity_type, wanted)
    whole = " ".join(wanted)
    scored = [
        (n, JaroWinkler.similarity(whole, " ".join(form(n))))
        for n in seen
        if n != name and len(form(n)) == len(wanted)
    ]
    close = [(n, s) for n, s in scored if s >= REVIEW_SIMILARITY]
    return sorted(close, key=lambda x: -x[1])[:limit]


def _sharing_a_word(store: Store, entity_type: str, words: tuple[str, ...]) -> list[str]:
    """Known names of this type with one of `words` as a name part (people) or word."""
    kind = PART if entity_type == "Person" else WORD
    seen: dict[str, None] = {}
    for word in words:
        if len(word) >= MIN_PART:
            seen.update(
                dict.fromkeys(_of_type(store, store.name_key_owners(word, kind), entity_type))
            )
    return list(seen)


def _of_type(store: Store, ids: list[int], entity_type: str) -> list[str]:
    return [e.name for e in store.get_entities(ids).values() if e.type == entity_type]
