"""The user's own world kept in memory, so a short question about it costs no I/O.

"who is my manager?" and "my dentist's number?" are under the bridge's five words, where
it reads nothing from disk. They are answered from the user's current facts ("User's
home: Rotterdam") and the people who hold a role for them ("The user's dentist. ..."),
read when the bridge reads the store anyway (it starts, it stores a turn) and kept here.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING

from brainbridge.bridge.block import BlockItem, item_of, ranked_block
from brainbridge.bridge.judge import QUESTION
from brainbridge.bridge.names import owner_words
from brainbridge.bridge.predicates import OWNED, PREDICATE_WORDS, ROLE_WORDS, USER
from brainbridge.bridge.profile import DIETS
from brainbridge.model import CHAT_EXCHANGE, PREFERENCE, Entity, holds_at, replaced_by
from brainbridge.search.relevance import stem
from brainbridge.when import MONTH, span
from brainbridge.words import (
    CALENDAR_WORDS,
    LOWER,
    SENTENCE_END,
    STOPWORDS,
    UPPER,
    query_terms,
    with_article,
)

if TYPE_CHECKING:
    from brainbridge.ports import Store

log = logging.getLogger(__name__)

# "where I live", "where we're based": the user's home.
_WHERE_THEY_LIVE = re.compile(
    r"\bwhere (?:i|we)(?:['’]m|['’]re| am| are)? (?:live|living|based|staying)\b", re.I
)
# "Who should I send the report to?", "who do we ask about the budget?": the answer is one
# of the user's people...
_WHO_FOR_ME = re.compile(
    r"\bwhom?\s+(?:should|shall|do|can|could|must|would|will)\s+(?:i|we)\b", re.I
)
# ...and about a piece of work, it is someone they work with: the roles asked for first.
_WORK = re.compile(
    r"\b(?:report|reports|update|updates|deck|slides|presentation|proposal|budget|invoice|"
    r"review|spec|roadmap|plan|draft|deadline|project|launch|release|estimate|figures|"
    r"numbers|results|metrics|okrs?|timesheet|expenses?|contract|brief|memo|minutes)\b",
    re.I,
)
WORK_ROLES = ("manager", "lead", "director", "supervisor", "head", "mentor", "cto", "ceo")
# "Pick a restaurant for my team lunch that works for me", "a dinner menu I can safely
# eat": a meal for the user, which their diet and allergies decide.
_MEAL = re.compile(
    r"\b(?:restaurants?|lunch(?:es)?|dinners?|breakfasts?|brunch|menus?|meals?|recipes?|"
    r"snacks?|catering|takeaway|takeout|dishes)\b",
    re.I,
)
_FOR_THE_USER = re.compile(
    r"\bfor (?:me|us)\b|\b(?:i|we) (?:can|could|may|should)(?: safely)? (?:eat|have)\b|"
    r"\b(?:my|our)\b",
    re.I,
)
# "Suggest a dinner recipe", "recommend a place for brunch": the user leaves the choice of
# the meal to the agent ("a recipe for chili" names the dish: anyone's question).
_MEAL_LEFT = re.compile(
    r"(?:^|[.!?]\s+|\b(?:you|please)\s+)(?:suggest|recommend|pick|choose)\s+(?:me\s+|us\s+)?"
    rf"(?:[\w'’-]+\s+){{0,3}}?{_MEAL.pattern}|"
    rf"\bideas?\s+for\s+(?:[\w'’-]+\s+){{0,2}}?{_MEAL.pattern}|"
    r"\bwhat\s+should\s+(?:i|we)\s+(?:eat|cook|make|order|have)\b",
    re.I,
)
MEAL_KINDS = frozenset({"diet", "allergy", "condition"})
# Conditions a meal must mind ("type 2 diabetes" yes, "asthma" no).
_MEAL_CONDITION = re.compile(
    r"\b(?:diabetes|pre-?diabetes|coeliac|celiac|ibs|crohn|colitis|cholesterol|hypertension|"
    r"blood pressure|gout|kidney|heart)",
    re.I,
)
# "Penicillin", "latex": what the user is allergic to that no meal holds.
_NOT_FOOD = re.compile(
    r"\b(?:penicillin|amoxicillin|antibiotics?|aspirin|ibuprofen|codeine|morphine|sulfa|"
    r"latex|pollen|dust|mites?|cats?|dogs?|bee|bees|wasps?|stings?|nickel|mould|mold)\b",
    re.I,
)
# "What should I cook for Christmas that works for everyone?": a meal for the household,
# whose people's diets count too ("my husband Raf is vegetarian").
_FOR_ALL = re.compile(
    r"\b(?:everyone|everybody|all of us|both of us|the (?:family|kids|guests)|"
    r"my (?:family|kids|guests)|the whole family|us all|we all)\b|"
    # "What should I cook for Friendsgiving?", "bake for the party", "cook for 10 people":
    # a meal the user makes for others.
    r"\b(?:cook|bake|make|prepare|serve)\s+(?:[\w'’-]+\s+){0,3}?for\s+(?:(?-i:[A-Z])[\w'’-]+|"
    r"(?:the|our|my)\s+(?:party|dinner|gathering|potluck|guests|friends|team)|\d+\s+people|"
    r"friends|guests)",
    re.I,
)
_DIET_SAID = re.compile(rf"\b(?:{DIETS})\b|\ballergic to\b", re.I)
# "do I have", "have we got": the user's own (not "do we have to meet").
_I_HAVE = r"(?:do\s+(?:i|we)\s+(?:still\s+)?have|have\s+(?:i|we)\s+(?:still\s+)?got)\b\s*"
# ...and nothing after but when: "left", "coming up", "due this week", "soon", "?".
_WHEN_TAIL = (
    r"(?:\s*(?:left|coming\s+up|due|outstanding|open|on|today|tonight|tomorrow|soon|"
    r"(?:this|next)\s+(?:week|month|weekend|term|quarter)|this\s+year))*[\s?.!]*$"
)
# "What's left to do for the move?", "plan my week so I hit both deadlines", "what's due":
# the user's open commitments are the answer, soonest first.
_DUE_ASKED = re.compile(
    r"\b(?:plan|organi[sz]e|schedule|map out)\s+(?:my|our)\s+(?:week|day|weekend|month)\b|"
    r"\b(?:my|our)\s+(?:deadlines|to-?dos|to-do list|todo list|open tasks|commitments)\b|"
    r"\bwhat(?:['’]s| is)(?: still| else)?\s+(?:left to do|still to do|due|outstanding|"
    r"on my plate)\b|"
    # ("What do I need to do to get a passport?", "...in Excel to freeze a row?" ask how.)
    r"\bwhat\s+(?:do|did)\s+(?:i|we)\s+(?:still\s+)?(?:owe|promise|(?:need|have) to do"
    r"(?!\s+(?:to|in|on|with|if|when|so|about)\b))\b|"
    r"\b(?:hit|meet|make)\s+(?:both|all|my|our|the)\s+deadlines\b|"
    # The user's own list, asked as a whole question: "What deadlines do I have coming
    # up?", "Which tasks do I have left?", "Any deadlines this week?", "What have I got
    # coming up?", "Do I have anything due tomorrow?" ("What deadlines do we have to meet
    # under GDPR?", "What festivals have we got coming up in Edinburgh?" and "What tasks did
    # I finish?" are not).
    rf"^\W*(?:what|which)\s+(?:(?:upcoming|open|other)\s+)?(?:deadlines|to-?dos|tasks|"
    rf"commitments)\s+{_I_HAVE}{_WHEN_TAIL}|"
    rf"^\W*(?:are\s+there\s+)?any\s+(?:upcoming\s+)?(?:deadlines|tasks)(?:\s+for\s+(?:me|us))?"
    rf"{_WHEN_TAIL}|"
    rf"^\W*(?:is\s+there\s+)?anything\s+(?:due|coming\s+up|(?:i|we)\s+(?:still\s+)?"
    rf"(?:need|have)\s+to\s+do)(?:\s+for\s+(?:me|us))?"
    rf"{_WHEN_TAIL}|"
    rf"^\W*(?:what\s+)?{_I_HAVE}(?:any(?:thing)?\s+)?(?:coming\s+up|due|deadlines)"
    rf"(?:\s+for\s+(?:me|us))?"
    rf"{_WHEN_TAIL}|"
    rf"^\W*what(?:['’]s| is)\s+coming\s+up\s+for\s+(?:me|us){_WHEN_TAIL}|"
    r"\b(?:my|our)\s+upcoming\s+deadlines\b",
    re.I,
)
# A question of what lies ahead, not what is overdue.
_AHEAD = re.compile(r"\b(?:coming\s+up|upcoming|next)\b", re.I)
_NEED_TO_DO = re.compile(
    r"what\s+(?:do|did)\s+(?:i|we)\s+(?:still\s+)?(?:need|have)\s+to\s+do", re.I
)
# "Any deadlines this week?", "What's due tomorrow?": the days it asks about.
_PERIOD = re.compile(r"\b(?:(this|next)\s+(week|weekend|month)|(today|tonight|tomorrow))\b", re.I)
# ...asked in the question's own clause, at its end ("What's due tomorrow or Tuesday?", "this
# month or next", "from tomorrow onwards" are more), and not as a bound ("by tomorrow",
# "before next week", "in the next month").
_CLAUSE_BREAK = re.compile(r"[,;:.!?]|\s[-–—]\s")
_BOUNDARY = re.compile(
    r"\b(?:by|before|until|till|between|after|and|or|through|from|the|of|over|within)\s*$", re.I
)
_AT_THE_END = re.compile(r"[\s?.!]*$")
# "This week" asked with this little of the week left means the coming one too.
_LATE = timedelta(days=1)
# "What do I owe Mei?": only what is owed to Mei.
_OWE_NAMED = re.compile(rf"\bowe\s+(?-i:[{UPPER}])", re.I)
# "When is Biscuit's check-up?": an appointment, by what it names.
_WHEN_IS = re.compile(
    r"^\W*when(?:['’]s| is| are)\s+(?:my|our|the|[\w'’\-]+['’]s)\s+[\w'’ \-]{2,40}\??\s*$", re.I
)
# "When's my license due?": one of them, by what it names.
_WHEN_DUE = re.compile(r"\bwhen(?:['’]s| is| are| do| does)\s+(?:[\w'’-]+\s+){1,5}?due\b", re.I)
_NO_DUE = "9999-12-31"


def _due(e: Entity) -> str:
    """A commitment's due day (YYYY-MM-DD), the far future when it has none."""
    return str(e.attributes.get("due") or _NO_DUE)


# "Write the runbook for the cutover", "draft a short status update": a piece of work the
# user asks to be made; what it is comes last before "for"/"to"/... or the end.
_MAKE = re.compile(
    r"\b(?:write|draft|prepare|outline|compose|sketch|plan|create|make|design|put together)\s+"
    r"(?:me\s+|us\s+)?((?:[\w'’-]+\s+){0,4}?[\w'’-]+)"
    r"(?=\s+(?:for|to|about|on|with|of|that|which|by|in|from|before|after|so)\b|\s*[.?!,;:]|\s*$)",
    re.I,
)
# The words a preference is about: the first few of what the user prefers ("prefer
# runbooks as numbered checklists": runbooks, numbered, checklists).
_PREFERRED = 3
_FILLER = frozenset({"a", "an", "the", "my", "our", "to", "it", "them", "when", "if", "as", "with"})
# A capitalised word, possessive -s off: how a short question names someone.
_NAME = re.compile(rf"\b([{UPPER}][{LOWER}]{{2,}})(?:['’]s)?\b")
# The user's facts and people kept: a person's life has dozens, not thousands.
MAX_KEPT = 200
# The newest exchanges kept: what a short question names ("when's the Halden deadline?") was
# most often said lately.
KEPT_EXCHANGES = 100
# A word written with a capital inside a sentence: how the user names things ("signed with
# Halden", "the Tidepool beta"); not the first word, nor "I".
_INNER_NAME = re.compile(rf"(?<![.!?:]\s)(?<!^)\b(?!I['’])([{UPPER}][\w'’\-]*[{LOWER}{UPPER}\d])")
# "when's the Halden deadline?", "have I invoiced Halden?": a question of what, or of the
# user's own.
_ASKS_WHAT_WAS_SAID = re.compile(
    r"^\W*(?:when|what|who|whom|whose|where|which|how)\b|\b(?:i|my|we|our|me|us)\b", re.I
)
# Capitalised, yet no one's name: "by Dec 1", "over Christmas".
_NO_NAMES = STOPWORDS | CALENDAR_WORDS | frozenset({"christmas", "xmas", "easter"})


def _no_name(word: str) -> bool:
    return word.lower() in _NO_NAMES or re.fullmatch(MONTH, word, re.I) is not None


_USERS = f"{USER}'s "
_ROLE_OF_USER = "The user's "


def _written_beside(message: str) -> dict[str, set[str]]:
    """The stems of each capitalised word of `message` and of the capitalised words written
    next to it ("Mark Twain's": mark -> {twain}; "What's" and other function words aside)."""
    out: dict[str, set[str]] = {}
    run: list[str] = []
    for word in [*re.findall(r"[\w'’\-]+", message), ""]:
        if word[:1].isupper() and not _no_name(word):
            run += _stems(word)
            continue
        for w in run:
            out.setdefault(w, set()).update(set(run) - {w})
        run = []
    return out


def _kinds(word: str) -> set[str]:
    """The fact predicates and roles a word can ask for ("boss": manager, "car": car)."""
    word = word.lower()
    return {
        word,
        PREDICATE_WORDS.get(word, word),
        ROLE_WORDS.get(word, word),
        *_SHORT_FOR.get(word, ()),
    }


# "my product manager" asks for "pm" too: each role's short names.
_SHORT_FOR: dict[str, set[str]] = {}
for _short, _role in ROLE_WORDS.items():
    _SHORT_FOR.setdefault(_role, set()).add(_short)


def _kind_of(ent: Entity, who: bool = False) -> set[str]:
    """What a kept entity is the user's: its predicate, or its role; with `who` (a question
    for a person: "Who services our kiln?"), each word of the role."""
    if ent.type == "Fact":
        # Learned facts carry their predicate; one added by hand ("User's manager: Oskar"
        # through `brain add`) says it in its name.
        predicate = ent.attributes.get("predicate") or ent.name[len(_USERS) :].split(":")[0]
        said = str(predicate).strip().lower()
        # "our supplier" asks for the "drugs supplier" too.
        return {said, said.rsplit(" ", 1)[-1]} - {""}
    role = str(ent.attributes.get("role") or "").lower()
    words = re.findall(r"[a-z][\w\-']*", role)
    if not words:
        return set()
    # A role is its head noun, or all of it: "my dog" is no "dog walker", "my team" no
    # "team lead" and "in my head" no "head of department".
    head = words[words.index("of") - 1] if "of" in words[1:] else words[-1]
    return {head, " ".join(words), *(words if who else ())}


def _known_by(ent: Entity) -> set[str]:
    """The stems a commitment is known by: its task, and whom it is owed to."""
    said = f"{ent.name} {ent.attributes.get('promised_to') or ''}"
    return _stems(said)


def _stems(text: str) -> set[str]:
    """Stems of a text's words, a possessive's "s" ("Leo's", "What's") not one of them, nor
    a word that says which one ("When is the next solar eclipse?" shares nothing with
    "Mia's next vaccination")."""
    return {stem(w) for w in query_terms(text) if len(w) > 1 and w.lower() not in _WHICH_ONE}


_WHICH_ONE = frozenset("next last upcoming coming this".split())
_WHO = re.compile(r"\bwho(?:['’]s|m)?\b", re.I)
_ROLE_ASKED = re.compile(
    r"\W*(?:(?:my|our|the)\s+)?([a-z][\w\-]*(?:\s+[a-z][\w\-]*)?)\s*\?\s*", re.I
)
_POSSESSIVE = re.compile(r"['’]s\b")
# "in my head", "off the top of my head", "I hit my head", "my head hurts": the body, not
# the head of a department or a school.
_BODY_HEAD = re.compile(
    r"\b(?:in|into|out of|off|over|above|on|around|inside|through|hit|banged|bumped|"
    r"scratch\w*|shak\w*|shook|clear|wrap)\s+(?:(?:the\s+)?top\s+of\s+)?(?:my|our)\s+head\b(?!\s+of\b)|"
    r"\b(?:my|our)\s+head\s+(?:hurts|aches|is\s+(?:spinning|pounding|sore|killing))",
    re.I,
)
# "Who is the electrician?", "Who's the stage manager for the show?", "who is the treasurer
# again", "who's captain now?": one of the user's people, by the role they have; not "Who
# is the manager of Arsenal?", "Who is the manager of the hotel?" nor "Who is the doctor in
# the new series?".
_THE_ROLE = re.compile(
    r"^\W*who(?:['’]s|\s+is|\s+was)\s+(?:the\s+)?((?-i:[a-z])[\w\-]*(?:\s+(?-i:[a-z])[\w\-]*){0,2}?)"
    r"(?:\s+(?:again|now|these\s+days|at\s+the\s+moment|(?:for|on)\s+"
    r"(?:the|our|my|this)\s+(?-i:[a-z])[\w\-]*(?:\s+(?-i:[a-z])[\w\-]*)?))?\W*$",
    re.I,
)


def _preferred(ent: Entity, first: int | None = _PREFERRED) -> set[str]:
    """Stems of the first words of what a preference is about (its verb left out); all
    of its words with `first` None."""
    words = [w.lower() for w in re.findall(r"[\w'’-]+", ent.name)[1:]]
    kept = [w for w in words if w not in _FILLER and len(w) > 2]
    return {stem(w) for w in kept[:first]}


def _in_period(found: list[Entity], message: str, asked: re.Match[str], today: str) -> list[Entity]:
    """Of `found` (in order), for "Any deadlines this week?": those due in the days asked
    about, then what is overdue or due today; all of them when none is due in those days
    (the soonest says when the next one is), or when the days are not plainly the ones
    asked about ("plan my week? I'm busy tomorrow", "due before next week", "this weekend
    and next week")."""
    periods = list(_PERIOD.finditer(message))
    if len(periods) != 1:
        return found
    m = periods[0]
    if m.start() < asked.start() or _CLAUSE_BREAK.search(message, asked.start(), m.start()):
        return found
    if _BOUNDARY.search(message[max(0, m.start() - 12) : m.start()]):
        return found
    if not _AT_THE_END.match(message, m.end()):
        return found
    now = date.fromisoformat(today)
    if m.group(3):
        first, last = span("day", now, int(m.group(3).lower() == "tomorrow"))
    else:
        first, last = span(m.group(2).lower(), now, int(m.group(1).lower() == "next"))
        if m.group(1).lower() == "this" and m.group(2).lower() == "week" and last <= now + _LATE:
            last += timedelta(days=7)  # "this week?" asked on a Saturday or Sunday: the next

    within = [e for e in found if max(first, now).isoformat() <= _due(e) <= last.isoformat()]
    if not within:
        return found
    # What is still to do and late (an appointment gone by is not late).
    late = [
        e
        for e in found
        if e not in within and _due(e) <= today and e.attributes.get("kind") != "appointment"
    ]
    return within + late


class OwnWorld:
    """The user's current facts and role-holders, in memory."""

    def __init__(self, entities: Sequence[Entity] = ()) -> None:
        self._entities = tuple(entities)
        self._preferences: tuple[Entity, ...] = ()
        self._open: tuple[Entity, ...] = ()  # the user's open commitments
        self._task_words: frozenset[str] = frozenset()
        self._exchanges: tuple[Entity, ...] = ()  # the newest, read with the rest
        # ...each with the stems of what the user said, and the names in them: worked out at
        # the first short question that needs them (~9 ms; a hook's bridge rarely does).
        self._said: tuple[tuple[Entity, frozenset[str]], ...] | None = None
        self._names: frozenset[str] = frozenset()
        self._stamp: object | None = None  # the store's change stamp when last read

    def __len__(self) -> int:
        return len(self._entities)

    def task_words(self) -> frozenset[str]:
        """The lower-case words naming the user's open commitments and current decisions
        ("proposal", "roommate", "beginner class"): "the proposal" is a thing of the user's
        own when they have one due, "our beginner class" when they decided its price."""
        return self._task_words

    def refresh(self, store: Store) -> None:
        """Read the user's current facts and the people with a role for them again, unless
        the brain was not written since the last read (the read scans the people: ~57 ms
        at 100k + 200k, after every enrich, beside the next message on a small machine)."""
        written = store.change_stamp()
        # ...and a fact ends on its day: the date is part of what was read.
        stamp = None if written is None else (written, date.today())
        if stamp is not None and stamp == self._stamp:
            return
        facts = store.names_with_prefix("Fact", _USERS, MAX_KEPT)
        # By description prefix, not a case-blind substring with a count: on a server
        # that scanned every person twice per enrich (110 ms each at 25k people).
        people = store.described_with_prefix("Person", _ROLE_OF_USER, MAX_KEPT)
        self._entities = tuple(
            e
            for e in [*facts, *people]
            if holds_at(e) and (e.type == "Fact" or str(e.description).startswith(_ROLE_OF_USER))
        )
        self._preferences = tuple(
            e
            for e in store.names_with_prefix(PREFERENCE, "", MAX_KEPT)
            if holds_at(e) and e.attributes.get("holder", "user") == "user"
        )
        self._open = tuple(
            e
            for e in store.names_with_prefix("Commitment", "", MAX_KEPT)
            if holds_at(e) and e.attributes.get("status", "open") == "open"
        )
        decided = [e for e in store.names_with_prefix("Decision", "", MAX_KEPT) if holds_at(e)]
        said = " ".join(e.name for e in [*self._open, *decided]).lower()
        self._task_words = frozenset(re.findall(r"[\w'’\-]+", said)) - STOPWORDS
        self._exchanges = tuple(store.newest(CHAT_EXCHANGE, KEPT_EXCHANGES))
        self._said = None
        self._stamp = stamp

    def heard(self, exchange: Entity) -> None:
        """An exchange just stored: kept at once, so a short question right after it can be
        about it (the next read of the store keeps it too)."""
        kept = [e for e in self._exchanges if e.id != exchange.id]  # stored again: edited
        self._exchanges = (exchange, *kept[: KEPT_EXCHANGES - 1])
        self._said = None

    def _said_words(self) -> tuple[tuple[tuple[Entity, frozenset[str]], ...], frozenset[str]]:
        """The kept exchanges with the stems of what the user said in each (the reply
        restates it, or advises: "they'll want proof of the booster" says nothing of when the
        booster is), and the stems of the names the user wrote in them."""
        if self._said is None:
            said = [(e, str(e.attributes.get("user_message") or "")) for e in self._exchanges]
            self._said = tuple((e, frozenset(_stems(text))) for e, text in said)
            self._names = frozenset(
                stem(m.group(1).lower())
                for _, text in said
                for sentence in SENTENCE_END.split(text)
                for m in _INNER_NAME.finditer(sentence.strip())
                if not _no_name(m.group(1))
            )
        return self._said, self._names

    def named(self, message: str) -> tuple[str, list[Entity]]:
        """(what the message calls the user's, the kept entities that are it) for any
        message ("a breakfast plan that fits my diet", "hikes near where we live"),
        else ("", [])."""
        # "my car", and "my new car": the word after the possessive, then the next; the next
        # only for a fact ("our password manager" is no person's role).
        owned = list(OWNED.finditer(message))
        # "my team lead", "our dog walker": the two words are a role too, and the one meant
        # when they are ("our password manager" is nobody; "my son's teacher" is the son's).
        asked = [
            (f"{m.group(1)} {m.group(2)}", {"Person"})
            for m in owned
            if m.group(2) and not _POSSESSIVE.search(m.group())
        ]
        asked += [
            (word, kinds)
            for m in owned
            for word, kinds in ((m.group(1), {"Fact", "Person"}), (m.group(2), {"Fact"}))
            if word
        ]
        # "Who services our kiln?" asks for the kiln technician; "my dog" alone is no dog walker.
        who = _WHO.search(message) is not None
        # "Who is the electrician?": one of the user's people, by the role they have.
        asked += [(m.group(1), {"Person"}) for m in _THE_ROLE.finditer(message)]
        for word, kinds in asked:
            if word.lower() == "head" and _BODY_HEAD.search(message):
                continue  # "in my head" is no head of department
            if found := self._of_kind(word, kinds, who):
                return f"the user's {word.lower()}", found
        if _WHERE_THEY_LIVE.search(message):
            found = [e for e in self._entities if "home" in _kind_of(e)]
            if found:
                return "where the user lives", found
        return "", []

    def _of_kind(
        self, word: str, kinds: frozenset[str] | set[str] = frozenset({"Person"}), who: bool = False
    ) -> list[Entity]:
        """The kept entities of `kinds` that `word` asks for ("boss": the manager)."""
        wanted = _kinds(word)
        return [e for e in self._entities if e.type in kinds and _kind_of(e, who) & wanted]

    def whom(self, message: str) -> tuple[str, list[Entity]]:
        """(what the message asks, the user's people it asks among) for a question about
        which of them to turn to with a piece of work ("who should I send the quarterly
        report to?": their manager first), else ("", [])."""
        if not (_WHO_FOR_ME.search(message) and _WORK.search(message)):
            return "", []

        def rank(ent: Entity) -> int:
            kinds = _kind_of(ent)
            return next((i for i, role in enumerate(WORK_ROLES) if role in kinds), -1)

        found = sorted((e for e in self._entities if e.type == "Person" and rank(e) >= 0), key=rank)
        return ("the user's people at work", found) if found else ("", [])

    def meal(self, message: str) -> tuple[str, list[Entity]]:
        """(what the message asks, the user's diet and allergies) for a meal the user asks
        about for themselves ("a restaurant for my team lunch"), else ("", [])."""
        if not (_MEAL.search(message) and _FOR_THE_USER.search(message)) and not _MEAL_LEFT.search(
            message
        ):
            return "", []
        found = [
            e
            for e in self._entities
            if e.type == "Fact"
            and _kind_of(e) & MEAL_KINDS
            and not _NOT_FOOD.search(e.name)
            and ("condition" not in _kind_of(e) or _MEAL_CONDITION.search(e.name))
        ]
        if _FOR_ALL.search(message):
            found += [
                e
                for e in self._entities
                if e.type == "Person"
                and _DIET_SAID.search(e.description)
                and not _NOT_FOOD.search(e.description)
            ]
        return ("what the user eats", found) if found else ("", [])

    def due(self, message: str) -> tuple[str, list[Entity]]:
        """(what the message asks, the user's open commitments, soonest due first: those it
        speaks of, if it speaks of any) for a message about what the user has to do ("what's
        left to do for the move?"), else ("", [])."""
        one = _WHEN_DUE.search(message) is not None
        event = not one and _WHEN_IS.search(message) is not None
        listed = _DUE_ASKED.search(message)
        if (
            listed
            and _NEED_TO_DO.match(listed.group())
            and SENTENCE_END.search(message, 0, listed.start() + 1)
            and not _PERIOD.search(message)
        ):
            listed = None  # "My laptop won't boot. What do I need to do?": about that
        if not (self._open and (one or event or listed)):
            return "", []
        said = _stems(message)
        kept = [e for e in self._open if not event or e.attributes.get("kind") == "appointment"]
        if not kept:
            return "", []
        shared = {e.id: len(said & _known_by(e)) for e in kept}
        # "What do I still owe Priya?": those it speaks of, when it speaks of any.
        best = max(shared.values())
        if not best and (one or event or _OWE_NAMED.search(message)):
            return "", []  # "When is the rent due?" with no promise about rent
        found = [e for e in kept if shared[e.id] == best]
        # Soonest first; "What deadlines do I have coming up?": what is still ahead before
        # what is overdue.
        ahead, today = bool(_AHEAD.search(message)), date.today().isoformat()

        found.sort(key=lambda e: (ahead and _due(e) < today, _due(e)))
        if listed is not None and not (one or event):
            found = _in_period(found, message, listed, today)
        return "what the user has to do", found

    def when(self, message: str) -> list[Entity]:
        """The user's appointments or tasks a question of when names ("When is my dentist
        appointment?"): they answer before the dentist does."""
        if _WHEN_DUE.search(message) is None and _WHEN_IS.search(message) is None:
            return []
        return self.due(message)[1]

    def task(self, message: str) -> tuple[str, list[Entity]]:
        """(what it speaks of, the user's open commitments it names by two or more of
        their words) for a message about one ("I need to post an ad for a new roommate"
        while "find a new roommate by January 1" is open), else ("", [])."""
        said = _stems(message)
        found = [e for e in self._open if len(said & _known_by(e)) >= 2]
        return ("something the user has to do", found) if found else ("", [])

    def how(self, message: str) -> tuple[str, list[Entity]]:
        """(the piece of work, the user's preferences about that kind of work) for a message
        asking to make one ("write the runbook for the cutover": "I prefer runbooks as
        numbered checklists"), else ("", [])."""
        for m in _MAKE.finditer(message):
            said = [w.lower() for w in m.group(1).split()]
            if said[-1] in _FILLER or len(said[-1]) < 3:
                continue
            # The head, or the noun before it that says what it is for ("an invoice
            # template" after "I prefer invoices with the VAT on a separate line")...
            wanted = {stem(w) for w in said[-2:] if len(w) > 3 and w not in STOPWORDS}
            wanted.add(stem(said[-1]))
            # ...or two words of it that the preference speaks of ("a menu board line" after
            # "I prefer short punchy descriptions on the menu board").
            words = {stem(w) for w in said if len(w) > 2 and w not in STOPWORDS}
            found = [
                e
                for e in self._preferences
                if wanted & _preferred(e) or len(words & _preferred(e, None)) >= 2
            ]
            if found:
                thing = " ".join(w for w in said if w not in _FILLER)
                return f"how the user likes {with_article(thing)}", found
        return "", []

    def said_of(self, message: str) -> tuple[str, list[Entity]]:
        """(what it asks about, the newest exchanges that answer it) for a question naming
        something the user named lately, by that name and one more of its words ("when's the
        Halden deadline?": "Halden pushed the migration deadline to the 17th"), what still
        holds first, and what replaced one before it; else ("", [])."""
        if not _ASKS_WHAT_WAS_SAID.search(message):
            return "", []  # "is Python slow?" asks anyone
        kept, known = self._said_words()
        asked = _stems(message)
        names = asked & known
        if not names:
            return "", []
        beside = _written_beside(message)
        # "when's Mark Twain's birthday?" is of no Mark the user spoke of: a name written
        # beside another that what they said does not hold.
        shared = {
            e.id: len(asked & said)
            for e, said in kept
            if names & said and not set().union(*(beside.get(n, ()) for n in names)) - said
        }
        best = max(shared.values(), default=0)
        if best < 2:
            return "", []
        found = [e for e, _ in kept if shared.get(e.id) == best]  # newest first
        found.sort(key=lambda e: replaced_by(e) is not None)
        out: list[Entity] = []
        for ent in found:
            newer = self._replacer(ent)
            # "Josh's appeal got moved to 16 December", then the 9th (not "Biscuit's checkup
            # got moved" before what the user said of Dr Harris: that names no one asked of)
            said = next((w for e, w in kept if e is newer), frozenset())
            if newer is not None and newer not in out and not replaced_by(newer) and names & said:
                out.append(newer)
            if ent not in out:
                out.append(ent)
        return f"what the user said of {' '.join(sorted(names))}", out

    def lookup(self, message: str) -> tuple[str, list[Entity]]:
        """(what the question asks for, the kept entities that answer it): a question
        about something the user calls theirs ("who is my manager?") or one of their people
        ("Oskar's number?"), else ("", [])."""
        if not QUESTION.search(message):
            return "", []
        # "when's my dentist appointment": the appointment, not the dentist.
        if dated := self.when(message):
            return "what the user has to do", dated
        for ask in (self.named, self.whom, self.meal, self.due):
            asked, found = ask(message)
            if found:
                return asked, found
        # "Oskar's number?": one of the user's people, by a word of their name as written,
        # or in lower case as the owner of something ("who is ben's teacher").
        for name in [*_NAME.findall(message), *owner_words(message)]:
            found = [
                e
                for e in self._entities
                if e.type == "Person" and name.lower() in e.name.lower().split()
            ]
            if len(found) == 1:
                return found[0].name, found
        asked, found = self.said_of(message)
        if found:
            return asked, found
        # "mortgage broker?", "the plumber?": a role alone, asked.
        if (m := _ROLE_ASKED.fullmatch(message)) and (found := self._of_kind(m.group(1))):
            return f"the user's {m.group(1).lower()}", found
        return "", []

    def block(self, message: str, budget_tokens: int) -> tuple[str, str, tuple[str, ...]] | None:
        """(what it asks for, the block, the names loaded) for a short question the kept
        facts answer; None for any other message."""
        asked, found = self.lookup(message)
        if not found:
            return None
        items = tuple(self._item(e) for e in found[:3])
        rendered = ranked_block(items, budget_tokens, more=max(0, len(found) - 3), query=asked)
        if rendered is None:
            return None
        return asked, rendered.text, rendered.loaded

    def _item(self, ent: Entity) -> BlockItem:
        """A kept entity as the block shows it; an exchange with its day, and what replaced it
        when it no longer holds."""
        if ent.type != CHAT_EXCHANGE:
            return BlockItem(ent.name, ent.type, ent.description)
        return item_of(ent, self._replacer(ent))

    def _replacer(self, ent: Entity) -> Entity | None:
        """The kept exchange that replaced `ent`, if it is kept."""
        by = replaced_by(ent)
        return next((e for e in self._exchanges if by and e.name == by), None)
