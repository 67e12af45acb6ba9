"""A person's search is planned as the owner's: the planner knows what share of the rows
a person's views let through (schema migration 007), so a word in many chat exchanges is
found by walking the newest back, as for the owner, not by sorting all its matches; and a
person who may read everything finds exactly what the owner finds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from brainbridge.bridge.observe import exchange_attributes, exchange_name
from brainbridge.model import CHAT_EXCHANGE
from brainbridge.store.postgres.store import PostgresStore
from teams.stores import owner_and_bob

WORD = "kettle"  # in every exchange: a common word of chat history
EXCHANGES = 3000


@pytest.fixture
def team(database_url: str) -> Iterator[tuple[PostgresStore, PostgresStore]]:
    """The owner's store, with the team's chat history analysed, and bob's (a member of
    the shared workspace, as every person is by default)."""
    rows: list[Any] = []
    for i in range(EXCHANGES):
        session, turn = f"s{i // 20}", i % 20 + 1
        description, attrs = exchange_attributes(
            session, turn, f"where did I leave the {WORD} number {i}?", f"On shelf {i}."
        )
        rows.append((CHAT_EXCHANGE, exchange_name(session, turn), description, attrs))
    with owner_and_bob(database_url, rows, analyse=True) as stores:
        yield stores


def _rank_statement(store: PostgresStore, query: str) -> tuple[str, Any]:
    """The statement (and its parameters) that ranks chat history for `query`."""
    seen: list[tuple[str, Any]] = []
    execute = store.conn.execute

    def spy(sql: str, params: Any = ()) -> Any:
        seen.append((sql, params))
        return execute(sql, params)

    store.conn.execute = spy  # type: ignore[method-assign]
    try:
        store.text.rank(query, 10, entity_types=[CHAT_EXCHANGE])
    finally:
        store.conn.execute = execute  # type: ignore[method-assign]
    return next((sql, p) for sql, p in seen if sql.startswith("WITH c AS"))


def _plan(store: PostgresStore, sql: str, params: Any) -> dict[str, Any]:
    row = store.conn.execute("EXPLAIN (FORMAT JSON) " + sql, params).fetchone()
    return json.loads(row[0])[0]["Plan"]  # type: ignore[no-any-return]


def _nodes(plan: dict[str, Any]) -> list[str]:
    out = [f"{plan['Node Type']} {plan.get('Index Name', '')}".strip()]
    for child in plan.get("Plans", []):
        out += _nodes(child)
    return out


def test_the_planner_knows_what_a_persons_view_lets_through(
    team: tuple[PostgresStore, PostgresStore],
) -> None:
    owner, bob = team
    sql = "SELECT entity_id FROM texts WHERE history = 1"
    rows = _plan(owner, sql, ())["Plan Rows"]
    assert rows >= EXCHANGES * 0.9
    # bob reads the same rows through his view; the planner must not take it for a few
    assert _plan(bob, sql, ())["Plan Rows"] >= rows * 0.9


def test_a_common_word_is_found_by_the_same_plan_as_the_owners(
    team: tuple[PostgresStore, PostgresStore],
) -> None:
    owner, bob = team
    plans = {}
    for who, store in (("owner", owner), ("bob", bob)):
        sql, params = _rank_statement(store, f"the {WORD}")
        plans[who] = _nodes(_plan(store, sql, params))
    assert "Index Scan texts_history_newest" in plans["owner"]  # the newest, walked back
    assert [n for n in plans["bob"] if n != "Result"] == [
        n for n in plans["owner"] if n != "Result"
    ]


def test_a_person_who_reads_everything_finds_what_the_owner_finds(
    team: tuple[PostgresStore, PostgresStore],
) -> None:
    owner, bob = team
    for query in (f"the {WORD}", f"{WORD} number 17", "shelf 2999"):
        assert bob.text.doc_freq([WORD, "shelf"]) == owner.text.doc_freq([WORD, "shelf"])
        assert bob.text.rank(query, 10) == owner.text.rank(query, 10)
    assert bob.count_entities() == owner.count_entities() == EXCHANGES
