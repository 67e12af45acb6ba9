"""The local fact extractor: conservative patterns for durable facts worth keeping."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date

from brainbridge.bridge.profile import (
    CALENDAR_NAMES,
    NOT_SOMEONE,
    ROLES,
    people,
    user_facts,
)
from brainbridge.when import DATE, DAY, resolve
from brainbridge.words import (
    COUNTS,
    FULL_STOP,
    LOWER,
    POSSESSIVE,
    PROMISE_ADVERB,
    SECOND_TASK,
    TASK_VERB,
    UPPER,
    with_article,
)

_NAME = (
    rf"([{UPPER}][{LOWER}{UPPER}'\-]+(?:\s+(?:[{UPPER}][{LOWER}{UPPER}'\-]+|de|van|von|da)){{0,3}})"
)
_ORG = rf"([{UPPER}][\w&.\-]*(?:\s+[{UPPER}][\w&.\-]*){{0,5}})"
# ..."apply for the travel fund, deadline 1 December": a deadline said after the task.
_DUE = rf"(?:by|before|until|on|due|(?<=,\s)deadline(?:\s+is)?:?)\s+(?P<due>{DAY})"
# Where a decision or a preference ends: a sentence's end, not the dot of "Python 3.8".
_END = r"(?:[.!?](?=\s|$)|\n|$)"

_PROMISE = (
    rf"(?:\b(?:i|we){PROMISE_ADVERB}(?:'ll| will| need to| have to| must| promised to| am going to|"
    r"'m going to| are going to|'re going to| should| plan to| committed to|"
    # "I promised Priya (that) I would send ...", "I told Kevin I'd ..."
    rf" (?:promised|told|assured) (?P<to>(?-i:[{UPPER}])\w+) (?:that )?(?:i|we)(?:'d| would|'ll| will))|"
    # A note to self with no "I": "Also need to renew my passport before April 30."
    r"(?:^|(?<=[.!?;]\s)|(?<=\n))(?:also\s+|still\s+|and\s+|so\s+)?"
    rf"(?:need to|have to|gotta)(?=\s+{TASK_VERB}\b))"
)
COMMITMENT = re.compile(_PROMISE + r"\s+(?P<action>.{6,120}?)\s+" + _DUE, re.I)
# "I promised Owen I'd cover the December 24 night shift": the task names its own day.
# A task verb first, and the day within its clause ("I need to call Mom, her birthday was
# December 3" is no task due then).
DATED_TASK = re.compile(
    _PROMISE
    + rf"\s+(?P<action>{TASK_VERB}\b[^.!?\n,;]{{0,100}}?\b(?P<due>{DATE})\b[^.!?\n,;]{{0,60}}?)"
    r"(?=[.!?\n,;]|$)",
    re.I,
)
# "I promised Priya the budget draft by Friday": a thing promised, no verb.
# ...or "my manager Raj Mehta", "my manager": whom by their role, and their name if said.
# (A day or an acronym is no one's name: "my boss Monday the deck", "my accountant HMRC".)
_WHOM_NAME = rf"(?!(?:{CALENDAR_NAMES}|Today|Tomorrow)\b)(?-i:[{UPPER}][{LOWER}])\w*"
_WHOM = (
    rf"(?P<to>(?:my|our) (?:new )?(?-i:[a-z]+)(?: {_WHOM_NAME}(?: {_WHOM_NAME})?)?|"
    rf"(?-i:[{UPPER}])\w+(?: {_WHOM_NAME})?)"
)
PROMISED_THING = re.compile(
    rf"\b(?:i|we) promised {_WHOM} (?P<thing>(?:the|a|an|my|our|some) .{{3,80}}?)\s+" + _DUE,
    re.I,
)
# "Daniel wants the first tin concept by November 20", "Lucia wants twelve illustrations,
# due November 14": work someone expects of the user, by a day.
WANTED = re.compile(
    # ("Jump Zone wants the deposit by Friday": a name of two or three words.)
    rf"(?-i:(?<![{UPPER}][{LOWER}] )(?<![{UPPER}][{LOWER}]{{2}} )(?<![{UPPER}][{LOWER}]{{3}} )"
    rf"(?<![{UPPER}][{LOWER}]{{4}} )(?<![{UPPER}][{LOWER}]{{5}} )(?<![{UPPER}][{LOWER}]{{6}} ))"
    rf"\b(?!(?:I|We|He|She|They|It|You|Everyone|Nobody)\b)"
    rf"(?P<to>(?-i:[{UPPER}])[{LOWER}]+(?:\s+(?-i:[{UPPER}])[{LOWER}]+){{0,2}})\s+"
    r"(?:wants|needs|expects|asked for|is waiting for)\s+"
    rf"(?P<thing>(?:the|a|an|my|our|some|{COUNTS})\s.{{3,80}}?),?\s+" + _DUE,
    re.I,
)
# Work of the user's own that falls due ("the invoice is due" is owed to them, or by them:
# money is left out).
_DUE_WORK = (
    r"report|deck|slides|presentation|proposal|review|spec|roadmap|plan|draft|estimate|"
    r"timesheet|brief|memo|thesis|essay|assignment|homework|paper|application|abstract|"
    r"chapter|submission|deliverable|tax return|renewal|form|portfolio|manuscript|contract|"
    r"translation"
)
# "The proposal is due on December 11", "my tax return is due by the 31st": a piece of the
# user's work with its deadline.
DUE_WORK = re.compile(
    rf"\b(?:my|our|the)\s+(?P<thing>(?:[\w'’\-]+\s+){{0,3}}?(?:{_DUE_WORK})s?)"
    # "the grant report for the Wellcome funder is due ...": whom it is for, left out
    # ("the report on the river survey", "the plan for the new bypass" are nobody's work).
    rf"(?P<for>\s+for\s+(?:(?:my|our)\s+[\w'’\-]+|(?:the\s+)?(?-i:[A-Z])[\w'’\-]*)"
    rf"(?:\s+[\w'’\-]+){{0,2}}?)?\s+(?:is|are)\s+"
    rf"(?:now\s+|still\s+)?due\s+(?:on\s+|by\s+)?(?P<due>{DAY})(?![\w])",
    re.I,
)
# "My cat Biscuit has her annual check-up on December 3", "I have a job interview next
# Tuesday": something the user (or one of theirs) has to be at, on a day.
_EVENTS = (
    r"appointment|check-?up|cleaning|interview|exam|surgery|operation|consultation|hearing|"
    r"lesson|recital|play|concert|game|match|tournament|viva|defen[cs]e|vaccination|jab|scan|"
    r"recital|performance|ceremony|graduation|audition|blood test|mammogram|x-?ray|mri|"
    r"ultrasound|physio session|"
    # "a follow-up with Dr. Aziz", not "a follow-up on the Jira ticket".
    r"follow-?up(?!\s+on\s+(?:the|my|our|this|that|a|an|it)\b)"
)
_CALENDAR = rf"{CALENDAR_NAMES}|Today|Tomorrow|Tonight"
_NOT_BEFORE_EVENT = (
    r"about|the|a|an|of|for|with|at|in|on|to|that|this|question|questions|feeling|chance|"
    r"idea|plan|plans|problem|doubt|doubts|worry|fear"
)
APPOINTMENT = re.compile(
    # "I", "we", one of the user's own ("my cat Biscuit", "our son"), or someone a
    # sentence starts with ("Leo has a dentist appointment on December 2"; "so Caroline has
    # an interview" in the middle of someone's story is not the user's to keep).
    rf"(?<!\b(?i:if) )(?<!\b(?i:unless) )(?<!\b(?i:whether) )(?<!\b(?i:case) )(?<!\b(?i:maybe) )"
    rf"(?:\b(?i:i|we)|\b(?i:my|our)\s+(?:(?i:[a-z'’\-]+)\s+){{0,2}}?(?:{_NAME}|(?P<role>(?i:{ROLES})))|"
    rf"(?:^|(?<=[.!?]\s))(?!(?:It|He|She|They|This|That|There|Everyone|Everybody|Nobody|"
    rf"Someone|Each|Every|Who|What|{_CALENDAR})\b)(?P<who>[{UPPER}][{LOWER}]+))"
    r"\s+(?i:have|has|have got|has got|['’]ve got|['’]s got)\s+"
    r"(?i:a|an|my|her|his|their|our|the)\s+"
    # "a dentist appointment", "her annual check-up"; not "a question about the exam", nor
    # "a game plan" (the event word naming another thing).
    rf"(?P<thing>(?i:(?:(?!(?:{_NOT_BEFORE_EVENT})\b)[\w'’\-]+\s+){{0,3}}?(?:{_EVENTS}))"
    rf"(?:\s+with\s+(?:(?i:dr|mr|mrs|ms|prof)\.?\s+)?[{UPPER}][\w'’\-]+)?)\b"
    r"(?=\s*(?:[,;:]|\s(?:(?i:on|at|with|for|this|next|tomorrow|today|tonight|in|from|the)\b|"
    r"[A-Z0-9])))"
    rf"(?:[^.!?\n]|(?!{FULL_STOP})\.){{0,50}}?\s"
    rf"(?:(?i:on|for)\s+)?(?P<due>(?i:{DAY}))",
)
# "I still owe Lens Rentals UK £95 by Friday", "we owe £300 to Dan for the van by the
# 12th": money the user has to pay, to whom, by a day.
_MONEY_OWED = r"(?:[£$€]\s?\d[\d,.]*k?|\d[\d,.]*k?\s*(?:pounds|quid|dollars|euros|bucks))"
_CREDITOR = rf"(?:(?:my|our|the)\s+(?-i:[a-z]+)|(?-i:[{UPPER}])[\w&'’\-]*(?:\s+(?-i:[{UPPER}])[\w&'’\-]*){{0,3}})"
_FOR_WHAT = r"(?:\s+for\s+[^.!?\n,;]{3,60}?)?"
OWED = (
    re.compile(
        rf"\b(?:i|we){PROMISE_ADVERB}\s+owe\s+(?P<to>{_CREDITOR})\s+"
        rf"(?P<thing>{_MONEY_OWED}{_FOR_WHAT}),?\s+" + _DUE,
        re.I,
    ),
    re.compile(
        rf"\b(?:i|we){PROMISE_ADVERB}\s+owe\s+(?P<thing>{_MONEY_OWED})\s+to\s+"
        rf"(?P<to>{_CREDITOR})(?P<what>{_FOR_WHAT}),?\s+" + _DUE,
        re.I,
    ),
)
_DUE_IN = re.compile(r"\s" + _DUE, re.I)
# "I'm going to stop baking on Mondays": every Monday is a habit, not a day a task is due.
_HABITUAL = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days", re.I)  # "Thurs" is one
# "still need to renew the register and order the new xray plates": an open task with no
# day ("still" says it is one; "I need to think about it" is none).
UNDATED_TASK = re.compile(
    rf"(?:\b(?:i|we)\s+|(?:^|(?<=[.!?;,]\s)|(?<=\n)))(?:also\s+)?still\s+"
    rf"(?:need to|have to|gotta|got to|must)\s+(?P<action>{TASK_VERB}\b[^.!?\n;]{{3,100}}?)"
    r"(?=\s*(?:[.!?\n;]|$|,\s*(?:but|so|because|as)\b))",
    re.I,
)
# ...and a second task said after it, with its own day (SECOND_TASK's "and" before it).
AND_TASK = re.compile(
    SECOND_TASK.pattern + rf"(?P<action>{TASK_VERB}\b[^.!?\n;]{{3,100}}?)\s+" + _DUE, re.I
)
# "remind me to call the plumber by Friday": the user's own to-do.
REMIND_TO = re.compile(r"\bremind me to\s+(?P<action>.{6,120}?)\s+" + _DUE, re.I)
# "send her the deck" after "I promised Dana": the pronoun is the person promised.
_OBJECT_PRONOUN = re.compile(r"\b(?:her|him|them|his|their)\b", re.I)
_POSSESSIVE = frozenset({"his", "their"})
DECISION = re.compile(
    r"(?:\b(?:we|i)(?:'ve| have)?\s+|"
    # ...or a note to self: "went with the cheaper quote in the end".
    r"(?:^|(?<=[.!?;]\s)|(?<=\n))(?:so\s+|finally\s+|in the end,?\s+)?)"
    r"(?:decided|agreed|chose|chosen|settled on|are going with|'re going with|will go with|"
    r"went with)\s+(?!to\s+disagree\b)(?:to\s+|on\s+)?(.{4,140}?)" + _END,
    re.I,
)
# "... in the end", "... after all": how it was decided, not what.
_DECIDED_TAIL = re.compile(r",?\s+(?:in the end|after all|in the end after all)$", re.I)
DECISION_LETS = re.compile(r"\blet'?s go with\s+(.{3,120}?)" + _END, re.I)
WORKS_AT = re.compile(
    _NAME
    + r"\s+(?:works|worked|is working)\s+(?:at|for)\s+"
    + _ORG
    + r"|"
    + _NAME
    + r"\s+(?:joined|is the (?:ceo|cto|cfo|founder|head|director|lead) of|runs|leads|founded)\s+"
    + _ORG
)
# "an open-source library called tidewater", "a small bakery in Ghent called Korrel": a
# project or an organisation of the user's world by its name, however they write it.
_KINDS = {
    "Project": """project library app tool package repo repository plugin product game podcast
        newsletter blog website site service bot framework extension""",
    "Organization": """company startup business bakery shop restaurant cafe café studio agency
        charity band club firm brand practice clinic school""",
}
_KIND_TYPE = {kind: etype for etype, kinds in _KINDS.items() for kind in kinds.split()}
CALLED = re.compile(
    r"\b(?i:a|an|my|our|the)\s+(?:[\w'’\-]+\s+){0,3}?"
    rf"(?P<kind>(?i:{'|'.join(sorted(_KIND_TYPE, key=len, reverse=True))}))"
    rf"(?:\s+(?i:in|at|from|on)\s+[{UPPER}][\w\-]*)?,?\s+(?i:called|named)\s+"
    rf"(?P<name>[\w][\w.\-]*?(?:\s+(?:&\s+)?[{UPPER}][\w.\-]*?){{0,5}})(?=[\s,;:!?)]|\.(?:\s|$)|$)"
)
PREFERENCE = re.compile(
    r"\bi\s+(?:really\s+)?(prefer|like|love|hate|dislike|don't like|do not like|always|never)\s+"
    r"(.{3,120}?)" + _END,
    re.I,
)
_THIRD_PERSON = {
    "prefer": "prefers",
    "like": "likes",
    "love": "loves",
    "hate": "hates",
    "dislike": "dislikes",
    "don't like": "doesn't like",
    "do not like": "does not like",
}
_FILLER_PREF = re.compile(r"^(?:it|that|this|you|the idea|to know|so|how|what|when)\b", re.I)
# "I always forget ...", "I never know ...": habits and mishaps, not how the user likes things.
_NOT_A_HABIT = re.compile(
    r"^(?:forget|forgot|lose|lost|miss|get|got|end up|seem|feel|think|thought|wonder|know|"
    r"mess|screw|fall|fail|run out|have to|need to)\b",
    re.I,
)


@dataclass(frozen=True)
class Fact:
    """An entity to upsert, with relations to other facts' entities (by type and name)."""

    type: str
    name: str
    description: str
    attributes: dict[str, object] = field(default_factory=dict)
    relations: tuple[tuple[str, str, str], ...] = ()  # (relation, target type, target name)


def _named(person: str, pronoun: re.Match[str]) -> str:
    """ "his" -> "Tariq's", "her"/"him"/"them" -> "Tariq" (the person promised)."""
    return f"{person}'s" if pronoun.group(0).lower() in _POSSESSIVE else person


def resolve_due(text: str, today: date) -> str | None:
    """A due phrase ("Friday", "next week", "March 3", "the 9th") as YYYY-MM-DD, or None.

    "next week" is due when that week starts; the days come from `when.resolve`.
    """
    day = resolve(text, today, end=False)
    return day.isoformat() if day else None


def _clip(text: str, n: int = 80) -> str:
    text = " ".join(text.strip(" ,;:-").split())
    return text if len(text) <= n else text[: n - 1].rsplit(" ", 1)[0] + "…"


def _commitment(
    name: str, said: str, m: re.Match[str], today: date, promised_to: str | None = None
) -> Fact:
    """An open commitment of the user's, due when the match's `due` phrase says."""
    due_text = m.group("due")
    due = resolve_due(due_text, today)
    attrs: dict[str, object] = {"owner": "user", "status": "open"}
    if due:
        attrs["due"] = due
    if promised_to:
        attrs["promised_to"] = promised_to
    by = "" if due_text in said else f" by {due_text}"  # a task that names its own day
    description = f"User {said}{by}" + (f" ({due})." if due else ".")
    return Fact("Commitment", name[:1].upper() + name[1:], description, attrs)


_SENTENCE_MARK = re.compile(r"[.!?\n]")


# News awaited, not work: "The decision on my application ... is due on Friday".
_NEWS = r"decision|results?|outcome|response|reply|answer|news|verdict|offer"
AWAITED = re.compile(rf"\b(?:{_NEWS})\s+(?:on|about|of|for|from)\b", re.I)
# ...said just before the work: "The response from the council on our funding application".
_AWAITED_BEFORE = re.compile(
    rf"\b(?:{_NEWS})\s+(?:[\w'’\-]+\s+){{0,4}}?(?:on|about|of|for|from)\s+$", re.I
)
# The user in the rest of what they said: "..., I need to finish it", "I've barely started".
_USER_TOO = re.compile(r"\b(?:I|me|we|us)\b|\b(?:I|we)['’]", re.I)


def _own_work(text: str, m: re.Match[str]) -> bool:
    """Whether the work due that `m` found is the user's: not news awaited; and, said with
    whom it is for ("the audit report for Ward 7 is due on Monday"), only when the user
    speaks of themselves too ("the grant report for the Wellcome funder is due on 30
    November, I need to finish it", "my abstract for the ISA conference"; not "..., the
    governance team are writing it up", "the deck for Acme is due Tuesday but that's Dev's
    job") and it is nobody else's ("the ethics committee's review for my project")."""
    if AWAITED.search(text, m.start(), m.end("thing")) or _AWAITED_BEFORE.search(
        text, max(0, m.start() - 60), m.start()
    ):
        return False
    if m.group("for") is None or re.match(r"(?:my|our)\b", m.group(), re.I):
        return True
    rest = text[: m.start()] + " " + text[m.end() :]
    return bool(_USER_TOO.search(rest)) and not re.search(r"['’]s\b", m.group("thing"))


def _asked(text: str, m: re.Match[str]) -> bool:
    """Whether the sentence holding match `m` is a question ("Do I have an exam on Friday?")."""
    end = _SENTENCE_MARK.search(text, m.end())
    return end is not None and end.group() == "?"


def extract_facts(message: str, response: str = "", today: date | None = None) -> list[Fact]:
    """Durable facts stated by the user: commitments, decisions, relationships, preferences.

    Only the user's message is mined: an assistant's suggestions are not the user's facts.
    """
    today = today or date.today()
    text = message[:20_000]
    facts: list[Fact] = []

    def dated(pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """The matches of `pattern` due on one day ("on Mondays" is every Monday)."""
        return [m for m in pattern.finditer(text) if not _HABITUAL.fullmatch(m.group("due"))]

    promises = dated(COMMITMENT)
    taken = {m.start() for m in promises}
    promises += [
        m
        for m in dated(DATED_TASK)
        if m.start() not in taken
        and not _asked(text, m)
        and (resolve_due(m.group("due"), today) or "") >= today.isoformat()
    ]
    # "call the bank by Friday, and pay Jo back by Monday": a second task with its own day.
    promises += [
        n
        for m in list(promises)
        if (n := AND_TASK.match(text, m.end())) and not _HABITUAL.fullmatch(n.group("due"))
    ]
    for m in promises:
        to = m.groupdict().get("to")
        # "book a van for the 12th and tell the landlord our date": two tasks, kept apart.
        for action in map(_clip, SECOND_TASK.split(m.group("action"))):
            if to:
                name = _OBJECT_PRONOUN.sub(functools.partial(_named, to), action, count=1)
                facts.append(_commitment(name, f"promised {to} to {action}", m, today, to))
            else:
                facts.append(_commitment(action, f"committed to {action}", m, today))
    for m in dated(PROMISED_THING):
        thing, to = _clip(m.group("thing")), m.group("to")
        # "my manager Raj Mehta": promised to Raj Mehta.
        whom = re.sub(r"^(?:my|our) (?:new )?[a-z]+ (?=[A-Z])", "", to)
        facts.append(_commitment(f"{thing} for {to}", f"promised {to} {thing}", m, today, whom))
    for m in dated(WANTED):
        # "Jump Zone wants ...": a firm's whole name; "Btw Jen wants ...": Jen.
        to = m.group("to") if NOT_SOMEONE.search(m.group("to")) else m.group("to").split()[-1]
        thing = _clip(m.group("thing"))
        facts.append(_commitment(f"{thing} for {to}", f"owes {to} {thing}", m, today, to))
    for m in (m for m in dated(DUE_WORK) if not _asked(text, m) and _own_work(text, m)):
        # ..."for Keller Maschinenbau" kept: whose translation, of the user's three.
        thing = _clip(m.group("thing") + (m.group("for") or ""))
        facts.append(_commitment(thing, f"has the {thing} due", m, today))
    for m in (m for m in dated(APPOINTMENT) if not _asked(text, m)):
        role = m.group("role")
        who = m.group(1) or m.group("who") or (f"my {role.lower()}" if role else None)
        thing = _clip(m.group("thing"))
        name = f"{POSSESSIVE.sub('', who)}'s {thing}" if who else thing
        said = f"has {name if who else with_article(thing)}, {m.group('due')}"
        event = _commitment(name, said, m, today)
        event.attributes["kind"] = "appointment"
        facts.append(event)
    for m in (m for pattern in OWED for m in dated(pattern) if not _asked(text, m)):
        to, thing = m.group("to"), _clip(m.group("thing") + (m.groupdict().get("what") or ""))
        whom = re.sub(r"^(?:my|our|the) ", "", to) if to[:1].islower() else to
        amount = re.sub(r"\s+for\s.*$", "", thing)
        facts.append(_commitment(f"pay {to} {amount}", f"owes {to} {thing}", m, today, whom))
    for m in UNDATED_TASK.finditer(text):
        if _asked(text, m) or _DUE_IN.search(m.group("action")):
            continue  # a task with its day is kept above
        for action in map(_clip, SECOND_TASK.split(m.group("action"))):
            facts.append(
                Fact(
                    "Commitment",
                    action[:1].upper() + action[1:],
                    f"User still has to {action}.",
                    {"owner": "user", "status": "open"},
                )
            )
    for m in dated(REMIND_TO):
        action = _clip(m.group("action"))
        facts.append(_commitment(action, f"asked to be reminded to {action}", m, today))
    for pattern in (DECISION, DECISION_LETS):
        for m in pattern.finditer(text):
            what = _DECIDED_TAIL.sub("", _clip(m.group(1), 100))
            if len(what.split()) >= 2:
                facts.append(
                    Fact(
                        "Decision",
                        what[:1].upper() + what[1:],
                        f"Decided: {what}.",
                        {"decided_on": today.isoformat()},
                    )
                )
    for pf in user_facts(text):
        facts.append(
            Fact(
                "Fact",
                f"{pf.subject}'s {pf.predicate}: {pf.value}"[:200],
                pf.sentence,
                {"subject": pf.subject, "predicate": pf.predicate, "value": pf.value},
            )
        )
    for known in people(text):
        said_of: dict[str, object] = {"role": known.role} if known.role else {}
        if known.aliases:
            said_of["aliases"] = list(known.aliases)
        if known.left:
            said_of["left_role"] = known.left
        # "Mia's pediatrician": linked to Mia ("pediatrician_of"), when the brain knows her.
        of: tuple[tuple[str, str, str], ...] = ()
        if known.of:
            owner, role = known.of
            of = ((role.replace(" ", "_") + "_of", "Person", owner),)
        facts.append(Fact("Person", known.name, known.description, said_of, of))
    for m in WORKS_AT.finditer(text):
        person = m.group(1) or m.group(3)
        org = _clip(m.group(2) or m.group(4), 60).rstrip(".")
        facts.append(Fact("Organization", org, f"Organization {person} is part of."))
        facts.append(
            Fact(
                "Person",
                person,
                f"Works with {org}.",
                {"organization": org},
                (("affiliated_with", "Organization", org),),
            )
        )
    for m in CALLED.finditer(text):
        # What it is, as said ("a small bakery in Ghent"): the sentence is the exchange's.
        kind, name = m.group("kind").lower(), m.group("name")
        what = re.sub(r",?\s+(?:called|named)\s.*$", "", m.group(0), flags=re.I | re.S)
        facts.append(
            Fact(_KIND_TYPE[kind], name, f"{what[:1].upper()}{what[1:]} the user spoke of.")
        )
    for m in PREFERENCE.finditer(text):
        verb, what = m.group(1).lower(), _clip(m.group(2), 90)
        if _FILLER_PREF.match(what) or len(what.split()) < 2 and verb in {"like", "love"}:
            continue
        if verb in {"always", "never"} and _NOT_A_HABIT.match(what):
            continue
        said = _THIRD_PERSON.get(verb, verb)
        facts.append(
            Fact(
                "Preference", f"{verb} {what}"[:100], f"The user {said} {what}.", {"holder": "user"}
            )
        )
    unique: dict[tuple[str, str], Fact] = {}
    for f in facts:
        unique.setdefault((f.type, f.name.lower()), f)
    return list(unique.values())
