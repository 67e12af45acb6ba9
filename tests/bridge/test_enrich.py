"""enrich: the three judgments, the short-circuit, provenance, dates, redaction, repeats, logs."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge, BridgeConfig
from brainbridge.bridge.block import STEP_BACK_NOTE, estimate_tokens
from brainbridge.model import CHAT_EXCHANGE, Judgment, Session
from bridge.judge_set import connection

STEP_BACK_TEXT = "_Brain context: stepping back — you are directly querying your knowledge graph._"


def _items(block: str) -> list[str]:
    """The item lines of a block."""
    return [line for line in block.splitlines() if line.startswith("- **")]


async def test_step_back_injects_only_the_note(bridge: Bridge) -> None:
    result = await bridge.enrich("find people in my graph who work on regenerative tech", "s1")

    assert result.judgment is Judgment.STEP_BACK
    assert result.block == STEP_BACK_TEXT == STEP_BACK_NOTE
    assert result.queries == () and result.loaded == ()


async def test_ordinary_conversation_passes_through(bridge: Bridge) -> None:
    result = await bridge.enrich("explain the difference between a mutex and a semaphore", "s1")

    assert result.judgment is Judgment.PASS_THROUGH
    assert result.block is None and result.queries == () and result.source == "local"


async def test_personal_reference_loads_what_the_brain_holds(bridge: Bridge) -> None:
    result = await bridge.enrich("how is Kevin's cohort going? I haven't checked in lately", "s1")

    assert result.judgment is Judgment.ENRICH
    assert 1 <= len(result.queries) <= 3
    assert "Kevin Alvarez" in result.loaded and "Spring Founders Cohort" in result.loaded
    assert result.block is not None and result.block.startswith("## Brain Context\n")


async def test_vague_reference_is_resolved_with_the_session_summary(bridge: Bridge) -> None:
    session = Session(
        "s1", summary="The user is drafting a contract renewal letter to Flock Safety."
    )

    result = await bridge.enrich("I need to finish that letter by Friday, can you help?", session)

    assert result.judgment is Judgment.ENRICH
    assert any("Flock" in q for q in result.queries), result.queries
    assert result.loaded[0] == "Flock Safety Contract Letter"


async def test_every_item_was_found_by_one_of_the_queries(bridge: Bridge) -> None:
    result = await bridge.enrich(
        "what did Nadia say about the offline sync bug, and is the Flock Safety letter done?",
        "s1",
    )

    assert result.block is not None
    found = {h.entity.name for _, hits in result.results for h in hits}
    rows = _items(result.block)
    assert len(rows) == len(result.loaded) >= 2
    for line in rows:
        name = re.match(r"- \*\*(.+?)\*\* \(", line).group(1)
        assert name in found, name
        is_history = name in {
            h.entity.name
            for _, hits in result.results
            for h in hits
            if h.entity.type == CHAT_EXCHANGE
        }
        assert ("(conversation history, " in line) == is_history, line


async def test_history_items_show_their_date(bridge: Bridge, life: Brain) -> None:
    await bridge.observe_now(
        "9f8e7d6c-today",
        1,
        "Nadia found the sync race: two tablets saving one job site.",
        "Good catch; a per-field merge keeps both edits.",
    )

    result = await bridge.enrich("what did Nadia find about the sync race on tablets?", "s1")

    history = [line for line in _items(result.block or "") if "conversation history" in line]
    assert history, result.block
    for line in history:
        assert re.match(
            r"- \*\*\w{8}:ex:\d+\*\* \(conversation history, \d{4}-\d{2}-\d{2}\): User: ",
            line,
        )
    today = (await life.get_entity(CHAT_EXCHANGE, "9f8e7d6c:ex:1")).created_at[:10]
    assert any(f"(conversation history, {today})" in line for line in history)


async def test_secrets_in_stored_descriptions_never_reach_the_block(
    bridge: Bridge, life: Brain
) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2
    await life.upsert_entity(
        "Document",
        "Trellis Deploy Runbook",
        {},
        f"How to deploy Trellis: export GITHUB_TOKEN={token} then run make release.",
    )

    result = await bridge.enrich("walk me through the Trellis Deploy Runbook again", "s1")

    assert "Trellis Deploy Runbook" in result.loaded
    assert token not in result.block
    assert "[REDACTED:" in result.block


async def test_the_block_respects_the_configured_budget(life: Brain) -> None:
    bridge = Bridge(life, config=BridgeConfig(budget_tokens=120))
    message = "what did Nadia say about the offline sync bug on Trellis?"

    result = await bridge.enrich(message, "s1")
    await bridge.drain()

    assert result.block is not None
    assert estimate_tokens(result.block) <= 120
    assert 1 <= len(result.loaded) < 5


async def test_the_same_thing_is_not_loaded_twice_in_a_row(bridge: Bridge, life: Brain) -> None:
    message = "what did Nadia say about the offline sync bug?"
    first = await bridge.enrich(message, "s-repeat")
    await bridge.observe_now("s-repeat", first.turn, message, "She thinks it is a race.")

    second = await bridge.enrich(message + " any news?", "s-repeat")
    await bridge.observe_now("s-repeat", second.turn, message, "Nothing new yet.")
    third = await bridge.enrich(message, "s-repeat")
    await bridge.drain()

    assert first.loaded and second.judgment is Judgment.ENRICH
    assert (first.turn, second.turn, third.turn) == (1, 2, 3)
    assert not set(first.loaded) & set(second.loaded)
    # Only "in a row": once a turn has passed, the same facts may come back.
    assert set(first.loaded) - set(second.loaded) & set(third.loaded)


async def test_enrich_writes_the_turn_to_the_context_log(bridge: Bridge, life: Brain) -> None:
    result = await bridge.enrich("how is Kevin's cohort going these days?", "s-log")
    await bridge.drain()

    log = (await life._run(life.sessions.get, "s-log")).bridge_context_log
    assert log == (
        {
            "turn": 1,
            "judgment": "enrich",
            "queries": list(result.queries),
            "loaded": list(result.loaded),
            "reasons": list(result.reasons),  # plain words, shown by the web app
            "stored": [],
        },
    )
    assert result.reasons and not any("\\b" in r for r in result.reasons)


# -- the short-circuit --------------------------------------------------------------


async def test_short_messages_pass_through_without_a_single_query(
    bridge: Bridge, life: Brain
) -> None:
    statements: list[str] = []
    connection(life).set_trace_callback(statements.append)
    try:
        short = await bridge.enrich("how's Kevin's cohort going?", "s1")
        await bridge.drain()
        assert statements == []
        longer = await bridge.enrich("how is Kevin's cohort going now?", "s1")
        await bridge.drain()
    finally:
        connection(life).set_trace_callback(None)

    assert short.judgment is Judgment.PASS_THROUGH and short.source == "short_circuit"
    assert statements, "a five-word message must consult the brain (the counter works)"
    assert longer.judgment is Judgment.ENRICH


async def test_short_messages_pass_through_even_when_the_database_is_gone(tmp_path: Path) -> None:
    brain = await Brain.open(tmp_path / "gone", embedder=None, background_indexing=False)
    bridge = Bridge(brain)
    connection(brain).close()
    for f in (tmp_path / "gone").glob("brain.db*"):
        f.unlink()

    short = await bridge.enrich("how's Kevin doing today?", "s1")
    longer = await bridge.enrich("how is Kevin doing today, any news?", "s1")
    await bridge.drain()
    await brain.close()

    assert (short.judgment, short.source) == (Judgment.PASS_THROUGH, "short_circuit")
    assert (longer.judgment, longer.source) == (Judgment.PASS_THROUGH, "error")


# -- logging -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "judgment"),
    [
        ("thanks!", "pass_through"),
        ("what's the capital of Australia?", "pass_through"),
        ("how is Kevin's cohort going this month?", "enrich"),
        ("search my brain for anything about the SBIR grant", "step_back"),
    ],
)
async def test_each_judgment_is_logged_at_debug(
    bridge: Bridge, caplog: pytest.LogCaptureFixture, message: str, judgment: str
) -> None:
    caplog.set_level(logging.DEBUG, logger="brainbridge.bridge")

    result = await bridge.enrich(message, "s1")

    assert result.judgment.value == judgment
    lines = [
        r.getMessage()
        for r in caplog.records
        if r.name == "brainbridge.bridge.bridge" and r.levelno == logging.DEBUG
    ]
    assert sum(line.startswith(f"judgment={judgment}") for line in lines) == 1, lines


@asynccontextmanager
async def _talked(
    folder: Path, session: str, turns: list[tuple[str, str]]
) -> AsyncIterator[Bridge]:
    """A bridge over a brain (no vectors) that holds only these past exchanges."""
    brain = await Brain.open(folder, embedder=None, background_indexing=False)
    try:
        bridge = Bridge(brain)
        for n, (user, ai) in enumerate(turns, start=1):
            await bridge.observe_now(session, n, user, ai)
        yield bridge
        await bridge.drain()
    finally:
        await brain.close()


async def test_a_name_known_only_from_past_conversations_is_a_reference(tmp_path: Path) -> None:
    turns = [
        ("Caroline wants to go camping in the mountains this summer", "Sounds lovely."),
        ("I lent Caroline my tent for the camping trip", "Nice of you."),
        ("Rosalind mentioned a conference once", "Interesting."),
    ]
    async with _talked(tmp_path / "history", "hist-sess", turns) as bridge:
        known = await bridge.enrich("When is Caroline planning on going camping?", None)
        once = await bridge.enrich("When is Rosalind planning on going to the conference?", None)

    assert known.judgment is Judgment.ENRICH
    assert "it names someone from past conversations: Caroline" in known.reasons
    assert known.queries[0].startswith("Caroline") and "camping" in known.queries[0]
    assert any(name.startswith("hist-ses:ex:") for name in known.loaded)
    # One past mention is not enough to call a word someone the user talks about.
    assert not any("past conversations" in r for r in once.reasons)


async def test_an_exchange_found_only_beside_a_match_is_not_loaded(
    tmp_path: Path,
) -> None:
    turns = [
        ("We booked the Lake Merritt boathouse for Sam's party on June 14", "Noted."),
        ("I promised Dana I'd send her the budget spreadsheet soon", "Got it."),
        ("My manager Priya wants the Q3 roadmap before the offsite", "Okay."),
    ]
    async with _talked(tmp_path / "beside", "old-sess", turns) as bridge:
        first = await bridge.enrich("where are we with the boathouse booking for the party?", "new")
        await bridge.observe_now("new", first.turn, "where are we with the boathouse?", "Booked.")
        second = await bridge.enrich("did I ever send Dana that spreadsheet I promised?", "new")

    # The boathouse booking, not the spreadsheet promise that was said next...
    assert "old-sess:ex:1" in first.loaded and "old-sess:ex:2" not in first.loaded
    # ...which comes when asked about, without the roadmap said after it.
    assert "old-sess:ex:2" in second.loaded and "old-sess:ex:3" not in second.loaded


@pytest.mark.parametrize(
    ("message", "judgment"),
    [
        # A general question's phrasing, about someone the user has talked about.
        ("What is Omar's favourite climbing spot again?", Judgment.ENRICH),
        # "that isn't" points at nothing; the brain knows only "suggest" (Bea suggested ...).
        (
            "I'm bored, suggest a movie for tonight that isn't a superhero thing",
            Judgment.PASS_THROUGH,
        ),
        # The one word the brain knows is what the message points at.
        ("let's pick up where we left off on the toast", Judgment.ENRICH),
    ],
)
async def test_judgments_that_rest_on_what_the_brain_holds(
    bridge: Bridge, message: str, judgment: Judgment
) -> None:
    result = await bridge.enrich(message, None)

    assert result.judgment is judgment, result.reasons
