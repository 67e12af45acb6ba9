"""Words and sentences of chat text, and the exchanges they come in, for the local
curator."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from brainbridge.words import POSSESSIVE, STOPWORDS


@dataclass(frozen=True)
class Exchange:
    """One turn of a session as the curator reads it."""

    number: int
    user: str
    ai: str


_CODE_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]{40,}`")
_URL = re.compile(r"https?://\S+")
_MARKUP = re.compile(r"^\s*(?:[#>*\-+]+|\d+[.)])\s+", re.MULTILINE)
_EMPHASIS = re.compile(r"(?<!\w)[*_]{1,3}(?=\w)|(?<=\w)[*_]{1,3}(?!\w)")
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\n+")
_ABBREVIATION = re.compile(r"(?:^|\s)(?:Mr|Mrs|Ms|Mx|Dr|Prof|St|Sr|Jr|vs|etc|e\.g|i\.e)\.$")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")
_EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f]")

# Chat filler and common verbs, adverbs and adjectives: words that never name a topic.
FILLER = frozenset(
    """hey hi hello hiya bye goodbye thanks thank thx cheers welcome sorry please pls wow oh
    ah uh um hmm haha lol omg yay cool nice great good awesome amazing wonderful fantastic
    glad happy sad fun funny lovely sweet totally absolutely definitely exactly sure right
    true indeed actually basically literally probably maybe perhaps anyway though although
    pretty quite rather super lots lot bit kind sort stuff anything everything something
    nothing someone everyone anyone one ones thing things way ways time times today
    tomorrow yesterday tonight now lately recently soon later ago ever never always often
    sometimes usually day days week weeks month months year years morning evening night
    last next new old big small little much many more most less least even just also
    still again already yet back away around able well better best worse worst hard easy
    real whole different same own other another every each first second third see saw seen
    seeing look looks looked looking hear heard hearing feel feels felt feeling know knows
    knew known knowing think thinks thought thinking mean means meant guess hope hoped hoping
    wish love loved loves glad try tried trying tries keep kept keeping take took taken
    taking give gave given giving come came coming comes went goes gone going get gets
    getting got make makes made making do does did doing done have has had having be been
    being say says said saying tell tells told telling ask asks asked asking let lets
    want wants wanted wanting need needs needed like likes liked use used using sounds sound
    sounded seem seems seemed find found finding put puts show showed shown help helps
    helped helping start started starting begin began share shared sharing talk talked
    talking chat chatting happen happened happening check checked yes yeah yep nope no okay
    ok alright can could would should will shall might must may cannot can't won't don't
    doesn't didn't isn't aren't wasn't weren't i'm i've i'd i'll you're you've you'd you'll
    it's that's there's what's let's he's she's we're they're we've they've user assistant
    ai others guys folks everybody somebody anybody favorite favourite fav part parts
    wanna gonna gotta kinda dunno btw fyi imo imho tbh idk brb ttyl lmao xoxo towards
    toward upon within without among across along behind beyond onto per via tough
    positive negative rewarding exciting excited interesting inspiring inspired proud
    stoked thrilled stressful challenging difficult crazy incredible beautiful gorgeous
    special unique important perfect full stay stays staying succeed motivate motivates
    motivated throw keen awesome worth wild ready possible sure cute""".split()
)
# Endings of words that describe rather than name (adjectives, past participles).
_DESCRIBING = ("ed", "ive", "ful", "ous", "able", "ible", "less")
STOP = STOPWORDS | FILLER

# Words a title keeps in lower case unless they open it.
SMALL_WORDS = frozenset("a an and as at but by for in of on or the to vs via with from".split())


def clean(text: str) -> str:
    """Prose of a chat message: code blocks, URLs, markup and emoji removed."""
    text = _CODE_FENCE.sub(" ", text)
    text = _INLINE_CODE.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _MARKUP.sub("", text)
    text = _EMPHASIS.sub("", text)
    text = _EMOJI.sub("", text)
    return text


def sentences(text: str) -> list[str]:
    """Sentences of a message's prose, whitespace collapsed."""
    out: list[str] = []
    for part in _SENTENCE_END.split(clean(text)):
        part = " ".join(part.split())
        if not part:
            continue
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] = f"{out[-1]} {part}"  # "Dr. Hannah Ode" is one sentence
        else:
            out.append(part)
    return out


def words(text: str) -> list[str]:
    """Word tokens with their case, possessive 's dropped."""
    return [POSSESSIVE.sub("", w).strip("-'’") for w in _WORD.findall(text)]


def is_content(word: str) -> bool:
    """A word that can carry a topic: not a stopword, filler, contraction or bare number."""
    low = word.lower()
    return (
        len(low) > 2
        and low not in STOP
        and not low.isdigit()
        and not low.endswith("ly")
        and "'" not in low
        and "’" not in low
    )


def is_describing(word: str) -> bool:
    """Looks like an adjective or participle ("tired", "creative"): a poor end to a title."""
    low = word.lower()
    return not word[:1].isupper() and len(low) > 4 and low.endswith(_DESCRIBING)


def stem(word: str) -> str:
    """A light normal form so "painting" and "paintings" count as one term."""
    low = word.lower().replace("’", "'")
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("s", "")):
        if low.endswith(suffix) and len(low) > len(suffix) + 3 and not low.endswith("ss"):
            return low[: -len(suffix)] + keep
    return low


def content_terms(text: str) -> list[str]:
    """Stemmed content words of `text`, in order, repeats kept."""
    return [stem(w) for w in words(text) if is_content(w)]


def title_case(phrase: str) -> str:
    """Title Case that keeps acronyms and mixed-case names (LGBTQ, iPhone, PostgreSQL)."""
    out = []
    for i, word in enumerate(phrase.split()):
        if any(c.isupper() for c in word) or (i and word in SMALL_WORDS):
            out.append(word)
        else:
            out.append(word[:1].upper() + word[1:])
    return " ".join(out)


def clip(text: str, limit: int) -> str:
    """At most `limit` characters, cut at a word boundary with an ellipsis."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


# -- term vectors ---------------------------------------------------------------


def tfidf(docs: Sequence[Sequence[str]]) -> list[dict[str, float]]:
    """Unit TF-IDF vectors of `docs` (lists of terms), IDF over `docs` themselves."""
    df: Counter[str] = Counter()
    for doc in docs:
        df.update(set(doc))
    n = len(docs)
    out = []
    for doc in docs:
        tf = Counter(doc)
        vec = {t: (1 + math.log(c)) * (math.log((n + 1) / (df[t] + 1)) + 1) for t, c in tf.items()}
        out.append(_normalise(vec))
    return out


def centroid(vectors: Sequence[dict[str, float]]) -> dict[str, float]:
    """The unit sum of `vectors`: what a set of sentences is mostly about."""
    total: Counter[str] = Counter()
    for vec in vectors:
        total.update(vec)
    return _normalise(dict(total))


def dot(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(t, 0.0) for t, v in a.items())


def _normalise(vec: dict[str, float]) -> dict[str, float]:
    norm = math.sqrt(sum(v * v for v in vec.values()))
    return {t: v / norm for t, v in vec.items()} if norm else vec
