"""Calendar phrases: days and the time bounds a message states for itself."""

from __future__ import annotations

from datetime import date

import pytest

from brainbridge.when import Bounds, Calendar, bounds, recalled_days, resolve, span, written_dates

WED = date(2026, 11, 25)  # a Wednesday
SPRINTS = Calendar(sprint_start=date(2026, 11, 16), sprint_days=14)


@pytest.mark.parametrize(
    ("phrase", "day"),
    [
        ("Friday", date(2026, 11, 27)),
        ("this Friday", date(2026, 11, 27)),
        ("next Friday", date(2026, 12, 4)),  # that weekday in the coming calendar week
        ("Wednesday", WED),
        ("the 9th", date(2026, 12, 9)),  # the next 9th, not the one gone
        ("the 25th", WED),
        ("January 15", date(2027, 1, 15)),
        ("Dec 1st", date(2026, 12, 1)),
        ("2nd of January", date(2027, 1, 2)),
        ("2026-12-24", date(2026, 12, 24)),
        ("tomorrow", date(2026, 11, 26)),
        ("the end of the month", date(2026, 11, 30)),
        ("end of the quarter", date(2026, 12, 31)),
        ("end of the week", date(2026, 11, 27)),
        ("the end of December", date(2026, 12, 31)),  # a month named: its last day
        ("start of March", date(2027, 3, 1)),  # the coming March
        ("the end of October", date(2026, 10, 31)),  # just gone: still that one
        ("end of June 2026", date(2026, 6, 30)),
        ("Friday the 11th", date(2026, 12, 11)),  # the date said, not the coming Friday
        ("Fri, Dec 11", date(2026, 12, 11)),
        ("Friday 11th December", date(2026, 12, 11)),
        ("Thursday the 11th", date(2026, 12, 11)),  # a weekday that is wrong does not move it
        ("someday", None),
        ("", None),
    ],
)
def test_days(phrase: str, day: date | None) -> None:
    assert resolve(phrase, WED) == day


def test_spans_follow_the_sprint_calendar_or_the_week() -> None:
    assert span("sprint", WED, 0, SPRINTS) == (date(2026, 11, 16), date(2026, 11, 29))
    assert span("sprint", WED, 1, SPRINTS) == (date(2026, 11, 30), date(2026, 12, 13))
    assert span("sprint", WED) == (date(2026, 11, 23), date(2026, 11, 29))  # no calendar
    assert span("q1", WED) == (date(2027, 1, 1), date(2027, 3, 31))
    assert span("weekend", WED) == (date(2026, 11, 28), date(2026, 11, 29))
    # On a Sunday "next weekend" is the coming one (found by review: it was a week later).
    sunday = date(2026, 11, 29)
    assert span("weekend", sunday) == (date(2026, 11, 28), sunday)
    assert span("weekend", sunday, 1) == (date(2026, 12, 5), date(2026, 12, 6))
    # ...and "next weekend" is no "next week" (found by review: "by next weekend" was due
    # the Monday, and "For next weekend, ..." bounded a rule to this one).
    assert resolve("next weekend", sunday, end=False) == date(2026, 12, 5)
    framed = bounds("For next weekend, keep answers short.", sunday)
    assert (framed.starts, framed.ends) == (date(2026, 12, 5), date(2026, 12, 6))


@pytest.mark.parametrize(
    ("text", "starts", "ends"),
    [
        ("Through the end of the month, nothing ships on Fridays.", None, date(2026, 11, 30)),
        ("Beginning next sprint, design reviews happen on Wednesdays.", date(2026, 11, 30), None),
        ("Until Friday, route billing questions to Sam.", None, date(2026, 11, 27)),
        ("For the rest of the week, no meetings after 3.", None, date(2026, 11, 29)),
        ("Starting the 20th, send mail to my home address.", date(2026, 12, 20), None),
        ("From Dec 7 through Dec 18, approvals go to Ana.", date(2026, 12, 7), date(2026, 12, 18)),
        ("After this Friday, stop the legacy report.", date(2026, 11, 28), None),
        ("For the next two weeks, lead with the outage notice.", None, date(2026, 12, 9)),
        ("Next week, every deploy needs a second reviewer.", date(2026, 11, 30), date(2026, 12, 6)),
        ("Today only: no pushes to main.", None, WED),
        ("Archive tickets idle for 30 days.", None, None),  # a condition, not a validity
        ("Send the report every Friday.", None, None),
    ],
)
def test_bounds(text: str, starts: date | None, ends: date | None) -> None:
    got = bounds(text, WED, SPRINTS)
    assert (got.starts, got.ends) == (starts, ends)
    assert bool(got) == bool(starts or ends)


def test_till_further_notice_is_open_ended_and_quoted() -> None:
    got = bounds("Keep the code freeze in place till further notice.", WED)
    assert got == Bounds(open_ended=True, said="till further notice")


def test_a_weekday_with_its_date_picks_the_month_where_they_agree() -> None:
    # Said on Monday the 2nd: the 4th of this month is a Wednesday, next month's a Friday.
    assert resolve("Friday the 4th", date(2026, 11, 2)) == date(2026, 12, 4)
    assert bounds("No deploys until Friday the 11th.", WED).ends == date(2026, 12, 11)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("What did Gina find for her store on 1 February, 2023?", ("2023-02-01", "2023-02-01")),
        ("Who did Maria have dinner with on May 3, 2023?", ("2023-05-03", "2023-05-03")),
        ("what did we decide on the 3rd of June 2026", ("2026-06-03", "2026-06-03")),
        ("What did Mel paint in July 2023?", ("2023-07-01", "2023-07-31")),
        ("1:56 pm on 8 May, 2023", ("2023-05-08", "2023-05-08")),
        ("What happened in 2023?", None),
        ("on Feb 30, 2023", None),
        ("When is the dentist on May 3?", None),
    ],
)
def test_a_date_written_out_with_its_year_is_read_as_its_days(
    text: str, days: tuple[str, str] | None
) -> None:
    got = written_dates(text)
    assert (got and (got[0].isoformat(), got[1].isoformat())) == days


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("What did I say about the garden yesterday?", ("2026-11-27", "2026-11-27")),
        ("what did we talk about last week", ("2026-11-16", "2026-11-22")),
        ("what did I say three weeks ago", ("2026-11-04", "2026-11-10")),
        ("what did Omar say last Tuesday", ("2026-11-24", "2026-11-24")),
        ("what did I decide earlier today", ("2026-11-28", "2026-11-28")),
        ("what happened last month", ("2026-10-01", "2026-10-31")),
        ("Who did Maria have dinner with on May 3, 2023?", ("2023-05-03", "2023-05-03")),
        ("What should I cook today?", None),
        ("When is the party?", None),
    ],
)
def test_the_days_a_question_asks_about_are_read_relative_to_today(
    text: str, days: tuple[str, str] | None
) -> None:
    got = recalled_days(text, date(2026, 11, 28))  # a Saturday
    assert (got and (got[0].isoformat(), got[1].isoformat())) == days
