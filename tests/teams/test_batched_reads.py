"""The reads PostgreSQL answers in one statement with its values as arrays (name keys,
exchange positions, entities by id) give what the SQLite file gives for the same rows,
to the owner and to a person of the shared workspace."""

from __future__ import annotations

from pathlib import Path

from brainbridge.model import CHAT_EXCHANGE
from brainbridge.naming import FULL, PART
from brainbridge.store.sqlite.store import SqliteStore
from teams.stores import owner_and_bob

ROWS = [
    ("Person", "Kevin Alvarez", "engineer", None),
    ("Person", "Kevin Smith", "designer", None),
    ("Person", "Kevin Jones", "manager", None),
    ("Person", "Ana Alvarez", "nurse", None),
    ("Project", "Kevin Launch Plan", "the spring launch", {"aliases": ["KLP"]}),
    ("Organization", "Northwind Logistics", "a shipper", None),
    *(
        (CHAT_EXCHANGE, f"{s}:ex:{n}", f"turn {n} of {s}", {"session_id": s, "exchange_number": n})
        for s, numbers in (("s-a", (1, 2, 3, 5, 9)), ("s-b", (2, 3)))
        for n in numbers
    ),
]
KEYS = ["kevin", "alvarez", "kevin alvarez", "launch", "klp", "northwind logistics", "nobody"]
POSITIONS = [("s-a", n) for n in (0, 1, 2, 3, 4, 5, 9, 3)] + [("s-b", 3), ("s-c", 1)]


def _answers(store: SqliteStore) -> tuple[object, ...]:
    ids = {e.name: e.id for e in store.get_entities(range(1, 100)).values()}
    exchanges = [ids[n] for n in ids if ":ex:" in n]
    some = [ids["Kevin Smith"], ids["s-a:ex:3"], 99_999]
    return (
        store.name_owners(KEYS, 2),
        {p: _name(store, i) for p, i in store.exchanges_at(POSITIONS).items()},
        {_name(store, i): p for i, p in store.exchange_positions([*exchanges, some[0]]).items()},
        sorted(e.name for e in store.get_entities(some).values()),
    )


def _name(store: SqliteStore, eid: int) -> str:
    return store.get_entities([eid])[eid].name


def test_batched_reads_answer_as_the_file_does(tmp_path: Path, database_url: str) -> None:
    file = SqliteStore.open(tmp_path / "brain.db")
    try:
        file.upsert_many(ROWS)
        expected = _answers(file)
        with owner_and_bob(database_url, ROWS) as (owner, bob):
            # Of three Kevins, the oldest two (as many as asked for per key).
            assert expected[0][("kevin", PART)] == [
                ("Person", "Kevin Alvarez", 0),
                ("Person", "Kevin Smith", 0),
            ]
            assert expected[0][("klp", FULL)] == [("Project", "Kevin Launch Plan", 0)]
            assert _answers(owner) == expected
            assert _answers(bob) == expected
    finally:
        file.close()
