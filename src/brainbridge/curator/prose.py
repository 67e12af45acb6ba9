"""A local session summary a person would write: what it was about, what was decided,
what is due, in prose with no `User:` / `AI:` labels and no dialogue lines.

- *About*: the user's opening sentence, turned to the third person ("We're redoing the
  kitchen and I need to compare contractor quotes" → "They are redoing the kitchen and
  need to compare contractor quotes").
- *Decided*: the user's sentences that settle something ("We'll go with Baker & Sons",
  "I booked Casa Lupa for June 8") and the assistant's "Noted: …" recaps, as verb
  phrases without their subject.
- *Due*: the user's sentences that name a date or deadline, when not already said.
- *Also*: what else the user stated, while there is room.

A session where the user said nothing gets "" here; `local.session_summary` then falls
back to the extractive summary, unlabelled.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from brainbridge.curator.text import clip, is_content, sentences, stem, words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brainbridge.curator.local import Exchange

_INTERJECTION = re.compile(
    r"^(?:(?:ok(?:ay)?|so|yes|yeah|alright|great|good|perfect|agreed|right|then|also|and|"
    r"well|fine|cool|thanks)\b[,.!:]?\s+)+",
    re.IGNORECASE,
)
_RECAP = re.compile(r"^(?:noted|done|decided|summary|so)\s*:\s*", re.IGNORECASE)
_DECIDES = re.compile(
    r"\b(?:we'?ll|we will|i'?ll|i will|we'?re going to|i'?m going to|decided|go with|going with|"
    r"chose|picked|booked|signed|ordered|ordering|enrolled|bought|switched|switching|hired|"
    r"agreed|starting|moving to|replied|says|said|"
    r"will (?:own|handle|bring|review|present|file|start|do|send|make|lease|offer))\b",
    re.IGNORECASE,
)
_DATED = re.compile(
    r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|"
    r"january|february|march|april|june|july|august|september|october|november|december|"
    r"(?:next|this|end of the|by the end of the) (?:week|month|quarter|year|sprint)|deadline|due|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)\.? \d{1,2}|"
    r"(?:the )?\d{1,2}(?:st|nd|rd|th)\b)",
    re.IGNORECASE,
)
_SAME = 0.5  # content-word overlap at which a clause repeats one already said
# A decision said as a plain fact of the session's outcome, subject first.
_SUBJECT = re.compile(
    r"^(?:we|i)(?:'ll| will|'re going to| are going to|'m going to| am going to|'ve| have)?\s+",
    re.IGNORECASE,
)
_PRONOUNS = (
    (re.compile(r"\bI'm\b"), "they're"),
    (re.compile(r"\bI am\b"), "they are"),
    (re.compile(r"\bI've\b"), "they've"),
    (re.compile(r"\bI'll\b"), "they'll"),
    (re.compile(r"\bI'd\b"), "they'd"),
    (re.compile(r"\bI\b"), "they"),
    (re.compile(r"\bwe're\b", re.I), "they're"),
    (re.compile(r"\bwe've\b", re.I), "they've"),
    (re.compile(r"\bwe'll\b", re.I), "they'll"),
    (re.compile(r"\bwe\b", re.I), "they"),
    (re.compile(r"\b(?:my|our)\b", re.I), "their"),
    (re.compile(r"\b(?:me|us)\b", re.I), "them"),
    (re.compile(r"\b(?:mine|ours)\b", re.I), "theirs"),
    (re.compile(r"\b(?:myself|ourselves)\b", re.I), "themselves"),
)
_NEED = re.compile(r"\bthey (need|want|have|plan|hope|like|think)s?\b")


def third_person(text: str) -> str:
    """First person to third ("I need my laptop" → "They need their laptop")."""
    out = text
    for pattern, replacement in _PRONOUNS:
        out = pattern.sub(replacement, out)
    out = _NEED.sub(lambda m: f"they {m.group(1)}", out)
    return out[:1].upper() + out[1:]


def _clause(sentence: str) -> str:
    """A decision as a verb phrase: "We'll go with Baker & Sons." → "go with Baker & Sons"."""
    core = _INTERJECTION.sub("", _RECAP.sub("", sentence.strip())).rstrip(".!")
    stripped = _SUBJECT.sub("", core, count=1)
    out = third_person(stripped)
    return out if stripped[:1].isupper() else out[:1].lower() + out[1:]


def _terms(text: str) -> set[str]:
    return {stem(w.lower()) for w in words(text) if is_content(w)}


def _repeats(clause: str, said: list[set[str]]) -> bool:
    terms = _terms(clause)
    return not terms or any(len(terms & s) / len(terms | s) >= _SAME for s in said)


def prose_summary(exchanges: Sequence[Exchange], limit: int = 600) -> str:
    """About, decided, due and what else the user stated, in at most `limit` characters
    ("" when the user said nothing)."""
    # (exchange, 0 for the user / 1 for the assistant, position): the user's own words
    # come before the assistant's recap of them.
    user = [(ex.number, 0, i, s) for ex in exchanges for i, s in enumerate(sentences(ex.user))]
    recaps = [
        (ex.number, 1, i, s)
        for ex in exchanges
        for i, s in enumerate(sentences(ex.ai))
        if _RECAP.match(s.strip())
    ]
    if not user:
        return ""
    opening = user[0]  # what it is about: what the user opened with
    user = user[1:]
    about = third_person(_INTERJECTION.sub("", opening[3]).rstrip(".!") + ".")
    said = [_terms(about)]
    sections: dict[str, list[str]] = {"Decided": [], "Due": [], "Also": []}
    rest = sorted(recaps + user)
    for *_, s in rest:
        if s.endswith("?") or not (_DECIDES.search(s) or _RECAP.match(s)):
            continue
        _add(sections["Decided"], _clause(s), said)
    for *_, s in user:
        if _DATED.search(s) and not s.endswith("?"):
            _add(sections["Due"], _clause(s), said)
    for *_, s in user:  # what else the user stated, while there is room
        if not s.endswith("?") and len(words(s)) >= 4:
            _add(sections["Also"], _clause(s), said)
    out = about
    for label, clauses in sections.items():
        for i, clause in enumerate(clauses):
            piece = f" {label}: {clause}." if i == 0 else f" {clause}."
            if i:
                out = out[:-1] + ";"
            if len(out) + len(piece) > limit:
                break
            out += piece
    return clip(out, limit)


def _add(section: list[str], clause: str, said: list[set[str]]) -> None:
    if clause and not _repeats(clause, said):
        section.append(clause)
        said.append(_terms(clause))
