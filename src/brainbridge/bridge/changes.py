"""Facts that change: a new statement retires the earlier ones it contradicts or completes.

"We moved the standup from Zoom to Google Meet" makes "our standup is on Zoom" a past
fact; "sent the report to Marta today" completes "I'll send the report to Marta by
Friday". Locally this is judged by cue words and shared topic words, with no LLM:

- a *change* cue ("moved", "switched", "now", "no longer", "instead", "extended to",
  "is back on", "my new manager is" ...) retires earlier exchanges and facts that share
  two topic words with the new statement, or one name-like word ("Falcon", "Civic");
- a *completion* cue ("sent", "finished", "done with" ...) completes earlier promises
  ("I'll ...", "I need to ...") on the same topic, and the open commitments drawn from them.

Retired things are kept, never deleted: they get `valid_to` (the day the new statement was
made) and `superseded_by` (the exchange that said so), and the block marks them.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from datetime import date

from brainbridge.bridge.facts import AWAITED
from brainbridge.bridge.queries import FILLER, keywords
from brainbridge.bridge.rank import answer_kind, asks_time
from brainbridge.errors import NotFound
from brainbridge.model import CHAT_EXCHANGE, USER_MESSAGE_CHARS, Entity
from brainbridge.ports import Store
from brainbridge.search.relevance import stem
from brainbridge.when import DAY, MONTH, TIME, resolve
from brainbridge.words import (
    CALENDAR_WORDS,
    FULL_STOP,
    PROMISE_ADVERB,
    SECOND_TASK,
    SENTENCE_END,
    STOPWORDS,
    query_terms,
)

# Verbs of change and of ending, in every inflection ("raise", "raised", "raising").
_CHANGE_VERBS = """move shift switch change relocate transfer migrate replace upgrade downgrade
    reschedule postpone extend raise lower increase decrease reduce bump promote demote stop
    quit leave cancel drop sell end swap rename reassign"""
# Forms _inflected cannot make: past ones, and "scrap"'s ("scraped" is "scrape"'s), which
# are cues only, not verbs read for their object (`_CHANGED`).
_IRREGULAR = "left sold quit cut upped scrap scraps scrapped scrapping"
# A completion is told in the past ("sent", "paid"): "I'm sending it", "Book a table" and
# "our book club" complete nothing.
_DONE = """sent finished completed submitted delivered handed paid signed wrapped filed booked
    returned shipped posted settled ordered bought purchased renewed registered invoiced
    billed reviewed emailed fixed merged published uploaded reordered rebooked resubmitted
    scheduled arranged called rang phoned texted messaged contacted collected printed
    repaired solved resolved"""
_DONE_WORDS = "|".join(_DONE.split())
# Irregular past forms of those, to their verb ("sent" the report one said they'd "send").
_DONE_BASE = {"sent": "send", "paid": "pay", "bought": "buy", "chose": "choose", "rang": "call"}
# "called the bank", "rang the GP": a call made by the user ("a plumber called Stuart",
# "the phone rang", "Sarah called the bank" are none of theirs).
_CALLED = frozenset("called rang phoned texted messaged contacted".split())
_CALL_VERBS = frozenset({"call", "phone", "ring", "text", "messag", "contact", "rang"})
# A change the user made ("cancelled the gym", "I finally cancelled it"), not one that
# befell something ("my flight got cancelled", "the Home Office extended the time").
_BY_USER = re.compile(
    r"(?:(?:^|[.;!?:,]\s*)|\b(?:i|we)(?:['’]ve|\s+have|\s+had)?\s+)"
    r"(?:(?:ok(?:ay)?|so|well|and|then|just|finally|already|also|today|\w+ly|"
    r"went ahead and)\s+)*$",
    re.I,
)
# ..."Gym membership cancelled!": a note of one's own, with nothing after the verb; not
# "my flight got cancelled", "the show was cancelled".
_PASSIVE = re.compile(r"\b(?:got|get|gets|getting|was|were|been|being|is|are|be)\s+$", re.I)
_ENDS_CLAUSE = re.compile(r"\s*(?:[.!?,;]|$)")
_UNANSWERED = re.compile(
    r"\b(?:no answer|no reply|no response|nobody (?:picked up|answered)|no one (?:picked up|"
    r"answered)|(?:hasn|haven|didn|wasn)['’]?t (?:replied|answered|responded|picked up|got back)|"
    r"(?:i|we)(?:['’]ll| will) try again|try again (?:later|tomorrow)|left a voicemail|"
    r"went (?:straight )?to voicemail)",
    re.I,
)
# "Spoke to someone at the bank, called Janet": a name, not a call.
_NAMED = re.compile(r"\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s*(?:[,.;!?]|$)")
_CALLER = re.compile(
    r"(?:^|[.;!?:,]\s*|\b(?:i|we|and|then|so|finally|just|already|also|today|yesterday)\s+)$",
    re.I,
)


def _inflected(verbs: str, irregular: str = "") -> str:
    forms = set()
    for v in verbs.split():
        stem_ = v[:-1] if v.endswith("e") else v
        forms |= {v, v + "s", v + "es", stem_ + "ed", stem_ + "ing", v + "d"}
        if len(v) <= 4 and v[-1] not in "aeiouywx" and v[-2] in "aeiou":
            forms |= {v + v[-1] + "ed", v + v[-1] + "ing"}  # drop -> dropped, stop -> stopping
        elif v.endswith("l") and v[-2] in "aeiou" and v[-3] not in "aeiou":
            forms |= {v + "led", v + "ling"}  # cancel -> cancelled, as written in Britain
    return "|".join(sorted(forms | set(irregular.split()), key=len, reverse=True))


# A month as when, alone ("to march", "till early february"; "may" is a verb too).
_A_MONTH = rf"(?:early\s+|late\s+|mid-?\s*)?(?!may\b){MONTH}\b(?!\.?\s*\d)"
# Every form of a verb of change, for the cue and for the checks on a cue that is a verb.
_CHANGE_FORMS = _inflected(_CHANGE_VERBS, _IRREGULAR)
# ...the regular ones, which take an object ("moved the standup to"); "cut", "left" and
# "sold" do only with what it was cut to (`_CUT_TO`): "I cut the onions into pieces".
_CHANGED = _inflected(_CHANGE_VERBS)
CHANGE = re.compile(
    rf"\b(?:{_CHANGE_FORMS}|pushed back|pushed out|brought forward|gave up|"
    r"no longer|not anymore|any ?more|instead|from now on|is now|are now|"
    # "I withdrew from Contoso", "I turned down the offer": what was under way ended.
    # ("withdrew £200", "pulled out a splinter", "turned down the music" are none).
    r"(?:withdrew|withdrawn)\s+(?:my\s+\w+\s+)?from\s+(?!(?:the\s+)?(?:atm|bank|account|cash)\b)|"
    r"(?:pulled|dropped|backed)\s+out\s+(?:of|from)\s+(?!(?:the|a|my|our)\s+(?:parking|driveway|"
    r"garage|space|lane|road|car\s*park)\b)|"
    r"(?:turned\s+down|declined)\s+(?:the\s+|their\s+|an?\s+|his\s+|her\s+)?(?:[\w'’&-]+\s+){0,2}?"
    r"(?:offer|job|role|position|invitation|invite|proposal|contract|deal)|"
    r"turned\s+(?:the\s+)?(?:[\w'’&-]+\s+){0,2}?(?:offer|job|role|position|invitation|proposal)\s+down|"
    r"now (?:due|is|are|at|in|on|with)|back on|is off|called off|new (?:\w+ )?(?:is|will be)|"
    r"took over|turns out|actually|after all|"
    # "fitting delayed, Marek now says dec 19", "the launch slipped to March": put off, with
    # the day it is now ("I slipped on the ice" says none).
    rf"(?:delayed|slipped|slipping)\b(?=.*?\b(?:{DAY}|{_A_MONTH}))|"
    rf"now\s+(?:says|reckons|thinks|expects)\s+(?:it(?:['’]ll|\s+will)\s+be\s+)?"
    rf"(?:{DAY}|{_A_MONTH})|"
    # "pushed the start to March 10", "bumped the call to 3pm", "agreed to push the
    # deadline to February 1": pushed to a day or a time ("pushed the fix to main" is no
    # change of anything the user said).
    # ("pushing the tidepool beta to march": to a month, too)
    rf"(?:pushed|pushing|bumped|bumping)\s+(?:[\w'’&-]+\s+){{0,3}}?(?:back\s+)?(?:to|until|till)\s+"
    rf"(?:{DAY}|{TIME}|{_A_MONTH})|"
    rf"push\s+(?!(?:to|through|until|till)\b)(?:[\w'’&-]+\s+){{1,3}}?(?:to|until|till)\s+"
    rf"(?:{DAY}|{TIME}|{_A_MONTH})|"
    # "starting this week", "as of Monday", "effective today": a change with its start date.
    r"(?:starting|beginning|effective|as of)\s+(?:this|next|today|tomorrow|now|on|from|in|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|"
    r"may|june|july|august|september|october|november|december)|"
    # "We got CI down to 22 minutes", "the build went from 40 to 22 minutes": a number
    # that changed ("I went up to the roof" is none).
    # (in the past: "it gets up to 35 degrees" and "brings up to 2 kids" are limits).
    r"(?:got|brought|went|came)\s+(?:[\w'’&-]+\s+){0,3}?"
    r"(?:down|up)\s+to\s+(?:about\s+|around\s+|just\s+)?[£$€]?\d[\d.,]*(?:k|m|bn)?|"
    # "My HbA1c came back at 7.1, down from 7.8" ("3 doors down from 42" is a place).
    r"(?:,\s*|\b(?:is|was|are|were|now|it's|that's)\s+)(?:down|up)\s+from\s+"
    r"(?:about\s+|around\s+)?[£$€]?\d[\d.,]*(?:k|m|bn)?|"
    # ...with what it counts: "went from 2 to 4 today" may be a meeting's hours.
    r"(?:went|dropped|fell|rose|grew|jumped|climbed|came down|went up|went down)\s+from\s+"
    r"(?:about\s+|around\s+)?[£$€]?\d[\d.,]*\s*(?:[a-z%]+\s+)?to\s+(?:about\s+|around\s+)?"
    r"(?:[£$€]\d+|\d+[.,]\d+|\d+\s*(?:%|percent|k|minutes?|mins?|hours?|hrs?|days?|weeks?|"
    r"months?|years?|kg|kilos?|lbs?|pounds?|stone|euros?|dollars?|people|guests|users|"
    r"customers|students|mg|mcg|ml|words|pages|miles|km)(?![\w])|\d+(?!\s*\w))|"
    # "standup is on Thursdays now": a clause that ends on "now".
    r"now(?=\s*(?:[.!;,]|$)))\b",
    re.I,
)
# "Chose white zellige tiles" keeps "choose tiles" ("I chose to volunteer" tells a story).
COMPLETION = re.compile(rf"\b(?:{_DONE_WORDS}|done with|done|chose(?!\s+to\b))\b", re.I)
# "Sent it to Priya": what was done is what was just spoken of, whatever its name.
_DONE_IT = re.compile(
    rf"\b(?:{_DONE_WORDS})\s+(?:it|them|that|this|those|these)\b|\bdone with (?:it|that)\b",
    re.I,
)
# A whole message that tells a deed done of what was just said: "Sent it.", "Booked it
# this morning", "Done, paid him", "ok emailed them".
DONE_BY_PRONOUN = re.compile(
    r"\s*(?:(?:ok(?:ay)?|done|right|yep|yes|so|all done|just)[,.!]*\s+)*(?:i(?:['’]ve|\s+have)?\s+)?"
    rf"(?:just\s+|finally\s+|already\s+)?(?P<deed>{_DONE_WORDS})\s+(?:it|them|him|her|that)"
    r"(?:\s+(?:off|over|in|back|now|today|yesterday|earlier|already|to\s+(?:them|him|her|"
    r"[A-Z][\w'’\-]*)|this\s+(?:morning|"
    r"afternoon|evening)|last\s+night))*[\s.!]*$",
    re.I,
)
PROMISE = re.compile(
    rf"\b(?:i|we){PROMISE_ADVERB}(?:'ll| will| need to| have to| must| promised| am going to|"
    r"'m going to| are going to|'re going to| should| plan to|'d)\b|\bpromised\b|\bdue\b",
    re.I,
)
# Words of the cues themselves never make two statements about the same thing.
_CUE_WORDS = frozenset(
    """moved moving switched switching changed changing relocated transferred migrated
    replaced upgraded downgraded rescheduled postponed pushed extended raised lowered
    increased decreased reduced cut bumped promoted demoted stopped quit left cancelled
    canceled dropped sold ended gave longer anymore instead now back new took over replace
    after all replaces turns actually sent finished completed submitted delivered handed paid signed
    wrapped filed booked returned shipped posted ordered bought purchased renewed registered
    invoiced billed asked said told emailed texted agreed
    wants wanted big news good bad finally got get gets was were been has have had just push
    officially starting beginning effective shifted shifting swap swapped swapping till
    scrap scrapped scrapping scratch ignore""".split()
)
_NAME_LIKE = re.compile(r"\b[A-Z][\w&'’\-]*[A-Za-z0-9]")
# A date says when, not what: "the 30th", "in March", "on Thursdays" make no shared topic.
_DATE_WORD = re.compile(r"\d+(?:st|nd|rd|th)")


# "A lot has changed", "everything changed": said of nothing in particular.
_VAGUE = frozenset("lot lots everything something anything nothing stuff much mine ours".split())
# How often says no topic: "twice a day" is shared by two medicines, not one.
_HOW_OFTEN = frozenset("once twice thrice daily weekly monthly nightly hourly fortnightly".split())
# A title is part of a name: "Dr Shah upped the amlodipine" shares one word with "My GP is
# Dr Shah", not two.
_TITLES = frozenset("dr mr mrs prof sir dame".split())  # not "MS", the illness


def _no_topic(word: str) -> bool:
    low = word.lower()
    return (
        low in _CUE_WORDS
        or low in _VAGUE
        or low in _HOW_OFTEN
        or low in _TITLES
        or low in FILLER
        or low.endswith("s")
        and low[:-1] in FILLER  # "weeks" as "week"
        or low in CALENDAR_WORDS
        or _DATE_WORD.fullmatch(low) is not None
    )


# Earlier statements looked at for one change: BM25's best over past exchanges and facts.
CANDIDATES = 12
MIN_SHARED = 2
# One statement replaces one earlier statement, or a few: the most recent ones.
MAX_RETIRED = 3
QUERY_TERMS = 3
# A statement retires past exchanges, and the facts learned from them go with them
# (`_with_facts`): searching the exchange index alone halves the cost of a change.
LEARNED_TYPES = (CHAT_EXCHANGE,)


# A change told of what was just said, by a pronoun: "Actually it moved to the Hotel
# Avenida", "it's pushed to Friday", "they rescheduled it to 3pm". No topic word is shared;
# the statement right before it in the same conversation is what changed.
BACK_CHANGE = re.compile(
    r"\b(?:it|that|this|they)(?:['’]s|\s+is|\s+was|\s+got|\s+has\s+been|\s+have\s+been|"
    r"\s+are|\s+were)?\s+(?:now\s+)?(?:been\s+)?(?:moved|pushed|postponed|rescheduled|changed|"
    r"switched|shifted|delayed|bumped|cancell?ed|called\s+off)"
    # ...to somewhere or some time, or nowhere: "that changed my life" changed no plan.
    r"(?=\s+(?:to|from|back|until|till|forward|off|again|out|later|earlier|by)\b|\s*(?:[.!,;]|$))"
    r"|\b(?:moved|pushed|postponed|rescheduled|changed|shifted|bumped)\s+(?:it|that|this|them)\s+"
    r"(?:to|back|until|forward|off)\b"
    r"|\b(?:it|that)(?:['’]s|\s+is)\s+now\s+(?:on|at|in|due)\b"
    # A correction of what was just said: "Sorry, I meant Wednesday, not Tuesday."
    r"|^\W*(?:sorry\W+|oops\W+|wait\W+|ok(?:ay)?\W+|actually\W+|no\W+|so\W+)*(?:i\s+meant|"
    r"correction\b|my\s+mistake|my\s+bad|"
    r"(?:scrap|scratch|ignore)\s+that\s*(?:[,.;:!—–-]|$)"
    # "actually make that £625", "no wait, make it Thursday" (not "make it 20% shorter")
    r"|make\s+(?:it|that)\s+(?:[£$€]?\d[\d.,:]*\s*(?:k|am|pm|/day|/hr|an hour|a day|a night)?|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|noon|midday)\s*(?:[,.;:!—–-]|instead\b|then\b|$))",
    re.I,
)
# ...but code and files move too: "it's pushed to main", "I moved it to the shared drive".
_NOT_A_PLAN = re.compile(
    r"\b(?:main|master|origin|branch|repo|repository|prod|production|staging|github|gitlab|"
    r"remote|server|registry|cluster|folder|directory|drive|bucket|commit|pr)\b",
    re.I,
)


@dataclass(frozen=True)
class Retired:
    entity: Entity
    why: str  # "changed" | "completed" | "ended"
    # What of an exchange the statement changed, when the exchange says more ("ceremony at
    # 4pm" of "The venue is Quinta da Regaleira, ceremony at 4pm"); "" for all of it.
    part: str = ""


# Clauses of a statement: "The venue is Quinta da Regaleira, ceremony at 4pm.", "Dinner is
# at 7 and I'm bringing wine"; not "tuesdays and thursdays" or "Dr. Ahmed".
_CLAUSE_END = re.compile(
    rf"(?<={FULL_STOP}|[!?;,:])\s+"
    r"|\s+(?:and|but|so)\s+(?=(?:i|i'm|i've|i'll|we|we're|we've|he|she|they|it|it's|my|our|"
    r"his|her|their|the)\b)",
    re.I,
)


@dataclass(frozen=True)
class Reading:
    """How a change reads an earlier statement for the part it replaces: a change of when
    or of an amount, a deed done, shared by a name alone, or naming whose it is."""

    of_when: bool = False
    done: bool = False
    of_amount: bool = False
    by_name: bool = False
    named: frozenset[str] = frozenset()
    when_alone: bool = False  # a change of nothing but when
    said: frozenset[str] = frozenset()  # the change's own words


def changed_part(text: str, words: set[str], how: Reading = Reading()) -> str:
    """The clauses of `text` that speak of `words` (a change's topic), when others speak
    of something else; "" when the change touches all of it. A change of when
    (`of_when`) replaces the clause that says when: of those, the one that speaks of
    `words`, or else the one right after them ("Baker & Sons quoted 14k and they can start
    on March 3", then "Baker & Sons pushed the start to March 10": the start)."""
    split = _CLAUSE_END.split(text)
    if PROMISE.search(text) or _TASK.search(text):  # "need to book a van and tell ...": two
        split = [task for c in split for task in SECOND_TASK.split(c)]
    clauses = [c.strip(" ,;:") for c in split if c.strip(" ,;:")]
    about = [topic(c) for c in clauses]
    changed = [c for c, t in zip(clauses, about, strict=True) if t & words]
    # ...or, where the change names whose it is (`named`), the clause that speaks of most of
    # those and the change's words, if one does ("Harper & Cole: Dan's gone ..., my new
    # contact is Rachel Green": "Harper & Cole I deal with ... Dan Whitfield", not "Lumen's
    # contact is Mia Torres").
    moved = False
    if how.named:
        held = [len(t & (words | how.named)) for t in about]
        top = max(held, default=0)
        best = [c for c, n in zip(clauses, held, strict=True) if n == top]
        if top >= 2 and len(best) == 1 and best != changed:
            changed, moved = best, True
    said_when = [c for c in changed if _SAYS_WHEN.search(c)]
    # "hackathon is on nov 6 at the leeds office, judges are me and priya", then "hackathon
    # moved to nov 13": its day changed, not who judges it; but "the party is at the
    # trampoline park" changed with "moved to sunday at the soft play, the trampoline park
    # flooded", which speaks of more of it than what moved.
    kept_when = [
        c
        for c, t in zip(clauses, about, strict=True)
        if c in changed and (_says_a_day(c) or (t & how.said - words and not _NAMED_AS.search(c)))
    ]
    if how.when_alone and any(map(_says_a_day, kept_when)) and kept_when != changed:
        changed, moved = kept_when, True
    if how.of_when and changed and not said_when:
        after = [
            clauses[i + 1]
            for i, t in enumerate(about[:-1])
            if t & words and not about[i + 1] & words and _SAYS_WHEN.search(clauses[i + 1])
        ]
        # ...or, where only a name is shared, the one clause that says when at all ("The
        # roofer, a chap called Stan Whitby, came round ... can start on the 19th of July",
        # then "Stan can't start till the 26th now": the start, not the chap).
        # ("the landscaper is called owen", then "owen's moved to april": the booking, not
        # what he is called, written in lower case.)
        timed = [c for c in clauses if _SAYS_WHEN.search(c)]
        by_name = how.by_name or all(_NAMED_AS.search(c) for c in changed)
        changed = after or (timed if by_name and len(timed) == 1 else changed)
    if how.of_amount and changed:
        # "we had to raise the adult entry to £18": of "entry is £15 adults", not of "he
        # handles the entry fees"; "Harrow went up to 165k": the one clause that says an
        # amount ("140k"), and a clause of when that changed before stays marked.
        said = [c for c in changed if _SAYS_AMOUNT.search(c)]
        amounts = [c for c in clauses if _SAYS_AMOUNT.search(c)]
        if said and said != changed:
            changed, moved = said, True
        elif not said and len(amounts) == 1:
            changed = amounts + [c for c in changed if _SAYS_WHEN.search(c)]
    if how.done:
        # A deed keeps the task it did: "Emailed the v1 customers" ends "need to email
        # customers by Dec 1", not "We're deprecating the v1 API on January 31".
        changed = [c for c in changed if _TASK.search(c)] or changed
    # A question ("..., can you help me plan the agenda?") states nothing that stays.
    stays = [
        c
        for c, t in zip(clauses, about, strict=True)
        if t and (c not in changed if how.done or moved else not t & words)
    ]
    if not changed or all(c.endswith("?") for c in stays):
        return ""
    # "and I need to email ...": the part without the word that joined it.
    return "; ".join(_JOINED.sub("", c) for c in changed)


_JOINED = re.compile(r"^(?:and|but|so|then|also)\s+", re.I)


def unchanged_for(ent: Entity, message: str) -> bool:
    """Whether a statement changed in part still holds for what `message` asks: "Where is
    the wedding venue?" after only the ceremony's time moved. A question after a time asks
    for the part that says one: "When do Baker & Sons start?" after "they can start on
    March 3" moved ("How much was the quote?" does not: a date's digits are no amount).
    A question after a kind of answer that the statement says outside the changed part
    is answered by it, whatever it is about: "How much was the Halcyon invoice for?" after
    only its due date moved."""
    part = ent.attributes.get("superseded_part")
    if not isinstance(part, str) or not part:
        return False
    kind = answer_kind(message)
    said = str(ent.attributes.get("user_message") or ent.description)
    if kind is not None and not kind.search(part) and kind.search(said):
        return True
    if topic(part) & topic(message):
        return False
    # "When are we deprecating v1?" after only "need to email customers by Dec 1" was done:
    # the rest says when, of what the message asks.
    rest = said.replace(part, " ")
    if asks_time(message) and topic(rest) & topic(message) and _SAYS_WHEN.search(rest):
        return True
    return not (asks_time(message) and _SAYS_WHEN.search(part))


# "the end of May", "a quick change", "the December 24 night shift": after an article (and
# up to three words that are no subject or helping verb) a verb's bare form is a noun.
_ARTICLE_BEFORE = re.compile(
    r"\b(?:the|an?|this|that|its)\s+(?:(?!(?:i|we|you|they|he|she|it|will|would|can|could|"
    r"should|must|might|may|to|and|or|then|also|just|do|did|does)\b)[\w'’\-]+\s+){0,3}$",
    re.I,
)


# "my transfer viva": right after a possessive and before a noun, a verb's bare form is a
# noun too ("my lessons move to Tuesdays", "my transfer to London fell through" change).
_MY_BEFORE = re.compile(r"\b(?:my|our|your|his|her|their)\s+$", re.I)
_NOUN_AFTER = re.compile(
    r"\s+(?!(?:to|from|in|into|on|at|for|with|over|back|forward|next|this|went|is|was|"
    r"has|had|have|will|would|got|fell|happened|came|starts?|started|done|completed|"
    r"confirmed|and|but|so)\b)[a-z]{3,}\b"
)
# "the home instead carer": "instead" between an article's word and a noun is part of a
# name ("we took the bus instead yesterday" is the adverb).
_IN_A_NAME = re.compile(r"\b(?:the|an?|our|my|his|her|their)\s+[a-z][\w'’-]*\s+$", re.I)
_NOUN_NEXT = re.compile(
    r"\s+(?!(?:of|now|then|this|that|these|next|last|from|today|tonight|tomorrow|yesterday|"
    r"please|and|but|so|as|because|since|which|for|on|at|in|to|with|if|when|though|too|"
    r"anyway|i|we|you|he|she|they|it|is|was|will|would|starting|going)\b)[a-z]{3,}\b"
)
# "by end of Q1", "a change of plans": a verb's bare form before "of" is a noun.
_OF_AFTER = re.compile(r"\s+of\b", re.I)
_VERB_AFTER = re.compile(
    r"\s+(?:went|was|were|is|came|got|has|had|failed|worked|broke|bounced|cleared|arrived|"
    r"happened|showed|landed)\b",
    re.I,
)
# "[shares a photo: ...]": what was shown, not what was said.
_CAPTION = re.compile(r"\s*\[[^\]]*\]")
# "haven't done pottery yet", "we didn't move it": a verb said not to have happened.
_NEGATED = re.compile(r"\b(?:not|never|\w+n[’']t)\s+(?:\w+\s+)?$", re.I)
# "since I moved from Sweden", "when we switched jobs": the background of what is said.
_BACKGROUND = re.compile(r"\b(?:since|when)\s+(?:i|we|you|he|she|they|my|our)\s+(?:\w+\s+)?$", re.I)
_CHANGE_VERB = re.compile(rf"(?:{_CHANGE_FORMS})", re.I)
# "we're moving the standup", "is being moved": an -ing form is a change in progress only
# after a form of "be"; else it is a gerund or an adjective ("promoting LGBTQ rights",
# "a moving experience").
_PROGRESSIVE = re.compile(
    r"\b(?:am|is|are|was|were|be|been|being|\w+['’](?:m|re|s))\s+(?:\w+ly\s+)?$", re.I
)
# "the standup moves to Thursdays": an -s form is a verb of change only with where to
# ("Handling changes has been hard", "their best moves").
_WHERE_TO = re.compile(r"^\s+(?:[\w'’\-]+\s+){0,3}?(?:to|from|back|out|up|over)\b", re.I)
# "I'm hiring someone to replace Farah", "we plan to move the standup": a change meant, not
# made; what holds now still holds. Decided, agreed or had to: made.
_INTENT = re.compile(r"\bto\s+$", re.I)
_DECIDED = re.compile(
    r"\b(?:decided|agreed|chose|voted|opted|settled on|ha[sdve]+|got)\s+(?:\w+\s+){0,2}?to\s+$",
    re.I,
)
# "connect with folks and swap ideas", "we can switch later": a verb's bare form after
# these says what may be done, not a change made.
_NOT_MADE = re.compile(
    r"\b(?:and|or|can|could|will|would|should|might|must|may|let['’]?s|shall|gonna|wanna)\s+$",
    re.I,
)
# "We decided to keep Python 3.8 support after all": a decision turned back.
_REVERSED = re.compile(
    r"\b(?:decided|agreed|chose|choosing|keep|keeping|kept|stay|staying|stick|sticking|go|"
    r"going|went|will|'ll)\b",
    re.I,
)
_ON_LEAVE = re.compile(
    r"\b(?:on|maternity|paternity|parental|sick|annual|medical|unpaid|study|compassionate)\s+"
    r"(?:[\w'’-]+\s+)?$",
    re.I,
)
# "left comments in Figma", "leave a note": something written down, nothing left behind.
_LEFT_WORD = re.compile(
    r"\s+(?:(?:a|an|some|my|our|few|a few|detailed|more)\s+)?(?:comments?|notes?|feedback|"
    r"messages?|voicemails?|reviews?|tips?|repl(?:y|ies)|suggestions?|remarks?)\b",
    re.I,
)
# "Left the car at Kwik Fit", "left my keys at home": something dropped off (not "left my
# job at Contoso").
_NOT_LEFT_THING = (
    r"job|role|position|company|team|firm|post|band|school|club|church|party|group|"
    r"relationship|country|city|house|flat|home|course|program|programme|board|office|"
    r"project|startup|agency|choir|phd|degree|university|uni|college|practice|department|"
    r"org|organi[sz]ation|chat|community|league|class|lab"
)
_LEFT_AT = re.compile(
    rf"\s+(?-i:the|my|our|his|her|their)\s+(?:(?!(?:{_NOT_LEFT_THING})\b)[\w'’\-]+\s+){{1,2}}?"
    r"(?:at|with|in|on|outside|by|behind)\s+"
    # ...a place, not a time: "I left the Berlin office in May" left the office.
    rf"(?!(?:the\s+)?(?:end|start|beginning|christmas|easter|night|noon|midnight|last|this|"
    rf"next|weekend|morning|evening|afternoon)\b|\d|(?:{DAY}|{TIME}))",
    re.I,
)
# "switched off the heating", "switched the lights on": turned off or on.
_SWITCHED_OFF = re.compile(
    r"\s+(?:(?:the|my|our|it|them)\s+(?:[\w'’\-]+\s+){0,2}?)?(?:off|on)\b(?!\s+to\b)", re.I
)
# "a slight Achilles issue on my left leg", "keep to the left": a side.
_LEFT_SIDE = re.compile(
    r"\b(?:my|your|his|her|our|their|its|the|a|on|to|bottom|top|upper|lower|far)\s+$", re.I
)
# "I dropped off the cakes at the shelter", "dropped by the office": a visit, no change.
_DROP_BY = re.compile(r"\s+(?:off|by|in|round|over)\b", re.I)
# "the kitchen will be done on the 21st", "it has to be paid by Friday", "I should have
# sent it": done later, or not at all.
_NOT_YET = re.compile(
    r"\b(?:will|['’]ll|would|should|might|may|must|could|can|to|gonna|wanna)\s+(?:not\s+)?"
    r"(?:be\s+|get\s+|have\s+(?:been\s+)?)?$",
    re.I,
)
# "If we push the launch to March 3 we lose the venue": a change on a condition.
_CONDITIONAL = re.compile(r"\b(?:if|unless|whether)\s+(?:[\w'’]+\s+){0,3}$", re.I)
# "Keep you posted": a promise, not a completion.
_KEEP_POSTED = re.compile(r"\bkeep\s+\w+\s+$", re.I)


def statements(message: str) -> list[str]:
    """The sentences of `message` that state something: no question ("How was your
    move?") and no image caption."""
    text = _CAPTION.sub("", message)
    return [t for t in SENTENCE_END.split(text) if t.strip() and not t.rstrip().endswith("?")]


# What a verb's cue checks read before it: the few words that make it a noun, a plan or a
# denial. Reading a whole 200 KB sentence again for each verb in it took minutes.
_LOOK_BACK = 200
# "instead of" changes what was said when decided or lasting: "we decided to target EMNLP
# instead of ACL", "the kitchen will be done on the 21st instead of the 10th", "we picked
# Piranesi instead of Klara"; not "walked to work instead of taking the bus" nor a
# suggestion ("maybe pizza instead of pasta", "let's meet at 3 instead of 2").
_DECIDED_INSTEAD = re.compile(
    r"^(?!.*\b(?:maybe|perhaps|let['’]?s|how about|what about|why don['’]?t|could|should we|"
    r"shall we|for once|this morning|last night|tonight|yesterday|this time)\b)"
    r".*\b(?:decided|decide|agreed|chose|choose|picked|pick|going with|went with|go with|"
    r"opted|settled on|switch\w*|mov(?:e|ed|ing)|will|won['’]t|['’]ll|from now on|now|"
    r"going to|gonna|plan(?:s|ned|ning)?|signed|booked|is|are|['’]re|['’]s|meets|gets|goes|"
    r"starts|runs|happens|comes|takes)\b",
    re.I | re.S,
)
# "If I have an interview on Monday, I'll move the call": a change on a condition.
_IF_CLAUSE = re.compile(
    r"^\W*(?:if|unless|in case)\b(?!\s+(?:you(?:['’]re| are)? (?:wondering|forgot|missed it|"
    r"remember|must know|ask me)|anything|i(?:['’]m| am)(?: being)? honest)\b)",
    re.I,
)


_AN_IDEA = re.compile(r"\s+(?:that|the|this|my|our)\s+(?:idea|thought|suggestion)s?\b", re.I)


def _is_change(sentence: str) -> bool:
    if _IF_CLAUSE.search(sentence):
        return False
    for m in CHANGE.finditer(sentence):
        word = m.group().lower()
        before = sentence[max(0, m.start() - _LOOK_BACK) : m.start()]
        # ("instead" is never a noun: "target EMNLP instead of ACL" is a change.)
        bare = (
            " " not in word
            and not word.endswith(("ed", "ing", "ly"))
            and word not in ("now", "instead")
        )
        if bare and (
            _ARTICLE_BEFORE.search(before)
            or (_MY_BEFORE.search(before) and _NOUN_AFTER.match(sentence, m.end()))
            or _OF_AFTER.match(sentence[m.end() :])
            or _VERB_AFTER.match(sentence, m.end())
        ):
            continue  # "the move", "end of Q1", "bank transfer went through": nouns
        if (
            word == "instead"
            and _OF_AFTER.match(sentence[m.end() :])
            and not _DECIDED_INSTEAD.search(sentence)
        ):
            continue  # "I had tea instead of coffee this morning": once, not from now on
        if word == "instead" and _IN_A_NAME.search(before) and _NOUN_NEXT.match(sentence, m.end()):
            continue  # "the home instead carer": a firm's name (Home Instead), said in lower case
        if word.startswith("scrap") and _AN_IDEA.match(sentence, m.end()):
            continue  # "Scrap that idea about the party theme": an idea, not the party
        if word == "after all" and not _REVERSED.search(before):
            continue  # "It was fun after all" changes nothing said
        if (
            word.startswith(("push", "bump"))
            and " " in word
            and not _made_push(before, bare=word.startswith("push "))
        ):
            continue  # "We might push the launch to March 3", "we didn't push it to May"
        if _CHANGE_VERB.fullmatch(word):
            if bare and _NOT_MADE.search(before):
                continue
            if _NEGATED.search(before) or _BACKGROUND.search(before) or not _made(before):
                continue
            if word.startswith("drop") and _DROP_BY.match(sentence[m.end() :]):
                continue
            if word == "leave" and _ON_LEAVE.search(before):
                continue  # "going on maternity leave": a time off, nothing left
            if word in ("left", "leave") and _LEFT_WORD.match(sentence[m.end() :]):
                continue  # "left comments in Figma": something written, nothing ended
            if word == "left" and _LEFT_SIDE.search(before):
                continue  # "my left leg", "on the left": a side, nothing left
            if word == "left" and _LEFT_AT.match(sentence[m.end() :]):
                continue  # "Left the car at Kwik Fit": dropped off, nothing ended
            if word.startswith("switch") and _SWITCHED_OFF.match(sentence[m.end() :]):
                continue  # "switched off the heating": turned off, nothing replaced
            if word.endswith("ing") and not _PROGRESSIVE.search(before):
                continue
            if word.endswith("s") and not _WHERE_TO.match(sentence[m.end() :]):
                continue
        return True
    return False


def _made(before: str, article: bool = False) -> bool:
    """Whether a verb of change after `before` says a change made: not one meant ("we plan
    to move"), unless decided ("we agreed to move"); with `article`, a bare form that may
    be a noun ("the push to Friday") or a change that may be made ("we might push") is
    none either."""
    if article and (_ARTICLE_BEFORE.search(before) or _NOT_MADE.search(before)):
        return False
    return not (_INTENT.search(before) and not _DECIDED.search(before))


def _made_push(before: str, bare: bool) -> bool:
    """Whether "push ... to <day>" (`bare`) or "pushed ... to <day>" after `before` tells a
    push made: not one meant ("we might push"), a noun ("the push to Friday"), refused
    ("we didn't push"), in the background or on a condition ("If we push the launch")."""
    if not _made(before, article=bare):
        return False
    return not (
        _NEGATED.search(before) or _BACKGROUND.search(before) or _CONDITIONAL.search(before)
    )


# What is under way, and may end by what others do ("the lease is still being negotiated",
# "waiting on a part"); "now it's four tiers" is no such thing.
_ONGOING = re.compile(
    r"\b(?:still|waiting|pending|on hold|in progress|ongoing|every|being\s+\w+)\b", re.I
)
_PRONOUN_OBJECT = re.compile(r"\b(?:it|them|that|this|those|these)\b", re.I)
_BY_THEM = re.compile(
    r"\b(?:he|she|they)(?:['’](?:ve|s|d))?\s+(?:(?:just|finally|already|also|have|has|had)\s+)*$",
    re.I,
)


def _clause_of(text: str, start: int, end: int) -> str:
    """The clause of `text` holding `text[start:end]` (`_CLAUSE_END`)."""
    before = [m.end() for m in _CLAUSE_END.finditer(text, 0, start)]
    after = _CLAUSE_END.search(text, end)
    return text[before[-1] if before else 0 : after.start() if after else len(text)]


def _is_completion(sentence: str) -> bool:
    return any(_done_here(sentence, m) for m in COMPLETION.finditer(sentence))


def _by_user(before: str, message: str, end: int) -> bool:
    """Whether the change whose verb ends at `end` was the user's own ("Just cancelled the
    gym", "Gym membership cancelled!"), not one that befell something."""
    if _PASSIVE.search(before):
        return False
    return bool(_BY_USER.search(before) or _ENDS_CLAUSE.match(message, end))


def _done_here(sentence: str, m: re.Match[str]) -> bool:
    """Whether the deed `m` in `sentence` was done, by the user where it is a call, and
    answered ("called the bank but nobody picked up" did nothing)."""
    before = sentence[max(0, m.start() - _LOOK_BACK) : m.start()]
    if m.group().lower() in _CALLED and (
        not _CALLER.search(before)
        or _UNANSWERED.search(sentence, m.end(), m.end() + _LOOK_BACK)
        or (before.rstrip().endswith(",") and _NAMED.match(sentence, m.end()))
    ):
        return False
    return not any(
        p.search(before) for p in (_NEGATED, _BACKGROUND, _KEEP_POSTED, _NOT_YET, _DETERMINED)
    )


# "the updated deck", "a printed copy", "my packed lunch": an adjective, no deed.
_DETERMINED = re.compile(r"\b(?:the|an?|my|our|your|his|her|their)\s+$", re.I)


def kind_of(message: str) -> str | None:
    """ "change", "completion" or None for a user's statement."""
    said_ = statements(message)
    if any(_is_change(t) for t in said_):
        return "change"
    if any(_is_completion(t) for t in said_):
        return "completion"
    return None


def topic(message: str) -> set[str]:
    """Stems of the content words that say what a statement is about."""
    return {stem(w.lower()) for w in keywords(message) if not _no_topic(w) and len(w) > 1}


def anchors(message: str) -> set[str]:
    """Stems of name-like words ("Falcon", "Civic", "1Password"): one is enough to share."""
    named = [w for w in _NAME_LIKE.findall(message) if w.lower() not in STOPWORDS]
    coded = re.findall(r"\b\w*\d\w*[A-Za-z]\w*\b", message)
    return {stem(w.lower()) for w in named + coded if not _no_topic(w)}


# "Caroline: ..." — a transcript's speaker label names who spoke, not what about.
_SPEAKER = re.compile(r"^\s*[A-Z][\w'’-]{0,30}:\s+")


def _cue_sentences(message: str, kind: str) -> str:
    """The statements of `message` (speaker label off) that say the change or the completion:
    in "Thanks, Melanie! We moved the book club to Clara's." only the second speaks of a
    change, and the name in the first is no topic of it."""
    said_it = _is_change if kind == "change" else _is_completion
    picked = [t for t in statements(message) if said_it(t)]
    return " ".join(picked) or message


def said(ent: Entity) -> str:
    """What the user said in an exchange, or a fact's name and description."""
    if ent.type == CHAT_EXCHANGE:
        return _SPEAKER.sub("", str(ent.attributes.get("user_message") or ent.description), count=1)
    return f"{ent.name}. {ent.description}"


# A statement read for changes: as much as the extractor reads for facts.
MAX_STATEMENT_CHARS = 20_000


def find_retired(
    store: Store, message: str, exchange_id: int | None, by_name: str, when: str
) -> list[Retired]:
    """Earlier exchanges and facts that the statement `message`, made on `when`, retires."""
    message = _SPEAKER.sub("", message[:MAX_STATEMENT_CHARS], count=1)
    back = bool(BACK_CHANGE.search(message)) and not _NOT_A_PLAN.search(message)
    kind = kind_of(message) or ("change" if back else None)
    if kind is None:
        return []
    found = _find_retired(store, message, kind, exchange_id, by_name, when)
    # A fact learned with what this replaces goes where this speaks of it; "it's pushed to
    # Friday" speaks by pronoun of all that was just said.
    said_now: set[str] | None = topic(message)
    if not found and back and exchange_id:
        found, said_now = _just_before(store, exchange_id, when), None
    elif not found and exchange_id and (deed := DONE_BY_PRONOUN.match(message)):
        # "Sent it.", "Done, paid him": the promise just made, when the deed is its verb.
        verb = stem(_DONE_BASE.get(deed["deed"].lower(), deed["deed"].lower()))
        # Only where the deed can be of nothing else: one promise of that verb, said
        # alone ("I'll pay Ollie back by Friday"; not "..., oh and the window cleaner
        # wants £20" before "Paid him").
        for r in _just_before(store, exchange_id, when):
            kept = [f for f in _learned_from(store, r.entity) if _promised(f, verb)]
            reply = str(r.entity.attributes.get("ai_response") or "")
            # ...nor may the reply have raised something else ("Did you ever sort out that
            # parking fine?", "Also don't forget the dinner money") before "Paid it."
            other = "?" in reply or _ASIDE.search(reply) or _DONT_FORGET.search(reply)
            if len(kept) == 1 and _said_alone(said(r.entity)) and not other:
                return [Retired(r.entity, "completed"), Retired(kept[0], "completed")]
        return []
    out: list[Retired] = []
    for r in sorted(found, key=lambda r: _recency(r.entity), reverse=True)[:MAX_RETIRED]:
        out += _with_facts(store, r, said_now, anchors(message))  # what was learned from it
    unique = {r.entity.id: r for r in out}
    return list(unique.values())


def _promised(ent: Entity, verb: str) -> bool:
    """Whether `ent` is an open promise to do `verb` (a stem: "send", "pai")."""
    return (
        ent.type == "Commitment"
        and ent.attributes.get("status") not in ("done", "dropped")
        and verb in {stem(w) for w in query_terms(ent.name)}
        and not re.search(r"\band\b", ent.name)  # "pay my accountant and the ProZ fee"
    )


# A second thing said beside a promise: "btw my sister lent me £30", "also Amazon sent ...".
_ASIDE = re.compile(
    r"\b(?:also|btw|by the way|oh and|plus|anyway|first)\b"
    # "... on Friday once the council tax bill has gone out": another thing it waits on
    r"|\b(?:once|after|when|until|unless)\s+(?:the|my|our|his|her|their|i|we)\b",
    re.I,
)
_DONT_FORGET = re.compile(r"\b(?:don['’]?t|do not)\s+forget\b|\bremember to\b", re.I)


def _said_alone(text: str) -> bool:
    """Whether `text` states one thing: one statement (a question beside it is about it)
    with no aside."""
    return len(statements(text)) == 1 and not _ASIDE.search(text)


def _just_before(store: Store, exchange_id: int, when: str) -> list[Retired]:
    """The statement made just before exchange `exchange_id` in its conversation (an
    exchange skipped as trivial in between is stepped over), if it still holds."""
    at = store.exchange_positions([exchange_id]).get(exchange_id)
    if at is None:
        return []
    session, n = at
    ids = store.exchanges_at([(session, n - 1), (session, n - 2)])
    for k in (n - 1, n - 2):
        if (eid := ids.get((session, k))) is None:
            continue
        ent = store.get_entities([eid]).get(eid)
        if ent is not None and DONE_BY_PRONOUN.match(said(ent)):
            continue  # "Texted him.": a deed of what was said before, which it may change
        if ent is None or ent.attributes.get("superseded_by"):
            return []
        if said(ent).rstrip().endswith("?") or str(ent.attributes.get("date") or "") > when:
            return []  # a question states nothing to change
        return [Retired(ent, "changed")]
    return []


def _find_retired(
    store: Store, message: str, kind: str, exchange_id: int | None, by_name: str, when: str
) -> list[Retired]:
    """What the statement's own topic words find it changes or completes."""
    message = _cue_sentences(message, kind)
    if kind == "change" and _THEIR_DEADLINE.search(message):
        return []  # "Jake's tutor moved the essay deadline to Monday for him": not the user's
    words = topic(message)
    # "Ordered the tiles" keeps "I need to order the tiles": the deed is the promise's.
    done = [
        (m, _clause_of(message, m.start(), m.end()))
        for m in COMPLETION.finditer(message)
        if _done_here(message, m)
    ]
    deeds = {stem(_DONE_BASE.get(m.group().lower(), m.group().lower())) for m, _ in done}
    if kind == "completion":
        words |= deeds
    # A deed only others did, told by pronoun, ends what its own clause speaks of, or what
    # is under way: "Quoted them £480 for the four tiers, they paid a £100 deposit" ended no
    # "now it's four tiers" ("Kim finished her chemo", "the engineer fixed it", "..., they
    # signed the contract" after "the lease is still being negotiated" end as before).
    # ("Chased Brightwell about the contract, they signed it": "it" is the contract.)
    by_them = bool(done) and all(
        _BY_THEM.search(message, 0, m.start()) and not _PRONOUN_OBJECT.search(clause)
        for m, clause in done
    )
    of_them = {w for _, clause in done for w in topic(clause)}
    # "Margaret says make it 20": who reported a change is not what it changed (but "Jonas
    # said the invoice can wait" changes a promise to send Jonas the invoice).
    heard_from = _reporters(message)
    # "Booked the van with Lothian Vans": "van", said in lower case too, is no name here.
    common = {stem(w) for w in re.findall(r"\b[a-z][\w'’\-]*", message)}
    names = (anchors(message) & words) - common
    # "added to birth plan: actually ok with an epidural": where a hedge is the only cue, the
    # change is what follows it ("Actually my blood type is A positive").
    cues = list(CHANGE.finditer(message)) if kind == "change" else []
    if cues and all(c.group().lower() in _HEDGES for c in cues):
        words = topic(message[cues[0].end() :])
        names &= words
    if not words:
        return []
    subject = _subject(message) if kind == "change" else set()
    changed_verbs = (
        {
            stem(c.lower())
            for m in CHANGE.finditer(message)
            if _CHANGE_VERB.fullmatch(c := m.group())
            and _by_user(message[max(0, m.start() - _LOOK_BACK) : m.start()], message, m.end())
        }
        if kind == "change"
        else set()
    )
    # "Joanna wants it live dec 4 now instead of the 20th": a change of when, of what says
    # when ("new client!! Fernleaf, ... the owner is Joanna Pike" holds).
    of_when = kind == "change" and bool(_TO_WHEN.search(message) or _instead_of_a_day(message))
    # "retro pushed to friday and finance cut the retro budget to £300", "pushed to the 19th
    # and it's at the library now" changed more than when.
    when_alone = of_when and not (_TO_AMOUNT.search(message) or _AT_A_PLACE.search(message))
    # "Harrow went up to 165k" changed an amount: what said none ("Harrow slipped, close
    # date is now March 20") holds.
    of_amount = kind == "change" and not of_when and _TO_AMOUNT.search(message) is not None
    relocated = kind == "change" and _relocated(message)
    only_when = of_when and (_ONLY_WHEN.search(message) is not None or _moved_only_in_time(message))
    activity = _stopped_activity(message) if kind == "change" else set()
    # "We picked Piranesi for book club instead of Klara and the Sun": of what spoke of Klara.
    instead = (
        topic(m.group(1)) if kind == "change" and (m := _INSTEAD_OF.search(message)) else set()
    )
    # "Kwame is leaving Brightline": a name shared is enough only where Kwame is spoken of
    # too ("I just joined Brightline" holds on).
    # ...but "Dr Shah upped the amlodipine to 10mg" changed the amlodipine wherever it was
    # spoken of: who made a change to a thing named after the verb need not be.
    agent = _agent(message) - subject if kind == "change" else set()
    on_days = kind == "change" and _ON_WEEKDAYS.search(message) is not None
    made_to = kind == "change" and bool(_CUT_TO.search(message) or _OBJECT.search(message))
    # "the new office is ...": what speaks of the new office itself is not replaced by it.
    new_ones = {m.group(1) for m in _NEW_ONE.finditer(message)} if kind == "change" else set()
    # "council tax at the new place is band D", "the insurance on the new van is 140": where
    # that is the only cue, a change of what it names first, wherever that was said.
    of_new = (
        topic(" ".join(m.group(1) for m in _AT_THE_NEW.finditer(message)))
        if kind == "change"
        and all(c.group().lower().startswith("new ") for c in CHANGE.finditer(message))
        else set()
    )
    # "the deadline" changed is of what was said to be due, and of what speaks of the thing
    # it is the deadline of ("ISA extended the poster deadline" keeps "my abstract for ISA
    # is due"); someone else's is none of the user's (checked first, above).
    of_deadline = topic(
        " ".join(g for m in _DEADLINE_OF.finditer(message) for g in m.groups() if g)
    )
    # The statement's most distinctive words find what it changes; common ones only cost
    # (BM25 over 200k exchanges: 10 ms with them, a fraction without).
    terms = query_terms(" ".join(w for w in keywords(message) if w.lower() not in _CUE_WORDS))
    df = store.history_freq(terms)
    # Held by another exchange too (this statement is stored already, so 2 and up).
    rare = sorted((t for t in terms if df.get(t, 0) >= 2), key=lambda t: df[t])[:QUERY_TERMS]
    if not rare:
        return []
    hits = store.bm25(" ".join(rare), CANDIDATES, entity_types=LEARNED_TYPES)
    ents = store.get_entities([eid for eid, _ in hits if eid != exchange_id])
    found: list[Retired] = []
    by_subject: list[Entity] = []
    by_due: list[int] = []
    for ent in ents.values():
        # Changed in part before: still open to a change of another part.
        earlier = str(ent.attributes.get("superseded_part") or "")
        if (
            ent.attributes.get("superseded_by")
            and (not earlier or words & topic(earlier))
            or ent.attributes.get("status") in ("done", "dropped")
        ):
            continue
        if ent.type != CHAT_EXCHANGE and "source_exchange" not in ent.attributes:
            continue  # only what was learned from conversations; the user's own notes stay
        if ent.attributes.get("source_exchange") == by_name:
            continue  # learned from this very statement
        if str(ent.attributes.get("date") or ent.created_at[:10]) > when:
            continue
        text = said(ent)
        if any(re.search(rf"\bnew\s+{re.escape(w)}\b", text, re.I) for w in new_ones):
            # "council tax at the new place is band D" replaces no "new place we're going
            # with BT": that speaks of the new place too.
            continue
        about = topic(text) - _reporters(text)
        if of_new and not of_new & about:
            continue
        if kind == "change" and not of_deadline <= about:
            continue  # "the head moved the Year 11 report deadline": of what speaks of that
        said_due = _DEADLINE not in about and bool(_IS_DUE.search(text))
        if said_due and not AWAITED.search(text):  # not "the decision ... is due"
            # "the funder extended the deadline": of what was due (as one more shared word;
            # "the council extended the deadline" alone is of no "Jade's portfolio is due")
            about.add(_DEADLINE)
        if not activity <= about:
            continue  # it stopped doing something this statement does not speak of
        if instead and not instead & about:
            continue  # "book club is at the Corner Café now" holds
        if kind == "change" and _HABIT.search(text) and _once(message):
            continue  # "the 47 bus got cancelled" once: "I get the 47 bus every day" holds
        if relocated and not _WHERE_SAID.search(text):
            continue  # "Maya moved to Leeds" leaves "Lily's best friend is Maya"
        if only_when and not _SAYS_WHEN.search(text):
            continue  # it replaces what said when ("we're renovating the kitchen" holds)
        # ("the ESRC pushed the deadline back to 8 december": what was due said when by "due")
        of_subject = subject - {_DEADLINE} if said_due else subject
        if only_when and of_subject and not _when_of(text, of_subject):
            # "Trip moved, new date is 22 October": of when the trip is, not of "Need to do
            # the risk assessment by 25 September" said beside the trip.
            continue
        if of_amount and not _SAYS_AMOUNT.search(text):
            continue
        shared = words & about - (set() if PROMISE.search(text) else heard_from)
        said_stems = {stem(w) for w in query_terms(text)}
        # "Cancelled the gym membership" keeps "I need to cancel the gym membership": the
        # change is the promise's verb.
        kept = changed_verbs & said_stems if changed_verbs and PROMISE.search(text) else set()
        shared |= kept
        if kind == "completion":
            # "Booked the van" after "I also need to book a van": the deed is the promise's
            # verb, whatever keywords make of it.
            shared |= deeds & said_stems
        # A name counts where both write it as one: "Google Meet" is not "we meet at Clara's";
        # but not when the change is to a part of the named thing the earlier statement
        # does not speak of: "Trellis launch moved to March 3" leaves "Trellis is our
        # onboarding app" current ("Falcon is back on", "Sold the Civic" replace all).
        # "Farah is leaving Helix" changes what was said of Farah and Helix, not "this week
        # it's Farah on call": where the change names what it is of, that must be shared.
        part = subject - names
        named = (
            shared & names & anchors(text)
            and not (part and not part <= about)
            and not (subject and not subject & about)
            and agent <= about
        )
        # "Harper & Cole: my new contact is Rachel Green" is of the contact, not of the
        # invoice to Harper & Cole: two names shared, and the subject not.
        enough = len(shared) >= MIN_SHARED and not (
            subject and not subject & about and shared <= names
        )
        if named and not enough and on_days and not _WEEKDAYS.search(text):
            # "Claire can't do Thursdays any more" changed which days she comes, not every
            # word said of Claire ("I promised Claire the forms", "my sister Claire").
            continue
        if not (enough or named):
            if (
                subject
                and subject <= about - ({_DEADLINE} if said_due else set())
                and (agent <= about or made_to)
                and not (of_when and not _SAYS_WHEN.search(text))
            ):
                by_subject.append(ent)
            continue
        why = "completed" if kept else "changed"
        if kind == "completion" and not (shared - names - deeds or _DONE_IT.search(message)):
            continue  # "Sent Priya the photos" keeps "I'll send Priya the contract" open
        if kind == "completion":
            # A promise kept ("sent the report"), or something ongoing that ended
            # ("finished therapy"), which needs more than a shared name to be the same.
            if deeds <= {"choos"} and deeds and not _TO_CHOOSE.search(text):
                continue  # a choice keeps a promise to choose and ends nothing else
            if deeds and deeds <= _CALL_VERBS and not _CALL_VERBS & said_stems:
                continue  # "Phoned a plumber about the boiler leak" fixed no leak
            if PROMISE.search(text):
                why = "completed"
            elif (
                len(shared) >= MIN_SHARED
                and kind_of(text) != "completion"
                and not (by_them and not of_them & about and not _ONGOING.search(text))
            ):
                # "Harbor Books paid the invoice" ends no "I invoiced Harbor Books": a deed
                # done was never ongoing.
                why = "ended"
            else:
                continue
        # The part is what the change is of; where this statement does not speak of that,
        # what the two share, but for a name ("Rui cut the plan to 30 km and I dropped to
        # the 10k instead of the half": the half, not "my coach is Rui").
        of = subject if subject & about else (shared - names) or shared
        if said_due and len(shared - {_DEADLINE}) < MIN_SHARED:
            by_due.append(ent.id)  # found only as something due
        found.append(
            Retired(
                ent,
                why,
                _part(
                    ent,
                    of,
                    Reading(
                        of_when,
                        kind == "completion" or why == "completed",
                        of_amount,
                        of <= names,
                        frozenset(shared & names) if subject & about else frozenset(),
                        when_alone,
                        frozenset(words),
                    ),
                ),
            )
        )
    if len(by_due) > 1:
        # "DWP extended the deadline for the form" after two forms due: which is unknown.
        found = [r for r in found if r.entity.id not in by_due]
    if (m := _SWITCHED_ROLE.search(message)) is not None:
        # "I'm switching dentists to Dr. Romero": of what said who the dentist is, not of
        # "the dentist appointment moved to December 19".
        holder = re.compile(rf"\b(?:my|our)\s+(?:\w+\s+)?{re.escape(m.group(1))}\b", re.I)
        by_subject = [e for e in by_subject if holder.search(said(e))]
    if by_subject and not found:
        # "The offsite got moved to ...": the latest statement about the offsite, only.
        last = max(by_subject, key=_recency)
        how = Reading(of_when, of_amount=of_amount, when_alone=when_alone, said=frozenset(words))
        found = [Retired(last, "changed", _part(last, subject or words, how))]
    return found


# What says something is due speaks of its deadline without the word ("due to the fog"
# is no deadline).
_IS_DUE = re.compile(
    r"\b(?:is|are|was|were|be)\s+(?:now\s+|still\s+|also\s+)?due\b(?!\s+to\b)|\bdue\s+(?:on|by)\b",
    re.I,
)
_DEADLINE = stem("deadline")
# "the new office is", "the parking at the new office is": the new one, of what kind.
_NEW_ONE = re.compile(r"\bnew\s+([\w'’\-]+)\s+(?:is|will be)\b", re.I)
_AT_THE_NEW = re.compile(
    r"\b((?:[\w'’\-]+\s+){1,2}?)(?:at|in|on|for|of|near|from)\s+the\s+new\s+[\w'’\-]+\s+"
    r"(?:is|will be)\b",
    re.I,
)
_THEIR_DEADLINE = re.compile(
    # ("my mate dan's self assessment tax return deadline"; not "it's the report deadline")
    r"\b(?:(?!(?:it|that|what|there|here|he|she|who|where|when|let|how)['’]s)\w+['’]s|\w+s['’]|"
    # ...of what they own, not what they did ("Leo's teacher moved the trip deadline")
    r"his|her)\s+(?:(?!\w+ed\b|(?:has|have|had|is|was|will|got|gets|set|says|said)\b)"
    r"[\w\-]+\s+){0,4}deadline"
    # "... moved the essay deadline to Monday for him", "... to January for her cohort"
    # ("Halden moved their deadline": the firm's, for the user's work)
    r"|\bdeadline\b.*\bfor\s+(?:him|her|his)\b",
    re.I,
)
# What "the deadline" is of: "the poster deadline", "the deadline for applications".
_DEADLINE_OF = re.compile(
    r"\b(?:the|my|our|a|this|that)\s+((?:(?!(?:the|a|an|my|our|to)\b)[\w\-]+\s+){1,3}?)deadline"
    r"|\bdeadline\s+(?:for|on|of)\s+([^.!?,;]{1,60}?)"
    r"(?=\s+(?:to|until|till|is|was|got|has|from)\b|[.!?,;]|$)"
    # "... extended the deadline to 8 December for the Hendersons' final numbers"
    r"|\bdeadline\s+(?:to|until|till)\s+[^.!?,;]{1,30}?\s+(?:for|on|of)\s+"
    r"(?!(?:everyone|everybody|all|us|me|now)\b)([^.!?,;]{1,60})",
    re.I,
)


def _part(ent: Entity, words: set[str], how: Reading = Reading()) -> str:
    """What of `ent` a change of `words` replaces (or a deed does), with what an earlier
    change replaced."""
    if ent.type != CHAT_EXCHANGE:
        return ""
    earlier = str(ent.attributes.get("superseded_part") or "")
    return changed_part(said(ent), words | topic(earlier), how)


# A clause that holds a task: "need to email customers by Dec 1", "I'll send it Friday".
_TASK = re.compile(
    r"\b(?:need to|needs to|have to|has to|must|promised|will|'ll|going to|should|plan to|"
    r"remind me to|due|deadline)\b",
    re.I,
)


# "Trip moved again, new date is Thursday 22 October": a new day said.
_NEW_DAY_SAID = (
    rf"\bnew\s+(?:start\s+)?(?:date|day|time)\s+(?:is|will\s+be)\s+(?:now\s+)?(?:{DAY}|{TIME})"
)
# A change of when: "moved the party to Sunday", "pushed the call to 3pm", "postponed
# the launch". What it replaces said when it was: "I'm doing the playlist for the party"
# is about the party and stays current.
# A month said as when: "booked for january", "pushed back to february", "in early march"
# (not "you may", nor a date's month, which DAY reads).
_MONTH_WHEN = (
    rf"\b(?:in|by|for|until|till|from|since|to|into|early|late|mid|(?:the\s+)?(?:end|start|"
    rf"beginning|middle)\s+of)[-\s]+{_A_MONTH}"
)
_TO_WHEN = re.compile(
    rf"{_NEW_DAY_SAID}|"
    rf"\b(?:to|until|till|for|on|back to)\s+(?:{DAY}|{TIME}|(?:the )?(?:morning|afternoon|"
    r"evening|weekend))|\b(?:reschedul|postpon|delay|slipp|push(?:ed)? back|brought forward)|"
    rf"\b(?:to|until|till|into)\s+{_A_MONTH}",
    re.I,
)
# ...and a change of nothing but when: "done on November 21 instead of November 10",
# "postponed", "pushed back" ("the venue changed to the main hall" changed a place, and
# "Falcon is back on, we restart on Monday" more than a day).
_ONLY_WHEN = re.compile(
    rf"\binstead\s+of\s+(?:the\s+)?(?:{DAY}|{TIME})|\b(?:reschedul|postpon|delay|slipp)|"
    rf"{_NEW_DAY_SAID}|"
    r"\bpush(?:ed)?\s+back|\bbrought\s+forward|"
    # "Stan can't start till the 26th now": put off to a day; "Stan is starting on the 26th"
    # (what never said when, "Stan is our roofer", holds).
    rf"\b(?:is|are|am|['’]s|['’]re|['’]m)\s+starting\s+(?:on\s+)?(?:the\s+)?(?:{DAY})|"
    rf"\b(?:can['’]?t|cannot|won['’]t|not)\s+(?:[\w'’]+\s+){{0,3}}?(?:until|till)\s+"
    rf"(?:the\s+)?(?:{DAY}|{TIME})",
    re.I,
)
# "Noah's swimming moved to Thursdays": moved to a day or a time, and to nothing else
# ("Noah's swim coach is Marco" holds on; "switched standup from Zoom to Meet and moved it
# to 9am" changed more than when).
_MOVED_TO = re.compile(
    r"\b(?:mov(?:e|ed|es|ing)|switch(?:ed|es|ing)?|chang(?:e|ed|es|ing)|shift(?:ed|s|ing)?|"
    r"push(?:ed|es|ing)?)\s+(?:[\w'’]+\s+){0,5}?to\s+(\S+(?:\s+\S+)?)",
    re.I,
)
_WHEN_AT = re.compile(rf"(?:the\s+)?(?:{DAY}|{TIME})", re.I)


# A move to a place ("Maya moved to Leeds", "we relocated to Lisbon") replaces what said
# where someone lives or is, not all that was said of them.
_RELOCATED = re.compile(
    r"(?:^|[.!?;,]\s*|\b(?:and|so|but)\s+)(?:(?i:i|we|he|she|they)|(?-i:[A-Z][a-z]+))\s+"
    r"(?:(?i:just|finally|recently|all)\s+)?(?i:moved|relocated|emigrated)\s+(?i:back\s+)?"
    # ...to a place, not a tool: "We moved to Linear for team tickets", "to Spotify from
    # Apple Music".
    r"(?i:to|into)\s+(\S++(?!(?:\s+\S+)?\s+(?i:for|from|as)\b)(?:\s+\S+)?)",
)
_WHERE_SAID = re.compile(
    r"\b(?:lives?|lived|living|based|moved|moving|relocat\w*|stays?|staying)\b|"
    r"\b(?:in|near)\s+(?-i:[A-Z])|\b(?:address|house|flat|apartment|home|city|town|"
    r"neighbourhood|neighborhood)\b",
    re.I,
)


def _relocated(message: str) -> bool:
    return any(
        m.group(1)[:1].isupper() and not _WHEN_AT.match(m.group(1))
        for m in _RELOCATED.finditer(message)
    )


def _moved_only_in_time(message: str) -> bool:
    targets = [m.group(1) for m in _MOVED_TO.finditer(message)]
    return bool(targets) and all(_WHEN_AT.match(t) for t in targets)


# A change to an amount ("went up to 165k", "upped it to £450", "to 10mg"), and how one is
# said ("140k", "£2,400", "5mg"; not a date's "27").
_UNIT = (
    r"(?:k|m|bn|mg|mcg|ml|kg|g|%|pounds?|quid|dollars?|euros?|bucks|eur|gbp|usd|percent|"
    r"seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|people|guests|"
    r"users|customers|students|kids|words|pages|miles|km|lbs?|stone)"
)
_TO_AMOUNT = re.compile(
    rf"\b(?:up|down)\s+to\s+(?:about\s+|around\s+)?[£$€]?\d|\bto\s+[£$€]\d|"
    rf"\bto\s+\d[\d.,]*\s*{_UNIT}(?!\w)",
    re.I,
)
_SAYS_AMOUNT = re.compile(rf"[£$€]\s?\d|\b\d[\d.,]*\s*{_UNIT}(?!\w)", re.I)


# "... instead of the 20th", "instead of Friday": the day a change of when replaces.
_INSTEAD_DAY = re.compile(rf"\binstead\s+of\s+((?:the\s+)?(?:{DAY}))\b", re.I)
# ...but "get the 5th edition instead of the 4th", "room 2 on the 3rd floor instead of the
# 2nd": a count of things.
_NTH_THING = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\s+([a-z]{3,})", re.I)
_NTH = re.compile(r"(?:the\s+)?\d{1,2}(?:st|nd|rd|th)", re.I)


def _instead_of_a_day(message: str) -> bool:
    """Whether a change says the day it replaces ("... instead of the 20th")."""
    m = _INSTEAD_DAY.search(message)
    if m is None:
        return False
    things = [
        w
        for w in _NTH_THING.findall(message)
        if w.lower() not in STOPWORDS | {"instead"} and not re.fullmatch(MONTH, w, re.I)
    ]
    return not (things and _NTH.fullmatch(m.group(1)))


# "... at the library now", "moved to friday at the york office": a place said.
_AT_A_PLACE = re.compile(
    r"\b(?:at|in)\s+(?:the|a|an|our|my|their|his|her)\s+(?!(?:morning|afternoon|evening|"
    r"night|weekend|week|month|year|end|start|beginning|middle|moment|same|usual|latest|"
    r"earliest|new year)\b)[\w'’\-]+|\bat\s+(?-i:[A-Z])[\w'’\-]+|\bat\s+home\b",
    re.I,
)
# "the plasterer's name is kev" holds when "kev broke his wrist" pushed the plastering back.
_NAMED_AS = re.compile(r"\b(?:name\s+is|names\s+are|(?:is|are|was)\s+called|named)\b", re.I)
# "£30 a month", "£12 per week": a price, not a when.
_RATE = re.compile(r"(?:\ba|\bper|/)\s*$", re.I)
_PERIODS = frozenset({"week", "month", "year"})


def _says_a_day(clause: str) -> bool:
    """Whether a clause says when something is ("on nov 6", "opens in january"), not how
    often a price falls due ("£30 a month")."""
    return any(
        m.group().lower() not in _PERIODS or not _RATE.search(clause, 0, m.start())
        for m in _SAYS_WHEN.finditer(clause)
    )


def _when_of(text: str, subject: set[str]) -> bool:
    """Whether a sentence of `text` that speaks of `subject`, or the one after it, says
    when ("Booked the dentist. It's at 3pm on Tuesday."; "Year 4 class trip" says no day)."""
    said = SENTENCE_END.split(text)
    return any(
        topic(t) & subject
        and any(_SAYS_DAY.search(u) and (u is t or _IT_OPENS.match(u)) for u in said[i : i + 2])
        for i, t in enumerate(said)
    )


# The sentence after goes on about the same thing: "It's at 3pm on Tuesday."
_IT_OPENS = re.compile(r"^\W*(?:it|it['’]s|its|that['’]s|they['’]re|which|booked)\b", re.I)


_SAYS_DAY = re.compile(
    rf"\b(?:{DAY}|{TIME}|(?:this|next|last|the)\s+(?:week|month|weekend)|week\s+after\s+next|"
    rf"morning|afternoon|evening)\b|{_MONTH_WHEN}",
    re.I,
)
# Days of the week, however written ("Tues and Thurs mornings"); a schedule of them
# ("can't do Thursdays any more", "every Monday"), not one day ("left on Friday").
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_WEEKDAYS = re.compile(
    # (not "sat", "wed" or "sun", which are words of their own)
    rf"\b(?:mon|tue|tues|weds|thu|thur|thurs|fri|(?:{_DAYS})s?)\b",
    re.I,
)
_ON_WEEKDAYS = re.compile(rf"\b(?:(?:{_DAYS})s|every\s+(?:{_DAYS}))\b", re.I)
_SAYS_WHEN = re.compile(
    rf"\b(?:{DAY}|{TIME}|morning|afternoon|evening|weekend|week|month|year|at \d{{1,2}})\b|"
    rf"{_MONTH_WHEN}",
    re.I,
)


# "I decided to stop taking new clients": what stops is the taking; "my biggest client is
# Northwind" does not speak of it and holds on ("I quit smoking" ends "I smoke a pack").
_STOPPED = re.compile(r"\b(?:stop|stopp\w*|quit\w*|gave up|giv\w* up)\s+(\w+ing)\b", re.I)


def _stopped_activity(message: str) -> set[str]:
    return topic(m.group(1)) if (m := _STOPPED.search(message)) else set()


def _recency(ent: Entity) -> tuple[str, int]:
    return (str(ent.attributes.get("date") or ent.created_at), ent.id)


# What an exchange said that a later statement can replace; the people, organisations and
# projects it named go on existing ("Priya moved to the platform team": Priya stays).
STATEMENT_TYPES = frozenset({"Fact", "Commitment", "Decision", "Preference"})


def _with_facts(
    store: Store, r: Retired, said_now: set[str] | None, names: set[str] | None = None
) -> list[Retired]:
    """A retired exchange with the statements that were learned from it; a fact of it
    goes only where the statement `said_now` (its topic) speaks of it: "Dr Shah upped the
    atorvastatin to 40mg" leaves "User's medication: amlodipine 5mg", learned from "I
    take 5mg amlodipine and 20mg atorvastatin"."""
    out = [r]
    if r.entity.type == CHAT_EXCHANGE:
        # Changed in part: only what was learned from that part.
        of_part = topic(r.part)
        learned = _learned_from(store, r.entity)
        # A promise whose day the exchange moved goes with a deed done of that promise by
        # more than a name ("Sent Deborah the receipts"; not "the one-to-one with Hannah is
        # cancelled" nor "finished the one-to-one with Hannah" for the report it let wait).
        if r.why != "changed" and said_now:
            moved = _learned_from(store, r.entity, "due_moved_by")
            learned += [f for f in moved if (topic(said(f)) & said_now) - (names or set())]
        # ...and what an earlier change of a part was of stays with that change ("I'm
        # switching dentists" keeps the cleaning appointment a move already moved).
        earlier = topic(str(r.entity.attributes.get("superseded_part") or ""))
        out += [
            Retired(f, r.why)
            for f in learned
            if f.type in STATEMENT_TYPES
            and not f.attributes.get("superseded_by")
            and (not r.part or topic(said(f)) & of_part)
            and (f.type != "Fact" or said_now is None or topic(f.name) & said_now)
            and not (
                earlier
                and said_now is not None
                and topic(said(f)) & earlier
                and not topic(said(f)) & said_now
            )
        ]
    return out


def _learned_from(store: Store, exchange: Entity, key: str = "source_exchange") -> list[Entity]:
    """What was learned from `exchange` (facts, people, ...), by its links and its name;
    with `key` "due_moved_by", the promises whose due day it moved."""
    near = store.neighbors([exchange.id], 1)
    found = store.get_entities([i for i, d in near.items() if d == 1]).values()
    return [e for e in found if e.attributes.get(key) == exchange.name]


# "moved to November 17 to 24": what follows the verb is where or when to, not its object
# ("swapped on-call weeks" has one).
_NO_PREPOSITION = r"(?!(?:to|from|until|till|back|into|onto|on|at|by|for|over)\b(?![\-'’]))"
_FIRST_PERSON_SUBJECT = re.compile(r"^\W*(?:i|we|i'm|we're|i've|we've)\b", re.I)
# What a change is said of: the object of its verb ("moved the standup to ...", "swapped
# on-call weeks with Priti"), what follows "from now on" ("from now on the standup is
# ..."), or the sentence's subject before its verb ("the standup is now ...", "standup got
# moved").
_OBJECT = re.compile(
    rf"\b(?:{_CHANGED}|push|pushed|bumped)\s+{_NO_PREPOSITION}((?:[\w'’\-]+\s+){{1,3}}?)"
    r"(?:to|from|over|back|into|onto|until|till|for|starting|beginning|on|at|by|with)\b",
    re.I,
)
# ... or the object a clause ends on: "Marta changed my plan: long runs on Saturdays now"
# changed the plan, not Marta.
_OBJECT_ENDS = re.compile(
    rf"\b(?:{_CHANGED})\s+{_NO_PREPOSITION}"
    r"((?:[\w'’\-]+\s+){0,2}[\w'’\-]+)\s*[:;,.!?]",
    re.I,
)
# ... or, when the object is a person ("Rui switched me to cycling and swimming", "they
# moved us to the 7am slot"), what they were moved to: who made the change is no topic.
_PERSON_MOVED = re.compile(
    rf"\b(?:{_CHANGED}|push|pushed)\s+(?:me|us|him|her|them)\s+(?:over\s+|back\s+)?"
    r"(?:to|into|onto)\s+((?:[\w'’\-]+\s+){0,3}?[\w'’\-]+)"
    r"(?=\s+(?:until|till|because|since|so|when|after|before|for|while|from|last|this|next|"
    r"yesterday|today|tonight|on|in|at)\b|\s*[,.;!?:]|\s*$)",
    re.I,
)
# "Rui cut the plan to 30 km a week": cut to an amount.
# ("Dr Shah upped the amlodipine to 10mg", "upped her commitment to 150k": upped too.)
_CUT_TO = re.compile(
    r"\b(?:cut|upped)\s+((?:[\w'’\-]+\s+){1,3}?)(?:to|by|down\s+to|up\s+to)\s+[£$€]?\d", re.I
)
_FROM_NOW_ON = re.compile(
    r"\b(?:from now on|going forward|from today|as of (?:today|now))\s*,?\s+"
    r"((?:[\w'’\-]+\s+){1,3}?)(?:is|are|will|moves?|happens?|takes?)\b",
    re.I,
)
# "we decided to target EMNLP instead of ACL, Elaine thinks ...": what was replaced (not
# "my supervisor is Elaine").
_INSTEAD_OF = re.compile(
    r"\binstead\s+of\s+(?:the\s+|an?\s+|my\s+|our\s+)?((?:[\w'’\-]+\s+){0,2}?[\w'’\-]+)"
    r"(?=\s*[,.;!?:]|\s*$|\s+(?:since|because|as|so|for|from|on|at|in|this|next|now|and|but)\b)",
    re.I,
)
_VERB = re.compile(r"\s(?:is|are|was|were|will|has|have|had|got|gets|get|goes|go)\b.*", re.I)


_ADVERBS = frozenset({"actually", "instead", "turns out"})
# ...of which these say nothing of what changed ("planting on April 18 instead" does).
_HEDGES = frozenset({"actually", "turns out"})
_PRONOUN = re.compile(r"(?:i|we|you|he|she|they|it)(?:['’][a-z]+)?", re.I)


def _head(message: str) -> str:
    """The words before a change statement's verb of change, in its clause, with the verb
    "be" or "get" off ("The offsite got", "Kwame is"): "" when there are none."""
    m = next((c for c in CHANGE.finditer(message) if c.group().lower() not in _ADVERBS), None)
    if m is None:
        return ""
    return _VERB.sub("", re.split(r"[.;!?,:]", message[: m.start()])[-1])


# Someone who told of a change: "Margaret says make it 20", "Priya said too many are off".
_REPORTER = re.compile(
    r"\b([A-Z][\w'’\-]+)\s+(?:says|said|thinks|reckons|mentioned|suggested|tells\s+me|"
    # ...unless they speak of themselves: "Dave says he can't make Tuesday".
    r"told\s+me)\b(?!\s+(?:that\s+)?(?:he|she|they|i)\b)"
)


def _reporters(text: str) -> set[str]:
    """Stems of the names that report something in `text` ("Margaret says ...")."""
    return {stem(m.group(1).lower()) for m in _REPORTER.finditer(text)}


def _agent(message: str) -> set[str]:
    """Who made a change, when a name comes right before its verb ("Kwame is leaving
    Brightline", "Sofia said Kwame is leaving", "Rui cut the plan"): that name."""
    words = _head(message).split()
    if not words or _PRONOUN.fullmatch(words[-1]):
        return set()  # "We're switching flour suppliers": nobody named
    return anchors(words[-1]) if _NAME_LIKE.fullmatch(words[-1]) else set()


# "my new contact is Rachel Green": of the contact; "Trip moved again, new date is 22
# October" is of the trip (a new date or time is of what the sentence moved, when it says
# a verb: "Supervisor agreed, new deadline is April 1" is of the deadline).
_NEW_ONE = re.compile(r"\bnew\s+((?:[\w'’\-]+\s+){0,2}?[\w'’\-]+)\s+(?:is|will\s+be)\b", re.I)
_CHANGE_VERB_SAID = re.compile(
    r"\b(?:mov|shift|push|bump|postpon|reschedul|delay|brought|chang|switch)\w*\b", re.I
)
_NEW_WHEN = re.compile(r"^(?:start\s+)?(?:date|dates|time|times|day|days|deadline|slot)$", re.I)


def _object(message: str) -> set[str]:
    """What a change was made to, when the statement says it after its verb ("moved the
    standup to ...", "from now on the standup is ..."): who made it is someone else."""
    for pattern in (
        _NEW_ONE,
        _THEY_WITHDREW,
        _WITHDREW,
        _PERSON_MOVED,
        _CUT_TO,
        _OBJECT,
        _OBJECT_ENDS,
        _FROM_NOW_ON,
        _INSTEAD_OF,
    ):
        if pattern is _THEY_WITHDREW and (m := pattern.search(message)):
            # Of what speaks of them ("Raj is coming to Dave's bachelor party"), whatever
            # the event is called.
            return topic(m.group(2))
        if (m := pattern.search(message)) and (said := topic(m.group(1))):
            if (
                pattern is _NEW_ONE
                and _NEW_WHEN.match(m.group(1))
                and _CHANGE_VERB_SAID.search(message)
            ):
                continue
            return said
    return set()


def _subject(message: str) -> set[str]:
    """What a change statement is about: "moved the standup to ...", "from now on the
    standup is ...", "The offsite (got) moved", "standup is on Thursdays now"."""
    if said := _object(message):
        return said
    # "Actually the ceremony moved to 5pm": the subject comes before the verb, not before
    # the adverb that opens the sentence.
    head = _head(message)
    if not head.strip() or _FIRST_PERSON_SUBJECT.match(head):
        return set()
    return topic(head)


# A habit ("I get the 47 bus every day") is replaced by a lasting change only, not by one
# day's ("the 47 bus got cancelled so I got a taxi"), ...
_HABIT = re.compile(
    rf"\b(?:every\s+(?:other\s+)?(?:day|morning|evening|night|week|weekday|weekend|{_DAYS})|"
    rf"each\s+(?:day|morning|evening|week)|daily|usually|always|normally|most\s+(?:days|"
    rf"mornings|evenings)|on\s+(?:{_DAYS})s)\b",
    re.I,
)
# ...a change that befalls one day ("got cancelled", "postponed", "delayed"); "Dr. Banks
# lowered Dad's warfarin to 2mg" lasts.
_ONE_OFF = ("cancel", "postpon", "delay", "push", "bump", "call")


def _once(message: str) -> bool:
    """Whether every cue of change in `message` tells a thing that befell once."""
    cues = [m.group().lower() for m in CHANGE.finditer(message)]
    return bool(cues) and all(c.startswith(_ONE_OFF) for c in cues)


# "switching dentists to", "we changed accountants to": a role's holder replaced.
_SWITCHED_ROLE = re.compile(r"\b(?:switch|chang)\w*\s+([a-z]+?)s\s+to\b", re.I)
_TO_CHOOSE = re.compile(
    r"\b(?:choose|choosing|pick|picking|decide|deciding|select|selecting)\b", re.I
)
# "I withdrew from Contoso, I'm going with Northwind": what was withdrawn from, not what
# the rest of the sentence names.
_WITHDREW = re.compile(
    r"\b(?:withdrew|withdrawn|pulled out|dropped out|backed out)\s+(?:of|from)\s+(?:the\s+)?"
    r"((?:[\w'’&-]+)(?:\s+(?!(?:and|but|so|because)\b)[\w'’&-]+){0,2})",
    re.I,
)


# "raj has pulled out of the stag, his cousin dev is coming instead": what changed is who
# comes (what said raj is coming), not the stag's dates.
# Not a change said of long ago ("Tom dropped out of uni years ago" leaves "Tom is coming
# to the reunion").
_THEY_WITHDREW = re.compile(
    r"(?:^|[.;!?]\s+|,\s+)(?!(?:i|we|also|so|and|but|then|now|sadly|unfortunately)\b)"
    r"(([a-z][\w'’-]+)\s+(?:has\s+|have\s+|had\s+|just\s+|now\s+)*"
    r"(?:withdrawn|withdrew|pulled\s+out|dropped\s+out|backed\s+out)"
    r"(?:\s+(?:of|from)\s+(?:the\s+|a\s+|an\s+|his\s+|her\s+|their\s+|our\s+|my\s+)?"
    r"([\w'’-]+))?)(?![^.;!?]*\b(?:ago|once|last\s+year|back\s+in|(?:in|since)\s+(?:19|20)\d\d)\b)",
    re.I,
)


# The value a change moves to: "switched to an electric Kia Niro", "moved it to Thursdays".
NEW_VALUE = re.compile(
    r"\b(?:to|now|for)\s+(?:an?\s+|the\s+)?(?:[a-z]+\s+){0,2}?([A-Z0-9][\w&'’\-:]*(?:\s+[A-Z0-9][\w&'’\-:]*)*)"
)


def successors(
    store: Store, message: str, retired: list[Retired], by: str, when: str
) -> list[Entity]:
    """New current facts for the retired `Fact`s whose new value the statement names,
    unless the statement itself told the new one ("Dr. Aziz increased my metformin to
    1000mg twice a day" is a medication fact of its own, not "medication: 1000mg")."""
    m = NEW_VALUE.search(message)
    if m is None:
        return []
    said_value = m.group(1).strip()
    facts = [
        r.entity
        for r in retired
        if r.entity.type == "Fact"
        and r.entity.attributes.get("subject")
        and r.entity.attributes.get("predicate")
        and r.entity.attributes.get("value") != said_value
    ]
    if not facts:
        return []  # nothing to succeed: no reads of what this statement taught
    exchange = store.get_entity(CHAT_EXCHANGE, by)
    told = {
        (e.attributes.get("subject"), e.attributes.get("predicate"))
        for e in (_learned_from(store, exchange) if exchange else [])
        if e.type == "Fact"
    }
    said_now = topic(message)
    out = []
    for fact in facts:
        attrs = fact.attributes
        subject, predicate, old = attrs.get("subject"), attrs.get("predicate"), attrs.get("value")
        if (subject, predicate) in told:
            continue
        value = _new_value(str(old or ""), said_value, said_now)
        if value is None:
            continue  # "upped the atorvastatin to 40mg" is no new value of the amlodipine
        who = "The user's" if subject == "User" else f"{subject}'s"
        out.append(
            Entity(
                0,
                "Fact",
                f"{subject}'s {predicate}: {value}"[:200],
                f"{who} {predicate}: {value} (since {when}; before: {old}).",
                {
                    "subject": subject,
                    "predicate": predicate,
                    "value": value,
                    "valid_from": when,
                    "source_exchange": by,
                },
            )
        )
    return out


# An amount, with its unit: "10mg", "£66k", "3 days".
_QUANTITY = re.compile(r"[£$€]?\d[\d.,]*\s*(?:[a-z%]{1,5}\b)?", re.I)


def _new_value(old: str, value: str, said_now: set[str]) -> str | None:
    """The value a fact moves to: as said, but where only an amount was said, the old
    value with its amount replaced ("Dr Shah upped the amlodipine to 10mg": "amlodipine
    5mg every morning" becomes "amlodipine 10mg every morning", not "10mg"), and None
    where the statement (`said_now`, its topic) does not speak of the fact at all."""
    if not _QUANTITY.fullmatch(value):
        return value
    if not topic(old) & said_now:
        return None
    q = _QUANTITY.search(old)
    return value if q is None else old[: q.start()] + value + old[q.end() :]


# A person's description holds what was said of them; changes are added, up to this long.
MAX_PERSON_DESCRIPTION = 800


def person_note(message: str, when: str) -> str:
    """What a change said on `when` adds to a person's description (`amend_people`): from
    as much of the message as its exchange keeps, so forgetting the exchange finds it."""
    kept = message[:USER_MESSAGE_CHARS]
    change = _cue_sentences(_SPEAKER.sub("", kept, count=1), "change").strip()
    return f" Since {when}: {change.rstrip('.')}."


def amend_people(store: Store, retired: list[Retired], message: str, when: str) -> list[Entity]:
    """The people described by what a change replaced, with the change added to their
    description: "Lily has swim practice tuesdays and thursdays" gets "Since 2026-11-28:
    lily's swim practice moved to wednesdays." People outlive statements, so they are
    amended, not retired."""
    added = person_note(message, when)
    said_of = topic(message)
    out = []
    for r in retired:
        if r.entity.type != CHAT_EXCHANGE:
            continue
        changed = topic(r.part or said(r.entity))
        for p in _learned_from(store, r.entity):
            if p.type != "Person":
                continue
            own = topic(f"{p.name} {p.attributes.get('role') or ''}")
            about = changed & topic(p.description) - own
            # Where the change does not name them, what it changed must be theirs by more than
            # a word: "we had to raise the adult entry to £18" is no note on Graham, who
            # "handles the entry fees"; "Swimming moved to Tuesdays" is one on Leo, who "has
            # swimming on Mondays and Wednesdays at 5pm at the Aquadome".
            if not (topic(p.name) & said_of or len(about) >= 2):
                continue
            text = p.description + added
            if about and len(text) <= MAX_PERSON_DESCRIPTION:
                out.append(store.upsert_entity("Person", p.name, text, None))
    return out


# A promise taken back: "scrap what I said about ...", "cancel that", "Claire's taking that
# over", "I'm no longer doing ...".
_TAKEN_BACK = re.compile(
    r"\b(?:scrap\w*|cancel\w*|call(?:ed|ing)?\s+(?:it\s+)?off|drop(?:ped|ping)?|no\s+longer|"
    r"taking\s+(?:that|it|this)\s+over|take\s+(?:that|it|this)\s+over|forget\s+(?:about\s+)?"
    r"(?:it|that)|not\s+(?:doing|going\s+to\s+do))\b",
    re.I,
)
# "The report deadline moved to Monday", "pushed to December 5": the day a change moves to.
_NEW_DAY = re.compile(rf"\b(?:to|until|till|now due|due|by)\s+(?P<day>{DAY})", re.I)


def new_due(message: str, when: str) -> str | None:
    """The day (YYYY-MM-DD) a change said on `when` moves something to, or None."""
    m = _NEW_DAY.search(message)
    day = resolve(m.group("day"), date.fromisoformat(when[:10]), end=False) if m else None
    return day.isoformat() if day else None


def retire(
    store: Store,
    retired: list[Retired],
    by: str,
    when: str,
    due: str | None = None,
    message: str = "",
) -> list[str]:
    """Mark each retired entity with its end date and what retired it; (type:name) list.

    A commitment whose day a change moved (`due`) stays open, due then; one the change
    names with the day it had is dropped when the change (`message`) takes it back ("Scrap
    what I said about the forms by end of November"), else left as it was ("she still
    needs the receipts by 20 November")."""
    rows: list[tuple[str, str, str | None, dict[str, object] | None]] = []
    moved_by: list[str] = []
    for r in retired:
        same_day = due is not None and due == r.entity.attributes.get("due")
        if r.entity.type == "Commitment" and r.why == "changed" and same_day:
            if not _TAKEN_BACK.search(message):
                continue
        elif r.entity.type == "Commitment" and r.why == "changed" and due:
            moved = f"{r.entity.description.rstrip()} Moved to {due} on {when}."
            rows.append((r.entity.type, r.entity.name, moved, {"due": due, "due_moved_by": by}))
            moved_by.append(r.entity.name)
            continue
        attrs: dict[str, object] = {"valid_to": when, "superseded_by": by}
        if r.part or r.entity.attributes.get("superseded_part"):
            attrs["superseded_part"] = r.part or None  # all of it, now
        if r.entity.type == "Commitment":
            attrs["status"] = "dropped" if r.why == "changed" else "done"
        rows.append((r.entity.type, r.entity.name, None, attrs))
    if rows:
        store.upsert_many(rows)  # one write transaction for all of them
    # The promise is linked to what moved it, so what later keeps or ends that finds it
    # (nothing else of the turn waits on the link).
    for name in moved_by:
        with contextlib.suppress(NotFound):
            store.relate(("Commitment", name), "due_moved_by", (CHAT_EXCHANGE, by))
    return [f"{t}:{n}" for t, n, _, _ in rows]
