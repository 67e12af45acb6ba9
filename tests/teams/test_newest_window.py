"""A word too common to score every row holding it is scored in the newest rows that hold
it, on PostgreSQL whichever way they are found: above the floor where they should lie
(schema migration 009), or, when the word's rows are all older than that, among every
row holding it; the same for a person who reads everything."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from brainbridge.model import CHAT_EXCHANGE
from brainbridge.store.postgres import people, text_index
from brainbridge.store.postgres.store import PostgresStore

EXCHANGES, HOLDING, WINDOW = 400, 100, 10


@pytest.fixture
def stores(database_url: str) -> Iterator[tuple[PostgresStore, PostgresStore]]:
    """The owner's and bob's stores on EXCHANGES chat exchanges: 'zephyr' in the oldest
    HOLDING of them, 'quokka' in the newest HOLDING."""
    owner = PostgresStore.open(database_url)
    people.add(owner.conn, "bob")
    rows = []
    for i in range(EXCHANGES):
        word = "zephyr" if i < HOLDING else "quokka" if i >= EXCHANGES - HOLDING else "plain"
        rows.append((CHAT_EXCHANGE, f"s{i}:ex:1", f"User: the {word} turn {i} | AI: ok", None))
    owner.upsert_many(rows)
    bob = PostgresStore.open(database_url, user="bob", workspace="main")
    try:
        yield owner, bob
    finally:
        bob.close()
        owner.close()


def _newest_holding(store: PostgresStore, word: str) -> set[int]:
    rows = store.conn.execute(
        "SELECT entity_id FROM texts WHERE history = 1"
        " AND tsv @@ plainto_tsquery('english', ?) ORDER BY entity_id DESC LIMIT ?",
        (word, WINDOW),
    ).fetchall()
    return {int(r[0]) for r in rows}


@pytest.mark.parametrize("word", ["zephyr", "quokka"])
def test_a_common_word_is_scored_in_its_newest_rows(
    stores: tuple[PostgresStore, PostgresStore], word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(text_index, "EXACT_ROWS", 20)
    monkeypatch.setattr(text_index, "RARE_ROWS", 10)
    monkeypatch.setattr(text_index, "WINDOW_ROWS", WINDOW)
    owner, bob = stores
    # Neither found by a walk back, both through the floor (the oldest fall short of it).
    assert not text_index._walk_back(HOLDING, EXCHANGES)
    hits = owner.text.rank(word, 50, entity_types=[CHAT_EXCHANGE])
    assert {eid for eid, _ in hits} == _newest_holding(owner, word)
    assert bob.text.rank(word, 50, entity_types=[CHAT_EXCHANGE]) == hits
