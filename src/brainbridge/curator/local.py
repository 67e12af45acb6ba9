"""The curator without an LLM: a title from salient phrases; the summary is prose
(`prose.py`), with an extractive summary as its fallback.

Title: candidate phrases are runs of content words between stopwords and punctuation
(as in RAKE; a word in a verb's place, "need to *compare*", ends a run), scored by how
often their words occur in the opening exchanges, the user's words counting double, the
words of the user's opening sentence and proper nouns more. The best one to three
non-overlapping phrases, in the order the user said them, make a 3–8 word title; a
conversation between two people adds their names.

Extractive summary: sentences of the whole session scored by TF-IDF cosine to the
session's centroid (questions and one-liners count less), picked greedily with maximal
marginal relevance so near-duplicates are skipped, then put back in conversation order
within the character limit.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from brainbridge.curator.config import CuratorConfig
from brainbridge.curator.prose import prose_summary, speakers
from brainbridge.curator.text import (
    Exchange,
    centroid,
    clip,
    content_terms,
    dot,
    is_content,
    is_describing,
    sentences,
    stem,
    tfidf,
    words,
)
from brainbridge.llm import ToolCall
from brainbridge.model import Session

# Words that never name a topic, though they pass as content words: verbs of state and
# change ("Mom turns 70", "the garden keeps drying"), hedges, and dates (a date is a fact
# of the session, not its subject).
_NOT_A_TOPIC = frozenset(
    "almost about nearly keeps kept shows showed turns turned ends ended moves moved starts "
    "started runs run drying gets got goes went comes came takes took makes made seems looks "
    "uses used says said wants needs owns talks gives does "
    "monday tuesday wednesday thursday friday saturday sunday january february march april may "
    "june july august september october november december jan feb mar apr jun jul aug sep sept "
    "oct nov dec today tomorrow tonight yesterday week weeks month months year years "
    "since far fam two three four five six seven eight nine ten eleven twelve".split()
)
_CLAUSE = re.compile(r"[,;:()\"“”\[\]–—/]|\s-\s|\.\.\.")
_SUBJECT_OR_MODAL = frozenset(
    "i we you they he she will would can could should must might shall i'll we'll you'll "
    "they'll i'd we'd let's please don't didn't doesn't won't can't never".split()
)
_WANTS = frozenset(
    "need needs needed want wants wanted have has had going plan planning trying try hope "
    "hoping like love decided able got ought used".split()
)
_BE = frozenset("i'm we're you're they're he's she's am are is was were been".split())
_PARTICLES = frozenset("up out off down".split())
_CAPITAL = 1.2  # a proper noun's weight in a title phrase's score
_OPENING = 2.0  # a bonus for each word of the user's opening sentence
_MMR_LAMBDA = 0.7
_REDUNDANT = 0.6
_MIN_SENTENCE_WORDS = 4
_DENSE = 0.45


# -- title -------------------------------------------------------------------


def local_title(exchanges: Sequence[Exchange], max_words: int = 8) -> str:
    """A 3–`max_words` word Title Case title from the opening exchanges ("" if no topic)."""
    tf: defaultdict[str, float] = defaultdict(float)
    phrases: dict[tuple[str, ...], list[str]] = {}
    counts: Counter[tuple[str, ...]] = Counter()
    capital: set[str] = set()
    vocative: set[str] = set()
    for ex in exchanges:
        for text in (ex.user, ex.ai):
            _content_runs(text, capital, vocative)
    first_seen: dict[tuple[str, ...], int] = {}
    opening = _opening_terms(exchanges, capital, vocative)
    for e, ex in enumerate(exchanges):
        # The user names the topic, first of all in the opening message; the assistant's
        # words count for salience only (its advice is not what the session is about).
        user_weight = 3.0 if e == 0 else 1.5
        for text, weight in ((ex.user, user_weight), (ex.ai, 1.0)):
            for run in _content_runs(text, capital, vocative):
                for token in run:
                    tf[stem(token)] += weight
                if text is ex.ai:
                    continue
                for n in (3, 2, 1):
                    for i in range(len(run) - n + 1):
                        gram = run[i : i + n]
                        if any(w.lower() in _NOT_A_TOPIC for w in gram):
                            continue
                        # A title names things: "Creative Writing", not "Creative".
                        if is_describing(gram[-1]):
                            continue
                        key = tuple(stem(w) for w in gram)
                        phrases.setdefault(key, gram)
                        first_seen.setdefault(key, len(first_seen))
                        counts[key] += 1
    if not phrases:
        return ""

    def score(key: tuple[str, ...]) -> float:
        base = sum(tf[k] * (_CAPITAL if k in capital else 1.0) for k in key)
        # What the user opened with is what the session is about; the names that come up
        # later are its options and people ("Baker & Sons", "Priya Nair").
        base += _OPENING * sum(k in opening for k in key)
        return base + (counts[key] - 1) * len(key)

    ranked = sorted(phrases, key=lambda k: (-score(k), -len(k), phrases[k][0].lower()))
    chosen: list[tuple[str, ...]] = []
    used: set[str] = set()
    top = score(ranked[0])
    for key in ranked:
        if used & set(key):
            continue
        total = sum(len(k) for k in chosen)
        if total + len(key) > max_words:
            continue
        # A weak second topic only clutters a title that already says enough.
        if chosen and total >= 3 and score(key) < 0.5 * top:
            break
        chosen.append(key)
        used.update(key)
        # Two topics at most, a third only while the title is still under three words.
        if len(chosen) == 3 or (len(chosen) == 2 and total + len(key) >= 3):
            break
    # In the order the user said them, as written: "Kitchen and contractor quotes".
    chosen.sort(key=lambda k: first_seen[k])
    said = " ".join(f"{ex.user} {ex.ai}" for ex in exchanges)
    parts = [_ampersands(_surface(phrases[k], capital), said) for k in chosen]
    if len(parts) > 1:
        parts = [", ".join(parts[:-1]), parts[-1]]
    title = " and ".join(parts)
    title = title[:1].upper() + title[1:]
    # A conversation between two people says who: "Charity race — Mel and Caroline".
    who = speakers(exchanges)
    if who.other_is_person and who.user and who.other:
        title += f" — {who.user} and {who.other}"
    return title


def _opening_terms(
    exchanges: Sequence[Exchange], capital: set[str], vocative: set[str]
) -> set[str]:
    """Stemmed words of the user's first sentence that says something (greetings skipped)."""
    for ex in exchanges[:1]:
        for sentence in sentences(ex.user):
            runs = _content_runs(sentence, capital, vocative)
            found = {stem(w) for run in runs for w in run if w.lower() not in _NOT_A_TOPIC}
            if len(found) >= 2:
                return found
    return set()


def _content_runs(text: str, capital: set[str], vocative: set[str]) -> list[list[str]]:
    """Maximal runs of content words inside each clause, split at names in `vocative`.

    Notes proper nouns in `capital` and names said to someone in `vocative`.
    """
    runs: list[list[str]] = []
    for sentence in sentences(text):
        for c, clause in enumerate(_CLAUSE.split(sentence)):
            tokens = [t for t in words(clause) if t]
            content = [t for t in tokens if is_content(t)]
            # "Hey Sam!", "Wow, Sam, ...": a name said to someone is not what the chat is about
            # (a capitalised word opening the sentence may be any word, so it does not count).
            if (
                len(content) == 1
                and len(tokens) <= 3
                and content[0][:1].isupper()
                and (c > 0 or tokens[0] != content[0])
            ):
                vocative.add(content[0])
                continue
            run: list[str] = []
            for i, token in enumerate(tokens):
                if is_content(token) and token not in vocative and not _verb_like(tokens, i):
                    if (i > 0 and token[0].isupper()) or (len(token) > 1 and token.isupper()):
                        capital.add(stem(token))
                    run.append(token)
                    continue
                if run:
                    runs.append(run[:4])
                run = []
            if run:
                runs.append(run[:4])
    return runs


def _ampersands(phrase: str, said: str) -> str:
    """ "Baker Sons" → "Baker & Sons" when that is how it was written."""
    return re.sub(
        r"\b([A-Z]\w*) ([A-Z]\w*)\b",
        lambda m: f"{m[1]} & {m[2]}" if f"{m[1]} & {m[2]}" in said else m[0],
        phrase,
    )


def _verb_like(tokens: list[str], i: int) -> bool:
    """A word in a verb's place ("we need to *compare*", "I *spend*", "it *wakes* up"): a
    title names things, and without a tagger the word's neighbours tell."""
    token = tokens[i]
    if token[:1].isupper() and i > 0:
        return False
    before = tokens[i - 1].lower() if i > 0 else ""
    two_before = tokens[i - 2].lower() if i > 1 else ""
    after = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
    return (
        before in _SUBJECT_OR_MODAL
        or (before == "to" and two_before in _WANTS)
        or (before in _BE and token.endswith("ing"))
        or after in _PARTICLES
    )


def _surface(gram: list[str], capital: set[str]) -> str:
    """The phrase as written, lower-cased except proper nouns and acronyms (a capitalised
    word before a proper noun is part of the name: "Baker Sons", though it opened a clause)."""

    def proper(i: int) -> bool:
        w = gram[i]
        return stem(w) in capital or (len(w) > 1 and w.isupper())

    return " ".join(
        w if proper(i) or (w[:1].isupper() and i + 1 < len(gram) and proper(i + 1)) else w.lower()
        for i, w in enumerate(gram)
    )


# -- summary -----------------------------------------------------------------


@dataclass(frozen=True)
class _Unit:
    order: tuple[int, int, int]
    role: str
    text: str
    terms: tuple[str, ...]
    question: bool


def local_summary(
    exchanges: Sequence[Exchange],
    limit: int = 600,
    roles: tuple[str, ...] = ("User", "AI"),
    labels: bool = True,
) -> str:
    """An extractive summary of at most `limit` characters, in conversation order.

    `roles` chooses whose sentences may be picked; `labels` prefixes "User:" / "AI:".
    """
    units = [u for u in _units(exchanges, limit) if u.role in roles]
    if not units:
        # Too little said for sentence scoring: the opening words stand in.
        for role, text in (
            (r, t) for ex in exchanges for r, t in (("User", ex.user), ("AI", ex.ai))
        ):
            if role in roles and text.strip():
                return clip(f"{role}: {text}" if labels else text, limit)
        return ""
    vectors = tfidf([u.terms for u in units])
    middle = centroid(vectors)
    relevance = []
    for unit, vec in zip(units, vectors, strict=True):
        score = dot(vec, middle)
        if unit.question:
            score *= 0.6
        if len(unit.terms) < 3:
            score *= 0.8
        # Chatter ("Wow, that's so great to hear!") has few content words per word.
        density = len(unit.terms) / max(len(words(unit.text)), 1)
        score *= min(1.0, density / _DENSE)
        relevance.append(score)
    chosen: list[int] = []
    used = 0
    candidates = set(range(len(units)))
    while candidates:
        best, best_value = -1, -math.inf
        for i in candidates:
            overlap = max((dot(vectors[i], vectors[j]) for j in chosen), default=0.0)
            value = _MMR_LAMBDA * relevance[i] - (1 - _MMR_LAMBDA) * overlap
            if overlap > _REDUNDANT:
                value = -math.inf
            if value > best_value:
                best, best_value = i, value
        if best < 0 or best_value == -math.inf:
            break
        candidates.discard(best)
        cost = len(units[best].text) + 6  # room for a role label and a space
        if used + cost > limit:
            continue
        chosen.append(best)
        used += cost
    picked = [units[i] for i in sorted(chosen, key=lambda i: units[i].order)]
    if not labels:
        return clip(" ".join(u.text for u in picked), limit)
    return _render(picked, limit)


def _units(exchanges: Sequence[Exchange], limit: int) -> list[_Unit]:
    units = []
    for ex in exchanges:
        for r, (role, text) in enumerate((("User", ex.user), ("AI", ex.ai))):
            for j, sentence in enumerate(sentences(text)):
                terms = tuple(content_terms(sentence))
                if len(words(sentence)) < _MIN_SENTENCE_WORDS or len(terms) < 2:
                    continue
                sentence = clip(sentence, max(limit // 2, 40))
                if sentence[-1] not in ".!?…":
                    sentence += "."
                units.append(_Unit((ex.number, r, j), role, sentence, terms, "?" in sentence))
    return units


def _render(units: Sequence[_Unit], limit: int) -> str:
    parts: list[str] = []
    role = ""
    for unit in units:
        parts.append(unit.text if unit.role == role else f"{unit.role}: {unit.text}")
        role = unit.role
    return clip(" ".join(parts), limit)


# -- activity ----------------------------------------------------------------


def local_activity(exchanges: Sequence[Exchange], title: str, limit: int = 240) -> str:
    """One line for the day's activity log about these (new) exchanges, in prose."""
    gist = prose_summary(exchanges, limit)
    return gist or local_summary(exchanges, limit, labels=False) or clip(title, limit)


def session_summary(exchanges: Sequence[Exchange], limit: int = 600) -> str:
    """The local summary of a session: prose (`prose.py`), else the extractive one
    without labels."""
    return prose_summary(exchanges, limit) or local_summary(exchanges, limit, labels=False)


def plan_locally(
    session: Session,
    exchanges: Sequence[Exchange],
    logged_through: int | None,
    config: CuratorConfig,
    manual: bool = False,
    only_missing: bool = False,
    work: str = "",
) -> list[ToolCall]:
    """The tool calls the local curator makes for this session now.

    The title is left alone once the user or an LLM chose it; activity is logged for the
    first run of the day and then once `config.activity_every` exchanges are new (any new
    exchange on a manual run). With `only_missing`, only an absent title or summary is filled.
    `work` (what a coding agent did, from its observations) ends the summary.
    """
    calls: list[ToolCall] = []
    if not exchanges:
        return calls
    title = session.title
    if session.title_source not in ("user", "ai") and not (only_missing and title):
        new_title = local_title(exchanges[: config.title_exchanges], config.max_title_words)
        if new_title and new_title != title:
            calls.append(ToolCall("update_title", {"title": new_title}))
            title = new_title
    if not (only_missing and session.summary):
        summary = session_summary(exchanges, config.max_summary_chars)
        if work:
            room = max(0, config.max_summary_chars - len(work) - 7)
            summary = f"{summary[:room].rstrip()} Work: {work}".strip()
        if summary and summary != session.summary:
            calls.append(ToolCall("update_summary", {"summary": summary}))
    if only_missing:
        return calls
    new = [ex for ex in exchanges if logged_through is None or ex.number > logged_through]
    due = len(new) >= (1 if manual else config.activity_every)
    if new and (logged_through is None or due):
        recent = new[-config.every :] if config.every else new
        activity = local_activity(recent, title, config.max_activity_chars)
        if activity:
            calls.append(ToolCall("log_activity", {"summary": activity}))
    return calls


__all__ = [
    "Exchange",
    "is_content",
    "local_activity",
    "local_summary",
    "local_title",
    "plan_locally",
    "session_summary",
]
