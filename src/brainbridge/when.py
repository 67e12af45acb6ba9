"""Calendar phrases in messages: a day ("the 9th", "next Friday", "January 15") and the
time bounds of guidance ("until Friday", "starting the 20th", "for the rest of the week").

Absolute dates ("January 15", "Dec 1st", "2026-12-01", a bare weekday) are read by
`dateparser`, a maintained parser. It is not asked what it gets wrong or cannot read
(measured on 2026-11-25 with dateparser 1.5.0): a bare ordinal ("the 9th" gave a day
in September of the next year), spans ("the end of the month", "next sprint", "the
rest of the week" give nothing) and "next <weekday>", which here means that weekday
in the coming calendar week. Those are computed below from a `Calendar`.

Bounds are inclusive days in the brain's timezone: "until Friday" holds through Friday.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_NUMBERS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
} | {"a": 1, "an": 1, "couple of": 2, "few": 3}
_UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14}


@dataclass(frozen=True)
class Calendar:
    """What a span means here: sprints start on `sprint_start` and last `sprint_days`.

    With no sprint start the sprint is taken to be the calendar week.
    """

    sprint_start: date | None = None
    sprint_days: int = 14

    def sprint(self, today: date, ahead: int = 0) -> tuple[date, date]:
        """First and last day of the sprint holding `today` (`ahead` sprints later)."""
        if self.sprint_start is None or self.sprint_days < 1:
            first = today - timedelta(days=today.weekday()) + timedelta(weeks=ahead)
            return first, first + timedelta(days=6)
        n = (today - self.sprint_start).days // self.sprint_days + ahead
        first = self.sprint_start + timedelta(days=n * self.sprint_days)
        return first, first + timedelta(days=self.sprint_days - 1)


@dataclass(frozen=True)
class Bounds:
    """When guidance holds: `starts`/`ends` inclusive, or `open_ended` ("till further
    notice"); `said` quotes the words that set them."""

    starts: date | None = None
    ends: date | None = None
    open_ended: bool = False
    said: str = ""

    def __bool__(self) -> bool:
        return self.starts is not None or self.ends is not None or self.open_ended


NONE = Bounds()


def span(
    period: str, today: date, ahead: int = 0, calendar: Calendar = Calendar()
) -> tuple[date, date]:
    """First and last day of the `period` ("day", "week", "weekend", "month", "quarter",
    "year", "sprint", "q1".."q4") holding `today`, or `ahead` periods later."""
    p = period.lower()
    if p in ("day", "today"):
        d = today + timedelta(days=ahead)
        return d, d
    if p == "week":
        first = today - timedelta(days=today.weekday()) + timedelta(weeks=ahead)
        return first, first + timedelta(days=6)
    if p == "weekend":
        # On a Sunday "this weekend" is the one under way, and "next weekend" the one after.
        sat = today + timedelta(days=(5 - today.weekday()) % 7)
        if today.weekday() == 6:
            sat = today - timedelta(days=1)
        sat += timedelta(weeks=ahead)
        return sat, sat + timedelta(days=1)
    if p == "sprint":
        return calendar.sprint(today, ahead)
    if p == "month":
        first = _add_months(today.replace(day=1), ahead)
        return first, _add_months(first, 1) - timedelta(days=1)
    if p == "quarter" or re.fullmatch(r"q[1-4]", p):
        q = (today.month - 1) // 3 if p == "quarter" else int(p[1]) - 1
        year = today.year
        if p != "quarter" and q < (today.month - 1) // 3:
            year += 1  # "Q1" said in November is next year's
        first = _add_months(date(year, 3 * q + 1, 1), 3 * ahead)
        return first, _add_months(first, 3) - timedelta(days=1)
    if p == "year":
        y = today.year + ahead
        return date(y, 1, 1), date(y, 12, 31)
    raise ValueError(f"unknown period {period!r}")


def _add_months(d: date, n: int) -> date:
    m = d.month - 1 + n
    return d.replace(year=d.year + m // 12, month=m % 12 + 1)


# ("weekend" before "week": "next weekend" is no "next week" and an "end".)
_PERIOD = r"(?:day|weekend|week|month|quarter|year|sprint|q[1-4])"
_WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?"
MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
# The year after "1 March": this century's, and not a count or a time of day ("by 12 June
# 2000 words", "moved to 20 December, 2000 tickets sold", "on 12 June 2030 departure").
_YEAR = (
    r"(?:,? 20\d\d(?![\d:.]\d|\s*(?:words?|people|persons|runners|guests|copies|pounds|quid|"
    r"euros?|dollars|tickets|pages|units|items|hours?|hrs|h|start|sharp|departure|arrival|"
    r"kick-?off|uk|gmt|bst|cet|utc|local|is|was|are|were|pm|am|ish)\b))?"
)
# A weekday with its date ("Friday the 11th", "Fri, Dec 11", "Friday 11th December"): the
# date is the day meant; the weekday alone would name the coming one.
_DATED_WEEKDAY = (
    rf"{_WEEKDAY},? (?:the {_ORD}(?: of {MONTH})?|{MONTH}\.? {_ORD}(?:,? \d{{4}})?|"
    rf"\d{{1,2}}(?:st|nd|rd|th)(?: (?:of )?{MONTH}{_YEAR})?|\d{{1,2}} {MONTH}{_YEAR})"
)
# A time of day: "7pm", "10:30", "noon", "9 o'clock".
TIME = r"\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\d{1,2}:\d\d|noon|midnight|o['’]clock"
# One day, as people write it. Spans ("the end of the month") resolve to their last day.
DAY = (
    rf"(?:{_DATED_WEEKDAY}|(?:the )?end of (?:the |this |next )?{_PERIOD}|eo[dwm]|"
    rf"(?:this |next |coming |the coming )?{_WEEKDAY}(?: (?:morning|noon|afternoon|evening|night))?|"
    rf"{MONTH}\.? {_ORD}(?:,? \d{{4}})?|(?:the )?{_ORD} of {MONTH}(?:,? \d{{4}})?|"
    rf"{_ORD} {MONTH}{_YEAR}|the {_ORD}|\d{{4}}-\d{{2}}-\d{{2}}|tomorrow|today|tonight|"
    rf"(?:the )?(?:start|beginning) of (?:the |this |next )?{_PERIOD}|next {_PERIOD}|"
    rf"(?:the )?(?:end|start|beginning) of {MONTH}(?:,? \d{{4}})?)"
)

# A date written out ("December 24", "the 3rd of May", "2026-12-24", "Fri, Dec 11"): what a
# promise may name inside its task ("cover the December 24 night shift").
DATE = (
    rf"(?:{_DATED_WEEKDAY}|{MONTH}\.? {_ORD}(?:,? \d{{4}})?|(?:the )?{_ORD} of {MONTH}(?:,? \d{{4}})?|"
    rf"{_ORD} {MONTH}{_YEAR}|\d{{4}}-\d{{2}}-\d{{2}})"
)


def resolve(
    phrase: str, today: date, calendar: Calendar = Calendar(), *, end: bool = True
) -> date | None:
    """The day `phrase` names, on or after `today` (a day in the last month for a bare
    month-day), or None. A span ("next week", "the end of the sprint") gives its last
    day when `end`, else its first."""
    p = " ".join(phrase.lower().replace(",", " ").split()).removesuffix(".")
    if not p:
        return None
    if p in ("today", "tonight", "eod", "end of day", "end of the day"):
        return today
    if p == "tomorrow":
        return today + timedelta(days=1)
    if p in ("eow", "end of week", "end of the week", "the end of the week", "end of this week"):
        return span("week", today)[0] + timedelta(days=4)  # the working week ends on Friday
    if p in ("eom",):
        return span("month", today)[1]
    if m := re.fullmatch(
        rf"(?:the )?(end|start|beginning) of (?:the |this |(next) )?({_PERIOD})", p
    ):
        first, last = span(m.group(3), today, 1 if m.group(2) else 0, calendar)
        return last if m.group(1) == "end" else first
    if m := re.fullmatch(rf"(?:the )?(end|start|beginning) of ({MONTH})(?: (\d{{4}}))?", p):
        return _month_edge(m.group(2), int(m.group(3) or 0), today, m.group(1) == "end")
    if m := re.fullmatch(rf"next ({_PERIOD})", p):
        first, last = span(m.group(1), today, 1, calendar)
        return last if end else first
    if re.fullmatch(_DATED_WEEKDAY, p):
        return _dated_weekday(p, today, calendar)
    if m := re.fullmatch(rf"(this |next |coming |the coming )?({_WEEKDAY})(?: \w+)?", p):
        wd = _weekday(m.group(2))
        if wd is None:
            return None
        if (m.group(1) or "").strip() == "next":  # that weekday in the coming calendar week
            return span("week", today, 1)[0] + timedelta(days=wd)
        return today + timedelta(days=(wd - today.weekday()) % 7)
    if m := re.fullmatch(r"the (\d{1,2})(?:st|nd|rd|th)?", p):
        return _day_of_month(int(m.group(1)), today)
    return _absolute(p, today)


def _month_edge(month: str, year: int, today: date, last: bool) -> date:
    """The first or `last` day of `month` ("the end of October"): of `year` when given,
    else of the coming one, or of one that ended within the last month."""
    n = _month_number(month)
    first, end = span("month", date(year or today.year, n, 1))
    if not year and end < today - timedelta(days=31):
        first, end = span("month", date(today.year + 1, n, 1))
    return end if last else first


def _weekday(word: str) -> int | None:
    w = word.lower().rstrip("s") if not word.lower().endswith("ss") else word.lower()
    for i, name in enumerate(WEEKDAYS):
        if name.startswith(w[:3]):
            return i
    return None


def _dated_weekday(p: str, today: date, calendar: Calendar) -> date | None:
    """ "friday the 11th": the date said. A bare day of the month is the next one, or the
    one after when only that one falls on the weekday ("Friday the 4th" said on the 2nd of
    a month whose 4th is a Wednesday)."""
    word, rest = p.split(" ", 1)
    if m := re.fullmatch(r"(?:the )?(\d{1,2})(?:st|nd|rd|th)?", rest):
        first = _day_of_month(int(m.group(1)), today)
        if first is None or first.weekday() == _weekday(word):
            return first
        later = _day_of_month(int(m.group(1)), first + timedelta(days=1))
        return later if later is not None and later.weekday() == _weekday(word) else first
    return resolve(rest, today, calendar)


def _day_of_month(n: int, today: date) -> date | None:
    """The next day numbered `n` on or after `today`."""
    year, month = today.year, today.month
    for _ in range(3):
        try:
            d = date(year, month, n)
        except ValueError:
            d = None
        if d is not None and d >= today:
            return d
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return None


def _absolute(phrase: str, today: date) -> date | None:
    """A written date ("January 15", "Dec 1st", "2026-12-01"), read by dateparser."""
    if not re.search(r"\d", phrase) or not re.search(rf"{MONTH}|\d{{4}}-", phrase):
        return None
    import dateparser

    clean = re.sub(r"^the ", "", phrase).replace(" of ", " ")
    base = datetime(today.year, today.month, today.day, 12)
    try:
        got = dateparser.parse(
            clean,
            languages=["en"],
            settings={"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future"},
        )
    except (ValueError, OverflowError):
        return None
    if got is None:
        return None
    d = got.date()
    if not re.search(r"\d{4}", clean) and d < today - timedelta(days=31):
        d = d.replace(year=d.year + 1)
    return d


_AHEAD = (
    r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple of|few)"
)
_OPEN = re.compile(
    r"\b(?:(?:until|till|til) (?:further notice|(?:i|we) say otherwise)|indefinitely|"
    r"permanently|for good)\b",
    re.IGNORECASE,
)
_UNTIL = re.compile(
    rf"\b(?:until|till|til|through|thru|up (?:to|until)|to|ending|no later than)\s+({DAY})\b",
    re.IGNORECASE,
)
_START = re.compile(
    rf"\b(starting|beginning|from|as of|effective|after|once it'?s)\s+({DAY})(?:\s+(?:on|onwards?))?\b",
    re.IGNORECASE,
)
_REST = re.compile(
    rf"\b(?:for |over )?(?:the )?(?:rest|remainder) of (?:the |this )?({_PERIOD})\b", re.IGNORECASE
)
_ONLY = re.compile(
    rf"\b(?:(this|next) ({_PERIOD})|(today|tonight)) only\b|\bonly (?:for )?(this|next) ({_PERIOD})\b",
    re.IGNORECASE,
)
# "for two weeks" bounds the rule when it frames the clause or says "the next"; "idle for
# 30 days" is a condition, not a validity.
_FOR = re.compile(
    rf"(?:(?:^|[,;:.!]\s*)(?:for|over|during)|\b(?:for|over|during|in) the (?:next|coming)) "
    rf"(?:the )?(?:next |coming )?({_AHEAD}) ({_PERIOD}|fortnight)s?\b",
    re.IGNORECASE,
)
# A span said as the frame of the rule: "This weekend, …", "Next week, …", "for next week".
_FRAME = re.compile(
    rf"(?:^|\bfor |\bduring |\bover )(this|next) ({_PERIOD})\b(?=\s*[,:;—-]|\s*$|\s+only\b)|\bthis weekend\b",
    re.IGNORECASE,
)


def states_bounds(text: str) -> bool:
    """Whether `text` words a time bound ("until …", "starting …", "for the rest of …");
    a pattern check only, with no date resolved: cheap enough for every message."""
    return any(p.search(text) for p in (_UNTIL, _START, _REST, _ONLY, _FOR, _FRAME, _OPEN))


@lru_cache(maxsize=16_384)  # builds re-read the same messages; the answer is pure
def bounds(text: str, today: date, calendar: Calendar = Calendar()) -> Bounds:
    """The time bounds `text` states for itself, resolved against `today`."""
    starts: date | None = None
    ends: date | None = None
    said: list[str] = []
    if m := _START.search(text):
        d = resolve(m.group(2), today, calendar, end=False)
        if d is not None:
            starts = d + timedelta(days=1) if m.group(1).lower() == "after" else d
            said.append(m.group(0))
    for m in _UNTIL.finditer(text):
        if m.group(0).lower().startswith("to ") and starts is None:
            continue  # "to" bounds only "from X to Y"
        d = resolve(m.group(1), today, calendar)
        if d is not None:
            ends = d
            said.append(m.group(0))
            break
    if ends is None and (m := _REST.search(text)):
        ends = span(m.group(1), today, 0, calendar)[1]
        said.append(m.group(0))
    if ends is None and (m := _FOR.search(text)):
        ends = _after(today, _count(m.group(1)), m.group(2).lower(), calendar)
        said.append(m.group(0))
    if ends is None and (m := _ONLY.search(text)):
        which = (m.group(1) or m.group(4) or "").lower()
        period = (m.group(2) or m.group(5) or "day").lower()
        first, last = span(period, today, 1 if which == "next" else 0, calendar)
        if which == "next":
            starts = starts or first
        ends = last
        said.append(m.group(0))
    if starts is None and ends is None and (m := _FRAME.search(text)):
        if m.group(1) is None:  # "this weekend" said anywhere
            which, period = "this", "weekend"
        else:
            which, period = m.group(1).lower(), m.group(2).lower()
        first, last = span(period, today, 1 if which == "next" else 0, calendar)
        starts = first if first > today else None
        ends = last
        said.append(m.group(0).strip())
    open_ended = False
    if ends is None and (m := _OPEN.search(text)):
        open_ended = True
        said.append(m.group(0))
    if starts is not None and ends is not None and ends < starts:
        ends = None  # "from the 20th until Friday": the end names the wrong week; keep the start
    return Bounds(starts, ends, open_ended, "; ".join(said))


def _after(today: date, n: int, unit: str, calendar: Calendar) -> date:
    """The day `n` units after `today` ("for two weeks" ends two weeks on)."""
    if unit in _UNIT_DAYS:
        return today + timedelta(days=n * _UNIT_DAYS[unit])
    if unit in ("month", "quarter", "year"):
        months = n * {"month": 1, "quarter": 3, "year": 12}[unit]
        return min(
            _add_months(today.replace(day=1), months) + timedelta(days=today.day - 1),
            _add_months(today.replace(day=1), months + 1) - timedelta(days=1),
        )
    return span(unit, today, n - 1, calendar)[1]  # "for two sprints": through the second


def _count(word: str) -> int:
    w = word.lower()
    return int(w) if w.isdigit() else _NUMBERS.get(w, 1)


# A date written out with its year, or a month with its year: "on May 23, 2023",
# "on 3 June, 2023", "in July 2023".
_WRITTEN_DAY = re.compile(
    rf"\b(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{MONTH})\.?|"
    rf"(?P<m2>{MONTH})\.?\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?),?\s+(?P<y>\d{{4}})\b",
    re.I,
)
_WRITTEN_MONTH = re.compile(rf"\b(?P<m>{MONTH})\.?,?\s+(?P<y>\d{{4}})\b", re.I)


def _month_number(word: str) -> int:
    return next(i for i, m in enumerate(_MONTHS, start=1) if m.startswith(word.lower()[:3]))


def written_dates(text: str) -> tuple[date, date] | None:
    """The first and last day of the first date written out with its year in `text` ("What
    did Gina find on 1 February, 2023?": that day; "in July 2023": the month), or None."""
    if m := _WRITTEN_DAY.search(text):
        month = _month_number(m.group("m1") or m.group("m2"))
        try:
            day = date(int(m.group("y")), month, int(m.group("d1") or m.group("d2")))
        except ValueError:
            return None
        return day, day
    if m := _WRITTEN_MONTH.search(text):
        first = date(int(m.group("y")), _month_number(m.group("m")), 1)
        return first, _add_months(first, 1) - timedelta(days=1)
    return None


# A past day or span said relative to today: "yesterday", "three weeks ago", "last week",
# "last Tuesday", "earlier today" (a bare "today" asks of now: "What should I cook today?").
_AGO = re.compile(
    r"\b(a|an|one|two|three|four|five|six|\d{1,2})\s+(day|week|month)s?\s+ago\b", re.I
)
_LAST = re.compile(rf"\blast\s+(week|month|{_WEEKDAY})\b", re.I)
_TODAY = re.compile(r"\b(?:earlier\s+today|this\s+morning)\b", re.I)
_YESTERDAY = re.compile(r"\byesterday\b", re.I)
# How far either side of "N units ago" a day still counts.
_AGO_SLACK = {"day": 1, "week": 3, "month": 10}


def recalled_days(text: str, today: date) -> tuple[date, date] | None:
    """The first and last day a message asks about, written out (`written_dates`) or said
    relative to `today` ("What did I say about the garden yesterday?"), or None."""
    if got := written_dates(text):
        return got
    if _YESTERDAY.search(text):
        day = today - timedelta(days=1)
        return day, day
    if m := _AGO.search(text):
        unit = m.group(2).lower()
        back = _count(m.group(1)) * {"day": 1, "week": 7, "month": 30}[unit]
        slack = timedelta(days=_AGO_SLACK[unit])
        middle = today - timedelta(days=back)
        return middle - slack, min(middle + slack, today)
    if m := _LAST.search(text):
        word = m.group(1).lower()
        if word in ("week", "month"):
            return span(word, today, -1)
        wanted = _weekday(word)
        if wanted is not None:
            day = today - timedelta(days=(today.weekday() - wanted - 1) % 7 + 1)
            return day, day
    if _TODAY.search(text):
        return today, today
    return None
