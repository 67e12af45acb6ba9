"""The text statistics a person's search needs, and nothing more: `brain_term_share` runs as
the brain's owner (a person may not read `pg_stats` of tables they cannot read), so it
answers a person only with the share of rows holding a word they already see in hundreds of
their own rows: never a row, and nothing about a word only another workspace holds
(schema migration 005)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from brainbridge.store.postgres import people
from brainbridge.store.postgres.store import PostgresStore

COMMON = "falcon"  # in most of the team's rows
PRIVATE = "zebrafish"  # in many of alice's private rows, in none of the team's


def _team(url: str) -> tuple[PostgresStore, PostgresStore, PostgresStore]:
    """The owner's store, with the team's rows and alice's private ones analysed; alice's
    and bob's."""
    owner = PostgresStore.open(url)
    people.add(owner.conn, "alice")
    people.add(owner.conn, "bob")
    owner.upsert_many(
        [("Topic", f"note {i}", f"the {COMMON} flies over field {i}", None) for i in range(400)]
    )
    alice = PostgresStore.open(url, user="alice")
    alice.upsert_many(
        [("Topic", f"secret {i}", f"my {PRIVATE} tank number {i}", None) for i in range(350)]
    )
    owner.conn.execute("ANALYZE texts")
    return owner, alice, PostgresStore.open(url, user="bob")


def _share(store: PostgresStore, word: str) -> float | None:
    """The share of knowledge rows holding `word`, as `brain_term_share` answers; and as
    `brain_term_rows` (migration 007), which search asks, must answer alike."""
    row = store.conn.execute("SELECT brain_term_share(0::smallint, ?)", (word,)).fetchone()
    share = None if row[0] is None else float(row[0])
    rows = store.conn.execute(
        "SELECT n, share FROM brain_term_rows(0::smallint, ARRAY[?], 300)", (word,)
    ).fetchall()
    assert (None if rows[0][1] is None else float(rows[0][1])) == share
    if share is None:  # never more than the rows the caller may read
        assert rows[0][0] == store.text.doc_freq([word], ("entities_fts",))[word]
    return share


def test_a_person_gets_the_share_of_a_common_word(tmp_path: Path, database_url: str) -> None:
    owner, alice, bob = _team(database_url)
    try:
        # bob cannot read the planner's statistics himself: that is why the function exists
        assert not bob.conn.execute(
            "SELECT 1 FROM pg_stats WHERE tablename = 'texts' AND attname = 'tsv'"
        ).fetchall()
        share = _share(bob, COMMON)
        assert share is not None and share > 0.4
        assert share == _share(owner, COMMON)
        # his search ranks the team's rows with it
        assert bob.text.doc_freq([COMMON])[COMMON] >= 300
    finally:
        for store in (owner, alice, bob):
            store.close()


def test_the_statistics_never_show_another_workspaces_rows(
    tmp_path: Path, database_url: str
) -> None:
    owner, alice, bob = _team(database_url)
    try:
        # a word common in alice's private rows: hers to ask about, not bob's
        assert _share(owner, PRIVATE) and _share(alice, PRIVATE)
        assert _share(bob, PRIVATE) is None
        assert _share(bob, f"{COMMON} {PRIVATE}") is None
        # no row comes back through it, and the tables stay closed to bob
        with pytest.raises(sqlite3.DatabaseError):
            bob.conn.execute("SELECT count(*) FROM public.texts")
        assert bob.text.doc_freq([PRIVATE])[PRIVATE] == 0
        assert not bob.text.rank(PRIVATE, 10)
        # its settings are its own: a person's search_path cannot redirect what it reads
        config = owner.conn.execute(
            "SELECT proconfig, prosecdef FROM pg_proc WHERE proname = 'brain_term_share'"
        ).fetchone()
        assert config[1] and any(c.startswith("search_path=") for c in config[0])
    finally:
        for store in (owner, alice, bob):
            store.close()


def test_the_function_is_not_open_to_every_login(tmp_path: Path, database_url: str) -> None:
    owner, alice, bob = _team(database_url)
    try:
        stranger = "brain_stranger_" + str(abs(hash(str(tmp_path))) % 10**6)
        owner.conn.execute(f'CREATE ROLE "{stranger}" NOLOGIN')
        owner.conn.execute(f'GRANT "{stranger}" TO CURRENT_USER')
        owner.conn.execute(f'SET ROLE "{stranger}"')
        try:
            with pytest.raises(sqlite3.DatabaseError):
                owner.conn.execute("SELECT brain_term_share(0::smallint, 'falcon')")
            with pytest.raises(sqlite3.DatabaseError):
                owner.conn.execute("SELECT * FROM brain_term_rows(0::smallint, '{falcon}', 1)")
        finally:
            owner.conn.execute("RESET ROLE")
            owner.conn.execute(f'DROP ROLE "{stranger}"')
    finally:
        for store in (owner, alice, bob):
            store.close()
