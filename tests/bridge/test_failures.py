"""A broken store or a failing LLM never reaches the chat: no context, no exception."""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.model import Judgment
from bridge.judge_set import connection, fill, load


async def _close_connection(brain: Brain) -> None:
    connection(brain).close()


async def _drop_search_index(brain: Brain) -> None:
    other = sqlite3.connect(brain.path / "brain.db")
    other.execute("DROP TABLE entities_fts")
    other.execute("DROP TABLE exchanges_fts")
    other.commit()
    other.close()


async def _drop_bridge_log(brain: Brain) -> None:
    other = sqlite3.connect(brain.path / "brain.db")
    other.execute("DROP TABLE bridge_log")
    other.commit()
    other.close()


BREAKAGES: dict[str, Callable[[Brain], Awaitable[None]]] = {
    "connection closed": _close_connection,
    "search index dropped by another process": _drop_search_index,
    "session log table dropped by another process": _drop_bridge_log,
}


@pytest.fixture
async def broken(request: pytest.FixtureRequest, tmp_path: Path) -> Brain:
    brain = await Brain.open(tmp_path / "broken", embedder=None, background_indexing=False)
    await fill(brain, load()[0])
    await BREAKAGES[request.param](brain)
    yield brain
    with contextlib.suppress(sqlite3.Error):
        await brain.close()


@pytest.mark.parametrize("broken", list(BREAKAGES), indirect=True)
async def test_enrich_and_observe_survive_a_broken_store(
    broken: Brain, caplog: pytest.LogCaptureFixture, request: pytest.FixtureRequest
) -> None:
    bridge = Bridge(broken)
    message = "what did Nadia say about the offline sync bug on Trellis?"

    result = await bridge.enrich(message, "s-broken")
    obs = await bridge.observe_now(
        "s-broken", 1, message, "She thinks it is a race between devices."
    )
    task = bridge.observe("s-broken", 2, "I'll send the budget to Marcus by Friday.", "Noted.")
    await bridge.drain()

    assert obs.error and obs.exchange is None
    assert task.result().error
    if "session log" in request.node.callspec.id:
        # Context comes from entities; only the bookkeeping after it fails, in the background,
        # and that failure is logged too rather than lost with the task.
        assert result.judgment is Judgment.ENRICH and result.block
        assert any(r.getMessage() == "bridge background task failed" for r in caplog.records)
    else:
        assert (result.judgment, result.source, result.block) == (
            Judgment.PASS_THROUGH,
            "error",
            None,
        )
        assert result.reasons[0].startswith("bridge error: ")
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures and all(r.exc_info for r in failures), "failures are logged with tracebacks"


async def test_enrich_still_works_while_another_process_holds_the_write_lock(
    life: Brain,
) -> None:
    other = sqlite3.connect(life.path / "brain.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        bridge = Bridge(life)
        result = await bridge.enrich("how is Kevin's cohort going this month?", None)
    finally:
        other.execute("ROLLBACK")
        other.close()

    assert result.judgment is Judgment.ENRICH and "Kevin Alvarez" in result.loaded


async def test_closing_the_brain_without_draining_logs_no_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A caller that enriches and then closes its brain (a one-shot script, a hook) is
    not told that something failed: the bridge's refresh of the user's facts, queued
    after the enrich, finds the brain closed and has nothing to do."""
    brain = await Brain.open(tmp_path / "brain", embedder=None, background_indexing=False)
    bridge = Bridge(brain)
    await bridge.observe_now(
        "s1", 1, "My manager is Oskar Lindqvist, he likes written updates.", "Noted."
    )
    with caplog.at_level(logging.WARNING, logger="brainbridge"):
        result = await bridge.enrich("What should I tell my manager about the release?", "s1")
        await brain.close()
        await bridge.drain()
    assert result.judgment is Judgment.ENRICH
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
