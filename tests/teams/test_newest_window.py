"""A word too common to score every row holding it is scored in the newest rows that hold
it, on PostgreSQL whichever way they are found: above the floor where they should lie
(schema migrations 009, 010), or, when the word's rows are all older than that, among
every row holding it, or by sorting every row holding it (a word in a few windows of
rows); the same for a person who reads everything."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from brainbridge.model import CHAT_EXCHANGE
from brainbridge.store.postgres import text_index
from brainbridge.store.postgres.store import PostgresStore
from teams.stores import owner_and_bob

EXCHANGES, HOLDING, WINDOW = 400, 100, 10


@pytest.fixture
def stores(database_url: str) -> Iterator[tuple[PostgresStore, PostgresStore]]:
    """The owner's and bob's stores on EXCHANGES chat exchanges: 'zephyr' in the oldest
    HOLDING of them, 'quokka' in the newest HOLDING."""
    rows = []
    for i in range(EXCHANGES):
        word = "zephyr" if i < HOLDING else "quokka" if i >= EXCHANGES - HOLDING else "plain"
        rows.append((CHAT_EXCHANGE, f"s{i}:ex:1", f"User: the {word} turn {i} | AI: ok", None))
    with owner_and_bob(database_url, rows) as stores:
        yield stores


def _newest_holding(store: PostgresStore, word: str) -> set[int]:
    rows = store.conn.execute(
        "SELECT entity_id FROM texts WHERE history = 1"
        " AND tsv @@ plainto_tsquery('english', ?) ORDER BY entity_id DESC LIMIT ?",
        (word, WINDOW),
    ).fetchall()
    return {int(r[0]) for r in rows}


@pytest.mark.parametrize("sort_all", [False, True])
@pytest.mark.parametrize("word", ["zephyr", "quokka"])
def test_a_common_word_is_scored_in_its_newest_rows(
    stores: tuple[PostgresStore, PostgresStore],
    word: str,
    sort_all: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(text_index, "EXACT_ROWS", 20)
    monkeypatch.setattr(text_index, "RARE_ROWS", 10)
    monkeypatch.setattr(text_index, "WINDOW_ROWS", WINDOW)
    # A brain this small would walk back: the walk's cost is per row as the floor's is.
    monkeypatch.setattr(text_index, "WALK_COST", 5.0)
    # Every match sorted (no floor), or the window looked for above the floor.
    monkeypatch.setattr(text_index, "SORT_ALL_WINDOWS", HOLDING if sort_all else 1)
    owner, bob = stores
    # Neither found by a walk back (the oldest fall short of the floor).
    assert not text_index._walk_back(HOLDING, EXCHANGES)
    owner.text._average_lengths(1)  # the half's ids, which the floor is taken from
    assert (owner.text._floor(1, HOLDING) is None) is sort_all
    hits = owner.text.rank(word, 50, entity_types=[CHAT_EXCHANGE])
    assert {eid for eid, _ in hits} == _newest_holding(owner, word)
    assert bob.text.rank(word, 50, entity_types=[CHAT_EXCHANGE]) == hits


def _texts(store: PostgresStore, word: str, floor: int | None) -> list[tuple[int, str]]:
    rows = store.conn.execute(
        "SELECT w.id, w.desc_v::text FROM brain_newest_texts(1::smallint,"
        " plainto_tsquery('english', ?), ?, ?::bigint) AS w",
        (word, WINDOW, floor),
    ).fetchall()
    return [(int(r[0]), str(r[1])) for r in rows]


@pytest.mark.parametrize("word", ["zephyr", "quokka"])
def test_the_window_comes_with_the_rows_to_score(
    stores: tuple[PostgresStore, PostgresStore], word: str
) -> None:
    """`brain_newest_texts` returns the newest rows holding a word, each with its text to
    score, whether the floor is right, too high (fewer than the window above it: the
    newest below follow) or not given; a person gets the same rows."""
    owner, bob = stores
    newest = sorted(_newest_holding(owner, word), reverse=True)
    top = int(owner.conn.execute("SELECT max(entity_id) FROM texts").fetchone()[0])
    for store in (owner, bob):
        for at in (max(newest) - 2 * WINDOW, top - 3, None):
            got = _texts(store, word, at)
            assert [eid for eid, _ in got] == newest
            assert all(f"'{word}'" in text for _, text in got)
