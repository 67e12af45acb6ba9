"""Fingerprints of a message for comparing guidance: topic terms, values, polarity, subject.

The conflict heuristic (documented here because the tests and the README point to it):

- Two items are on the same topic when they share at least two content terms, or one
  that is at least half of the shorter item's content terms. Content terms are
  lower-cased words, lightly stemmed, without stop words, instruction words
  ("always", "please", "make sure") or values (below): "Never deploy on Fridays"
  and "Finish the migration by Friday" share only a value, so no topic.
- Same topic plus any of these is a conflict, and the newer item wins:
  1. a replacement cue in the newer one ("instead", "actually", "switch to",
     "from now on", "no longer", "correction") with two or more shared content terms;
  2. opposite polarity: one is negated ("never", "don't", "stop", "no longer") and
     the other is not, and the values of one include the other's (the same case);
  3. different values: each side has a value the other lacks — numbers, times,
     weekdays, months, #channels, @handles, quoted text, capitalised names — and
     they share two content terms or have the same ones (the same instruction).
  Rules 2 and 3 need one target: when each side has a content term the other lacks
  ("check the invoices queue" / "check the backups queue") they are two instructions.
- An additive cue ("also", "as well", "in addition") is never a conflict.
- Same topic, one target, same polarity and values, and a Jaccard overlap of at
  least 0.6 is a restatement: it refreshes the older item instead of adding one.
- People claims (role, trust) compare by subject: the same person and the same kind
  of claim is a conflict unless it restates the old one or is additive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

_TOKEN = re.compile(
    r"\"[^\"]{1,60}\"|“[^”]{1,60}”|[#@][\w\-]+|\d{1,2}(?::\d\d)?\s?(?:am|pm)\b|\d+(?:[.,:]\d+)*%?"
    r"|[A-Za-z][A-Za-z0-9_'’\-]*",
    re.IGNORECASE,
)

STOP = frozenset(
    "a an the and or but if then than so to of in on at by for with from into onto about as is "
    "are was were be been being am do does did doing have has had having i me my mine we us our "
    "ours you your yours he him his she her hers it its they them their theirs this that these "
    "those there here what which who whom whose when where why how all any both each few more "
    "most other some such only own same too very can will just should would could may might must "
    "shall now also not no nor yes ok okay please pls kindly always never ever make sure ensure "
    "remember going forward dont don't do not let lets let's thing things stuff get got via per "
    "again still until till up down out over under off once one bit need needs want like "
    # Cues about the message, not its topic.
    "actually instead rather reminder fyi btw asap urgent important correction additionally "
    "anymore longer every "
    # Words that point back at earlier guidance ("forget the earlier rule about X"): two
    # such messages share them whatever X they are about.
    "forget earlier previous former scrap disregard said rule rules".split()
)
_NEGATION = re.compile(
    r"\b(?:not|never|no longer|don'?t|do not|doesn'?t|does not|stop|avoid|without|cannot|can'?t|"
    r"won'?t|shouldn'?t|mustn'?t|isn'?t|aren'?t|no|nobody|none|nothing|neither|refuse|forbid\w*|"
    r"ban|disable)\b",
    re.IGNORECASE,
)
REPLACEMENT = re.compile(
    r"\b(?:instead|actually|rather|switch(?:ed)? to|change(?:d)? (?:it |that )?to|from now on|"
    r"no longer|any ?more|correction|scratch (?:that|the|what|my)|update:|new rule|moving forward|"
    r"going forward|change of plans?|update to|replaces?|swap|"
    r"(?:forget|scrap|ignore|disregard|drop|never ?mind) (?:what i said|my (?:earlier|previous|old)|"
    r"the (?:earlier|old|previous|former)|the \w+ rule|the rule))\b",
    re.IGNORECASE,
)
_ADDITIVE = re.compile(r"\b(?:also|as well|in addition|additionally|too)\b", re.IGNORECASE)
_CALENDAR = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday weekday weekend weekends mondays "
    "tuesdays wednesdays thursdays fridays saturdays sundays january february march april may "
    "june july august september october november december daily weekly monthly hourly "
    "morning afternoon evening night midnight noon".split()
)
# Verbs an instruction starts with; a capitalised one is grammar, never a person's name.
VERBS = frozenset(
    "add answer approve archive ask avoid back backup be begin block book bump buy call cancel cc "
    "change charge check clean close collect commit confirm contact copy create cut decline delete "
    "deploy disable document double-check draft drop email enable escalate file filter fix flag "
    "focus follow forward give handle hold ignore include invite invoice keep label limit log "
    "look mail mention merge message migrate monitor move mute notify order pause pay ping plan "
    "post prefer prepare prioritize prioritise publish pull push put queue read reboot refund "
    "reject release remind remove rename renew reply report reschedule respond restart restore "
    "resume review rotate route run save schedule send set share ship sign skip start stay stop "
    "store submit summarize summarise switch tag tell test text track treat try turn update "
    "upgrade upload use verify wait warn watch write".split()
)
_NOT_NAMES = VERBS | frozenset(
    "i the this that these those it he she they we you there here what which who when where why "
    "how please always never don't dont do make keep use send post ensure remember if from "
    "going our my your their his her every each no yes ok trust never always only".split()
)

RESTATE_JACCARD = 0.6
MAX_TERMS = 24


class Relation(StrEnum):
    UNRELATED = "unrelated"
    COMPATIBLE = "compatible"  # same topic, both stand
    RESTATES = "restates"
    CONFLICTS = "conflicts"


@dataclass(frozen=True)
class Fingerprint:
    terms: frozenset[str]
    values: frozenset[str]
    negative: bool
    replacement: bool
    additive: bool
    subject: str | None


def stem(word: str) -> str:
    """A light, deterministic stem: enough that 'reports'/'report' and 'sending'/'send' meet."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    for suffix, keep in (("ing", 4), ("ies", 3), ("ed", 4), ("es", 4), ("s", 3)):
        if w.endswith(suffix) and len(w) - len(suffix) >= keep and not w.endswith("ss"):
            w = w[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return w


@lru_cache(maxsize=16_384)  # builds re-read the same messages; fingerprints are pure
def fingerprint(text: str) -> Fingerprint:
    """The topic terms, values, polarity and subject of `text`."""
    terms: list[str] = []
    values: set[str] = set()
    subject: str | None = None
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        low = tok.lower()
        if tok[0] in '"“' or tok[0] in "#@" or tok[0].isdigit():
            value = " ".join(low.strip('"“”').split())
            values.add(value)
            terms.append(value)
            continue
        if low in STOP or len(low) < 3 and not tok.isupper():
            continue
        word = stem(low)
        if low in _CALENDAR:
            values.add(word)
        elif tok[0].isupper() and low not in _NOT_NAMES:
            word = low  # a name: "Postgres" is no plural
            if subject is None:
                subject = word
            if not _starts_sentence(text, m.start()):
                values.add(word)
        terms.append(word)
        if len(terms) >= MAX_TERMS:
            break
    return Fingerprint(
        terms=frozenset(terms),
        values=frozenset(values),
        negative=_NEGATION.search(text) is not None,
        replacement=REPLACEMENT.search(text) is not None,
        additive=_ADDITIVE.search(text) is not None,
        subject=subject,
    )


def _starts_sentence(text: str, pos: int) -> bool:
    # A capital after a full stop is grammar, not a name, so it is no value.
    i = pos - 1
    while i >= 0 and text[i] in " \t\"'“(*-":
        i -= 1
    return i < 0 or text[i] in ".!?;:\n"


def same_topic(a: Fingerprint, b: Fingerprint) -> bool:
    """True when `a` and `b` talk about the same thing (see the module docstring).

    Only content terms count: sharing just a value ("Friday", "9am") is no topic.
    """
    ca, cb = a.terms - a.values, b.terms - b.values
    shared = len(ca & cb)
    if shared == 0:
        return False
    return shared >= 2 or shared / max(1, min(len(ca), len(cb))) >= 0.5


def jaccard(a: Fingerprint, b: Fingerprint) -> float:
    """Overlap of the topic terms of `a` and `b`, 0..1."""
    union = a.terms | b.terms
    return len(a.terms & b.terms) / len(union) if union else 1.0


def compare(old: Fingerprint, new: Fingerprint, *, people: bool = False) -> tuple[Relation, str]:
    """How `new` relates to `old`, with the reason when it conflicts."""
    if people:
        if old.subject is None or old.subject != new.subject:
            return Relation.UNRELATED, ""
    elif not same_topic(old, new):
        return Relation.UNRELATED, ""
    old_content, new_content = old.terms - old.values, new.terms - new.values
    # Each names something the other doesn't ("check the invoices queue" / "check the
    # backups queue"): two targets, so neither a restatement nor a clash of values.
    two_targets = bool(old_content - new_content) and bool(new_content - old_content)
    same_claim = old.negative == new.negative and old.values == new.values
    if same_claim and (people or not two_targets) and jaccard(old, new) >= RESTATE_JACCARD:
        return Relation.RESTATES, ""
    if new.additive:
        return Relation.COMPATIBLE, ""
    if people:
        return Relation.CONFLICTS, "new claim about the same person"
    gone, added = old.values - new.values, new.values - old.values
    change = f"{_show(gone)} → {_show(added)}" if gone and added else ""
    if new.replacement and len(old_content & new_content) >= 2:
        return Relation.CONFLICTS, f"replaced: {change}" if change else "replaced"
    if two_targets:
        return Relation.COMPATIBLE, ""
    # A negation clashes only for the same case: "never deploy on Fridays" says
    # nothing against "use the deploy key for the mirror", which names no Friday.
    same_case = old.values <= new.values or new.values <= old.values
    if old.negative != new.negative and same_case:
        return Relation.CONFLICTS, "opposite instruction"
    # A new value clashes only with the same instruction: one shared content word
    # ("deploy") is too little unless it is all either side says.
    if change and (len(old_content & new_content) >= 2 or old_content == new_content):
        return Relation.CONFLICTS, change
    if new.replacement:
        return Relation.CONFLICTS, "replaced"
    return Relation.COMPATIBLE, ""


def _show(values: frozenset[str]) -> str:
    return "/".join(sorted(values)[:2])
