"""A local session summary a person would write: who talked about what, what was decided,
what is due, in prose with no `User:` / `AI:` labels and no dialogue lines.

- *Who*: names come from how the two sides greet each other ("Hey Mel!" said by the user
  names the other side, "Thanks, Sam" said by the assistant names the user). Unnamed, the
  user is "they".
- *About*: the user's first real sentence (greetings skipped), in the third person with the
  user's name as its subject: "I need to compare contractor quotes" → "Sam needs to compare
  contractor quotes".
- *What happened*: the user's sentences that decide something ("We'll go with Baker &
  Sons") or name a date come first, then the most salient of the rest (TF-IDF against the
  session's centroid, near-repeats skipped), put back in conversation order.
- *The other side*: an assistant's advice is not the session's story, so only its "Noted:
  …" recaps count; when the other side is a person talking about their own life (it says
  "my" and tells what it did, as in a chat between two friends), its sentences count too,
  under its name.

A session where the user said nothing gets "" here; `local.session_summary` then falls
back to the extractive summary, unlabelled.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from brainbridge.curator.text import (
    Exchange,
    centroid,
    clip,
    content_terms,
    dot,
    sentences,
    tfidf,
    words,
)
from brainbridge.words import LOWER, UPPER

_INTERJECTION = re.compile(
    r"^(?:(?:ok(?:ay)?|so|yes|yeah|yep|alright|great|good|perfect|agreed|right|then|also|and|"
    r"well|fine|cool|thanks|thank you|wow|oh|hey|hi|hello|haha|lol|omg|yay|aww|ah|hmm|um|"
    r"totally|absolutely|definitely|sure|nice|awesome|lovely|wonderful|excellent)\b[,.!:;]?\s+)+",
    re.IGNORECASE,
)
_RECAP = re.compile(r"^(?:noted|done|decided|summary|so)\s*:\s*", re.IGNORECASE)
_DECIDES = re.compile(
    r"\b(?:we'?ll|we will|i'?ll|i will|we'?re going to|i'?m going to|decided|go with|going with|"
    r"chose|picked|booked|signed|ordered|ordering|enrolled|bought|switched|switching|hired|"
    r"agreed|starting|moving to|replied|says|said|let'?s (?:do|go)|added|"
    r"will (?:own|handle|bring|review|present|file|start|do|send|make|lease|offer|book))\b",
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
# How a name is said to someone: "Hey Mel!", "Thanks, Sam.", "Good luck, Jon!".
_GREETING = (
    r"(?:hey|hi|hiya|hello|yo|thanks|thank you|bye|goodbye|morning|good morning|evening|"
    r"good evening|congrats|congratulations|good luck|welcome|dear|wow|oh|sorry|cheers|"
    r"great to hear|see you|take care)"
)
_NAME = rf"([{UPPER}][{LOWER}]{{1,14}})"
_VOCATIVE = (
    re.compile(rf"\b{_GREETING},?\s+{_NAME}\b(?=\s*(?:[!,.?:;)]|$))", re.IGNORECASE),
    re.compile(rf",\s+{_NAME}\s*[!?.]"),
)
_NOT_A_NAME = frozenset(
    "i you we me he she they it there here what that this so all everyone everybody guys folks "
    "man dude buddy friend mate girl boy again too then now today tomorrow tonight yesterday "
    "monday tuesday wednesday thursday friday saturday sunday january february march april may "
    "june july august september october november december god lord yes no thanks please "
    "sir madam".split()
)
# An assistant gives advice; a person also says what they did and what is theirs.
_OWN_LIFE = re.compile(
    r"\b(?:[Mm]y|I (?:was|went|had|did|got|made|took|saw|ran|found|started|finished|tried|"
    r"bought|painted|visited|joined|just|recently|finally|\w+ed)|I've been)\b"
)
_PERSON = 0.08  # share of a named other side's sentences about its own life: a person
_SAME = 0.5  # content-word overlap at which a sentence repeats one already said
_MIN_WORDS = 4
# Words that only colour a sentence; dropping them leaves more room for facts.
_HEDGE = re.compile(
    r"\s*\b(?:really|super|pretty|just|actually|totally|literally|basically|honestly|"
    r"kinda|kind of|sort of|definitely|absolutely)\b(?=\s+\w)",
    re.IGNORECASE,
)
# A summary is a fraction of what it sums up: short sessions get short summaries.
_SHARE = 0.45
_FLOOR = 280
_ADVICE = re.compile(
    r"^(?:(don'?t|do not|never)\s+)?(ask|send|start|take|give|keep|check|add|use|read|aim|open|"
    r"lead|tell|notify|install|try|book|bring|put|pack|write|run|compare|watch|wait|email|call|"
    r"get|make|prepare|pick|renew|consider|set|avoid|stop|be|plan|focus|schedule|note|follow|"
    r"go|skip|look|choose|include|remember|mention|offer|confirm|reply|measure|rest|see)\b",
    re.IGNORECASE,
)
_PLURAL_VERB = {"am": "is", "have": "has", "do": "does", "go": "goes", "were": "was"}
_PRESENT = frozenset(
    "need want think love like plan hope feel know try work live miss wish get make take keep "
    "see enjoy find use run spend prefer mean believe remember agree start".split()
)


@dataclass(frozen=True)
class Speakers:
    """Who is talking: the user's and the other side's names ("" when never said), and
    whether the other side is a person rather than an assistant."""

    user: str = ""
    other: str = ""
    other_is_person: bool = False


def speakers(exchanges: Sequence[Exchange]) -> Speakers:
    """Names from greetings: what the assistant calls the user, what the user calls it."""
    said_to_user: Counter[str] = Counter()
    said_to_other: Counter[str] = Counter()
    own_life = total = 0
    for ex in exchanges:
        said_to_other.update(_vocatives(ex.user))
        said_to_user.update(_vocatives(ex.ai))
        for s in sentences(ex.ai):
            total += 1
            own_life += bool(_OWN_LIFE.search(s))
    user = _most_said(said_to_user)
    other = _most_said(said_to_other)
    if other == user:
        other = ""
    return Speakers(user, other, bool(other and total) and own_life / total >= _PERSON)


def _vocatives(text: str) -> list[str]:
    found = []
    for sentence in sentences(text):
        for pattern in _VOCATIVE:
            found += [m.group(1) for m in pattern.finditer(sentence)]
    return [n for n in found if n.lower() not in _NOT_A_NAME]


def _most_said(counts: Counter[str]) -> str:
    return counts.most_common(1)[0][0] if counts else ""


# -- first person to third -------------------------------------------------------


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
_FIRST_I = re.compile(r"\bI(?:'m| am|'ve| have|'ll| will|'d| would)?\b(?:\s+(\w+))?")
_YOU = (
    (re.compile(r"\byou(?:'re| are)\b", re.I), "{} is", "they're"),
    (re.compile(r"\byou(?:'ve| have)\b", re.I), "{} has", "they've"),
    (re.compile(r"\byou were\b", re.I), "{} was", "they were"),
    (re.compile(r"\byou'll\b", re.I), "{} will", "they'll"),
    (re.compile(r"\byou'd\b", re.I), "{} would", "they'd"),
    (re.compile(r"\byour\b", re.I), "{}'s", "their"),
    (re.compile(r"\byourself\b", re.I), "themselves", "themselves"),
    (re.compile(r"\byou\b", re.I), "{}", "they"),
)


def third_person(text: str, name: str = "", other: str | None = None) -> str:
    """First person to third: "I need my laptop" → "They need their laptop", or with a
    `name`, "Sam needs their laptop". `other` is who "you" is: a name ("your" → "Sam's"),
    "" for an unnamed third person ("your" → "their"), None to leave "you" alone."""
    out = _name_subject(text, name) if name else text
    if other is not None:
        for pattern, named, unnamed in _YOU:
            out = pattern.sub(named.format(other) if other else unnamed, out)
    for pattern, replacement in _PRONOUNS:
        out = pattern.sub(replacement, out)
    out = _NEED.sub(lambda m: f"they {m.group(1)}", out)
    return out[:1].upper() + out[1:]


def _name_subject(text: str, name: str) -> str:
    """The first "I" becomes `name`, its verb agreeing: "I'm" → "Sam is", "I need" →
    "Sam needs"."""
    m = _FIRST_I.search(text)
    if not m:  # "My kids love it" → "Mel's kids love it"
        return re.sub(r"\b[Mm]y\b", f"{name}'s", text, count=1)
    said = m.group(0)
    verb = m.group(1) or ""
    head = said[: len(said) - len(verb)].rstrip() if verb else said
    aux = {
        "I'm": " is",
        "I am": " is",
        "I've": " has",
        "I have": " has",
        "I'll": " will",
        "I will": " will",
        "I'd": " would",
        "I would": " would",
    }.get(head, "")
    if not aux and verb:
        low = verb.lower()
        if low in _PLURAL_VERB:
            verb = _PLURAL_VERB[low]
        elif low in _PRESENT:
            verb = verb + ("es" if low.endswith(("s", "sh", "ch")) else "s")
    replacement = f"{name}{aux}" + (f" {verb}" if verb else "")
    return text[: m.start()] + replacement + text[m.end() :]


# -- the summary -------------------------------------------------------------------


@dataclass(frozen=True)
class _Said:
    order: tuple[int, int, int]
    text: str  # as rewritten for the summary
    terms: tuple[str, ...]
    priority: bool  # a decision, a date, a recap
    weight: float = 1.0  # the assistant's advice counts for less than what the user said


def prose_summary(exchanges: Sequence[Exchange], limit: int = 600) -> str:
    """Who, about what, decided and due, and what else was said, in at most `limit`
    characters ("" when the user said nothing)."""
    who = speakers(exchanges)
    said = _candidates(exchanges, who)
    opening = next((s for s in said if s.order[1] == 0), None)
    if opening is None:
        return ""
    about, rest = opening, [s for s in said if s is not opening]
    vectors = tfidf([s.terms for s in rest])
    middle = centroid(vectors)
    relevance = {s.order: s.weight * dot(v, middle) for s, v in zip(rest, vectors, strict=True)}
    size = sum(len(ex.user) + len(ex.ai) for ex in exchanges)
    limit = min(limit, max(_FLOOR, int(_SHARE * size)))
    chosen = [about]
    terms = [set(about.terms)]
    used = len(about.text)
    # Decisions and dates first, then what the user said, then the assistant's advice.
    for s in sorted(
        rest, key=lambda s: (not s.priority, s.weight < 1, -relevance[s.order], s.order)
    ):
        if used + len(s.text) + 1 > limit or _repeats(s.terms, terms):
            continue
        chosen.append(s)
        terms.append(set(s.terms))
        used += len(s.text) + 1
    return clip(" ".join(s.text for s in sorted(chosen, key=lambda s: s.order)), limit)


def _candidates(exchanges: Sequence[Exchange], who: Speakers) -> list[_Said]:
    out = []
    for ex in exchanges:
        for side, text in enumerate((ex.user, ex.ai)):
            name, other = (who.user, who.other) if side == 0 else (who.other, who.user)
            for i, sentence in enumerate(sentences(text)):
                recap = bool(_RECAP.match(sentence.strip()))
                advice = side == 1 and not who.other_is_person
                core = _INTERJECTION.sub("", _RECAP.sub("", sentence.strip()))
                core = _drop_vocative(core, other)
                if core.endswith("?") or len(words(core)) < _MIN_WORDS:
                    continue
                terms = tuple(content_terms(core))
                if len(terms) < 2:
                    continue
                priority = recap or (
                    side == 0 and bool(_DECIDES.search(core) or _DATED.search(core))
                )
                text = _HEDGE.sub("", core).strip().rstrip(".!…") + "."
                if advice:  # the assistant's words: "you" is the user, "I" stays
                    rewritten = _advised(
                        third_person(text, "", who.user) if who.user else _you(text)
                    )
                else:
                    rewritten = third_person(text, name, other or (None if side == 0 else ""))
                said = _Said((ex.number, side, i), rewritten, terms, priority, 0.6 if advice else 1)
                out.append(said)
    return out


def _advised(text: str) -> str:
    """ "Aim for three minutes." → "Advised to aim for three minutes."; other sentences
    as they are."""
    m = _ADVICE.match(text)
    if not m:
        return text
    rest = text[m.start(2) :]
    return f"Advised {'not ' if m.group(1) else ''}to {rest[:1].lower()}{rest[1:]}"


def _you(text: str) -> str:
    """The assistant's sentence about an unnamed user: "you" → "they", "I" kept."""
    out = text
    for pattern, _, unnamed in _YOU:
        out = pattern.sub(unnamed, out)
    return out[:1].upper() + out[1:]


def _drop_vocative(sentence: str, name: str) -> str:
    """ "Hey Mel, I went…" → "I went…"; "Great job, Mel!" → "Great job!"."""
    if not name:
        return sentence
    out = re.sub(rf"^{re.escape(name)}\s*[,!.]\s*", "", sentence)
    out = re.sub(rf",\s*{re.escape(name)}(?=\s*[!?.]|$)", "", out)
    return out[:1].upper() + out[1:] if out else out


def _repeats(terms: Sequence[str], said: list[set[str]]) -> bool:
    mine = set(terms)
    return not mine or any(len(mine & s) / len(mine | s) >= _SAME for s in said)
