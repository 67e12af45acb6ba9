"""The block's first item (#32): what answers the question, not what merely shares its
words. A question after a time leads with where the time is said; what replaced a
statement leads when the statement, were it current, would; a replaced statement that
matched only on common words hands its lead to nothing."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

from benchmarks import scenarios

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge, Enrichment
from brainbridge.bridge.rank import MODEL, answer_kind, is_transcript, model, said_text


def _first(block: str | None) -> str:
    return next((line for line in (block or "").splitlines() if line.startswith("- **")), "")


async def _told_on(
    tmp_path: Path, told: list[tuple[str, date | None]], *messages: str
) -> list[Enrichment]:
    """What each of `messages` gets from a new bridge on a brain told `told`: a session
    each, said on its day (today when None)."""
    brain = await Brain.open(tmp_path / "me", embedder=None, background_indexing=False)
    try:
        bridge = Bridge(brain)
        for n, (text, day) in enumerate(told, start=1):
            await bridge.observe_now(f"s{n}", 1, text, "Noted.", today=day)
        await bridge.drain()
        asked = Bridge(brain)
        results = [await asked.enrich(m) for m in messages]
        await asked.drain()
    finally:
        await brain.close()
    return results


async def _asked(tmp_path: Path, told: list[str], *messages: str) -> list[str]:
    """The first block item each of `messages` gets from a brain told `told`, a session each."""
    results = await _told_on(tmp_path, [(text, None) for text in told], *messages)
    return [_first(r.block) for r in results]


def _ago(days: int) -> date:
    return date.today() - timedelta(days=days)


def test_questions_after_a_time_an_amount_or_a_place_know_how_the_answer_reads() -> None:
    when = answer_kind("When was I in Rome, remind me?")
    assert when is not None
    said = "I flew to Rome last October, on a Friday at 4pm, back in 2023, two days ago."
    assert [m.group() for m in when.finditer(said)] == [
        "October",
        "Friday",
        "4pm",
        "2023",
        "ago",
    ]
    many = answer_kind("How many people are coming to the offsite?")
    assert many is not None and many.search("twelve of us") and not many.search("all of us")
    # A day of the month or a time of day is when, not how much.
    assert [m.group() for m in many.finditer("due the 30th at 3:15 or 4pm, it's 4,200")] == [
        "4,200"
    ]
    assert when.search("the invoice is now due the 30th")
    where = answer_kind("Where is the offsite this year?")
    assert where is not None and where.search("It is at the Lake House")
    assert answer_kind("What did Jon say about the studio?") is None


async def test_a_question_after_a_time_leads_with_where_the_time_is_said(tmp_path: Path) -> None:
    (first,) = await _asked(
        tmp_path,
        [
            "Rome is my favourite city, the food there is unreal.",
            "I flew to Rome last October for Marco's wedding.",
            "My sister keeps asking me to plan a Rome trip with her.",
            "The Rome guidebook you suggested was great.",
        ],
        "When was I in Rome, remind me?",
    )
    assert "last October" in first, first


async def test_a_question_naming_a_date_leads_with_what_was_said_that_day(tmp_path: Path) -> None:
    # Three talks about the garden, months apart: which one "on June 3, 2026" means is the
    # day each was said, not their words.
    (result,) = await _told_on(
        tmp_path,
        [
            ("We planted tomatoes and basil in the garden beds.", date(2026, 4, 12)),
            ("The garden needs a new fence, the old one fell over.", date(2026, 6, 3)),
            ("I want to add a small pond to the garden next year.", date(2026, 8, 20)),
        ],
        "What did I say about the garden on June 3, 2026?",
    )
    assert "new fence" in _first(result.block), result.block


async def test_a_question_about_yesterday_or_last_week_leads_with_what_was_said_then(
    tmp_path: Path,
) -> None:
    # The time a question asks about was read only when written out with its year; the
    # garden talk that ranked first by its words led whatever day was asked about.
    results = await _told_on(
        tmp_path,
        [
            ("The garden fence blew down in the storm, I need to get it fixed.", _ago(20)),
            (
                "The garden pond pump is making a grinding noise again.",
                _ago(7 + date.today().weekday()),  # Monday of last week
            ),
            ("I want to build a greenhouse in the garden next spring.", _ago(1)),
        ],
        "What did I say about the garden yesterday?",
        "What did we talk about last week regarding the garden?",
        "Remind me what I said about the garden three weeks ago.",
    )
    firsts = [_first(r.block) for r in results]
    assert ["greenhouse" in firsts[0], "pond pump" in firsts[1], "fence" in firsts[2]] == [
        True,
        True,
        True,
    ], firsts


async def test_what_we_talked_about_on_a_day_is_what_was_said_that_day(tmp_path: Path) -> None:
    # No word of "What did we talk about yesterday?" is in any talk, so nothing was found
    # and it passed through; "What did I decide yesterday?" built no query at all.
    talked, decided, game, hiking = await _told_on(
        tmp_path,
        [
            ("The garden fence blew down in the storm, I need to get it fixed.", _ago(20)),
            ("I decided to go with Hedge & Co for the fence, they start on the 5th.", _ago(1)),
            ("I want to build a greenhouse in the garden next spring.", _ago(1)),
        ],
        "What did we talk about yesterday?",
        "What did I decide yesterday?",
        "What was the score of the game yesterday?",
        "I went hiking yesterday, any tips for sore legs?",
    )
    lines = [line for line in (talked.block or "").splitlines() if line.startswith("- **")]
    assert len(lines) == 2 and not any("storm" in line for line in lines), talked.block
    assert "Hedge & Co" in _first(decided.block), decided.reasons
    assert game.block is None, game.reasons
    assert hiking.block is None, hiking.reasons


def test_an_assistant_reply_that_opens_like_a_label_is_no_speaker() -> None:
    # "AI: Noted: 2,300 monthly" read as a transcript's speaker "Noted", so the reply
    # counted as said: "Write a note for Luisa" led with the lease the assistant noted.
    mine = "ex:1 User: Our lease is 2,300 a month. | AI: Noted: 2,300 monthly, renewal June 30."
    assert not is_transcript(mine)
    assert said_text(mine) == "ex:1 User: Our lease is 2,300 a month."
    theirs = "ex:2 User: Caroline: I went to the support group. | AI: Melanie: How was it?"
    assert is_transcript(theirs) and said_text(theirs) == theirs


async def test_what_replaced_a_statement_leads_where_the_statement_would(tmp_path: Path) -> None:
    """On the scenario brain (dev split): the raised kitchen budget, not the employer or
    the bathroom's builder; the standup's move, not what replaced "we use 1Password"."""
    turns, _ = scenarios.load("dev")
    brain = await Brain.open(tmp_path / "dev", embedder=None, background_indexing=False)
    try:
        bridge = Bridge(brain)
        await scenarios.observe_all(bridge, turns)
        asked = Bridge(brain)
        budget = await asked.enrich("What's our current budget for the kitchen?")
        quote = await asked.enrich(
            "Is the 29k quote from Baker within our kitchen renovation budget?"
        )
        tool = await asked.enrich("Which tool do we use for the standup these days?")
        await asked.drain()
    finally:
        await brain.close()
    assert "32k" in _first(budget.block), budget.block
    assert "32k" in _first(quote.block), quote.block
    assert "Google Meet" in _first(tool.block), tool.block


def test_the_block_is_cut_where_the_trainer_calibrated_it() -> None:
    """The bridge reads the threshold and the share of the best item's probability that
    the trainer chose together; a cut at the threshold alone made blocks a third longer."""
    shipped = json.loads(MODEL.read_text("utf-8"))
    m = model()
    assert m is not None and m.ratio == shipped["ratio"] > 0
    assert m.bar(0.9) == max(shipped["threshold"], shipped["ratio"] * 0.9)
    assert m.bar(0.0) == shipped["threshold"]
