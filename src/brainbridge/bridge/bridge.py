"""The bridge: judge each message, load budgeted context, write back after the turn."""

from __future__ import annotations

import asyncio
import logging
import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import TYPE_CHECKING, Any

from brainbridge.bridge.block import STEP_BACK_NOTE, BlockItem, item_of, ranked_block
from brainbridge.bridge.judge import (
    ABOUT_ME,
    ASKED_TERMS,
    OWN,
    QUESTION,
    SHORT_MESSAGE_WORDS,
    SPOKEN_OF,
    WEAK_COVERAGE,
    Match,
    Verdict,
    about_self,
    has_cues,
    judge_locally,
    needs_brain_check,
    pointed_words,
    said_with_the,
    topic_terms,
    word_count,
)
from brainbridge.bridge.names import (
    HISTORY_NAME_USES,
    PROPER_TYPES,
    Mention,
    NameIndex,
    capitalised_words,
    history_names,
    owner_words,
)
from brainbridge.bridge.own import OwnWorld
from brainbridge.bridge.predicates import PREDICATE_WORDS, USER, owned_roles
from brainbridge.bridge.prompts import JUDGE_SCHEMA, JUDGE_SYSTEM, judge_user_prompt
from brainbridge.bridge.queries import (
    FILLER,
    REFERENCED_NOUN,
    asked_days,
    build_queries,
    keywords,
    without_reference_phrases,
)
from brainbridge.bridge.rank import (
    Candidate,
    Said,
    as_current,
    day_said,
    is_transcript,
    model,
    offers,
    probability,
    said_text,
    takes_up,
    user_side,
)
from brainbridge.errors import AlreadyStored, LLMError
from brainbridge.model import (
    CHAT_EXCHANGE,
    EPISODES,
    PASSAGE,
    PREFERENCE,
    Entity,
    Hit,
    Judgment,
    Session,
    holds_at,
    replaced_by,
)
from brainbridge.ports import LLM
from brainbridge.redact import redact
from brainbridge.search import SearchRequest
from brainbridge.search.relevance import Coverage, entity_text, stem
from brainbridge.when import recalled_days
from brainbridge.words import CALENDAR_WORDS, COUNTS, POSSESSIVE

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from brainbridge.brain import Brain

log = logging.getLogger(__name__)

# "my car", "our food allergies", "my new job": the words a possessive points at.
_OWN_WORDS = re.compile(r"\b(?:my|our)\s+([a-z]+)(?:\s+([a-z]+))?", re.I)
# A word in more entries than this (and than the share) is common, not a topic's own.
TOPIC_RARE_MIN = 50
TOPIC_RARE_SHARE = 0.002
# "What did we talk about", "what was I working on", "remind me": the user asks about their
# own past ("I went hiking yesterday, any tips?" does not).
_ASKS_PAST = re.compile(
    r"\b(?:did|have|had|was|were)\s+(?:i|we)\b|\bremind\s+me\b|"
    r"\b(?:i|we)\s+(?:said|told|mentioned|talked|discussed|decided|asked)\b",
    re.I,
)
# A message asking what was said on some days reads the exchanges of up to this many recent
# sessions, and keeps up to this many said on those days.
DATED_SESSIONS = 20
DATED_TALKS = 12
# Judge and search only the head of a pasted novel; the whole message is still stored.
MAX_JUDGED_CHARS = 8000
# Brain-check coverage when only one of the message's words occurs in the brain: neither
# strong nor nothing (judge.WEAK_COVERAGE < 0.45 < judge.STRONG_COVERAGE).
SINGLE_TERM_COVERAGE = 0.45
# Matched exchanges whose next exchange is read for a message going on about them.
TELLING_READ = 5
# A message that goes on about what the one before it said: "It's at ...", "He's based in".
_CONTINUES = re.compile(
    r"^\W*(?:(?:also|and|oh|btw|plus)\W+)?(?:it|it['’]s|its|he|he['’]s|she|she['’]s|they|"
    r"they['’]re|it['’]ll|he['’]ll|she['’]ll|they['’]ll)\s",
    re.I,
)
# An exchange that ends on a question (an image's caption after it aside).
_ASKS = re.compile(r"\?\s*(?:\[[^\]]*\]\s*)*$")
# Past exchanges read to see whether the user spoke of a thing as theirs ("my landlord").
OWNED_SAMPLE = 10
# A question of time ("When do I meet my supervisor?", "what time is my physio?").
_OF_TIME = re.compile(r"^\W*(?:when|what time|what day|which day|how often)\b", re.I)
# A question for the user's open tasks when no word of it names one.
_TO_DO_LIST = re.compile(
    r"\b(?:still|left|outstanding|on my plate|owe|due|promised|deadlines|coming up|upcoming)\b"
    r"(?!\s+to\s+make\b)|"
    # "What do I need to do today?", "What did I promise to do next week?", as the whole
    # message (not "What do I need to do to get it working?", "...now?" in the middle of a
    # task, "...last week?", nor "My laptop won't boot. What do I need to do?").
    r"^\W*(?:what\s+(?:else\s+)?(?:do|did)|is\s+there\s+anything)\s+(?:i|we)\s+(?:still\s+)?"
    r"(?:need|have|promise)\s+to\s+do(?:\s+(?:today|tonight|tomorrow|this\s+(?:week|weekend|"
    r"month)|next\s+(?:week|weekend|month)))?[\s?.!]*$",
    re.I,
)
# What `_spoken_of` returns when the user said "the <word>" (or "our <word>") before.
SAID_THE = 2


@dataclass(frozen=True)
class Enrichment:
    """What the bridge decided for one message and what it would inject."""

    judgment: Judgment
    queries: tuple[str, ...] = ()
    results: tuple[tuple[str, tuple[Hit, ...]], ...] = ()
    block: str | None = None
    loaded: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    source: str = "local"  # short_circuit | local | llm | error
    # `loaded` item by item: a passage of consecutive exchanges is one (empty: one each).
    items: tuple[tuple[str, ...], ...] = field(default=(), compare=False)
    turn: int = 0
    # Every candidate considered for the block with its probability, best first.
    ranked: tuple[tuple[float, Candidate], ...] = field(default=(), compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "judgment": self.judgment.value,
            "queries": list(self.queries),
            "results": {q: [h.to_dict() for h in hits] for q, hits in self.results},
            "block": self.block,
            "loaded": list(self.loaded),
            "reasons": list(self.reasons),
            "source": self.source,
            "turn": self.turn,
        }


@dataclass(frozen=True)
class Observation:
    """What `observe` stored for one turn."""

    exchange: str | None
    stored: tuple[str, ...] = ()
    skipped: bool = False
    extractor: str = "local"
    error: str | None = None


@dataclass
class BridgeConfig:
    budget_tokens: int = 1500
    knowledge_per_query: int = 4
    # Past exchanges per query: they are short, and the relevance floor, not this cap, keeps
    # noise out. LoCoMo recall through enrich (MiniLM, judge forced): 0.756 at 8, 0.788 at
    # 12, 0.783 at 16 under the same 1500-token budget (docs/benchmarks.md).
    history_per_query: int = 12
    judge_timeout: float = 3.0
    # The chat never waits longer than this for context, LLM or not.
    deadline: float = 4.0
    after_observe: list[Callable[[str, int], Awaitable[None]]] = field(default_factory=list)


class Bridge:
    """Makes a brain ambient in a conversation. Never raises into the chat path."""

    def __init__(
        self, brain: Brain, llm: LLM | None = None, config: BridgeConfig | None = None
    ) -> None:
        self.brain = brain
        self.llm = llm
        self.config = config or BridgeConfig()
        self.names = NameIndex(brain.store.name_owners)
        # Read once here and after each stored turn, so short questions need no I/O.
        self.own = OwnWorld()
        self._read_own_world()
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- before the turn ------------------------------------------------------

    async def enrich(self, message: str, session: Session | str | None = None) -> Enrichment:
        """Judge `message` and build the context block; on any failure, no context."""
        if word_count(message) < SHORT_MESSAGE_WORDS:
            return self._short(message)
        try:
            result = await asyncio.wait_for(self._enrich(message, session), self.config.deadline)
            # Another process may have stored facts since: re-read them while the model
            # answers. Reading them scans the people (~57 ms at 100k + 200k): queued before
            # this enrich's own reads, it was most of its time (#34).
            self._background(self.brain._run(self._read_own_world))
        except Exception as exc:
            log.exception("bridge enrich failed; the chat continues without brain context")
            return Enrichment(
                Judgment.PASS_THROUGH,
                reasons=(f"bridge error: {type(exc).__name__}",),
                source="error",
            )
        log.debug(
            "judgment=%s source=%s queries=%s loaded=%d reasons=%s",
            result.judgment.value,
            result.source,
            list(result.queries),
            len(result.loaded),
            list(result.reasons),
        )
        return result

    def _short(self, message: str) -> Enrichment:
        """A message under five words, without I/O: a question about the user's own world
        gets the facts kept in memory that answer it; anything else passes through."""
        answer = self.own.block(message, self.config.budget_tokens)
        if answer is None:
            log.debug("judgment=pass_through (short message, no I/O)")
            return Enrichment(
                Judgment.PASS_THROUGH, reasons=("short message",), source="short_circuit"
            )
        asked, block, loaded = answer
        log.debug("judgment=enrich (short question about %s, from memory)", asked)
        return Enrichment(
            Judgment.ENRICH,
            queries=(asked,),
            block=block,
            loaded=loaded,
            reasons=(f"a short question about {asked}, which the brain holds",),
            source="short_circuit",
        )

    def _read_own_world(self) -> None:
        # A refresh queued after the last enrich may start once its brain is closed (a
        # caller that closes without `drain`): nothing is left to read, and nothing failed.
        if self.brain.closed:
            return
        try:
            self.own.refresh(self.brain.store)
        except Exception:  # fail open: short questions then pass through
            log.exception("could not read the user's facts; short questions pass through")

    async def _enrich(self, message: str, session: Session | str | None) -> Enrichment:
        message = message[:MAX_JUDGED_CHARS]
        if isinstance(session, str):
            # Only the last log entry matters here (what the previous turn loaded).
            session = await self.brain._run(self.brain.sessions.get, session, 1) or Session(session)
        summary = session.summary if session else ""
        turn = (session.message_count + 1) if session else 0
        mentions = await self.brain._run(self._mentions, message, summary)
        verdict, queries, source = await self._judge(message, summary, mentions)
        # "What did we talk about yesterday?": what the user said on the days they ask
        # about, when they talked then (no word of it need match).
        days = recalled_days(message, date.today()) if _ASKS_PAST.search(message) else None
        talks: list[Entity] = []
        if days is not None and verdict.judgment is not Judgment.STEP_BACK:
            talks = await self.brain._run(self._talks_on, days)
        if talks and verdict.judgment is Judgment.PASS_THROUGH:
            verdict = Verdict(
                Judgment.ENRICH,
                (
                    *verdict.reasons,
                    "it asks what the user said on days they talked, which the brain holds",
                ),
            )
        # ...and when nothing else is asked, they are all there is to load.
        talks_only = bool(talks) and not queries
        if talks_only and days is not None:
            queries = [days[0].isoformat()]
        # "What do I still need to do?", "What's coming up for me?": no word to search for
        # (a search for the message found "The user's manager" by "me"), but the user's own
        # world answers it: what they hold is all there is to load.
        own_only = (
            verdict.judgment is Judgment.ENRICH
            and not queries
            and not talks
            and source == "local"
            and bool(_TO_DO_LIST.search(message))
        )
        if own_only:
            queries = [message]
        if verdict.judgment is Judgment.STEP_BACK:
            result = Enrichment(
                Judgment.STEP_BACK,
                block=STEP_BACK_NOTE,
                reasons=verdict.reasons,
                source=source,
                turn=turn,
            )
        elif verdict.judgment is Judgment.ENRICH and queries:
            result = await self._load(
                queries, session, verdict, source, turn, message, talks, talks_only or own_only
            )
        else:
            result = Enrichment(
                Judgment.PASS_THROUGH, reasons=verdict.reasons, source=source, turn=turn
            )
        if session is not None:
            self._log_turn(session.id, result)
        return result

    def _mentions(self, message: str, summary: str | None = None) -> list[Mention]:
        """The names the message holds; with `summary` (the session's, "" for none), the
        queries of a message likely enriched start embedding meanwhile, while the judge
        decides (the local judge builds the same queries when it enriches)."""
        mentions = self._names_in(message)
        if summary is not None and self.llm is None and has_cues(message, mentions):
            self.brain.prepare_search(build_queries(message, mentions, summary))
        return mentions

    def _names_in(self, message: str) -> list[Mention]:
        found = self._sure_of_case(self.names.find(message))
        # People and places often live only in past conversations (no entity names them):
        # a name-like word used in a few past exchanges is someone the user has talked about.
        # "Kevin's cohort" names Kevin Alvarez: "Kevin" is not someone else as well.
        # (A loose match, "Fig" of "User's caterer: Fig & Olive", leaves the word to be
        # someone past exchanges name.)
        matched = {
            POSSESSIVE.sub("", w.lower())
            for m in found
            if m.strength != "loose"
            for w in m.matched.split()
        }
        # "what's luisa's schedule": typed in lower case, an owner may be one of them too.
        words = [
            w
            for w in dict.fromkeys([*capitalised_words(message), *owner_words(message)])
            if POSSESSIVE.sub("", w.lower()) not in matched and w.lower() not in CALENDAR_WORDS
        ]
        if words:
            store = self.brain.store
            used = store.history_freq([w.lower() for w in words])
            # Said once, and kept in something learned ("I promised Tomasz the runbook by
            # Friday" made a commitment naming him): as sure as two uses.
            once = [w for w in words if used.get(w.lower(), 0) == 1]
            df = store.doc_freq([w.lower() for w in once]) if once else {}
            kept = {w for w in once if df.get(w.lower(), 0) > 1}
            words = [w for w in words if used.get(w.lower(), 0) >= HISTORY_NAME_USES or w in kept]
            found += [
                Mention(CHAT_EXCHANGE, w, w, "history")
                for w in history_names(
                    self._history_texts, words, lambda w: 1 if w in kept else HISTORY_NAME_USES
                )
            ]
        return found

    def _sure_of_case(self, found: list[Mention]) -> list[Mention]:
        """`found` with a person named in lower case ("what is theo allergic to", "how is
        theo's knee") as sure as "Theo" when past exchanges write the word as a name
        ("will" or "mark" they do not)."""

        def word(m: Mention) -> str | None:
            one = m.strength == "loose" and m.type in PROPER_TYPES and " " not in m.matched
            return POSSESSIVE.sub("", m.matched.lower()).strip(".,;:!?'’") if one else None

        loose = list(dict.fromkeys(w for m in found if (w := word(m))))
        if not loose:
            return found
        sure = {w.lower() for w in history_names(self._history_texts, loose)}
        return [replace(m, strength="exact") if word(m) in sure else m for m in found]

    def _history_texts(self, word: str, limit: int) -> list[str]:
        """What the user said in up to `limit` past exchanges holding `word`."""
        store = self.brain.store
        ids = [eid for eid, _ in store.bm25(word, limit, entity_types=(CHAT_EXCHANGE,))]
        return [
            str(e.attributes.get("user_message") or e.description)
            for e in store.get_entities(ids).values()
        ]

    async def _judge(
        self, message: str, summary: str, mentions: list[Mention]
    ) -> tuple[Verdict, list[str], str]:
        if self.llm is not None:
            try:
                data = await self.llm.complete_json(
                    JUDGE_SYSTEM,
                    judge_user_prompt(message, summary, [m.name for m in mentions]),
                    schema=JUDGE_SCHEMA,
                    timeout=self.config.judge_timeout,
                )
                judgment = Judgment(data["judgment"])
                queries = [str(q)[:120] for q in data.get("queries") or [] if str(q).strip()][:3]
                if judgment is Judgment.ENRICH and not queries:
                    queries = build_queries(message, mentions, summary)
                return Verdict(judgment, ("llm judge",)), queries, "llm"
            except (LLMError, KeyError, ValueError, TypeError) as exc:
                log.warning("LLM judge failed, using the local judge: %s", exc)
        match = None
        known: list[tuple[str, str]] = []
        knows_user = False
        if needs_brain_check(message, mentions):
            cued = has_cues(message, mentions)
            match, known, knows_user = await self.brain._run(self._brain_check, message, cued)
        verdict = judge_locally(message, mentions, match, known, knows_user)
        said = ""
        if verdict.judgment is Judgment.PASS_THROUGH and (said := await self._own_reason(message)):
            verdict = Verdict(Judgment.ENRICH, (f"{said}, which the brain holds",))
        queries = (
            build_queries(message, mentions, summary) if verdict.judgment is Judgment.ENRICH else []
        )
        if (
            verdict.judgment is Judgment.ENRICH
            and not queries
            and said
            and not _TO_DO_LIST.search(message)
        ):
            # "OK what do I need to do to make it work?": the task at hand, not a list.
            # ("What do I still need to do?" is enriched with no query: `_enrich`.)
            verdict = Verdict(Judgment.PASS_THROUGH, verdict.reasons)
        return verdict, queries, "local"

    def _talks_on(self, days: tuple[date, date]) -> list[Entity]:
        """Up to `DATED_TALKS` past exchanges said on `days`, newest last, from the recent
        sessions active since the first of them."""
        first, last = days
        out: list[Entity] = []
        for session in self.brain.sessions.recent(DATED_SESSIONS):
            if (session.updated_at or "")[:10] < first.isoformat():
                break  # newest first: the rest ended before the days asked about
            for e in self.brain.sessions.session_exchanges(session.id, DATED_TALKS):
                day = day_said(e) or (
                    date.fromisoformat(e.created_at[:10]) if e.created_at else None
                )
                if day is not None and first <= day <= last:
                    out.append(e)
        return sorted(out, key=lambda e: e.id)[-DATED_TALKS:]

    async def _own_reason(self, message: str) -> str:
        """Why a message no cue carried is about the user's own world, or "": "a breakfast
        plan that fits my diet" names something of theirs, "who should I send the report
        to?" asks among their people, a meal of theirs needs their diet (all kept in memory:
        no I/O), or it asks whether a weekday past exchanges speak of is free."""
        if asked := self.own.named(message)[0]:
            return f"it speaks of {asked}"
        if whom := self.own.whom(message)[0]:
            return f"it asks which of {whom} to turn to"
        if meal := self.own.meal(message)[0]:
            return f"it asks for a meal, and {meal} matters"
        if due := self.own.due(message)[0]:
            return f"it asks about {due}"
        if task := self.own.task(message)[0]:
            return f"it speaks of {task}"
        if how := self.own.how(message)[0]:
            return f"it asks for a piece of work, and {how} matters"
        days = asked_days(message)
        if days and (days := await self.brain._run(self._days_spoken_of, days)):
            return f"it asks whether the user's {', '.join(days)} is free"
        return ""

    def _days_spoken_of(self, days: list[str]) -> list[str]:
        """Of `days` (weekdays, singular), those past exchanges speak of ("Tuesdays")."""
        held = self.brain.store.history_freq([f for d in days for f in (d, f"{d}s")])
        return [d for d in days if held.get(d) or held.get(f"{d}s")]

    def _brain_check(
        self, message: str, cued: bool = True
    ) -> tuple[Match, list[tuple[str, str]], bool]:
        """(the best match, the pointed-at words the brain holds, whether the brain holds
        facts about the user).

        `cued`: the message names someone, speaks in the first person or refers back;
        without that, only a topic match can change the verdict."""
        pointed = pointed_words(message, FILLER)
        store = self.brain.store
        # "my mum" is the user's own when they spoke of "my mother" before.
        roles = owned_roles(message)
        # (determiner, word looked up, word the message said)
        asked = [
            (det, alias, w)
            for det, w in pointed
            for alias in ([w, *roles[w]] if det in OWN and w in roles else [w])
        ]
        words = [w for _, w, _ in asked]
        df = store.doc_freq(words) if pointed else {}
        in_history = store.history_freq(words) if pointed else {}
        # "my phone" is the user's own only if they spoke of their phone before (or the
        # brain holds a fact of theirs by that name), and "the offsite" is a thing the
        # user spoke of only if they did so before ("the sky" in someone's story is not):
        # a word some entry uses is not enough.
        # "the standup" when the user said "the standup" before (a thing only past
        # exchanges hold): marked SPOKEN_OF, a surer sign than a word some entry uses.
        named = said_with_the(message)
        tasks = self.own.task_words()
        known: list[tuple[str, str]] = []
        for det, w, said in asked:
            # "the proposal" when the user has one due: their own, though a commitment holds it.
            entry = df.get(w, 0) > in_history.get(w, 0) and w not in tasks
            if (det, said) in known:
                continue
            if det in OWN and df.get(w) and (w in tasks or self._owned(w)):
                # "my morning drink" after "I stopped drinking coffee": the user's own,
                # whether or not they ever said "my drink" ("my father": their dad).
                known.append((det, said))
                continue
            spoken = 0 if entry or not df.get(w) else self._spoken_of(w)
            if not entry and not spoken:
                continue
            # Not the user's own (checked above): a thing pointed at.
            sure = spoken == SAID_THE and det == "the" and w in named
            known.append((SPOKEN_OF if sure else "the", w))
        match = self._best_coverage(message, cued or bool(known))
        knows_user = bool(ABOUT_ME.search(message)) and bool(self._user_facts(1))
        return match, known, knows_user

    def _spoken_of(self, word: str) -> int:
        """Whether the user pointed at `word` in a past message: SAID_THE when they said
        "the <word>" ("the offsite", "our book club"), 1 when a pointer came a word or two
        before ("our new lease"), else 0."""
        # One or many: "the cabinets" after "the cabinet delivery".
        base = (
            word[:-1] if word.endswith("s") and len(word) > 3 and word not in _NOT_PLURAL else word
        )
        forms = rf"{re.escape(base)}(?:s|es)?"
        # ...or counted them: "packaging art for three tins", "our 2 kids".
        near = re.compile(
            rf"\b(?:the|that|this|these|those|my|our|{COUNTS})\s+(?:[\w'’.-]+\s+){{0,2}}?"
            rf"{forms}",
            re.I,
        )
        # "the 2.0 release" is "the release" with its version.
        the = re.compile(rf"\b(?:the|my|our)\s+(?:v?\d+(?:\.\d+)*\s+)?{forms}\b", re.I)
        texts = self._history_texts(word, OWNED_SAMPLE)
        if any(the.search(text) for text in texts):
            return SAID_THE
        return int(any(near.search(text) for text in texts))

    def _owned(self, word: str) -> bool:
        """Whether the user called `word` theirs in a past exchange or holds a fact of it."""
        if self._user_facts(1, f"{PREDICATE_WORDS.get(word, word)}: "):
            return True
        # In one sentence with "my"/"our": "Helga has a spare key to our house"; or what
        # the user does themselves, right after "I"/"we": "I drink about four coffees a
        # day", "I stopped drinking coffee" ("my morning drink").
        w = re.escape(word)
        mine = re.compile(
            rf"\b(?:my|our)\b[^.!?\n]*\b{w}|\b{w}\b[^.!?\n]*\b(?:my|our)\b"
            rf"|\b(?:i|we)\s+(?:[a-z]+\s+)?{w}(?:s|ing|ed)?\b",
            re.I,
        )
        return any(mine.search(text) for text in self._history_texts(word, OWNED_SAMPLE))

    def _user_facts(self, limit: int, predicate: str = "") -> list[Entity]:
        """The user's current facts (of one predicate, when given)."""
        found = self.brain.store.names_with_prefix("Fact", f"{USER}'s {predicate}", limit * 4)
        return [e for e in found if holds_at(e)][:limit]

    def _best_coverage(self, message: str, cued: bool = True) -> Match:
        from brainbridge.words import query_terms

        # Words no entity uses cannot tell entities apart, yet IDF weighs them most: in a
        # small brain "let's pick up where we left off on the toast" would hide the toast.
        store = self.brain.store
        terms = query_terms(" ".join(keywords(message)))
        # "my father" is looked up as the user's dad too, where they said "my dad".
        roles = owned_roles(message)
        aliases = [a for t in terms for a in roles.get(t, ())]
        df = store.doc_freq([*terms, *aliases])
        known = [t for t in [*terms, *aliases] if df.get(t)]
        query = " ".join(known)
        total = self.brain.searcher.entity_count()
        named = [t for t in query_terms(" ".join(capitalised_words(message))) if df.get(t)]
        if not cued:
            # Only a topic match could matter, and that takes several words distinctive of
            # a few entries: common ones cannot make one, so BM25 is spared.
            rare = [t for t in known if df[t] <= max(TOPIC_RARE_MIN, TOPIC_RARE_SHARE * total)]
            # ...or a question whose every word one entry holds ("When is the cardiology
            # appointment?"), which takes two.
            need = topic_terms(bool(set(named) & set(rare)))
            if QUESTION.search(message):
                need = min(need, ASKED_TERMS)
            if len(rare) < need:
                return Match(0.0)
        # History counts: people and plans often live only in past conversations. BM25's
        # best ten suffice: coverage counts words, which is what BM25 ranks by.
        ids = [eid for eid, _ in store.bm25(query, 10)] if query else []
        if not ids:
            return Match(0.0)
        coverage = Coverage(query, df, total)
        # ...yet whether the match is close is judged over all of them: words the brain has
        # never seen say the message is about something else ("Docker ... compose").
        said = query_terms(" ".join(keywords(without_reference_phrases(message))))
        whole = Coverage(" ".join(said), df, total, known=said, aliases=roles)
        names = Coverage(" ".join(named), df, total) if named else None
        entries = [
            (ent.type, f"{ent.name} {ent.description}") for ent in store.get_entities(ids).values()
        ]
        best, matched, of_all, holds_name = max(
            (
                coverage.of(text),
                coverage.count(text),
                whole.of(text),
                names is not None and names.count(text) > 0,
            )
            for _, text in entries
        )
        # "Write a commit message for this change" after "I prefer conventional commit
        # messages": how the user likes a thing done is theirs, however general the ask.
        # Two of the message's words in a preference count as a close one ("How should
        # errors be handled in the new export module?" after "I prefer errors returned as
        # Result types, no exceptions across module boundaries").
        liked = max(
            (
                max(whole.of(text), WEAK_COVERAGE if whole.count(text) >= 2 else 0.0)
                for kind, text in entries
                if kind == PREFERENCE
            ),
            default=0.0,
        )
        # One known word of several ("I love this song ...": "love") is no strong match,
        # unless it is what the message points at ("where we left off on the toast").
        pointed = query_terms(" ".join(m.group(1) for m in REFERENCED_NOUN.finditer(message)))
        # ...or the message asks about the user's own life ("which airline am I flying").
        asks = bool(QUESTION.search(message)) and about_self(message)
        if len(known) == 1 < len(terms) and known[0] not in pointed and not asks:
            return Match(min(best, SINGLE_TERM_COVERAGE), matched, of_all, holds_name, liked)
        return Match(best, matched, of_all, holds_name, liked)

    async def _load(
        self,
        queries: list[str],
        session: Session | None,
        verdict: Verdict,
        source: str,
        turn: int,
        message: str = "",
        talks: Sequence[Entity] = (),
        talks_only: bool = False,
    ) -> Enrichment:
        recent: set[str] = set()
        # Unless the agent's context was compacted since (hooks/observe.py: PreCompact).
        if session and session.bridge_context_log:
            last = session.bridge_context_log[-1]
            recent = set() if last.get("compacted") else set(last.get("loaded") or [])
        cfg = self.config

        # Facts that no longer hold are left out; past exchanges stay, marked when a later
        # statement replaced what they say (they often hold more than the replaced part).
        requests = [
            SearchRequest(q, n, types, excluded, superseded=history)
            for q in queries
            for n, types, excluded, history in (
                (cfg.knowledge_per_query, None, EPISODES, False),
                (cfg.history_per_query, (CHAT_EXCHANGE,), None, True),
            )
        ]
        found = (
            [[] for _ in requests]
            if talks_only
            else _current_for(await self.brain.search_many(requests), message or " ".join(queries))
        )
        # The talks of the days asked about join the first query's history, after what
        # search found (`on_date` orders them).
        if talks:
            listed = {h.entity.id for h in found[1]}
            found[1] = found[1] + [Hit(e, 0.0, ("date",)) for e in talks if e.id not in listed]
        # "my car", "our internet": the user's own current facts of that kind come first.
        own, said = await self.brain._run(self._own_and_said, message, queries[0])
        if own:
            taken = {h.entity.id for h in own}
            found[0] = own + [h for h in found[0] if h.entity.id not in taken]
        results: list[tuple[str, tuple[Hit, ...]]] = []
        repeated = any(h.entity.name in recent for hits in found for h in hits)
        every = [h for hits in found for h in hits]
        answers = await self.brain._run(self._answers, every)
        # How well the question that an exchange answers matches the message.
        asked: dict[int, float] = {}
        for h in every:
            if (after := answers.get(h.entity.id)) is not None:
                asked[after] = max(asked.get(after, 0.0), h.signals.get("coverage", 0.0))
        seen: set[int] = set()
        close = self.brain.searcher.min_cosine
        for i, q in enumerate(queries):
            hits = [
                h
                for h in found[2 * i] + found[2 * i + 1]
                if h.entity.id not in seen and h.entity.name not in recent
            ]
            # An exchange found only beside a match lends the match its words (search ranks
            # with them) but is no item of its own: on the tuned LoCoMo conversations such
            # neighbours held evidence 2 % of the time, and in a user's own sessions, which
            # move from topic to topic, the next exchange is mostly about something else.
            # Unless the match ends on a question: then the next exchange answers it.
            fresh = tuple(
                Hit(h.entity, h.score, (*h.retrievers, "answer"), {**h.signals, "asked": a})
                if (a := asked.get(h.entity.id)) is not None
                else h
                for h in hits
                if not _beside_only(h, close) or h.entity.id in asked
            )
            seen.update(h.entity.id for h in fresh)
            results.append((q, fresh))
        results = _passages_stand_for_notes(_collapse_repeats(results))
        ranked = _rank(results, found, said)
        relevance = model()
        bar = relevance.bar(ranked[0][0] if ranked else 0.0) if relevance is not None else 0.0
        chosen = _replaced_lead(ranked, _without_restated([c.hit for p, c in ranked if p >= bar]))
        later: dict[str, Entity] = {}
        if any(replaced_by(h.entity) for h in chosen):
            later = await self.brain._run(self._superseding, chosen)
        if chosen and chosen[0].entity.attributes.get("superseded_by"):
            # What replaced a statement answers before it: never lead with what ended.
            newer = await self.brain._run(self._current_successor, chosen[0].entity)
            # ...but only a successor the search found too (a replacement that shares
            # none of the message's words is likely a change of something else), unless
            # nothing current comes near the replaced item.
            found_ids = {c.hit.entity.id for _, c in ranked}
            if newer is not None and (
                newer.id in found_ids or _nothing_current_near(ranked, chosen)
            ):
                chosen = [Hit(newer, 1.0, ("successor",))] + [
                    h for h in chosen if h.entity.id != newer.id
                ]
                # The successor stands for what repeats it.
                chosen = list(_collapse_repeats([("", tuple(chosen))])[0][1])
            else:
                chosen = _current_first(chosen)
        chosen = _successors_before(chosen, later)
        block = ranked_block(
            [_item(h, later) for h in chosen],
            cfg.budget_tokens,
            more=len(ranked) - len([p for p, _ in ranked if p >= bar]),
            query=queries[0],
        )
        if block is None:
            return Enrichment(
                Judgment.PASS_THROUGH,
                queries=tuple(queries),
                results=tuple(results),
                reasons=(
                    *verdict.reasons,
                    _nothing_loaded(len(ranked), repeated),
                ),
                source=source,
                turn=turn,
                ranked=tuple(ranked),
            )
        return Enrichment(
            Judgment.ENRICH,
            queries=tuple(queries),
            results=tuple(results),
            block=block.text,
            loaded=block.loaded,
            items=block.items,
            reasons=verdict.reasons,
            source=source,
            turn=turn,
            ranked=tuple(ranked),
        )

    def _own_and_said(self, message: str, query: str) -> tuple[list[Hit], Said]:
        """On the store thread, in one hop: the user's own facts the message names, and
        the message's terms (the query's, without a message) as search weighs a query's."""
        return self._own_facts(message), self._said(message or query)

    def _said(self, message: str) -> Said:
        """The message's terms, weighed as search weighs a query's."""
        from brainbridge.words import query_terms

        store = self.brain.store
        terms = query_terms(message)
        # "my mum" is covered where the user said "my mother".
        owned = owned_roles(message)
        roles = {t: others for t in terms if (others := owned.get(t))}
        every = [*terms, *(w for others in roles.values() for w in others)]
        df, history = store.doc_freq(every), store.history_freq(every)
        known = {
            t
            for t in terms
            if any(df.get(w, 0) or history.get(w, 0) for w in (t, *roles.get(t, ())))
        }
        return Said(
            Coverage(message, df, self.brain.searcher.entity_count(), known, roles), message
        )

    def _own_facts(self, message: str, limit: int = 3) -> list[Hit]:
        """The user's current facts whose kind the message names with my/our ("my car")."""
        if ABOUT_ME.search(message) and about_self(message):
            return [Hit(e, 1.0, ("own",)) for e in self._user_facts(2 * limit)]
        said = [w.lower() for pair in _OWN_WORDS.findall(message) for w in pair if w]
        words = dict.fromkeys(PREDICATE_WORDS.get(w, w) for w in said if len(w) > 2)
        hits = [
            Hit(ent, 1.0, ("own",))
            for word in list(words)[:4]
            for ent in self._user_facts(limit, f"{word}: ")
        ]
        # ...and what the message otherwise calls the user's ("where we live", "my GP").
        taken = {h.entity.id for h in hits}
        _, named = self.own.named(message)
        if named and (dated := self.own.when(message)):
            named = dated + [e for e in named if e not in dated]
        elif _OF_TIME.search(message):
            # "When do I meet my supervisor?" asks for a time: who the supervisor is leads
            # with nothing of it (search finds the person where they share its words).
            named = [e for e in named if e.type != "Person"]
        # ...or whom of their people it asks about ("who should I send the report to?"),
        # what they can eat, for a meal ("a restaurant for my team lunch"), or what they
        # have to do.
        if not hits and not named:
            named = [*self.own.whom(message)[1], *self.own.meal(message)[1]]
            named += self.own.due(message)[1]  # "what's left to do for the move?"
            named += self.own.task(message)[1]  # "an ad for a new roommate"
        # ...and how they like a piece of work the message asks for ("write the runbook").
        for ent in [*named, *self.own.how(message)[1]]:
            if ent.id not in taken:
                taken.add(ent.id)
                hits.append(Hit(ent, 1.0, ("own",)))
        return hits[:limit]

    def _current_successor(self, ent: Entity, hops: int = 5) -> Entity | None:
        """The statement that holds now in place of `ent`, following a chain of changes."""
        for _ in range(hops):
            by = ent.attributes.get("superseded_by")
            if not by:
                return ent
            newer = self._superseding([Hit(ent, 0.0)]).get(str(by))
            if newer is None:
                return None
            ent = newer
        return None

    def _answers(self, hits: list[Hit]) -> dict[int, int]:
        """{id: id of the exchange right after it} of the matched exchanges of `hits` that
        end on a question, or whose user went on about it in their next message ("It's at
        the Corn Exchange"). A question ("What made you pick it?" / "I chose them 'cause
        ..."): on the tuned LoCoMo conversations the exchange after a block's first item
        held evidence 25 % of the time when that item ended on a question, 9 % when it did
        not. Only an
        answer that search found beside its question becomes an item: fetching the others
        too bought recall 0.729 -> 0.737 for 33 more tokens and lost first items."""
        matched = [
            h for h in hits if h.entity.type == CHAT_EXCHANGE and set(h.retrievers) != {"context"}
        ]
        asking = {h.entity.id for h in matched if _ASKS.search(h.entity.description)}
        # A user's own next message that goes on about the same thing ("The offsite is on
        # November 18." / "It's at the Corn Exchange, starting at 10am.") says the rest of it.
        # Read for the best few matches only: each is a lookup on the chat path.
        telling = {
            h.entity.id
            for h in sorted(matched, key=lambda h: -h.score)[:TELLING_READ]
            if h.entity.id not in asking and not is_transcript(h.entity.description)
        }
        if not asking and not telling:
            return {}
        store = self.brain.store
        where = store.exchange_positions([*asking, *telling])
        after = store.exchanges_at((s, n + 1) for s, n in where.values())
        found = {
            eid: after_id
            for eid, (s, n) in where.items()
            if (after_id := after.get((s, n + 1))) is not None
        }
        # An assistant that ends its reply on a question ("Need help with an itinerary?")
        # is often not answered: the user's next message starts something else. Its
        # next exchange counts only where it replies; a transcript's speakers answer.
        by_id = {h.entity.id: h.entity for h in hits}
        offered = {
            eid: offer
            for eid in found
            if not is_transcript(text := by_id[eid].description) and (offer := offers(text))
        }
        # The next exchanges that must be read to decide: one read for both kinds.
        checked = [eid for eid in found if eid in telling or eid in offered]
        nexts = store.get_entities([found[eid] for eid in checked]) if checked else {}
        for eid in checked:
            reply = nexts.get(found[eid])
            if (
                reply is None
                or (eid in telling and not _CONTINUES.search(user_side(reply)))
                or (eid in offered and not takes_up(offered[eid], reply))
            ):
                del found[eid]
        return found

    def _superseding(self, hits: list[Hit]) -> dict[str, Entity]:
        """{name: exchange} of the statements that retired any of `hits`."""
        names = {str(n) for h in hits if (n := replaced_by(h.entity))}
        if not names:
            return {}
        ids = self.brain.store.ids_named(CHAT_EXCHANGE, sorted(names))
        return {e.name: e for e in self.brain.store.get_entities(list(ids.values())).values()}

    def _log_turn(self, session_id: str, result: Enrichment) -> None:
        entry = {
            "judgment": result.judgment.value,
            "queries": list(result.queries),
            "loaded": list(result.loaded),
            "reasons": list(result.reasons),  # in plain words; the web app shows them
            "stored": [],
        }
        self._background(
            self.brain._run(self.brain.sessions.record_turn, session_id, result.turn, entry, False)
        )

    # -- after the turn -------------------------------------------------------

    def observe(
        self, session_id: str, exchange_number: int, message: str, response: str, **extra: Any
    ) -> asyncio.Task[Observation]:
        """Schedule `observe_now` in the background and return at once."""
        return self._background(
            self.observe_now(session_id, exchange_number, message, response, **extra)
        )

    async def observe_now(
        self,
        session_id: str,
        exchange_number: int,
        message: str,
        response: str,
        attributes: dict[str, Any] | None = None,
        today: date | None = None,
    ) -> Observation:
        """Store the exchange, extract and link its facts, log the turn. Never raises."""
        try:
            obs = await self._observe(
                session_id, exchange_number, message, response, attributes or {}, today
            )
        except AlreadyStored as exc:  # another process stored this very turn first
            log.info("%s", exc)
            return Observation(None, skipped=True)
        except Exception as exc:
            log.exception("bridge observe failed for %s turn %s", session_id, exchange_number)
            return Observation(None, error=f"{type(exc).__name__}: {exc}")
        for hook in self.config.after_observe:
            try:
                await hook(session_id, exchange_number)
            except Exception:
                log.exception("after-observe hook failed")
        return obs

    async def _observe(
        self,
        session_id: str,
        n: int,
        message: str,
        response: str,
        extra: dict[str, Any],
        today: date | None,
    ) -> Observation:
        # Imported here: learning from a turn compiles many patterns that a prompt hook,
        # which only enriches, should not wait for.
        from brainbridge.bridge.merging import decide_with_llm
        from brainbridge.bridge.observe import (
            exchange_attributes,
            exchange_name,
            extract,
            is_trivial,
            store_facts,
        )

        message, response = redact(message), redact(response)
        stored: list[str] = []
        exchange = None
        exchange_id = 0
        skipped = is_trivial(message, response)
        if not skipped:
            description, attrs = exchange_attributes(session_id, n, message, response)
            attrs["date"] = (today or date.today()).isoformat()
            name = exchange_name(session_id, n)
            taken = await self.brain.get_entity(CHAT_EXCHANGE, name)
            if taken is not None and taken.attributes.get("session_id") != session_id:
                # Another session shares the first 8 characters: never overwrite its episode.
                name = f"{session_id}:ex:{n}"
            ent = await self.brain.upsert_entity(
                CHAT_EXCHANGE, name, {**attrs, **extra}, description
            )
            exchange, exchange_id = (ent.type, ent.name), ent.id
            self.own.heard(ent)
            stored.append(f"{ent.type}:{ent.name}")
        facts, extractor = await extract(self.llm, message, response, today or date.today())
        stored += await store_facts(self.brain, facts, exchange, today)
        if exchange is not None:
            stored += await self.brain._run(
                self._retire, message, exchange_id, exchange[1], (today or date.today()).isoformat()
            )
        if self.llm is not None and any(x.startswith("merge? ") for x in stored):
            merged = await decide_with_llm(self.brain, self.llm)
            stored += [
                f"merged {m['entity_type']}:{m['other_name']} into {m['keep_name']}" for m in merged
            ]
        entry: dict[str, Any] = {"stored": stored}
        if word_count(message) < SHORT_MESSAGE_WORDS:
            # enrich short-circuited this message without I/O, so its judgment is logged here.
            short = self._short(message)
            entry.update(
                judgment=short.judgment.value,
                queries=list(short.queries),
                loaded=list(short.loaded),
            )
        if any(
            s.startswith(
                ("Fact:", "Person:", "Preference:", "Commitment:", "retired", "amended", "new ")
            )
            for s in stored
        ):
            await self.brain._run(self._read_own_world)
        await self.brain._run(self.brain.sessions.record_turn, session_id, n, entry)
        log.debug("observe %s turn %d: stored=%s skipped=%s", session_id, n, stored, skipped)
        return Observation(exchange[1] if exchange else None, tuple(stored), skipped, extractor)

    def _retire(self, message: str, exchange_id: int, name: str, when: str) -> list[str]:
        """On the store thread: retire what this statement changes or completes."""
        from brainbridge.bridge.changes import (
            amend_people,
            find_retired,
            new_due,
            retire,
            successors,
        )

        store = self.brain.searcher.store
        retired = find_retired(store, message, exchange_id, name, when)
        due = new_due(message, when)
        done = [f"retired {d}" for d in retire(store, retired, name, when, due, message)]
        done += [f"amended {p.type}:{p.name}" for p in amend_people(store, retired, message, when)]
        for fact in successors(store, message, retired, name, when):
            if store.get_entity(fact.type, fact.name) is None:
                new = store.upsert_entity(fact.type, fact.name, fact.description, fact.attributes)
                store.relate((new.type, new.name), "extracted_from", (CHAT_EXCHANGE, name))
                done.append(f"new {new.type}:{new.name}")
        if done:
            self.brain._written()
            log.debug("%s: %s", name, done)
        return done

    # -- housekeeping ---------------------------------------------------------

    def _background(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        # Nobody awaits these tasks for their result, so a failure is logged here or never.
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("bridge background task failed", exc_info=exc)

    async def drain(self) -> None:
        """Wait for every background task this bridge started."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


# Words that end in "s" as one: "news" is no "new", "means" no "mean".
_NOT_PLURAL = frozenset(
    "news goods means series species physics maths glasses clothes thanks lens bus gas "
    "status campus bonus virus canvas chaos basis crisis analysis diagnosis".split()
)


def _nothing_loaded(found: int, repeated: bool) -> str:
    """Why a search for an enriched message loaded nothing, in the words of what it did."""
    if found:
        return f"it searched the brain, but none of the {found} items found is likely to help"
    if repeated:
        return "it searched the brain; what it found was loaded on the previous turn already"
    return "it searched the brain and found nothing likely to help"


def _position(ent: Entity) -> tuple[str, int] | None:
    """(session id, exchange number) of an exchange, by its attributes."""
    sid, n = ent.attributes.get("session_id"), ent.attributes.get("exchange_number")
    return (str(sid), n) if sid is not None and isinstance(n, int) else None


_NOT_WORD = re.compile(r"[^\w]+")


def _said(hit: Hit) -> frozenset[str]:
    """The words of what the user said in an exchange (its description for other types)."""
    ent = hit.entity
    text = str(ent.attributes.get("user_message") or ent.description)
    return frozenset(_NOT_WORD.split(text.lower())) - {""}


# Words a fact drawn from an exchange adds to what the user said: "The user's lead."
_FACT_FRAME = frozenset({"the", "user", "user's", "users", "s", "also", "is", "a", "an"})


def _without_restated(hits: list[Hit]) -> list[Hit]:
    """A fact drawn from an exchange that is in the block too, and that says nothing the
    exchange does not ("Priyanka Shah: The user's lead." beside "My lead is Priyanka
    Shah"), is one item: the exchange, which may say more ("The venue is Quinta da
    Regaleira" beside "Inês: The user's cousin, getting married"), in the better place."""
    at = {h.entity.name: i for i, h in enumerate(hits) if h.entity.type == CHAT_EXCHANGE}
    out: list[Hit | None] = list(hits)
    where = dict(at)  # where each exchange stands now
    for i, h in enumerate(hits):
        source = h.entity.attributes.get("source_exchange")
        if h.entity.type == CHAT_EXCHANGE or source not in at:
            continue
        told = {stem(w) for w in _said(hits[at[source]])}
        fact = _NOT_WORD.split(f"{h.entity.name} {h.entity.description}".lower())
        if {stem(w) for w in fact if w and w not in _FACT_FRAME} <= told:
            j = where[source]
            if i < j:
                out[i], out[j], where[source] = out[j], None, i
            else:
                out[i] = None
    return [h for h in out if h is not None]


def _collapse_repeats(
    results: list[tuple[str, tuple[Hit, ...]]], same: float = 0.85
) -> list[tuple[str, tuple[Hit, ...]]]:
    """Past exchanges that say (nearly) the same thing again appear once, the first found
    standing for all: a prompt repeated ten times is one line, not ten."""
    kept: list[frozenset[str]] = []
    out = []
    for query, hits in results:
        fresh = []
        for h in hits:
            if h.entity.type == CHAT_EXCHANGE:
                words = _said(h)
                if any(len(words & k) / max(len(words | k), 1) >= same for k in kept):
                    continue
                kept.append(words)
            fresh.append(h)
        out.append((query, tuple(fresh)))
    return out


def _passages_stand_for_notes(
    results: list[tuple[str, tuple[Hit, ...]]],
) -> list[tuple[str, tuple[Hit, ...]]]:
    """A note or document found with one of its passages is left out: the passage is the
    part that answers, and it names the note's file; the whole would only repeat it."""
    from brainbridge.vault.passages import owner_of

    parts = [h.entity for _, hits in results for h in hits if h.entity.type == PASSAGE]
    if not parts:
        return results
    files = {e.attributes.get("doc_path") for e in parts} - {None}
    owners = {owner_of(e.name) for e in parts}

    def whole(ent: Entity) -> bool:
        return ent.type != PASSAGE and (
            ent.name in owners or ent.attributes.get("doc_path") in files
        )

    return [(q, tuple(h for h in hits if not whole(h.entity))) for q, hits in results]


def _rank(
    results: list[tuple[str, tuple[Hit, ...]]], found: list[list[Hit]], said: Said
) -> list[tuple[float, Candidate]]:
    """Every item of `results` with its probability of helping, most likely first (a
    superseded item is marked and weighed down by the model, and never leads the block). `found` holds each query's knowledge and history lists; a rank
    counts only what the block may show (a repeated prompt ranks once)."""
    kept = {h.entity.id for _, hits in results for h in hits}
    where: dict[int, list[tuple[int, int]]] = {}
    for i in range(len(results)):
        for listed in (found[2 * i], found[2 * i + 1]):
            shown = [h for h in listed if h.entity.id in kept]
            for r, h in enumerate(shown):
                where.setdefault(h.entity.id, []).append((i, r))
    measured = {
        h.entity.id: said.measure(said_text(entity_text(h.entity)))
        for _, hits in results
        for h in hits
    }
    best = max((m.get("said", 0.0) for m in measured.values()), default=0.0)
    # "What did I say about the garden on June 3?": how near each candidate was said to
    # the date the message names, shared among those said near it (a day of one talk
    # settles more than a session of twenty exchanges).
    near = (
        {h.entity.id: said.on_date(h.entity) for _, hits in results for h in hits}
        if said.dated
        else {}
    )
    dated = sum(1 for v in near.values() if v > 0)
    # Place among the candidates by what they said of the message: ties share a place, and
    # saying none of it is no place at all (a vague message's candidates are not ordered
    # by their ids).
    descending = sorted(-m.get("said", 0.0) for m in measured.values())
    place = {eid: bisect_left(descending, -m.get("said", 0.0)) for eid, m in measured.items()}
    order = sorted(measured, key=lambda e: (-measured[e].get("said", 0.0), e))
    history = {h.entity.id: h.entity for _, hits in results for h in hits if _position(h.entity)}
    top = next((history[e] for e in order if e in history), None)
    session = top.attributes.get("session_id") if top is not None else None
    out = []
    for i, (_, hits) in enumerate(results):
        for h in hits:
            seen = where.get(h.entity.id) or [(i, 0)]
            rank = min(r for q, r in seen if q == i) if any(q == i for q, _ in seen) else 0
            m = measured[h.entity.id]
            same = float(session is not None and h.entity.attributes.get("session_id") == session)
            gap = (
                (
                    ("said_gap", best - m["said"]),
                    ("said_rank", 1 / (1 + place[h.entity.id]) if m["said"] > 0 else 0.0),
                    ("same_session", same),
                )
                if m
                else ()
            )
            if dated:
                gap = (*gap, ("on_date", near[h.entity.id] / dated))
            c = Candidate(h, i, rank, len({q for q, _ in seen}), (*m.items(), *gap))
            # The user's own facts of the kind the message names are what it asks for.
            out.append((1.0 if "own" in h.retrievers else probability(c), c))
    # Among those, the ones that share the message's words lead ("my current job": the
    # employer before the allergies).
    return sorted(out, key=lambda pc: (-pc[0], -measured[pc[1].hit.entity.id].get("said", 0.0)))


# A replaced item outranks every current one by this factor: its successor leads even when
# the search did not find it (what replaced "the half marathon in April" is the answer).
SUCCESSOR_LEAD = 3.0
# ...and says this many times as much of the message.
SAYS_LEAD = 1.5


def _nothing_current_near(ranked: list[tuple[float, Candidate]], chosen: list[Hit]) -> bool:
    """Whether the block's best current item is far less likely than its replaced first
    were that current, and says far less of the message ("Which tool do we use for the
    standup?": "we use 1Password", replaced, is likely for "we use" alone and says about
    as much as the standup's move to Google Meet, so what replaced it does not lead)."""
    p = _by_id(ranked)
    first = p.get(chosen[0].entity.id)
    current = max(
        (p[h.entity.id] for h in chosen if h.entity.id in p and not p[h.entity.id][1].superseded),
        key=lambda pc: pc[0],
        default=None,
    )
    if first is None or current is None:
        return first is not None
    likelier = as_current(first[1]) >= SUCCESSOR_LEAD * current[0]
    return likelier and _says(first[1]) >= SAYS_LEAD * _says(current[1])


def _by_id(ranked: list[tuple[float, Candidate]]) -> dict[int, tuple[float, Candidate]]:
    """Each ranked candidate, with its probability, by its entity's id."""
    return {c.hit.entity.id: (prob, c) for prob, c in ranked}


def _says(c: Candidate) -> float:
    """How much of the message the people of a candidate said (`Said.measure`)."""
    return dict(c.said).get("said", 0.0)


def _says_most(p: dict[int, tuple[float, Candidate]], old: Candidate, chosen: list[Hit]) -> bool:
    """Whether the replaced `old` says as much of the message as every current item of the
    block ("Which tool do we use for the standup?": "we use 1Password" says only "use",
    the standup's move says "standup", so what replaced the password manager is no answer)."""
    mine = _says(old)
    return all(
        _says(p[h.entity.id][1]) <= mine
        for h in chosen
        if h.entity.id in p and not h.entity.attributes.get("superseded_by")
    )


def _replaced_lead(ranked: list[tuple[float, Candidate]], chosen: list[Hit]) -> list[Hit]:
    """`chosen` led by its best replaced item when that, were it current, would lead and it
    says as much of the message as the rest: then what replaced it answers first ("Make me
    a training plan for the race in April": the 10k that replaced the half marathon, not a
    garden plan the model puts above the replaced plan only because it was replaced)."""
    if not chosen:
        return chosen
    p = _by_id(ranked)
    lead = p[chosen[0].entity.id][0] if chosen[0].entity.id in p else 0.0
    replaced = [
        (as_current(p[h.entity.id][1]), h)
        for h in chosen
        if h.entity.id in p and p[h.entity.id][1].superseded
    ]
    if not replaced:
        return chosen
    best, old = max(replaced, key=lambda t: t[0])
    if old is chosen[0] or best <= lead or not _says_most(p, p[old.entity.id][1], chosen):
        return chosen
    return [old] + [h for h in chosen if h is not old]


def _successors_before(hits: list[Hit], later: dict[str, Entity]) -> list[Hit]:
    """`hits` with each replacement that is in them moved just before the first item it
    replaced: what holds now is read before what it ended."""
    out = list(hits)
    for h in hits:
        newer = later.get(str(h.entity.attributes.get("superseded_by") or ""))
        if newer is None:
            continue
        at = next((i for i, x in enumerate(out) if x.entity.id == newer.id), None)
        old = next(i for i, x in enumerate(out) if x is h)
        if at is not None and at > old:
            out.insert(old, out.pop(at))
    return out


def _current_first(hits: list[Hit]) -> list[Hit]:
    """`hits` with the most likely current item moved to the front, when one is there."""
    lead = next((h for h in hits if not h.entity.attributes.get("superseded_by")), None)
    return hits if lead is None else [lead] + [h for h in hits if h is not lead]


def _beside_only(hit: Hit, close: float) -> bool:
    """Whether `hit` was found only beside a match: by no word of the query, and, if the
    vectors listed it among the nearest, not `close` in meaning either (in a young brain
    every exchange is among the nearest)."""
    found = set(hit.retrievers)
    return (
        "context" in found
        and found <= {"context", "vector"}
        and hit.signals.get("cosine", 0.0) < close
    )


def _current_for(found: list[list[Hit]], message: str) -> list[list[Hit]]:
    """`found` with each exchange a later statement changed only in part made current for a
    message that does not ask about that part ("What's the name of the wedding venue?"
    after the ceremony moved to 5pm): it may lead, and is marked as changed in part."""
    if not any(h.entity.attributes.get("superseded_part") for hits in found for h in hits):
        return found
    from brainbridge.bridge.changes import unchanged_for

    def current(hit: Hit) -> Hit:
        ent = hit.entity
        if not unchanged_for(ent, message):
            return hit
        attrs = {k: v for k, v in ent.attributes.items() if k not in ("superseded_by", "valid_to")}
        attrs["part_changed_by"] = ent.attributes.get("superseded_by")
        attrs["part_changed_on"] = ent.attributes.get("valid_to")
        return replace(hit, entity=replace(ent, attributes=attrs))

    return [[current(h) for h in hits] for hits in found]


def _item(hit: Hit, later: dict[str, Entity]) -> BlockItem:
    ent = hit.entity
    newer = later.get(by) if (by := replaced_by(ent)) else None
    return item_of(ent, newer, _source(ent), _place(ent))


def _place(ent: Entity) -> tuple[str, int] | None:
    """A past exchange's (session id, exchange number), which `passages` joins by."""
    session, number = ent.attributes.get("session_id"), ent.attributes.get("exchange_number")
    if ent.type != CHAT_EXCHANGE or not isinstance(session, str) or not isinstance(number, int):
        return None
    return session, number


def _source(ent: Entity) -> str:
    """Where an imported note or passage lives, to open it: "path" or "path:line"."""
    path = ent.attributes.get("doc_path")
    if not isinstance(path, str) or not path:
        return ""
    line = ent.attributes.get("line")
    return f"{path}:{line}" if isinstance(line, int) else path
