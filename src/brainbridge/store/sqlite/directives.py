"""Rooms, messages and admin completions of the directive bridge, in the brain database."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime

from brainbridge.errors import InvalidInput, NotFound
from brainbridge.model.directives import (
    Category,
    Classification,
    Message,
    MessageLabel,
    RoomInfo,
    RoomKind,
)
from brainbridge.store.dialect import dialect_of
from brainbridge.store.sqlite.writes import write_tx

# Fixed-width UTC text, so string order is time order and indexes serve range scans.
_TS = "%Y-%m-%dT%H:%M:%S.%fZ"


def ts_text(at: datetime) -> str:
    """`at` as the stored timestamp text.

    Raises: InvalidInput for a naive datetime.
    """
    if at.tzinfo is None:
        raise InvalidInput(f"timestamp {at.isoformat()} has no time zone")
    return at.astimezone(UTC).strftime(_TS)


def ts_parse(text: str) -> datetime:
    """A stored timestamp back as an aware datetime."""
    return datetime.fromisoformat(text)  # C-fast; reads the trailing "Z" as UTC


def m010_directives(conn: sqlite3.Connection) -> None:
    """Tables of the directive bridge (runs inside the migration transaction)."""
    conn.execute(
        """CREATE TABLE IF NOT EXISTS directive_rooms (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('admin', 'dm', 'group')),
            canonical INTEGER NOT NULL DEFAULT 0,
            canonical_since TEXT,
            created_at TEXT NOT NULL
        )"""
    )
    conn.execute(
        """CREATE TABLE IF NOT EXISTS directive_messages (
            id INTEGER PRIMARY KEY,
            room_id TEXT NOT NULL REFERENCES directive_rooms(id) ON DELETE CASCADE,
            author TEXT NOT NULL,
            author_is_owner INTEGER NOT NULL,
            at TEXT NOT NULL,
            text TEXT NOT NULL,
            category TEXT NOT NULL,
            priority INTEGER NOT NULL DEFAULT 0,
            reason TEXT NOT NULL,
            classified_by TEXT NOT NULL
        )"""
    )
    conn.execute(
        "CREATE INDEX IF NOT EXISTS directive_messages_room_at"
        " ON directive_messages(room_id, at, id)"
    )
    conn.execute(
        "CREATE INDEX IF NOT EXISTS directive_messages_owner_at"
        " ON directive_messages(author_is_owner, at, id)"
    )
    conn.execute(
        """CREATE TABLE IF NOT EXISTS directive_completions (
            message_id INTEGER PRIMARY KEY REFERENCES directive_messages(id) ON DELETE CASCADE,
            at TEXT NOT NULL,
            note TEXT NOT NULL DEFAULT ''
        )"""
    )


_SELECT = """SELECT m.id, m.room_id, r.kind, r.canonical, m.author, m.author_is_owner, m.at,
    m.text, m.category, m.priority, m.reason, m.classified_by
    FROM directive_messages m JOIN directive_rooms r ON r.id = m.room_id"""


# Plain dict lookups: calling an Enum class per row is several times slower.
_CATEGORIES = {c.value: c for c in Category}
_KINDS = {k.value: k for k in RoomKind}


def _message(row: sqlite3.Row | tuple) -> Message:
    return Message(
        id=row[0],
        room_id=row[1],
        room_kind=_KINDS[row[2]],
        canonical=bool(row[3]),
        author=row[4],
        author_is_owner=bool(row[5]),
        at=ts_parse(row[6]),
        text=row[7],
        classification=Classification(_CATEGORIES[row[8]], row[10], row[9], row[11]),
    )


class SqliteDirectiveStore:
    """The directive bridge's `DirectiveStore` on a brain database connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def add_message(
        self,
        *,
        room_id: str,
        room_kind: RoomKind,
        canonical: bool,
        author: str,
        author_is_owner: bool,
        at: datetime,
        text: str,
        classification: Classification,
    ) -> Message:
        """Store one message, creating its room or updating the room's kind and flag.

        A room once marked canonical stays so until `set_canonical(room, False)`.
        Raises: InvalidInput for a naive timestamp; StoreBusy.
        """
        at_text = ts_text(at)
        with write_tx(self.conn):
            self.conn.execute(
                f"""INSERT INTO directive_rooms(id, kind, canonical, canonical_since, created_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(id{dialect_of(self.conn).scoped}) DO UPDATE SET kind = excluded.kind,
                    canonical_since = CASE
                        WHEN directive_rooms.canonical = 0 AND excluded.canonical = 1
                        THEN excluded.canonical_since ELSE directive_rooms.canonical_since END,
                    canonical = {dialect_of(self.conn).greatest}(
                        directive_rooms.canonical, excluded.canonical)""",
                (room_id, room_kind.value, int(canonical), at_text if canonical else None, at_text),
            )
            cur = self.conn.execute(
                """INSERT INTO directive_messages(room_id, author, author_is_owner, at, text,
                    category, priority, reason, classified_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    RETURNING id""",
                (
                    room_id,
                    author,
                    int(author_is_owner),
                    at_text,
                    text,
                    classification.category.value,
                    classification.priority,
                    classification.reason,
                    classification.by,
                ),
            )
            message_id = cur.fetchone()[0]
        found = self.get_message(int(message_id or 0))
        assert found is not None
        return found

    def set_canonical(self, room_id: str, canonical: bool, at: datetime) -> None:
        """Mark a room as the canonical admin room, or unmark it.

        Raises: NotFound for an unknown room.
        """
        with write_tx(self.conn):
            cur = self.conn.execute(
                "UPDATE directive_rooms SET canonical = ?, canonical_since = ? WHERE id = ?",
                (int(canonical), ts_text(at) if canonical else None, room_id),
            )
        if cur.rowcount == 0:
            raise NotFound(f"no directive room {room_id!r}")

    def rooms(self, until: datetime | None = None) -> list[RoomInfo]:
        """Every room with its flags and its latest owner message at or before `until`."""
        until_text = ts_text(until) if until else "9999"
        rows = self.conn.execute(
            """SELECT r.id, r.kind, r.canonical, r.canonical_since,
                (SELECT MAX(m.at) FROM directive_messages m
                 WHERE m.room_id = r.id AND m.author_is_owner = 1 AND m.at <= ?)
            FROM directive_rooms r ORDER BY r.id""",
            (until_text,),
        ).fetchall()
        return [
            RoomInfo(
                id=r[0],
                kind=RoomKind(r[1]),
                canonical=bool(r[2]),
                canonical_since=ts_parse(r[3]) if r[3] else None,
                last_owner_message_at=ts_parse(r[4]) if r[4] else None,
            )
            for r in rows
        ]

    def room_messages(
        self,
        room_ids: tuple[str, ...],
        since: datetime,
        until: datetime,
        keep_categories: Iterable[Category] = (),
        *,
        categories: Iterable[Category] | None = None,
        owner_only: bool = False,
    ) -> list[Message]:
        """Messages of these rooms in [since, until], plus older ones of `keep_categories`,
        oldest first; only of `categories` and only the owner's when asked."""
        if not room_ids:
            return []
        keep = [c.value for c in keep_categories]
        rooms_sql = ",".join("?" * len(room_ids))
        keep_sql = f" OR m.category IN ({','.join('?' * len(keep))})" if keep else ""
        only = [c.value for c in categories] if categories is not None else []
        only_sql = (
            f" AND m.category IN ({','.join('?' * len(only))})" if categories is not None else ""
        )
        owner_sql = " AND m.author_is_owner = 1" if owner_only else ""
        rows = self.conn.execute(
            f"""{_SELECT} WHERE m.room_id IN ({rooms_sql}) AND m.at <= ?
                AND (m.at >= ?{keep_sql}){only_sql}{owner_sql} ORDER BY m.at, m.id""",
            (*room_ids, ts_text(until), ts_text(since), *keep, *only),
        ).fetchall()
        return [_message(r) for r in rows]

    def room_labels(
        self, room_ids: tuple[str, ...], since: datetime, until: datetime
    ) -> list[MessageLabel]:
        """Id, author and classification of every message of these rooms in [since, until]:
        enough to account for messages that cannot be guidance without loading them."""
        if not room_ids:
            return []
        rows = self.conn.execute(
            f"""SELECT id, author, author_is_owner, category, reason FROM directive_messages
            WHERE room_id IN ({",".join("?" * len(room_ids))}) AND at >= ? AND at <= ?""",
            (*room_ids, ts_text(since), ts_text(until)),
        ).fetchall()
        return [MessageLabel(r[0], r[1], bool(r[2]), _CATEGORIES[r[3]], r[4]) for r in rows]

    def owner_dms(self, limit: int, since: datetime, until: datetime) -> list[Message]:
        """The `limit` most recent owner-authored DM messages in [since, until], oldest first."""
        rows = self.conn.execute(
            f"""SELECT * FROM ({_SELECT} WHERE r.kind = 'dm' AND m.author_is_owner = 1
                AND m.at >= ? AND m.at <= ? ORDER BY m.at DESC, m.id DESC LIMIT ?)
            ORDER BY at, id""",
            (ts_text(since), ts_text(until), limit),
        ).fetchall()
        return [_message(r) for r in rows]

    def get_message(self, message_id: int) -> Message | None:
        """One message by id, or None."""
        row = self.conn.execute(f"{_SELECT} WHERE m.id = ?", (message_id,)).fetchone()
        return _message(row) if row else None

    def recent_messages(self, limit: int = 50) -> list[Message]:
        """The most recent messages of every room, newest first (for listings)."""
        rows = self.conn.execute(
            f"{_SELECT} ORDER BY m.at DESC, m.id DESC LIMIT ?", (limit,)
        ).fetchall()
        return [_message(r) for r in rows]

    def mark_completed(self, message_id: int, at: datetime, note: str = "") -> None:
        """Record that the admin completed this message's directive (again: the latest wins).

        Raises: NotFound for an unknown message id; StoreBusy.
        """
        with write_tx(self.conn):
            exists = self.conn.execute(
                "SELECT 1 FROM directive_messages WHERE id = ?", (message_id,)
            ).fetchone()
            if exists is None:
                raise NotFound(f"no directive message #{message_id}")
            self.conn.execute(
                """INSERT INTO directive_completions(message_id, at, note) VALUES (?, ?, ?)
                ON CONFLICT(message_id) DO UPDATE SET at = excluded.at, note = excluded.note""",
                (message_id, ts_text(at), note),
            )

    def completions(self) -> dict[int, tuple[datetime, str]]:
        """Admin completions: message id -> (when, note)."""
        rows = self.conn.execute("SELECT message_id, at, note FROM directive_completions")
        return {r[0]: (ts_parse(r[1]), r[2]) for r in rows}
