"""The local judge: enrich, step back or pass through, from rules and what the brain holds."""

from __future__ import annotations

import re
from dataclasses import dataclass

from brainbridge.bridge.names import Mention
from brainbridge.bridge.queries import CHOICE, REFERENCE_PHRASES
from brainbridge.bridge.queries import CONTRACTION as _CONTRACTION
from brainbridge.model import Judgment
from brainbridge.words import POSSESSIVE, STOPWORDS

SHORT_MESSAGE_WORDS = 5
# Query-term coverage of the best knowledge hit that counts for or against enriching.
STRONG_COVERAGE = 0.6
WEAK_COVERAGE = 0.3
# The same share over all of a message's words, the ones the brain never saw included,
# that counts for enriching. Measured with benchmarks/bench_unrelated.py, the judge set
# and the scenario dev split: at 0.33 the judge set scores 164/171 and 0-0.7 % of the
# unrelated dev set is injected; 0.36-0.4 lose judge-set messages and inject no less;
# 0.5 and 0.6 lose scenario probes.
CLOSE_COVERAGE = 0.33
# A message on one of the brain's topics: this share of its known words, and this many,
# found in one entry.
TOPIC_COVERAGE = 0.6
NAMED_TOPIC_COVERAGE = 0.5
TOPIC_TERMS = 3
# A question all of whose words one entry holds: this many of them, and said of a
# particular one ("the US" is a country, not one of the user's things).
ASKED_TERMS = 2
_DEFINITE = re.compile(
    r"\b(?:the|my|our|his|her|their)\s+(?!US\b)|\b(?:now|again|these\s+days|this\s+week)\W*$",
    re.I,
)

# Words for the user's own store of knowledge. Weak ones ("memory", "records", "network",
# "database") also name ordinary technical things, so they count only with "my"/"our".
_BRAIN = r"(?:brain|second brain|(?:knowledge|memory) ?(?:graph|base)|graph|notes?|vault|memory|memories|records?|contacts|rolodex|network|database)"
_STORED = (
    r"(?:logged|saved|stored|noted|recorded|captured|tracked|kept|filed|written down|jotted down)"
)
STEP_BACK = [
    re.compile(p, re.I)
    for p in (
        rf"\b(?:in|from|across|through|of|to|into)\s+my\s+(?:\w+\s+)?{_BRAIN}\b",
        rf"\bmy\s+{_BRAIN}\b.*\b(?:find|search|list|show|query|look|who|what|which|how many|count|know|knows|say|says|have|has|hold|holds|contain|contains)\b",
        r"\b(?:what|everything|anything)\s+(?:do\s+)?i\s+(?:have|know|got|saved|stored|wrote|noted)\s+(?:on|about|re|regarding)\b",
        rf"\b(?:search|query|look up|look through|browse|explore|list|find)\s+(?:my\s+{_BRAIN}|the\s+(?:brain|graph|knowledge|notes|vault))\b",
        r"\b(?:add|save|store|remember|record|put)\b.+\b(?:to|in|into)\s+(?:my|the)\s+(?:brain|graph|knowledge|notes|vault)\b",
        r"\b(?:delete|remove|forget|update|edit|rename|merge|link|tag)\b.+\b(?:from|in)\s+(?:my|the)\s+(?:brain|graph|knowledge ?(?:graph|base)?|notes|vault|memory)\b",
        r"\b(?:who|which people|what people|anyone)\s+(?:in|from)\s+my\s+(?:graph|network|brain|contacts)\b",
        r"\bshow me (?:all|every)\b.*\b(?:entities|nodes|notes|people|projects|decisions|commitments)\b",
        # "who do I know at X": the user asks about their own network, not the world.
        r"\bwho\s+(?:else\s+)?do\s+(?:i|we)\s+know\s+(?:at|in|from|who|that)\b",
        # Things the user says they stored: "what decisions have I logged", "everything I've saved".
        rf"\b(?:have|had|did)\s+(?:i|we)\s+(?:ever\s+)?(?:already\s+)?{_STORED}\b",
        rf"\b(?:i|we)(?:'ve|\s+have)\s+(?:ever\s+)?(?:already\s+)?{_STORED}\b",
        rf"\b(?:do|did)\s+(?:i|we)\s+have\s+(?:anything|something|stuff|notes?|much)\s+(?:{_STORED}\s+)?(?:on|about|re|regarding|for)\b",
        # An imperative to remember: "remember that Nadia prefers ...", "note: ...", "save this".
        r"^\W*(?:please\s+)?(?:remember|note|save|store|log|record|memori[sz]e)\s+(?:that\b(?!\s+(?:time|day|night|one|thing|trip|guy|woman|place))|this\b|these\b|:|the fact)",
    )
]

# "my landlord", "our lease": a cue only when the brain knows the thing (see judge_locally).
POSSESSIVE_CUE = re.compile(r"\b(?:my|our)\s+([a-z][\w-]+)", re.I)
# Phrases that lean on context the speaker assumes the listener already has. Names ("when
# did Caroline go", "Kevin's cohort") are no cue by their capital letter: a capitalised
# word counts only as a mention the brain knows (Bridge._mentions).
REFERENCE_CUES = [
    re.compile(
        r"\b(?:that|those|the same|this|these)\s+(?!(?:is|was|are|were|will|would|could|can|one|way|time|kind|sort|much|many)\b|[a-z]+n['’]t\b)"
        # "this year": the present, no earlier context ("these days" asks what holds now).
        r"(?!(?<=this )(?:year|month|season|summer|winter|spring|autumn|fall|century|decade)\b)"
        r"[a-z][\w-]+",
        re.I,
    ),
    POSSESSIVE_CUE,
    *REFERENCE_PHRASES,
    re.compile(
        r"\bhow(?:'s| is| are| was| did)\s+.+\s+(?:going|coming along|doing|progressing|go|looking|lookin)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:by|before|until|on)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|end of (?:day|week|month)|eod|eow|next week)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:the|that|my|our)\s+(?:\w+\s+){0,2}(?:deadline|due date)\b|\b(?:is|are|was)\s+due\b",
        re.I,
    ),
    re.compile(
        r"\b(?:finish|send|submit|review|prepare|draft|ship|finalize|reply to|respond to|call|email|meet(?: with)?)\s+(?:the|that|my|our|this)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:he|she|they|him|her|them)\b.*\b(?:said|asked|wanted|promised|mentioned|told)\b", re.I
    ),
]

GENERIC = [
    re.compile(p, re.I)
    for p in (
        r"^\s*(?:what is|what are|what's|who was|who is|define|explain|how do(?:es)? (?:i|you|one|a|an|the)?\s*\w+|why do(?:es)?|translate|write (?:a|an|me a)|give me (?:a|an|some)|tell me a|can you explain|summari[sz]e this|convert|calculate|compute)\b",
        r"\b(?:in python|in javascript|in rust|in sql|regex|algorithm|recipe for|the capital of|the history of|in general)\b",
    )
]


# "What is the best way to ...", "best practices for ...": a question anyone asks.
ANYONES = re.compile(r"\bbest (?:way|ways|practices?)\b|\bhow (?:to|do you|does one)\b", re.I)
# The speaker, in any person of the first: a message about the user's own life.
FIRST_PERSON = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll|[Mm]e|[Mm]y|[Mm]ine|[Ww]e|[Ww]e're|[Ww]e've|[Oo]ur|[Oo]urs|us)\b"
)
# The user as the subject or owner of what is said ("I", "my", "we", "our"): "give me a
# plan" asks the assistant for something, it says nothing of the user's life.
SPEAKER = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll|[Mm]y|[Mm]ine|[Ww]e|[Ww]e're|[Ww]e've|[Oo]ur|[Oo]urs)\b"
)
# A question, by its opening word or its mark.
QUESTION = re.compile(
    r"^\W*(?:what|what's|whats|which|when|where|who|whom|whose|why|how|did|do|does|am|is|are|was|were|have|has|had|can|could|should|will|would)\b|\?\s*$",
    re.I,
)
# A thing the speaker points at ("my landlord", "our standup", "the offsite"): the next
# few words after a possessive or a definite article.
# The words are read ahead, not consumed: "the agenda for the offsite" points twice.
# A word after a pointer, a version number whole ("the 2.0 release").
_W = r"[\w'’\-]+(?:\.\d+)*"
_POINTER = re.compile(rf"\b(my|our|the|that|this|these|those)\s+(?=((?:{_W}\s+){{0,2}}{_W}))", re.I)
# Possessions everyone has: "my team" or "our code" point at nothing the brain must know.
COMMON_POSSESSIONS = frozenset(
    """team code life opinion question mind guess work job day time way thing things stuff
    idea ideas head best favorite favourite first last new old current next own side part
    end point problem answer help people family friends home house place days moment while""".split()
)
OWN = frozenset({"my", "our"})
# The user asks to be told again what they said or did: "remind me", "did we", "did I".
RECALL = re.compile(r"\bremind me\b|\bdid (?:we|i)\b", re.I)
# "Write a message to the caterer", "draft an email for my landlord": a piece of work
# addressed to someone the user spoke of, which their context shapes.
WORK_FOR = re.compile(
    r"\b(?:write|draft|compose|prepare|send|reply)\b(?:\s+[\w'’-]+){0,4}?\s+(?:to|for)\s+"
    r"(?:the|my|our)\s+([\w'’-]+)",
    re.I,
)
# "Which day is the party now?", "Is the offsite still in Leeds?": what holds now for a
# thing the user spoke of, which may have changed since.
STILL = re.compile(r"\b(?:still|anymore|any more)\b|\bnow\W*$", re.I)
# "What time is the ceremony?", "Where is the wedding venue?", "Who makes the croissants?":
# when, where or who of the thing the question is about; "What's the name of the venue
# again?": asked again.
PARTICULAR = re.compile(
    r"^\W*(?:when|where|who|what (?:time|day|date)|which day)\s+"
    r"(?:is|are|was|were|will|does|do|did)\s+(?=the\s)|"
    # "who runs the standup", "who looks after the docs"
    r"^\W*who\s+[a-z]+s\s+(?:(?:after|over|up|on)\s+)?(?=the\s)|"
    # "How long can the proposal be?", "how many pages should the essay have?"
    r"^\W*how\s+(?:long|many|much|big|often|far|late|early)\s+(?:[a-z]+\s+)?"
    r"(?:can|could|should|must|may|will|would|is|are|was|were|does|do|did)\s+(?=the\s)",
    re.I,
)
# "Is the new flat okay for the dog?", "Has the release shipped yet?": whether something
# holds of a thing, the one its phrase's first word names ("new flat okay": flat).
WHETHER = re.compile(r"^\W*(?:is|are|was|were|will|does|do|did|has|have|had)\s+(?=the\s)", re.I)
AGAIN = re.compile(r"\bagain\W*$", re.I)
# The determiner `known_refs` gives a word the user pointed at in a past message ("the
# standup") that no entry outside past exchanges holds.
SPOKEN_OF = "the (spoken of)"
# A request about the user as a whole: a bio, an introduction, a CV, "tell them about me".
ABOUT_ME = re.compile(
    r"\b(?:bio|biography|about me|about myself|introduce me|introduce myself|introduction|"
    r"intro|my profile|who i am|describe me|cover letter|resume|résumé|cv|headline)\b",
    re.I,
)
# "How do I reverse a list", "how long should I boil an egg": the first person of a
# how-to question is anyone's, not a reference to the user's own life.
HOW_TO = re.compile(
    r"^\W*how\b(?:\s+\w+)?\s+(?:do|does|should|can|could|would|to|might)\s+(?:i|we|one|you)\b", re.I
)


def about_self(message: str) -> bool:
    """Whether the message speaks of the user in the first person (how-to questions aside)."""
    return bool(FIRST_PERSON.search(message)) and not HOW_TO.search(message)


def pointed_words(message: str, ignore: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(determiner, word) for the content words right after "my/our/the/that/this..."."""
    return [
        (m.group(1).lower(), low)
        for m in _POINTER.finditer(message)
        for low in _phrase(m)
        if len(low) >= 3
        and low not in COMMON_POSSESSIONS
        and low not in ignore
        and not (low in _NOW and m.group(1).lower() in ("this", "these"))
    ]


# "When is Thanksgiving this year?": the present, no thing the user pointed at.
_NOW = frozenset("year month season summer winter spring autumn fall century decade".split())


def _phrase(pointer: re.Match[str]) -> list[str]:
    """The words a pointer opens, up to the first that ends the phrase: "the school
    pickup" yes, "the team about joining", "the race I'm" no."""
    out = []
    for word in pointer.group(2).split():
        low = _pointer_word(word)
        if low in _STOP_POINTER or low in STOPWORDS or _CONTRACTION.search(low):
            break
        out.append(low)
    return out


def said_with_the(message: str) -> set[str]:
    """The words of a phrase "the" opens ("the standup"; "the kids' school": kids, school;
    "the wedding venue": wedding, venue)."""
    return {w for det, w in pointed_words(message) if det == "the"}


def asked_of(message: str) -> set[str]:
    """The head word of the thing a "when / where / what time is the ..." question asks
    about ("What time is the ceremony at the wedding?": ceremony; "When does the school
    year start?": year); the first of it a "whether" question says ("Is the new flat
    okay?": flat)."""
    m = PARTICULAR.match(message) or WHETHER.match(message)
    first = _POINTER.match(message, m.end()) if m else None
    words = _phrase(first) if first else []
    if m is not None and m.re is WHETHER:
        # The thing is the phrase's first word past "new"/"next"... and numbers: "the new
        # flat okay": flat, "the 2.0 release": release; "the stock market open" is no
        # question about the Saturday market.
        kept = [w for w in words if w not in COMMON_POSSESSIONS and not w[:1].isdigit()]
        return set(kept[:1])
    # "When are the cabinets arriving?": the verb after the thing is no part of it.
    if len(words) > 1 and words[-1] in _UNDER_WAY and _BE.search(m.group(0) if m else ""):
        words = words[:-1]
    return {words[-1]} if words else set()


_BE = re.compile(r"\b(?:is|are|was|were)\s*$", re.I)
# Verbs of a thing under way ("the meeting" and "the building" are things themselves).
_UNDER_WAY = frozenset(
    """arriving coming happening starting leaving finishing ending closing launching
    shipping getting going moving returning beginning landing departing""".split()
)


def _pointer_word(word: str) -> str:
    """A word after a pointer, as the brain check looks it up ("kids'" and "Mia's": kids, mia)."""
    return POSSESSIVE.sub("", word.lower().strip("'’-"))


_STOP_POINTER = frozenset(
    """a an and or but to of for from with about at in on by as is are was were be been
    that this which who what when where why how it its it's i you he she we they me him
    her us them my our your their if then than so not no the near into onto over under after
    before between through during without within around across behind beyond like via per
    up down out off again still""".split()
)


@dataclass(frozen=True)
class Match:
    """How well the brain's best entry for a message matches it."""

    known: float  # IDF-weighted share of the message's words the brain holds, in that entry
    matched: int = 0  # how many of those words the entry holds
    whole: float = 0.0  # the same share over all the message's words, unknown ones included
    # The entry holds a word the message writes as a name ("the Dagster migration").
    named: bool = False
    # `whole` over the best preference the user stated ("I prefer small PRs").
    preference: float = 0.0


@dataclass(frozen=True)
class Verdict:
    judgment: Judgment
    reasons: tuple[str, ...]


def topic_terms(named: bool) -> int:
    """How many of the message's words one entry must hold to be on its topic: one fewer
    when one of them is a word the message writes as a name ("When is the Dagster
    migration due?"), which the brain holds."""
    return TOPIC_TERMS - 1 if named else TOPIC_TERMS


def topic_coverage(named: bool) -> float:
    """How much of the message (all its words) one entry must cover to be on its topic:
    less when the entry holds a name the message uses, as a name is a surer sign than
    common words."""
    return NAMED_TOPIC_COVERAGE if named else TOPIC_COVERAGE


def word_count(message: str) -> int:
    return len(message.split())


def judge_locally(
    message: str,
    mentions: list[Mention],
    match: Match | None,
    known_refs: list[tuple[str, str]] | None = None,
    knows_user: bool = False,
) -> Verdict:
    """Decide from the message's wording, the entities it names and how well the brain matches.

    An exact name is enough to enrich; a loose one (a lower-case name, a few words of a
    longer name) needs a second sign. `match` is how well the best entry covers the
    message (None if not looked up): it lets a message with one weak cue through only when
    the brain has something specific for it, and a close match counts only over all of the
    message's words, the ones the brain never saw included. `known_refs` are the
    (determiner, word) pairs of `pointed_words` that the brain holds: "my landlord" when
    the brain has heard of a landlord is the user's own context, whatever else is said.
    """
    for pattern in STEP_BACK:
        if m := pattern.search(message):
            said = " ".join(m.group(0).split())[:60]
            return Verdict(
                Judgment.STEP_BACK, (f'the user asks to work with their brain directly ("{said}")',)
            )
    reasons = []
    score = 0.0
    best_coverage = match.known if match is not None else None
    whole = match.whole if match is not None else 0.0
    close = whole >= CLOSE_COVERAGE
    exact = [m for m in mentions if m.strength == "exact"]
    loose = {m.name for m in mentions if m.strength != "exact"}
    # A word past exchanges write as a name (measured there, see names.history_names) is
    # someone the user talked about, as sure a sign as an entity's name.
    if exact or any(m.strength == "history" for m in mentions):
        score += 2
    elif loose:
        score += min(len(loose), 2)
    for kind, strengths in (
        ("it names what the brain knows", {"exact"}),
        ("it loosely names what the brain knows", {"loose"}),
        ("it names someone from past conversations", {"history"}),
    ):
        names = sorted({m.name for m in mentions if m.strength in strengths})
        if names:
            reasons.append(f"{kind}: " + ", ".join(names[:3]))
    # "my resume", "my first time": a possessive refers back only to a thing the brain
    # knows (a pointed-at word the brain check found); without a check, it still counts.
    held = None if known_refs is None else {w for _, w in known_refs}
    cues = [
        m.group(0)
        for p in REFERENCE_CUES
        if (m := p.search(message))
        and (p is not POSSESSIVE_CUE or held is None or _possessed(message) & held)
    ]
    if cues:
        score += min(len(cues), 2)
        reasons.append("it refers to earlier context (" + "; ".join(c[:30] for c in cues[:3]) + ")")
    # "Which database did we pick for analytics?": a choice the user made, on something
    # the brain holds.
    settled = CHOICE.search(message) and (
        best_coverage is not None and best_coverage >= STRONG_COVERAGE and not known_refs
    )
    if settled:
        score += 1
        reasons.append("it asks about a choice the user made, on something the brain holds")
    still_asked = False
    own = sorted({w for det, w in known_refs or () if det in OWN})
    pointed = sorted({w for det, w in known_refs or () if det not in OWN})
    # "the standup", "the book club": the user pointed at it the same way before.
    spoken = sorted({w for det, w in known_refs or () if det == SPOKEN_OF})
    if own:
        score += 1
        reasons.append(
            "it is about the user's own " + ", ".join(own[:3]) + ", which the brain knows"
        )
    elif pointed and RECALL.search(message):
        # "Remind me which day the birthday dinner is": what they ask to be reminded of
        # is their own business, as "my" makes it.
        score += 1
        reasons.append(
            "it asks to recall the user's own " + ", ".join(pointed[:3]) + ", which the brain knows"
        )
    elif pointed:
        score += 0.5
        reasons.append("it points at " + ", ".join(pointed[:3]) + ", which the brain knows")
        if spoken:
            score += 0.5
            reasons.append("the user spoke of the " + ", ".join(spoken[:3]) + " before")
            if still_asked := bool(QUESTION.search(message) and STILL.search(message)):
                score += 1
                reasons.append("and asks what holds for it now")
            elif still_asked := bool(AGAIN.search(message) or set(spoken) & asked_of(message)):
                score += 1
                reasons.append("and asks a particular of it")
            # "Help me plan my slides for the offsite talk": their own plans around it
            # ("what should I pack for the beach" is anyone's question).
            if POSSESSIVE_CUE.search(message):
                score += 1
                reasons.append("and speaks of it as their own business")
    about_user = knows_user and about_self(message) and bool(ABOUT_ME.search(message))
    if about_user:
        score += 2
        reasons.append("it asks for something about the user, and the brain knows the user")
    asks = bool(QUESTION.search(message))
    if pointed and not own and close and asks:
        score += 0.5
        reasons.append("it asks about " + ", ".join(pointed[:3]))
    personal_question = bool(SPEAKER.search(message)) and not HOW_TO.search(message) and close
    if personal_question:
        score += 1
        reasons.append(
            "it is in the first person" + (" and asks a question" if asks else " (a statement)")
        )
    work_for = sorted(
        {w for m in WORK_FOR.finditer(message) if (w := _pointer_word(m.group(1))) in pointed}
    )
    if work_for and not own:
        score += 2
        reasons.append(f"it asks for a piece of work for the {work_for[0]}, whom the brain knows")
    # "What's the budget for the pilot?": every word of it in one entry, the thing pointed
    # at among them.
    whole_match = bool(pointed) and match is not None and match.matched >= 2 and whole >= 0.99
    if whole_match:
        score += 1
        reasons.append("every word of it is in one entry of the brain")
    liked = match is not None and match.preference >= WEAK_COVERAGE
    if liked:
        # As sure a sign as a name: the user said how they want this kind of thing done.
        score += 2
        reasons.append("it touches a preference the user stated")
    # A name past exchanges wrote makes a question the user's ("what's luisa's schedule"),
    # but not one anyone asks of a tool ("the best way to cache responses in Python" after
    # "we support Python 3.8").
    anyones = bool(ANYONES.search(message) or GENERIC[1].search(message) or HOW_TO.search(message))
    named = any(m.strength == "exact" or m.strength == "history" and not anyones for m in mentions)
    # "What's the total budget for the kitchen now?": what holds now for the user's own
    # kitchen is no general question.
    if any(p.search(message) for p in GENERIC) and not (
        named or about_user or liked or still_asked
    ):
        # "What is Gina's favourite dance?" is phrased like a general question, but about
        # someone from past conversations whom the brain has something on.
        # "Who is going to play at the party": the party the user spoke of before.
        personal = (
            bool(own)
            or bool(spoken)
            or whole_match
            or bool(work_for)
            or personal_question
            or any(m.strength == "history" for m in mentions)
            and (best_coverage is not None and best_coverage >= WEAK_COVERAGE)
        )
        score -= 0.5 if personal else 1.5
        reasons.append(
            "it reads as a general question" + (" about the user's own context" if personal else "")
        )
    if match is not None:
        if whole >= topic_coverage(match.named) and topic_terms(match.named) <= match.matched:
            # "Drivers still lose stops after syncing": no cue, but the message is about
            # what one entry of the brain is about, several of its own words at once.
            score += 1
            reasons.append(
                f"it is on a topic the brain knows ({match.matched} of its words in one entry)"
            )
        if close:
            score += 1
            reasons.append(f"a first look found an entry sharing {whole:.0%} of its words")
        elif match.known < WEAK_COVERAGE and not about_user:
            score -= 1
            reasons.append(
                f"a first look found nothing specific (at most {match.known:.0%} of its words"
                " in one entry)"
            )
        if (
            asks
            and whole >= 0.99
            and match.matched >= ASKED_TERMS
            and not anyones
            and _DEFINITE.search(message)
        ):
            # "When is the cardiology appointment?": no cue, but every word it asks about is
            # in one entry, and it asks of a particular one ("How much is a washing machine?"
            # and "Why did butter prices go up?" ask of any).
            score += 1
            reasons.append("every word it asks about is in one entry")
    judgment = Judgment.ENRICH if score >= 2 else Judgment.PASS_THROUGH
    if judgment is Judgment.PASS_THROUGH and score > 0:
        # The signs above are for enriching: say why they did not carry the message.
        reasons.append(
            ("that alone" if len(reasons) == 1 else "taken together, that")
            + " is not enough to load anything, so it passed through"
        )
    return Verdict(
        judgment, tuple(reasons) or ("ordinary conversation, nothing that needs the brain",)
    )


def _possessed(message: str) -> set[str]:
    """The words a "my"/"our" points at ("my morning drink order": morning, drink, order)."""
    return {m.group(1).lower() for m in POSSESSIVE_CUE.finditer(message)} | {
        w for det, w in pointed_words(message) if det in OWN
    }


def has_cues(message: str, mentions: list[Mention]) -> bool:
    """Whether the message names someone, speaks in the first person or refers back."""
    return (
        bool(mentions)
        or bool(FIRST_PERSON.search(message))
        or any(p.search(message) for p in REFERENCE_CUES)
    )


def needs_brain_check(message: str, mentions: list[Mention]) -> bool:
    """Whether a brain lookup could change the verdict (an exact name already decides)."""
    if any(m.strength == "exact" for m in mentions):
        return False
    # Any other message may be on one of the brain's topics; only the brain can say.
    return not any(p.search(message) for p in STEP_BACK)
