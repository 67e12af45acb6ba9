"""How many rows hold a word, as search weighs it (IDF), on PostgreSQL: exact in each half of
the text index through every write, whatever the planner's statistics say, and for a
person only over the workspaces they may read (schema migration 008, `term_rows`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from brainbridge.store.postgres import people, schema
from brainbridge.store.postgres.store import PostgresStore
from brainbridge.store.sqlite.text_index import HISTORY, KNOWLEDGE

WORD = "falcon"


def _counts(store: PostgresStore, word: str = WORD) -> tuple[int, int]:
    """(knowledge rows, chat exchanges) holding `word`, as a fresh search reads them."""
    store.text = store._text_index()  # nothing remembered from an earlier read
    return (
        store.text.doc_freq([word], (KNOWLEDGE,))[word],
        store.text.doc_freq([word], (HISTORY,))[word],
    )


def _fill(store: PostgresStore) -> None:
    """2000 knowledge rows without the word, 400 with it, 1000 chat exchanges with it: the
    planner's brain-wide share of the word (0.41) fits neither half."""
    store.upsert_many(
        [("Topic", f"plain {i}", f"a field of clover {i}", None) for i in range(2000)]
    )
    store.upsert_many(
        [("Topic", f"bird {i}", f"the {WORD} flies over field {i}", None) for i in range(400)]
    )
    store.upsert_many(
        [
            ("Chat_Exchange", f"turn {i}", f"User: did you see the {WORD}? ({i})", None)
            for i in range(1000)
        ]
    )
    store.conn.execute("ANALYZE texts")


def test_counts_are_exact_in_each_half_through_every_write(database_url: str) -> None:
    store = PostgresStore.open(database_url)
    try:
        _fill(store)
        assert _counts(store) == (400, 1000)
        for i in range(100):
            store.delete_entity("Topic", f"bird {i}")
        for i in range(100, 150):  # rewritten without the word
            store.upsert_entity("Topic", f"bird {i}", "a crow this time")
        store.upsert_entity("Topic", "plain 7", f"a {WORD} landed here")
        assert _counts(store) == (251, 1000)
        assert _counts(store, "clover") == (1999, 0)
        # a word of two lexemes counts the rows holding both, as the query matches it
        assert _counts(store, "falcon_flies") == (250, 0)
    finally:
        store.close()


def test_a_person_counts_only_the_rows_they_may_read(database_url: str) -> None:
    owner = PostgresStore.open(database_url)
    try:
        people.add(owner.conn, "alice")
        people.add(owner.conn, "bob")
        _fill(owner)
        alice = PostgresStore.open(database_url, user="alice")
        bob = PostgresStore.open(database_url, user="bob")
        try:
            alice.upsert_many(
                [("Topic", f"secret {i}", f"my {WORD} and zebrafish {i}", None) for i in range(30)]
            )
            assert _counts(alice) == (430, 1000)
            assert _counts(alice, "zebrafish") == (30, 0)
            assert _counts(bob) == (400, 1000)
            assert _counts(bob, "zebrafish") == (0, 0)
            assert _counts(owner) == (430, 1000)
            # the counts themselves are closed to a person, as the tables are
            with pytest.raises(Exception, match="not allowed"):
                bob.conn.execute("SELECT count(*) FROM public.term_rows")
        finally:
            alice.close()
            bob.close()
    finally:
        owner.close()


def test_a_brain_made_before_the_counts_gets_them_on_upgrade(
    database_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    at = [name for name, _ in schema.MIGRATIONS].index("008_term_rows")
    with monkeypatch.context() as before:
        before.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:at])
        old = PostgresStore.open(database_url)
        try:
            _fill(old)
        finally:
            old.close()
    store = PostgresStore.open(database_url)
    try:
        assert _counts(store) == (400, 1000)
        store.upsert_entity("Topic", "bird 0", "a crow this time")
        assert _counts(store) == (399, 1000)
    finally:
        store.close()
