"""Bounded BM25: on big brains common-word queries score a bounded candidate set, and the
candidates that matter (rare words, all the query's words, types) are still found."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from brainbridge.model import CHAT_EXCHANGE
from brainbridge.store.sqlite import text_index
from brainbridge.store.sqlite.migrations import MIGRATIONS
from brainbridge.store.sqlite.store import SqliteStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    s = SqliteStore.open(tmp_path / "brain.db")
    # 120 notes and 120 exchanges on common words, written first (the oldest rows)...
    rows = [("Grant Audit", "Project", "the grant audit for the team")]
    rows += [(f"Note {i}", "Document", f"team meeting budget notes {i}") for i in range(120)]
    s.upsert_many([(t, n, d, {}) for n, t, d in rows])
    s.upsert_many(
        [
            (CHAT_EXCHANGE, f"sess{i:04d}:ex:{i}", f"User: team meeting budget {i} | AI: ok", {})
            for i in range(120)
        ]
    )
    # ...then one row with a rare word among common ones, and newer common-word rows.
    s.upsert_entity("Decision", "Zanzibar offsite", "team budget for the zanzibar offsite")
    s.upsert_many([("Document", f"Later {i}", f"team meeting {i}", {}) for i in range(40)])
    yield s
    s.close()


def _small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_index, "EXACT_ROWS", 20)
    monkeypatch.setattr(text_index, "RARE_ROWS", 10)
    monkeypatch.setattr(text_index, "WINDOW_ROWS", 10)


def _exact(store: SqliteStore, query: str, **kw: object) -> list[tuple[int, float]]:
    return store.bm25(query, 20, **kw)  # type: ignore[arg-type]


def _names(store: SqliteStore, hits: list[tuple[int, float]]) -> list[str]:
    ents = store.get_entities([eid for eid, _ in hits])
    return [ents[eid].name for eid, _ in hits]


def test_rows_with_a_rare_word_keep_their_exact_whole_query_score(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = "zanzibar team budget"
    exact = dict(_exact(store, query))
    _small_budgets(monkeypatch)
    bounded = dict(store.bm25(query, 20))

    zanzibar = store.get_entity("Decision", "Zanzibar offsite")
    assert zanzibar is not None
    assert bounded[zanzibar.id] == pytest.approx(exact[zanzibar.id])
    assert max(bounded, key=bounded.__getitem__) == zanzibar.id


def test_an_old_row_holding_every_query_word_is_found_beyond_the_window(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _small_budgets(monkeypatch)
    hits = store.bm25("grant audit team", 5, exclude_types=[CHAT_EXCHANGE])
    assert _names(store, hits)[0] == "Grant Audit"


def test_bounded_ranking_scores_a_bounded_number_of_rows(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    _small_budgets(monkeypatch)
    scored: list[str] = []
    store.conn.set_trace_callback(scored.append)
    try:
        hits = store.bm25("team meeting", 30)
    finally:
        store.conn.set_trace_callback(None)
    assert 0 < len(hits) <= 30
    # Every ranking statement either windows its rows or is limited to rare terms.
    ranking = [sql for sql in scored if "bm25(" in sql]
    assert ranking and all("LIMIT" in sql for sql in ranking)


@pytest.mark.parametrize("budgets", [False, True], ids=["exact", "bounded"])
def test_type_filters_pick_the_right_table(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch, budgets: bool
) -> None:
    if budgets:
        _small_budgets(monkeypatch)
    history = store.get_entities([e for e, _ in store.bm25("team budget", 50, [CHAT_EXCHANGE])])
    knowledge = store.get_entities(
        [e for e, _ in store.bm25("team budget", 50, exclude_types=[CHAT_EXCHANGE])]
    )
    docs = store.get_entities([e for e, _ in store.bm25("team budget", 50, ["Document"])])
    assert history and {e.type for e in history.values()} == {CHAT_EXCHANGE}
    assert knowledge and CHAT_EXCHANGE not in {e.type for e in knowledge.values()}
    assert docs and {e.type for e in docs.values()} == {"Document"}
    assert store.bm25("team budget", 50, [CHAT_EXCHANGE], [CHAT_EXCHANGE]) == []


def test_a_new_rare_word_is_searchable_at_once(store: SqliteStore) -> None:
    assert store.bm25("quokka", 5) == []
    quokka = store.upsert_entity("Topic", "Quokka", "a small marsupial")
    assert [eid for eid, _ in store.bm25("quokka team", 5)][0] == quokka.id


def test_migrations_move_exchanges_into_their_own_index_and_index_names(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, fn in MIGRATIONS:
        if name == "011_exchange_index":  # this and later ones run when the store opens
            break
        fn(conn)
        conn.execute("INSERT INTO _migrations VALUES (?, 'then')", (name,))
    for eid, etype, name, text in [
        (1, "Person", "Nadia", "works on the sync engine"),
        (2, CHAT_EXCHANGE, "abcd1234:ex:1", "User: how is the sync engine | AI: fine"),
    ]:
        conn.execute(
            "INSERT INTO entities(id, type, name, description, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, 'then', 'then')",
            (eid, etype, name, text),
        )
        conn.execute(
            "INSERT INTO entities_fts(rowid, name, description, body) VALUES (?, ?, ?, '')",
            (eid, name, text),
        )
    conn.commit()
    conn.close()

    store = SqliteStore.open(path)
    try:
        count = store.conn.execute
        assert count("SELECT rowid FROM exchanges_fts").fetchall()[0][0] == 2
        assert [r[0] for r in count("SELECT rowid FROM entities_fts")] == [1]
        assert sorted(e for e, _ in store.bm25("sync engine", 5)) == [1, 2]
        # 012 indexed the existing names (never the exchange's) for the bridge's lookups.
        assert store.name_owners(["nadia", "abcd1234:ex:1"], 5) == {
            ("nadia", 0): [("Person", "Nadia", 0)],  # the whole name
            ("nadia", 1): [("Person", "Nadia", 0)],  # a person's name part
        }
    finally:
        store.close()
