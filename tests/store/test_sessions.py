"""Sessions, the bridge's per-turn log and curator runs, in the brain database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from brainbridge.errors import NotFound
from brainbridge.store.sqlite.db import connect
from brainbridge.store.sqlite.sessions import SqliteSessions


@pytest.fixture
def sessions(tmp_path: Path) -> Iterator[SqliteSessions]:
    conn = connect(tmp_path / "brain.db")
    yield SqliteSessions(conn)
    conn.close()


def test_ensure_creates_once_and_get_returns_it(sessions: SqliteSessions) -> None:
    assert sessions.get("s-1") is None
    made = sessions.ensure("s-1")
    assert (made.id, made.title, made.message_count, made.bridge_context_log) == ("s-1", "", 0, ())
    sessions.update("s-1", summary="talked about tides")
    again = sessions.ensure("s-1")
    assert again.summary == "talked about tides"
    assert again.created_at == made.created_at


def test_update_sets_fields_and_advances_updated_at(sessions: SqliteSessions) -> None:
    made = sessions.ensure("s-1")
    updated = sessions.update("s-1", title="Tides", title_source="curator", summary="moon")
    assert (updated.title, updated.title_source, updated.summary) == ("Tides", "curator", "moon")
    assert updated.updated_at > made.updated_at
    assert sessions.get("s-1") == updated


def test_update_missing_session_is_not_found(sessions: SqliteSessions) -> None:
    with pytest.raises(NotFound, match="nope"):
        sessions.update("nope", title="x")


def test_update_unknown_field_is_refused(sessions: SqliteSessions) -> None:
    sessions.ensure("s-1")
    with pytest.raises(ValueError, match="colour"):
        sessions.update("s-1", colour="red")


def test_record_turn_appends_in_order_and_raises_message_count(
    sessions: SqliteSessions,
) -> None:
    for turn in (1, 2, 3):
        sessions.record_turn("s-1", turn, {"judgment": "enrich", "queries": [f"q{turn}"]})
    got = sessions.get("s-1")
    assert got is not None, "record_turn creates the session it logs to"
    assert [e["turn"] for e in got.bridge_context_log] == [1, 2, 3]
    assert got.bridge_context_log[2] == {"turn": 3, "judgment": "enrich", "queries": ["q3"]}
    assert got.message_count == 3


def test_second_record_of_a_turn_merges_into_its_entry(sessions: SqliteSessions) -> None:
    # enrich and observe of one turn may log from different processes
    sessions.record_turn("s-1", 1, {"judgment": "enrich", "loaded": ["Ada"]})
    sessions.record_turn("s-1", 2, {"judgment": "pass_through"})
    sessions.record_turn("s-1", 1, {"loaded": ["Ada", "Grace"], "stored": ["Tides"]}, False)
    got = sessions.get("s-1")
    assert got.bridge_context_log == (
        {"turn": 1, "judgment": "enrich", "loaded": ["Ada", "Grace"], "stored": ["Tides"]},
        {"turn": 2, "judgment": "pass_through"},
    )
    assert got.message_count == 2


def test_record_turn_without_count_leaves_message_count(sessions: SqliteSessions) -> None:
    sessions.record_turn("s-1", 1, {"judgment": "enrich"})
    sessions.record_turn("s-1", 5, {"judgment": "enrich"}, count=False)
    assert sessions.get("s-1").message_count == 1


def test_get_returns_the_most_recent_log_entries(sessions: SqliteSessions) -> None:
    for turn in range(1, 11):
        sessions.record_turn("s-1", turn, {"turn": turn})
    got = sessions.get("s-1", log_limit=3)
    assert [e["turn"] for e in got.bridge_context_log] == [8, 9, 10]


def test_automatic_title_never_overwrites_a_user_title(sessions: SqliteSessions) -> None:
    sessions.ensure("s-1")
    assert sessions.set_title_unless_user("s-1", "Tides and moons", "curator") is True
    assert sessions.set_title_unless_user("s-1", "Tides and moons", "curator") is False
    assert sessions.get("s-1").title == "Tides and moons"
    sessions.update("s-1", title="My sailing notes", title_source="user")
    assert sessions.set_title_unless_user("s-1", "Ocean chat", "curator") is False
    got = sessions.get("s-1")
    assert (got.title, got.title_source) == ("My sailing notes", "user")


def test_list_returns_most_recently_updated_first(sessions: SqliteSessions) -> None:
    for sid in ("a", "b", "c"):
        sessions.ensure(sid)
    sessions.record_turn("a", 1, {"turn": 1})
    assert [s.id for s in sessions.recent()] == ["a", "c", "b"]
    assert [s.id for s in sessions.recent(limit=1)] == ["a"]


def test_curator_runs_start_finish_and_list_newest_first(sessions: SqliteSessions) -> None:
    sessions.ensure("s-1")
    first = sessions.start_curator_run("s-1", "turn_count")
    sessions.finish_curator_run(
        first, [{"tool": "set_title", "args": {"title": "Tides"}}], ["titled session"]
    )
    second = sessions.start_curator_run("s-1", "idle")
    runs = sessions.curator_runs("s-1")
    assert [r["id"] for r in runs] == [second, first]
    done, open_ = runs[1], runs[0]
    assert done["trigger"] == "turn_count"
    assert done["tool_calls"] == [{"tool": "set_title", "args": {"title": "Tides"}}]
    assert done["actions"] == ["titled session"]
    assert done["finished_at"] is not None and done["error"] is None
    assert open_["finished_at"] is None and open_["tool_calls"] == []
    sessions.finish_curator_run(second, [], [], error="LLM timed out")
    assert sessions.curator_runs("s-1", limit=1)[0]["error"] == "LLM timed out"


def test_sessions_survive_reopening(tmp_path: Path) -> None:
    conn = connect(tmp_path / "brain.db")
    SqliteSessions(conn).record_turn("s-1", 1, {"turn": 1, "stored": ["Ada"]})
    conn.close()
    conn = connect(tmp_path / "brain.db")
    try:
        got = SqliteSessions(conn).get("s-1")
    finally:
        conn.close()
    assert got.bridge_context_log == ({"turn": 1, "stored": ["Ada"]},)


def test_next_turn_creates_the_session_and_counts_up(sessions: SqliteSessions) -> None:
    assert [sessions.next_turn("fresh") for _ in range(3)] == [1, 2, 3]
    session = sessions.get("fresh")
    assert session is not None and session.message_count == 3


def test_next_turn_claims_a_wanted_number_and_counts_on_from_it(
    sessions: SqliteSessions,
) -> None:
    assert sessions.next_turn("claimed", 5) == 5
    assert sessions.next_turn("claimed", 2) == 2  # an older turn, re-observed
    assert sessions.next_turn("claimed") == 6
