"""Which known entities a message mentions, by name, looked up in the store's name keys."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from brainbridge.naming import FULL, PART, TOKEN, WORD, distinctive, norm
from brainbridge.words import LOWER, STOPWORDS, UPPER

MAX_NGRAM = 6
# Types whose single-word names are proper nouns, so a lower-case writer may still mean them.
PROPER_TYPES = frozenset({"Person", "Project", "Organization"})
# A name word shared by more entities than this says nothing about which one is meant.
MAX_WORD_OWNERS = 12
_INDEFINITE = frozenset({"a", "an", "any", "some", "another", "every", "each"})

# (key, kind) -> [(type, name, size)]: what `Store.name_owners` returns.
Owners = dict[tuple[str, int], list[tuple[str, str, int]]]


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
_CAPITALISED = re.compile(
    rf"(?<=[{LOWER},;:] )(?!I\b)[{UPPER}][{LOWER}]{{2,}}\b|\b[{UPPER}][{LOWER}]{{2,}}(?=['’]s\b)"
)


def capitalised_words(message: str) -> list[str]:
    """Words written like names ("when did Caroline go", "Kevin's cohort"), once each;
    never a function word ("That's", "What's" are contractions, not possessives)."""
    return list(
        dict.fromkeys(w for w in _CAPITALISED.findall(message) if w.lower() not in STOPWORDS)
    )


# A lower-case word with a possessive -s: how a message typed in lower case names someone
# ("who is ben's teacher").
_OWNER = re.compile(rf"\b([{LOWER}]{{2,}})['’]s\b")


def owner_words(message: str) -> list[str]:
    """Lower-case words written as an owner ("what's luisa's schedule": luisa), once each;
    never a function word ("what's", "let's")."""
    return list(dict.fromkeys(w for w in _OWNER.findall(message) if w not in STOPWORDS))


# Past exchanges read to see how a word is written there, and how many of its uses must
# be capitalised for it to be a name the user talked about.
HISTORY_SAMPLE = 20
HISTORY_NAME_USES = 2


def _uses(word: str, texts: Sequence[str]) -> tuple[int, int]:
    """(capitalised, lower-case) uses of `word` in `texts`."""
    pattern = re.compile(rf"(?<![\w'’])({re.escape(word)})(?![\w])", re.I)
    named = plain = 0
    for text in texts:
        for m in pattern.finditer(text):
            if m.group(1)[0].islower():
                plain += 1
            else:
                named += 1
    return named, plain


def history_names(
    history: Callable[[str, int], Sequence[str]],
    words: Sequence[str],
    uses: Callable[[str], int] = lambda _: HISTORY_NAME_USES,
) -> list[str]:
    """The `words` the user's past exchanges write as names: capitalised in at least
    `uses(word)` uses (`HISTORY_NAME_USES`), and in more uses than in lower case.

    `history(word, n)` returns the texts of up to n past exchanges holding the word. "World"
    or "Pride" occur in many conversations, in lower case; "Caroline" is written as a name.
    """
    out = []
    for word in words:
        named, plain = _uses(word, history(word.lower(), HISTORY_SAMPLE))
        if named >= uses(word) and named > plain:
            out.append(word)
    return out


class NameIndex:
    """Finds entity names in a message with one indexed store query per message.

    `owners(keys, per_key)` is `Store.name_owners`: always current, so new and
    deleted entities count at once, and a new process pays nothing to start.
    """

    def __init__(self, owners: Callable[[Sequence[str], int], Owners]) -> None:
        self._owners = owners

    def find(self, message: str, limit: int = 8) -> list[Mention]:
        """Entities named in `message`: whole names first, then unambiguous person names,
        then longer names of which the message uses several distinctive words.

        Single-word names only count when the message capitalises them, so a Topic called
        "design" is not mentioned by every sentence with "design" -- unless the writer
        capitalises nothing at all, when people, projects and organisations still count
        (never after "a"/"an": "a trellis" is no reference to a project named Trellis),
        and a project or organisation whose own name is in lower case ("tidewater") always.
        """
        words = TOKEN.findall(message)
        lowered = [norm(w) for w in words]
        keys = {
            " ".join(lowered[i : i + n])
            for n in range(1, MAX_NGRAM + 1)
            for i in range(len(words) - n + 1)
        }
        keys.discard("")
        owners = self._owners(sorted(keys), MAX_WORD_OWNERS + 1) if keys else {}
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
                hits = [(t, name) for t, name, _ in owners.get((key, FULL), [])]
                # "tidewater", a project the user writes in lower case themselves, is as
                # much a name as "Trellis".
                if loose and any(t in PROPER_TYPES and name == words[i] for t, name in hits):
                    loose = False
                if loose and not (uncased and (i == 0 or lowered[i - 1] not in _INDEFINITE)):
                    continue
                if hits and loose:
                    hits = [h for h in hits if h[0] in PROPER_TYPES]
                if not hits and n == 1:
                    hits = [(t, name) for t, name, _ in owners.get((key, PART), [])]
                    if len({h[1] for h in hits}) > 1:
                        hits = []  # "Kevin" with two Kevins: let search decide
                if hits:
                    taken.update(range(i, i + n))
                    strength = "loose" if loose else "exact"
                    for etype, name in hits[:2]:
                        found.append(Mention(etype, name, " ".join(words[i : i + n]), strength))
        found += _partial(owners, lowered, taken, {m.name for m in found})
        return found[:limit]


def _partial(owners: Owners, lowered: list[str], taken: set[int], named: set[str]) -> list[Mention]:
    """Longer names of which the message holds two or more distinctive words."""
    matched: dict[tuple[str, str], list[str]] = {}
    sizes: dict[tuple[str, str], int] = {}
    for i, word in enumerate(lowered):
        if i in taken or not distinctive(word):
            continue
        owned = owners.get((word, WORD))
        if not owned or len(owned) > MAX_WORD_OWNERS:
            continue
        for etype, name, size in owned:
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
