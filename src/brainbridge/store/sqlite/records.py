"""The brain's history as portable records: sessions, the bridge log, curator runs and the
directive rooms, messages and completions, for `brain export` / `brain import`.

Each table is written without its surrogate ids; a row is known again by its natural key
(a bridge-log entry by session, turn and time; a directive message by room, author, time
and text), so importing the same file twice, or again after an interrupted run, adds
nothing twice. Sessions and rooms are upserted: the newer copy wins.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from brainbridge.errors import InvalidInput
from brainbridge.redact import redact_value
from brainbridge.store.dialect import dialect_of
from brainbridge.store.sqlite.writes import write_tx


@dataclass(frozen=True)
class Table:
    kind: str  # the record's "kind" in an export
    name: str
    columns: tuple[str, ...]  # what is exported, surrogate id aside
    key: tuple[str, ...]  # the columns that say "this is the same row"
    json_columns: tuple[str, ...] = ()
    newer: str = ""  # upsert: the column whose larger value wins


TABLES = (
    Table(
        "session",
        "sessions",
        ("id", "title", "title_source", "summary", "message_count", "created_at", "updated_at"),
        ("id",),
        newer="updated_at",
    ),
    Table(
        "bridge_log",
        "bridge_log",
        ("session_id", "turn", "entry", "created_at"),
        ("session_id", "turn", "created_at"),
        ("entry",),
    ),
    Table(
        "curator_run",
        "curator_runs",
        ("session_id", "trigger", "started_at", "finished_at", "tool_calls", "actions", "error"),
        ("session_id", "trigger", "started_at"),
        ("tool_calls", "actions"),
    ),
    Table(
        "directive_room",
        "directive_rooms",
        ("id", "kind", "canonical", "canonical_since", "created_at"),
        ("id",),
        newer="created_at",
    ),
    Table(
        "directive_message",
        "directive_messages",
        (
            "room_id",
            "author",
            "author_is_owner",
            "at",
            "text",
            "category",
            "priority",
            "reason",
            "classified_by",
        ),
        ("room_id", "author", "at", "text"),
    ),
)
BY_KIND = {t.kind: t for t in TABLES}
COMPLETION = "directive_completion"
_MESSAGE_KEY = BY_KIND["directive_message"].key


def export_records(conn: sqlite3.Connection) -> Iterator[dict[str, Any]]:
    """Every history row as a record, parents before children."""
    for table in TABLES:
        cols = ", ".join(table.columns)
        for row in conn.execute(f"SELECT {cols} FROM {table.name} ORDER BY rowid"):
            record = dict(zip(map(_field, table.columns), row, strict=True))
            yield {"kind": table.kind, **_redacted(table, record)}
    key = ", ".join(f"m.{c}" for c in _MESSAGE_KEY)
    rows = conn.execute(
        f"SELECT {key}, c.at, c.note FROM directive_completions c"
        " JOIN directive_messages m ON m.id = c.message_id ORDER BY c.message_id"
    )
    for row in rows:
        message = dict(zip(_MESSAGE_KEY, row[: len(_MESSAGE_KEY)], strict=True))
        yield {"kind": COMPLETION, "message": message, "at": row[-2], "note": row[-1]}


def restore_record(conn: sqlite3.Connection, record: dict[str, Any]) -> bool:
    """Write one exported record back; False when it was there already.

    Raises: InvalidInput for a record that is malformed or refers to something missing.
    """
    kind = record["kind"]
    try:
        with write_tx(conn):
            if kind == COMPLETION:
                return _restore_completion(conn, record)
            return _restore_row(conn, BY_KIND[kind], record)
    except sqlite3.IntegrityError as exc:
        raise InvalidInput(f"{kind} cannot be stored: {exc}") from exc


def _restore_row(conn: sqlite3.Connection, table: Table, record: dict[str, Any]) -> bool:
    values = [_value(table, c, record) for c in table.columns]
    values = list(_redacted(table, dict(zip(table.columns, values, strict=True))).values())
    cols = ", ".join(table.columns)
    marks = ", ".join("?" for _ in table.columns)
    if table.newer:
        updates = ", ".join(f"{c} = excluded.{c}" for c in table.columns if c not in table.key)
        key = ", ".join(table.key) + dialect_of(conn).scoped  # sessions, rooms: per workspace
        before = conn.total_changes
        conn.execute(
            f"INSERT INTO {table.name} ({cols}) VALUES ({marks}) ON CONFLICT({key}) DO UPDATE"
            f" SET {updates} WHERE excluded.{table.newer} > {table.name}.{table.newer}",
            values,
        )
        return conn.total_changes > before
    same = dialect_of(conn).same
    where = " AND ".join(f"{c} {same} ?" for c in table.key)
    keys = [values[table.columns.index(c)] for c in table.key]
    cur = conn.execute(
        f"INSERT INTO {table.name} ({cols}) SELECT {marks}"
        f" WHERE NOT EXISTS (SELECT 1 FROM {table.name} WHERE {where})",
        [*values, *keys],
    )
    return cur.rowcount > 0


def _restore_completion(conn: sqlite3.Connection, record: dict[str, Any]) -> bool:
    message = record["message"]
    if not isinstance(message, dict):
        raise InvalidInput("directive_completion: message must be an object")
    where = " AND ".join(f"{c} = ?" for c in _MESSAGE_KEY)
    row = conn.execute(
        f"SELECT id FROM directive_messages WHERE {where}", [message[c] for c in _MESSAGE_KEY]
    ).fetchone()
    if row is None:
        raise InvalidInput("directive_completion: its message is not in the brain")
    at, note = _text(record, "at"), record.get("note") or ""
    if not isinstance(note, str):
        raise InvalidInput("directive_completion: note must be a string")
    cur = conn.execute(
        "INSERT INTO directive_completions(message_id, at, note) VALUES (?, ?, ?)"
        " ON CONFLICT(message_id) DO NOTHING",
        (row[0], at, note),
    )
    return cur.rowcount > 0


def _redacted(table: Table, record: dict[str, Any]) -> dict[str, Any]:
    """The record with secrets redacted, on the way in and out: a brain written before
    redaction covered the bridge log may still hold a pasted key. JSON columns are redacted
    value by value, so they stay valid JSON; ids and times have no key shape and stay."""
    out = {}
    for column, value in record.items():
        if column in table.json_columns and isinstance(value, str):
            try:
                out[column] = json.dumps(redact_value(json.loads(value)), ensure_ascii=False)
                continue
            except ValueError:
                pass
        out[column] = redact_value(value)
    return out


def _field(column: str) -> str:
    """A column's name in a record: a room's `kind` would clash with the record's own."""
    return "room_kind" if column == "kind" else column


def _value(table: Table, column: str, record: dict[str, Any]) -> Any:
    value = record.get(_field(column))
    if column in table.json_columns:
        if not isinstance(value, str):
            raise InvalidInput(f"{table.kind}: {column} must be JSON text")
        try:
            json.loads(value)
        except ValueError:
            raise InvalidInput(f"{table.kind}: {column} is not valid JSON") from None
        return value
    if value is not None and not isinstance(value, str | int | float):
        raise InvalidInput(f"{table.kind}: {column} must be text or a number")
    return value


def _text(record: dict[str, Any], key: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value:
        raise InvalidInput(f"{record.get('kind')}: {key} must be a non-empty string")
    return value
