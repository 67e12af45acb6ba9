"""Turning a message into 1–3 short keyword queries, resolving vague references."""

from __future__ import annotations

import re

from brainbridge.bridge.names import Mention
from brainbridge.bridge.predicates import owned_roles
from brainbridge.words import POSSESSIVE, STOPWORDS

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
    working worked look looking looked try trying tried user assistant ai days nowadays
    currently lately recently""".split()
)


# What the user asks the agent to do, when it opens a sentence ("Book a reminder for our
# dog's vaccination", "Can you draft ..."): the task, not what the brain should look for.
INSTRUCTIONS = frozenset(
    """book draft write rewrite give make pick suggest recommend email compose prepare tell
    find show list summarize summarise explain translate outline brainstorm generate create
    edit add put schedule""".split()
)
# ...and what may come before it: "Can you please draft", "I need you to write".
_BEFORE_INSTRUCTION = frozenset(
    """can could would will you please pls kindly just also quickly help me i want need
    to let us go ahead and then now ok okay so hey hi""".split()
)
# An instruction is followed by what it acts on: "Book a", "Give me" ("Book club" is not).
_OBJECT = frozenset(
    """a an the me my our us it this that these those some something him her them your
    his their up out down two three four five few short quick new""".split()
)


# "Can I fit a dentist appointment into my Tuesday evening?", "am I free on Friday?", "do
# I have therapy on Monday?": whether the user's time on a weekday is taken.
_AVAILABILITY = re.compile(
    r"\b(?:can|could|should|shall)\s+(?:i|we)\s+(?:\w+\s+){0,2}?"
    r"(?:fit|schedule|book|squeeze|move|make it|plan|take|do|have|hold|host|meet)\b|"
    r"\b(?:am\s+i|are\s+we|will\s+i\s+be|would\s+i\s+be)\s+(?:free|available|busy|around|off)\b|"
    r"\bdo\s+(?:i|we)\s+have\b",
    re.I,
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = re.compile(r"\b(" + "|".join(WEEKDAYS) + r")s?\b", re.I)


def asked_days(message: str) -> list[str]:
    """The weekdays whose free time the message asks about, in the singular ("tuesday");
    [] unless it asks whether the user can fit, is free or has something then."""
    if not _AVAILABILITY.search(message):
        return []
    return list(dict.fromkeys(m.group(1).lower() for m in _WEEKDAY.finditer(message)))


# "Which database did we pick for analytics?": a choice the user made (the choice it
# names stays in the query).
CHOICE = re.compile(
    r"\b(?:which|what)\s+(?=(?:[\w'’-]+\s+){1,2}did\s+(?:we|i)\s+"
    r"(?:pick|choose|go with|settle on|decide on|opt for)\b)",
    re.I,
)
# Words about the conversation itself ("where we left off", "as we discussed"): they say
# the message refers back, never what it is about.
REFERENCE_PHRASES = [
    re.compile(
        r"\b(?:as (?:we|i) (?:discussed|said|mentioned|agreed|planned)|like (?:we|i) said|last (?:time|week|month|meeting|call)|earlier|yesterday|again|remind me|follow(?:ing)? up|catch (?:me )?up|where (?:are|were) we|where we left off|pick (?:up|it back up)|(?:continue|carry on|keep going) (?:with|on)|update (?:me )?on|status (?:of|on)|progress on|still on track)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:we|i)\s+(?:decided|agreed|landed|settled|discussed|talked about|promised|committed|told|said i(?:'d| would)|"
        # "which tiles we picked", "how did we end up fixing it": a choice made before.
        r"picked|chose|went (?:with|for)|opted for|end(?:ed)? up)\b",
        re.I,
    ),
    # "What did I say I would bring?", "when did we book it?", "did I tell you about": what
    # the user said or settled before ("how did we decide on the metric system?" and "did
    # we land on the moon?" are anyone's questions). Only these words leave the query.
    re.compile(
        r"(?:(?<=what )|(?<=when )|(?<=where )|(?<=who )|(?<=whom ))did\s+(?:we|i)\s+"
        r"(?:say|mention|tell|promise|agree|decide|settle|pick|choose|book|plan|offer)\b"
        r"|\bdid\s+i\s+(?:tell you|mention)\b"
        # "what did Hannah ask me to add?": what someone asked of the user (the name stays
        # in the query).
        r"|(?:(?<=what )|(?<=when )|(?<=where )|(?<=why ))did(?=\s+[\w'’-]+\s+"
        r"(?:ask|tell|want|remind|promise|invite|need|expect)\s+(?:me|us)\b)",
        re.I,
    ),
    CHOICE,
    # "Anything to watch out for on long runs, given my history?": answer it for this
    # user, from what they told before.
    re.compile(
        r"\b(?:given|considering|based on|in light of|with)\s+my\s+(?:history|background|"
        r"situation|circumstances|track record|past|record|condition|injur(?:y|ies))\b"
        r"|\bin my (?:case|situation)\b",
        re.I,
    ),
]


# Set phrases whose words say nothing of a topic: "How much was the roof in the end?" is
# not about the end of a lease.
IDIOMS = re.compile(
    r"\b(?:in the end|by the way|all in all|in the meantime|"
    r"for the time being|at the moment|in the first place|at least|at most|in general)\b",
    re.I,
)


def without_reference_phrases(message: str) -> str:
    """The message with its words about the conversation itself, and set phrases, taken
    out."""
    for pattern in (*REFERENCE_PHRASES, IDIOMS):
        message = pattern.sub(" ", message)
    return message


def keywords(text: str) -> list[str]:
    """Content words of `text` in order, proper nouns keeping their case; an instruction
    that opens a sentence is left out."""
    out: list[str] = []
    seen: set[str] = set()
    opening = True  # only "can you please" so far in this sentence
    found = list(_WORD.finditer(text))
    end = 0  # where the previous word ended: only the gap since is read, once
    for i, m in enumerate(found):
        if text[end : m.start()].rstrip()[-1:] in (".", "!", "?"):
            opening = True
        end = m.end()
        word = POSSESSIVE.sub("", m.group())
        low = word.lower()
        after = found[i + 1].group().lower() if i + 1 < len(found) else ""
        task = opening and low in INSTRUCTIONS and after in _OBJECT
        opening = opening and low in _BEFORE_INSTRUCTION
        if task or CONTRACTION.search(word):
            continue
        if len(low) < 2 or (low in STOPWORDS and word != "US") or low in FILLER or low in seen:
            continue  # ("the US" is a country: `query_terms`)
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
    # "Remind me which tiles we picked": the tiles, not the picking or the reminding.
    words = keywords(without_reference_phrases(message))
    # "Can I fit a dentist appointment into my Tuesday evening?": the weekday is what the
    # user's plans are found by, though a day is otherwise no word to search for.
    days = [d for d in asked_days(message) if d not in {w.lower() for w in words}]
    words = [*(f"{d}s" for d in days), *words]
    queries: list[str] = []
    named = list(dict.fromkeys(m.name for m in mentions))
    covered = {w.lower() for m in mentions for w in keywords(m.matched)}
    # "my mum" finds what the user said of their mother: a role's other words follow it.
    roles = owned_roles(message)
    topic = list(
        dict.fromkeys(
            t for w in words if w.lower() not in covered for t in (w, *roles.get(w.lower(), ())[:2])
        )
    )
    if len(named) > 1:
        # "When was Jon in Rome?": what the message asks holds both names, then the first
        # alone (a query per name found each name's most talked-of exchange first).
        both = " ".join(named[:2]).split()
        queries.append(" ".join([*both, *topic[: max(MAX_TERMS - len(both), 0)]]))
        named = named[:1]
    for name in named:
        queries.append(" ".join([name, *topic[: MAX_TERMS - len(name.split())]]))
    if not named and topic:
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
