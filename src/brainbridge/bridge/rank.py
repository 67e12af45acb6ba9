"""How likely a found item answers the message: one logistic model over what search measured.

The bridge orders the block by this probability, across knowledge and history, and an
item goes in only while its probability clears the threshold. The weights are trained
offline (`python -m brainbridge.bridge.train_relevance`) and shipped as
`data/relevance_model.json`; reading them needs no NumPy.
"""

from __future__ import annotations

import json
import math
import re
from bisect import bisect_right
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

from brainbridge.model import CHAT_EXCHANGE, Entity, Hit
from brainbridge.search.relevance import Coverage, stem
from brainbridge.when import MONTH, recalled_days, written_dates
from brainbridge.words import query_terms

# How far, in days, what a candidate was said on may be from the date a message names
# (`Said.on_date`).
DATE_NEAR = 1
DATE_WEEK = 7
MODEL = Path(__file__).with_name("data") / "relevance_model.json"
# Without vectors, cosine features are absent; the model then reads them as 0 and
# `has_cosine` tells it so.
FEATURES = (
    "text",
    "bm25",
    "coverage",
    "coverage_sq",
    "names",
    "context_only",
    "graph_only",
    "superseded",
    "knowledge",
    "length",
    "rank",
    "first_in_list",
    "query2",
    "query3",
    "queries",
    "fused",
    "has_cosine",
    "cosine",
    "said",
    "said_gap",
    "said_sentence",
    "said_rarest",
    "said_terms",
    "said_part",
    "said_rank",
    "same_session",
    "said_by_named",
    "answers",
    "asked",
    "kind_said",
    "kind_sentence",
    "on_date",
)
_SENTENCE = re.compile(r"(?<=[.!?|])\s+")
# An exchange's text is "User: ... | AI: ...": what one side said.
_PART = re.compile(r"\s\|\s")
# A transcript of several people labels each side with its speaker: "User: Caroline: ...".
_SPEAKER = re.compile(r"\b(?:User|AI):\s+([A-Z][\w'’-]{1,30}):\s")
# ...which a transcript's user side opens with; an assistant's "Noted: 2,300 monthly" or
# "Updated: March 25" is no speaker.
_USER_SPEAKER = re.compile(r"\bUser:\s+[A-Z][\w'’-]{1,30}:\s")
_AI_SIDE = re.compile(r"\s\|\sAI:\s+(?:([A-Z][\w'’-]{1,30}):\s)?")
# The assistant's own reply: an exchange's AI side with no speaker of a transcript.
_ASSISTANT = re.compile(r"\s\|\sAI:\s.*", re.S)


# How a reply to a question opens: "Yes, ...", "Sure", "No, the blue one".
_ANSWER_OPENING = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|sure|no|nope|nah|ok|okay|please|definitely|absolutely|"
    r"maybe|probably|not|thanks|thank)\b",
    re.I,
)


def is_transcript(text: str) -> bool:
    """Whether an exchange's text is a transcript of people, each side labelled with its
    speaker ("User: Caroline: ... | AI: Melanie: ..."), not a user and their assistant."""
    if not _USER_SPEAKER.search(text):
        return False
    reply = _AI_SIDE.search(text)
    return reply is None or reply.group(1) is not None


# An assistant's offer, not a question about the user: "Want a packing list?", "Need help
# with an itinerary?", "Would you like me to ...?", "Anything else?".
_OFFER = re.compile(
    r"^\W*(?:(?:do\s+you\s+)?(?:want|need)|would\s+you\s+like|shall\s+i|should\s+i|"
    r"can\s+i|may\s+i|could\s+i|how\s+about|anything\s+else|any\s+other|let\s+me\s+know)\b",
    re.I,
)


def offers(asking: str) -> str:
    """The offer an exchange's text ends on ("Need help with an itinerary?"), or "" when
    its last sentence asks the user something else ("What's your budget?")."""
    question = _SENTENCE.split(asking.rstrip())[-1]
    return question if _OFFER.search(question) else ""


# How a user turns an offer down: "No thanks. I'm gluten-free by the way" goes on to
# something else.
_DECLINE = re.compile(
    r"^\W*(?:no|nope|nah|not\s+(?:now|yet|needed|really)|i'?m\s+(?:good|fine|ok)|all\s+good)\b",
    re.I,
)


def user_side(ent: Entity) -> str:
    """What the user said in an exchange (its description when that is not kept apart)."""
    return str(ent.attributes.get("user_message") or ent.description).removeprefix("User:")


def takes_up(offer: str, reply: Entity) -> bool:
    """Whether the exchange `reply` answers `offer`: its user opens as answers do (but does
    not decline), or says a word of the offer; otherwise their next message started
    something else."""
    said = user_side(reply)
    if _DECLINE.search(said):
        return False
    if _ANSWER_OPENING.search(said.lstrip()):
        return True
    asked = {stem(w) for w in query_terms(offer) if len(w) > 2}
    return bool(asked & {stem(w) for w in query_terms(said)})


def said_text(text: str) -> str:
    """What people said in an item's text: an assistant's reply is left out, as it
    suggests, repeats and guesses; the user's words say what the exchange is about
    (`brain demo`: a board-update exchange whose reply recalled the sync bug led the
    block for a question on the sync bug). A transcript's two speakers both count."""
    return text if is_transcript(text) else _ASSISTANT.sub("", text, count=1)


_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
# How a time is said: "yesterday", "last week", "two days ago", "on Friday", "at 4pm",
# "June 13", "in 2022".
_TIME = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago|recently|lately|noon|midnight|weekends?|"
    rf"{_WEEKDAY}|(?:last|next|this|past|coming|that|every)\s+(?:week|month|year|night|"
    r"summer|winter|spring|fall|autumn|morning|evening|afternoon|time|" + _WEEKDAY + r")|"
    r"\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}|(?:19|20)\d{2}|"
    r"\d{1,2}(?:st|nd|rd|th))\b|"
    r"\b(?-i:January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b|"
    # ...in lower case beside a day's number: "on 10 october", "october 10th".
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH}\b|\b{MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b",
    re.I,
)
# How a count or an amount is said: "3", "two", "a dozen", "$40", "4,200"; not a day of
# the month ("the 30th") or a time of day ("3:15", "4pm").
_AMOUNT = re.compile(
    r"(?<![\d:])(?>\d+(?:[.,]\d+)*)(?!st\b|nd\b|rd\b|th\b|:\d|\s*[ap]\.?m\b)|"
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|"
    r"forty|fifty|hundred|thousand|dozen|couple|several|once|twice)\b",
    re.I,
)
# How a price is said: "16 pounds", "£16", "$40", "72 euros a head", "2.5k".
_MONEY = re.compile(
    r"[£$€¥]\s?\d|\b\d[\d.,]*\s?(?:k\b|pounds?|euros?|dollars?|quid|bucks|cents?|pence|"
    r"usd|eur|gbp|chf|yen)\b",
    re.I,
)
# How a place is said: "in Lisbon", "at the Quinta", "to Rome", "near Sintra".
_PLACE = re.compile(r"\b(?i:in|at|to|from|near|around)\s+(?:the\s+)?[A-Z][\w'’-]+")
# What kind of answer a question asks for, and how that kind is said.
_ASKS = (
    (
        re.compile(
            r"^\W*when\b|\b(?:what|which)\s+(?:time|day|date|year|month|week|weekday)s?\b|"
            r"\bhow\s+long\s+ago\b|\bwhat\s+time\b",
            re.I,
        ),
        _TIME,
    ),
    # "How much is the sencha now?", "what does the caterer charge?": a price.
    (
        re.compile(
            r"\bhow\s+much\s+(?:is|are|was|were|will|would|does|do|did)\s+(?:the|a|an|my|our|"
            r"their|his|her)\s+[\w'’\- ]{1,60}?(?:\s+(?:cost|charge|go\s+for|sell\s+for|run))?\s*"
            r"(?:now|these days|again|today)?\s*\?|\bhow\s+much\s+(?:money|did\s+\w+\s+"
            r"(?:pay|spend|charge)|does\s+\w+\s+(?:cost|charge))\b|\b(?:what|which)(?:'s|\s+is|"
            r"\s+was|\s+are)?\s+(?:the\s+|my\s+|our\s+)?(?:price|cost|fee|rate|quote)s?\b",
            re.I,
        ),
        _MONEY,
    ),
    (re.compile(r"\bhow\s+(?:many|much|old|often|long|far)\b", re.I), _AMOUNT),
    (re.compile(r"^\W*where\b|\b(?:what|which)\s+(?:city|country|town|place)\b", re.I), _PLACE),
)


def answer_kind(message: str) -> re.Pattern[str] | None:
    """How an answer to `message` is said, when it asks for a time, an amount or a place
    ("When did Jon go to Rome?": "last week"); None for other messages."""
    return next((said for asks, said in _ASKS if asks.search(message)), None)


def asks_time(message: str) -> bool:
    """Whether `message` asks for a time ("When do they start?", "What time is it at?")."""
    return answer_kind(message) is _TIME


def day_said(ent: Entity) -> date | None:
    """The day what `ent` says was said or began (its `date`, else `valid_from`), or None."""
    when = str(ent.attributes.get("date") or ent.attributes.get("valid_from") or "")
    if not when:
        return None
    try:
        return date.fromisoformat(when[:10])
    except ValueError:
        # An imported transcript's own wording ("1:56 pm on 8 May, 2023").
        written = written_dates(when)
        return written[0] if written else None


class Said:
    """How much of the message itself (not a query made from it) a text covers."""

    def __init__(self, coverage: Coverage, message: str = "", today: date | None = None) -> None:
        self.coverage = coverage
        self.kind = answer_kind(message)
        self.dated = recalled_days(message, today or date.today())
        weights = coverage.weights
        self.rarest = max(weights, key=lambda k: (weights[k], k)) if weights else ""

    def on_date(self, ent: Entity) -> float:
        """How close what `ent` was said on comes to the days the message asks about ("What
        did Gina find on 1 February, 2023?", "What did I say about the garden yesterday?"):
        1 on them (a day either side), 0.5 within a week of one day; 0 when either has no
        date."""
        if self.dated is None or (said := day_said(ent)) is None:
            return 0.0
        first, last = self.dated
        off = max((first - said).days, (said - last).days, 0)
        if off <= DATE_NEAR:
            return 1.0
        # A week either side of one day asked about; a span asked about is its own slack.
        return 0.5 if off <= DATE_WEEK and first == last else 0.0

    def measure(self, text: str) -> dict[str, float]:
        """Coverage of the message over the whole text, its best sentence and its best
        side (what the user said, or the reply); one pass over the text."""
        cov = self.coverage
        weights = cov.weights
        if not cov.want or cov._candidates is None:
            return {}
        cuts = [m.end() for m in _SENTENCE.finditer(text)]
        sides = [m.end() for m in _PART.finditer(text)]
        labels = (
            [(m.end(), stem(m.group(1).lower())) for m in _SPEAKER.finditer(text)]
            if is_transcript(text)
            else []
        )
        starts = [end for end, _ in labels]
        found: set[str] = set()
        in_sentence: dict[int, set[str]] = {}
        in_side: dict[int, set[str]] = {}
        by_speaker: dict[str, set[str]] = {}
        for m in cov._candidates.finditer(text):
            key = cov.key(m.group())
            if key is not None:
                found.add(key)
                in_sentence.setdefault(bisect_right(cuts, m.start()), set()).add(key)
                in_side.setdefault(bisect_right(sides, m.start()), set()).add(key)
                if (i := bisect_right(starts, m.start())) and labels[i - 1][1] in weights:
                    by_speaker.setdefault(labels[i - 1][1], set()).add(key)

        def best(groups: dict[int, set[str]]) -> float:
            return max((math.fsum(weights[k] for k in g) for g in groups.values()), default=0.0)

        # A question after a time or an amount is answered where one is said, best in the
        # sentence that says the message's words ("Took a trip last week to Rome").
        kind: dict[str, float] = {}
        if self.kind is not None:
            told = {bisect_right(cuts, m.start()) for m in self.kind.finditer(text)}
            kind = {
                "kind_said": float(bool(told)),
                "kind_sentence": best({i: g for i, g in in_sentence.items() if i in told})
                / cov.want,
            }

        # What someone the message names said themselves ("What books has Melanie read?"
        # is answered where Melanie speaks): the rest of the message in their words.
        by_named = max(
            (
                math.fsum(weights[k] for k in keys - {who}) / max(cov.want - weights[who], 1e-9)
                for who, keys in by_speaker.items()
            ),
            default=0.0,
        )
        return {
            "said_by_named": by_named,
            "said": math.fsum(weights[k] for k in found) / cov.want,
            "said_sentence": best(in_sentence) / cov.want,
            "said_part": best(in_side) / cov.want,
            "said_rarest": float(self.rarest in found),
            "said_terms": len(found) / len(weights),
            **kind,
        }


@dataclass(frozen=True)
class Candidate:
    """A found item with where it was found: which query (0-based), its rank in that
    query's list, and how many of the queries found it."""

    hit: Hit
    query: int
    rank: int
    queries: int = 1
    # Said.measure, and how it compares with the other candidates ("said_gap", "said_rank",
    # "same_session": a past exchange of the conversation that best matches the message)
    said: tuple[tuple[str, float], ...] = ()

    @property
    def superseded(self) -> bool:
        return bool(self.hit.entity.attributes.get("superseded_by"))


def features(c: Candidate) -> dict[str, float]:
    """The model's inputs for one candidate; missing signals read as 0."""
    s = c.hit.signals
    ent = c.hit.entity
    found = set(c.hit.retrievers)
    coverage = s.get("coverage", 0.0)
    out = {
        "text": s.get("text", 0.0),
        "bm25": math.log1p(max(s.get("bm25", 0.0), 0.0)),
        "coverage": coverage,
        "coverage_sq": coverage * coverage,
        "names": s.get("names", 0.0),
        "context_only": float(found == {"context"}),
        "graph_only": float(found == {"graph"}),
        "superseded": float(c.superseded),
        "knowledge": float(ent.type != CHAT_EXCHANGE),
        "length": math.log1p(len(ent.description)) / 8,
        "rank": 1.0 / (1 + c.rank),
        "first_in_list": float(c.rank == 0),
        "query2": float(c.query == 1),
        "query3": float(c.query >= 2),
        "queries": float(c.queries - 1),
        "fused": c.hit.score,
        "answers": float("answer" in found),
        "asked": s.get("asked", 0.0),
    }
    if "cosine" in s:
        out["has_cosine"] = 1.0
        out["cosine"] = s["cosine"]
    out.update(c.said)
    return out


@dataclass(frozen=True)
class RelevanceModel:
    bias: float
    weights: dict[str, float]
    threshold: float  # an item goes into the block only at or above this probability
    ratio: float = 0.0  # ...and at least this share of the best item's probability

    def bar(self, best: float) -> float:
        """The probability an item needs when the block's best has `best`."""
        return max(self.threshold, self.ratio * best)

    def probability(self, feats: dict[str, float]) -> float:
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in feats.items())
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


@lru_cache(maxsize=1)
def model() -> RelevanceModel | None:
    """The shipped model, or None when its file is missing or unreadable."""
    try:
        raw = json.loads(MODEL.read_text("utf-8"))
        return RelevanceModel(
            float(raw["bias"]),
            {k: float(v) for k, v in raw["weights"].items()},
            float(raw["threshold"]),
            float(raw.get("ratio", 0.0)),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def probability(c: Candidate) -> float:
    """P(relevant) of one candidate; without a shipped model, its fused score."""
    m = model()
    return m.probability(features(c)) if m is not None else c.hit.score


def as_current(c: Candidate) -> float:
    """P(relevant) of a replaced candidate as if it still held: how well what replaced it
    answers in its place (the model weighs the replaced statement itself down)."""
    m = model()
    return m.probability(features(c) | {"superseded": 0.0}) if m is not None else c.hit.score
