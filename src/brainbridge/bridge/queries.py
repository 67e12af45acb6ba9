"""Turning a message into 1–3 short keyword queries, resolving vague references."""

from __future__ import annotations

import re

from brainbridge.bridge.names import Mention
from brainbridge.words import STOPWORDS

MAX_TERMS = 6
_WORD = re.compile(r"[\w][\w'’\-]*", re.UNICODE)
# A noun the speaker points at: "the toast", "that letter", "our lease".
REFERENCED_NOUN = re.compile(
    r"\b(?:that|those|this|these|the|my|our)\s+(?:\w+\s+)?([a-z][a-z\-]{2,})\b", re.I
)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
# "haven't", "I'm", "we'll": contractions are function words, never what a thing is called.
CONTRACTION = re.compile(r"(?:n['’]t|['’](?:ve|m|re|ll|d))$", re.I)

# Words that say how the user feels about a thing, not what the thing is.
FILLER = frozenset(
    """finish finished finishing done start started update updates status progress going
    doing coming along track help need needs check remind reminder follow catch talk talked
    discuss discussed mention mentioned today tomorrow tonight yesterday week weekend month
    monday tuesday wednesday thursday friday saturday sunday morning afternoon evening soon
    later earlier last next time please thanks thank can could would should will shall hey
    hi hello ok okay sure right actually maybe kind sort bit lot something anything
    everything stuff way again still already yet gonna wanna gotta send sending sent work
    working worked look looking looked try trying tried user assistant ai""".split()
)


def keywords(text: str) -> list[str]:
    """Content words of `text` in order, proper nouns keeping their case."""
    out: list[str] = []
    seen: set[str] = set()
    for word in _WORD.findall(text):
        word = re.sub(r"['’]s$", "", word)
        if CONTRACTION.search(word):
            continue
        low = word.lower()
        if len(low) < 2 or low in STOPWORDS or low in FILLER or low in seen:
            continue
        seen.add(low)
        out.append(word)
    return out


def _from_summary(noun: str, summary: str) -> list[str]:
    """Keywords from the summary sentence that mentions `noun` (what "that letter" was)."""
    for sentence in _SENTENCE.findall(summary):
        if re.search(rf"\b{re.escape(noun)}", sentence, re.I):
            words = [w for w in keywords(sentence) if w.lower() != noun.lower()]
            proper = [w for w in words if w[:1].isupper()]
            return (proper or words)[: MAX_TERMS - 1]
    return []


def build_queries(
    message: str, mentions: list[Mention], summary: str = "", limit: int = 3
) -> list[str]:
    """1–`limit` keyword queries: named entities with the message's topic words, then each
    vague reference ("that letter") expanded with what the session summary says about it."""
    words = keywords(message)
    queries: list[str] = []
    named = list(dict.fromkeys(m.name for m in mentions))
    covered = {w.lower() for m in mentions for w in keywords(m.matched)}
    topic = [w for w in words if w.lower() not in covered]
    if named:
        for name in named[:2]:
            queries.append(" ".join([name, *topic[: MAX_TERMS - len(name.split())]]))
    elif topic:
        queries.append(" ".join(topic[:MAX_TERMS]))
    if summary:
        for match in REFERENCED_NOUN.finditer(message):
            noun = match.group(1)
            if noun.lower() in STOPWORDS or noun.lower() in FILLER:
                continue
            extra = _from_summary(noun, summary)
            if extra:
                queries.append(" ".join([noun, *extra]))
    unique: list[str] = []
    for q in queries:
        if q and q.lower() not in {u.lower() for u in unique}:
            unique.append(q)
    return unique[:limit]
