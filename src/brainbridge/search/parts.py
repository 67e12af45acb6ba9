"""Sentence vectors: an entry is matched by its best sentence as well as by its whole text.

One vector per entry averages everything it says. A chat exchange that answers a question
in one sentence among greetings and asides ("Wow, Caroline! ... I just signed up for a
pottery class yesterday.") lands far from that question, and a reply of many sentences
farther still. So an entry of two or more sentences also gets a vector for each of its
first few sentences, and its cosine with a query is the best of them and the whole
(docs/benchmarks.md: LoCoMo turn recall@10 +0.05 on the tuned conversations). Chat
exchanges too, unless BRAIN_EXCHANGE_SENTENCES=0 (`EXCHANGE_SENTENCES` below).

Each sentence keeps the labels that open its segment ("Melanie: ", the speaker of a
transcript's turn), as they say who said it; an exchange's own "User:" / "AI:" labels
are on every exchange and only blur a short sentence's vector, so they are left out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import NamedTuple

from brainbridge.ports import Embedder

# Sentences embedded per entry besides its whole text: bounds the index's memory (each is
# 1.5 KB for a 384-dimension model) and the embedding work of a long reply.
MAX_PARTS = 4
MIN_WORDS = 3


def _switch(name: str, default: bool) -> bool:
    """An on/off setting from the environment, read at import."""
    value = os.environ.get(name, "").strip().lower()
    return default if not value else value not in ("0", "false", "no", "off")


# Stored vectors are named after the embedder and this layout, so a brain whose vectors
# have no sentences is embedded again in the background, as for a new embedder.
LAYOUT = "sentences"
# Chat exchanges get sentence vectors unless BRAIN_EXCHANGE_SENTENCES=0 (#34,
# docs/embedders.md). Measured on LoCoMo's tuned conversations with the relevance model
# refitted each way (MiniLM): with them the block held evidence recall 0.731 at 642 tokens
# and led with evidence 0.454 of the time; without, 0.703 at 575 and 0.460. They cost 4.8
# texts embedded per exchange instead of one (vectors ready at 1.85x the embedder's time):
# =0 is for a brain that must keep up with a fast stream of turns, and so is
# BRAIN_POOL_SENTENCES=1 below.
EXCHANGE_SENTENCES = _switch("BRAIN_EXCHANGE_SENTENCES", True)
# BRAIN_POOL_SENTENCES=1: an embedder that can (MiniLM) pools each sentence's vector from
# its pass over the whole text (`embed_parts`), so sentences cost no model call: vectors
# ready at 1.04x the embedder's raw rate, not 1.85x. Off by default: on LoCoMo's untouched
# conversations it led with evidence 0.464 of the time against 0.480 and held recall
# 0.697 against 0.701 (at 585 tokens against 631), though the tuned ones showed no loss.
POOL_SENTENCES = _switch("BRAIN_POOL_SENTENCES", False)
_EXCHANGE_HEADER = re.compile(r"^.*? \(Chat_Exchange\): ")

# What `embed_text` puts before the description: "{name} ({type}): ".
_HEADER = re.compile(r"^.*? \([A-Za-z_][\w-]*\): ")
_SEGMENT = re.compile(r"\s+\|\s+|\n+")
_LABELS = re.compile(r"((?:[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2}: +)+)")
_ROLE = re.compile(r"\b(?:User|AI): +")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"\w+")


def vector_model(embedder: Embedder) -> str:
    """The name an embedder's vectors are stored under."""
    return f"{embedder.name}+{LAYOUT}"


class Part(NamedTuple):
    """A sentence to embed apart: its text (with the labels that open its segment) and
    where the sentence itself lies in the embed text, [start, end)."""

    text: str
    start: int
    end: int


def parts_of(text: str) -> list[Part]:
    """The sentences to embed apart from an embed text: a chat exchange's only when
    `EXCHANGE_SENTENCES` is on."""
    if not EXCHANGE_SENTENCES and _EXCHANGE_HEADER.match(text):
        return []
    return sentence_parts(text)


def sentences(text: str) -> list[str]:
    """The sentences of an embed text to embed on their own: [] for a text of one
    sentence; else the first `MAX_PARTS`, taken from each segment in turn."""
    return [part.text for part in sentence_parts(text)]


def sentence_parts(text: str) -> list[Part]:
    """`sentences`, each with where it lies in `text`."""
    header = _HEADER.match(text)
    segments: list[list[Part]] = []
    for start, end in _between(_SEGMENT, text, header.end() if header else 0, len(text)):
        found = _LABELS.match(text, start, end)
        labels = _ROLE.sub("", found.group(1)) if found else ""
        said = [
            Part(labels + text[a:b], a, b)
            for a, b in map(
                _stripped(text), _between(_SENTENCE, text, found.end() if found else start, end)
            )
            if len(_WORD.findall(text, a, b)) >= MIN_WORDS
        ]
        if said:
            segments.append(said)
    if sum(len(s) for s in segments) < 2:
        return []
    out: list[Part] = []
    depth = 0
    while len(out) < MAX_PARTS and any(depth < len(s) for s in segments):
        out.extend(s[depth] for s in segments if depth < len(s))
        depth += 1
    return out[:MAX_PARTS]


def _between(separator: re.Pattern[str], text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of text[start:end] between matches of `separator` (as `re.split`)."""
    spans, at = [], start
    for match in separator.finditer(text, start, end):
        spans.append((at, match.start()))
        at = match.end()
    spans.append((at, end))
    return spans


def _stripped(text: str) -> Callable[[tuple[int, int]], tuple[int, int]]:
    """A span without the white space at its ends (as `str.strip`)."""

    def strip(span: tuple[int, int]) -> tuple[int, int]:
        a, b = span
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        return a, b

    return strip
