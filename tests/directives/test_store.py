"""The directive store on both backends: migration, round trips, ordering, completions."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tests.pg import backend  # noqa: F401  (runs this module on both backends)

from brainbridge.errors import InvalidInput, NotFound
from brainbridge.model.directives import Category, Classification, RoomKind
from brainbridge.store.location import open_store
from brainbridge.store.sqlite.db import connect
from brainbridge.store.sqlite.directives import SqliteDirectiveStore

from .helpers import day


@pytest.fixture
def store(tmp_path: Path, database_url: str | None) -> Iterator[SqliteDirectiveStore]:
    """The directive store on the brain's connection: the SQLite file or PostgreSQL."""
    conn = open_store(tmp_path, database_url).conn if database_url else connect(tmp_path / "b.db")
    yield SqliteDirectiveStore(conn)
    conn.close()


LABEL = Classification(Category.DIRECTIVE, "imperative: 'send'", 1, "rules")


def add(store: SqliteDirectiveStore, room: str, when: float, text: str, **kw: object) -> int:
    args: dict[str, object] = {
        "room_id": room,
        "room_kind": RoomKind.ADMIN,
        "canonical": False,
        "author": "dana",
        "author_is_owner": True,
        "at": day(when),
        "text": text,
        "classification": LABEL,
    }
    args.update(kw)
    return store.add_message(**args).id  # type: ignore[arg-type]


def test_migration_creates_tables_once(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    conn = connect(path)
    names = {r[0] for r in conn.execute("SELECT name FROM _migrations")}
    assert "010_directives" in names
    conn.close()
    conn = connect(path)  # reopening applies nothing twice
    assert (
        conn.execute("SELECT COUNT(*) FROM _migrations WHERE name='010_directives'").fetchone()[0]
        == 1
    )
    conn.close()


def test_message_round_trip_keeps_everything(store: SqliteDirectiveStore) -> None:
    mid = add(store, "ops", 0.5, "Send the report ✓", canonical=True, room_kind=RoomKind.DM)
    got = store.get_message(mid)
    assert got is not None
    assert (got.room_id, got.room_kind, got.canonical, got.author, got.author_is_owner) == (
        "ops",
        RoomKind.DM,
        True,
        "dana",
        True,
    )
    assert got.at == day(0.5) and got.at.tzinfo is UTC
    assert got.text == "Send the report ✓" and got.classification == LABEL
    assert store.get_message(mid + 1) is None


def test_naive_timestamps_are_refused(store: SqliteDirectiveStore) -> None:
    with pytest.raises(InvalidInput, match="time zone"):
        add(store, "ops", 0, "x", at=datetime(2026, 1, 1))


def test_room_messages_in_time_order_with_kept_categories(store: SqliteDirectiveStore) -> None:
    role = Classification(Category.ROLE, "who", 0, "rules")
    add(store, "ops", 0, "old role", classification=role)
    add(store, "ops", 1, "old directive")
    add(store, "ops", 5, "newer")
    add(store, "ops", 3, "older but written later")
    add(store, "other", 4, "elsewhere")
    add(store, "ops", 9, "future")
    got = store.room_messages(("ops",), day(2), day(6), [Category.ROLE])
    assert [m.text for m in got] == ["old role", "older but written later", "newer"]


def test_owner_dms_takes_the_most_recent_owner_messages(store: SqliteDirectiveStore) -> None:
    for i in range(5):
        add(store, f"dm-{i % 2}", i, f"dm {i}", room_kind=RoomKind.DM)
    add(store, "dm-0", 5, "not the owner", room_kind=RoomKind.DM, author_is_owner=False)
    add(store, "ops", 6, "admin room")
    got = store.owner_dms(3, day(0), day(10))
    assert [m.text for m in got] == ["dm 2", "dm 3", "dm 4"]


def test_rooms_report_the_latest_owner_message(store: SqliteDirectiveStore) -> None:
    add(store, "ops", 1, "a")
    add(store, "ops", 2, "b", author_is_owner=False)
    add(store, "ops", 3, "c", canonical=True)
    (room,) = store.rooms(until=day(2.5))
    assert room.last_owner_message_at == day(1)
    assert room.canonical and room.canonical_since == day(3)
    with pytest.raises(NotFound):
        store.set_canonical("nope", True, day(1))


def test_completions_round_trip_and_unknown_ids(store: SqliteDirectiveStore) -> None:
    mid = add(store, "ops", 0, "Send the report")
    store.mark_completed(mid, day(1), "first")
    store.mark_completed(mid, day(2), "again")
    assert store.completions() == {mid: (day(2), "again")}
    with pytest.raises(NotFound):
        store.mark_completed(mid + 10, day(1))
