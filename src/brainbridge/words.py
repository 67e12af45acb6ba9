"""Words of free text as every layer splits them: the bridge, search and the curator
use them whatever the store; a store's text index (FTS5 here) is built on the same split."""

from __future__ import annotations

import math
import re

# Letters and digits, split where FTS5's unicode61 tokenizer splits (so "_" too).
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_US = re.compile(r"\bUS\b")
# A possessive ending: "Ana's" is Ana, "Kevin's cohort" names Kevin ("O'Brien" keeps its own).
POSSESSIVE = re.compile(r"['’]s$")

# Letters as names are written: "Tomás", "Søren", "Łukasz", "Zoë" (Latin with accents), for
# regular-expression classes: f"[{UPPER}][{LOWER}]+".
_LATIN = [chr(c) for c in range(0xC0, 0x250)]
UPPER = "A-Z" + "".join(c for c in _LATIN if c.isupper())
LOWER = "a-z" + "".join(c for c in _LATIN if c.islower())

# Words that carry no topic; dropping them keeps OR-queries fast and rankings sharp.
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours us
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    also get got go going gonna let lets like make made many may might much must need ok okay really
    said say says still tell thing things think want wanted well yeah yes""".split()
)

# Days and months: capitalised, yet no one's name and no topic ("on Friday", "Thursdays",
# "in March"); two statements that share only a date are not about the same thing.
_DAYS = "monday tuesday wednesday thursday friday saturday sunday"
CALENDAR_WORDS = frozenset(
    (_DAYS + " " + " ".join(d + "s" for d in _DAYS.split())).split()
    + """january february march april may june july august september october november
    december""".split()
)


def query_terms(text: str, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased word tokens of `text`, stopwords dropped, order kept, no duplicates."""
    seen: dict[str, None] = {}
    # "costing us" says nothing; "the US" is a country.
    country = {"us"} if _US.search(text) else set()
    for word in _WORD.findall(text.lower()):
        if word.isdigit() and len(word) < 2:
            continue
        if not keep_stopwords and word in STOPWORDS and word not in country:
            continue
        seen.setdefault(word, None)
    return list(seen)


# Tokens are counted pessimistically, the same way wherever a budget is kept (the
# prompt-time block, the SessionStart digest): a text is taken to be this dense.
CHARS_PER_TOKEN = 3.5


def estimate_tokens(text: str) -> int:
    """A deliberately pessimistic token count for budgeting."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


# Abbreviations written with a dot that ends no sentence: "Dr. Ahmed", "Mrs. Okafor", "St.".
_ABBREVIATIONS = ("dr", "mr", "mrs", "ms", "mx", "prof", "st", "vs")
# A full stop that is not an abbreviation's, as a pattern ("Ben's teacher is Mrs. Okafor."
# ends once).
FULL_STOP = "".join(rf"(?<!\b(?i:{t}))" for t in _ABBREVIATIONS) + r"\."
# A sentence's end: a full stop (not "Dr."), "!" or "?", then space.
SENTENCE_END = re.compile(rf"(?:(?<=[!?])|(?<={FULL_STOP}))\s+")


# "I also need to ...", "we still have to ...": an adverb between a speaker and a promise.
PROMISE_ADVERB = r"(?:\s+(?:also|still|really|just|definitely|first|then|probably))?"
# "book a van for the 12th and tell the landlord our date": a second task after "and",
# told by its verb ("call mum and dad" is one).
_TASK_VERBS = """tell send book call email buy pay order finish write review submit pick drop fix cover
    clean check ask update prepare schedule cancel renew sign file return post ship print
    read reply confirm arrange organise organize plan get make take bring collect fill install
    deploy test merge draft share invite remind contact text message visit meet move pack
    sort set run do find choose decide register apply transfer upload download"""
# A task told by its verb: "cover the December 24 night shift".
TASK_VERB = r"(?:" + "|".join(_TASK_VERBS.split()) + r")"
SECOND_TASK = re.compile(r",?\s+and\s+(?:then\s+|also\s+)?(?=" + TASK_VERB + r"\s)", re.I)
# Words a count is said with ("three tins", "12 kids").
COUNTS = r"two|three|four|five|six|seven|eight|nine|ten|twelve|\d+"


def with_article(thing: str) -> str:
    """`thing` after its indefinite article ("an invoice template")."""
    return ("an " if thing[:1].lower() in "aeiou" else "a ") + thing
