"""Forgetting in the store: what an item's removal takes with it, deleted, then scrubbed.

The same statements serve SQLite and PostgreSQL (`store/postgres/conn.py`). On SQLite a
deleted row's bytes would otherwise stay in the file: in freed pages and cells, in the
full-text index's old segments, and in the write-ahead log. So the deletion runs with
`secure_delete` on (freed content is overwritten with zeros), the full-text tables are
merged into fresh segments (`optimize`, which drops the deleted terms), and the log is
checkpointed and truncated. That costs one index merge, not a VACUUM's whole rewrite of
the file, and works while other processes hold the brain open; a checkpoint a reader
blocks is reported, not waited for.
"""

from __future__ import annotations

import logging
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from brainbridge.model import Entity
from brainbridge.store.dialect import dialect_of
from brainbridge.store.sqlite.db import write_tx
from brainbridge.store.sqlite.store import SqliteStore, _row_entity
from brainbridge.store.sqlite.text_index import TABLES

log = logging.getLogger(__name__)

EXTRACTED_FROM = "extracted_from"
_CHUNK = 500


@dataclass(frozen=True)
class Removed:
    """What a deletion removed, by kind (no content)."""

    entities: dict[str, int]
    relations: int
    vectors: int
    sessions: int
    log_entries: int
    scrubbed: bool


def _chunks(ids: Sequence[int]) -> Iterable[Sequence[int]]:
    for i in range(0, len(ids), _CHUNK):
        yield ids[i : i + _CHUNK]


def session_entities(store: SqliteStore, session_id: str) -> list[Entity]:
    """Every entity that records `session_id` as its session: the session's node, its
    exchanges and its observations."""
    return store.entities_with_attribute("session_id", session_id)


def session_exists(store: SqliteStore, session_id: str) -> bool:
    row = store.conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone()
    return row is not None


def derived_facts(store: SqliteStore, exchange_ids: Sequence[int]) -> list[Entity]:
    """Entities extracted from these exchanges and from no other: they were learned there
    (`source_exchange`) and every `extracted_from` link of theirs points into the set.

    An entity the user wrote themselves (no `source_exchange`) or one said again in an
    exchange that stays is kept; it only loses its link to what goes.
    """
    if not exchange_ids:
        return []
    gone = set(exchange_ids)
    candidates: set[int] = set()
    for chunk in _chunks(list(exchange_ids)):
        marks = ",".join("?" * len(chunk))
        rows = store.conn.execute(
            f"SELECT src_id FROM relations WHERE type = ? AND dst_id IN ({marks})",
            (EXTRACTED_FROM, *chunk),
        ).fetchall()
        candidates.update(int(r[0]) for r in rows)
    out = []
    for chunk in _chunks(sorted(candidates)):
        marks = ",".join("?" * len(chunk))
        links: dict[int, set[int]] = {}
        for src, dst in store.conn.execute(
            f"SELECT src_id, dst_id FROM relations WHERE type = ? AND src_id IN ({marks})",
            (EXTRACTED_FROM, *chunk),
        ).fetchall():
            links.setdefault(int(src), set()).add(int(dst))
        rows = store.conn.execute(
            f"SELECT * FROM entities WHERE id IN ({marks}) ORDER BY id", tuple(chunk)
        ).fetchall()
        for row in rows:
            ent = _row_entity(row)
            if ent.attributes.get("source_exchange") and links.get(ent.id, set()) <= gone:
                out.append(ent)
    return out


def count_links(store: SqliteStore, ids: Sequence[int]) -> tuple[int, int]:
    """(relations touching these entities, vectors of them)."""
    relations = vectors = 0
    for chunk in _chunks(list(ids)):
        marks = ",".join("?" * len(chunk))
        relations += store.conn.execute(
            f"SELECT COUNT(*) FROM relations WHERE src_id IN ({marks}) OR dst_id IN ({marks})",
            (*chunk, *chunk),
        ).fetchone()[0]
        vectors += store.conn.execute(
            f"SELECT COUNT(*) FROM vectors WHERE entity_id IN ({marks})", tuple(chunk)
        ).fetchone()[0]
    return int(relations), int(vectors)


def count_log(store: SqliteStore, sessions: Sequence[str], turns: Sequence[tuple[str, int]]) -> int:
    """Bridge log entries of these sessions and of these (session, turn) pairs."""
    n = 0
    for sid in sessions:
        n += store.conn.execute(
            "SELECT COUNT(*) FROM bridge_log WHERE session_id = ?", (sid,)
        ).fetchone()[0]
    for sid, turn in turns:
        n += store.conn.execute(
            "SELECT COUNT(*) FROM bridge_log WHERE session_id = ? AND turn = ?", (sid, turn)
        ).fetchone()[0]
    return int(n)


def delete(
    store: SqliteStore,
    entities: Sequence[Entity],
    sessions: Sequence[str] = (),
    turns: Sequence[tuple[str, int]] = (),
    then: Callable[[], None] | None = None,
) -> Removed:
    """Delete these entities (relations, vectors, name keys and index rows go with them),
    these sessions (their bridge log and curator runs too), the bridge log entries of
    these (session, turn) pairs, and merge records naming a deleted entity; all in one
    transaction. `then` runs next (rewrites of what quoted them), and last what SQLite
    leaves of all of it in its files is scrubbed.

    Raises: StoreBusy when another writer holds the database past the busy timeout.
    """
    ids = [e.id for e in entities]
    relations, vectors = count_links(store, ids)
    log_entries = count_log(store, sessions, turns)
    sqlite = dialect_of(store.conn).name == "sqlite"
    if sqlite:
        was = store.conn.execute("PRAGMA secure_delete").fetchone()[0]
        store.conn.execute("PRAGMA secure_delete = ON")
    try:
        with write_tx(store.conn):
            for ent in entities:
                store.text.remove(ent.id, ent.type)
            for chunk in _chunks(ids):
                marks = ",".join("?" * len(chunk))
                store.conn.execute(f"DELETE FROM entities WHERE id IN ({marks})", tuple(chunk))
            for ent in entities:
                # A merge keeps a snapshot of what it folded: the content would outlive it.
                store.conn.execute(
                    "DELETE FROM merges WHERE entity_type = ? AND (keep_name = ? OR other_name = ?)",
                    (ent.type, ent.name, ent.name),
                )
            for sid, turn in turns:
                store.conn.execute(
                    "DELETE FROM bridge_log WHERE session_id = ? AND turn = ?", (sid, turn)
                )
            for sid in sessions:
                store.conn.execute("DELETE FROM sessions WHERE id = ?", (sid,))
        if then is not None:
            then()
        scrubbed = _scrub(store.conn) if sqlite else True
    finally:
        if sqlite:
            store.conn.execute(f"PRAGMA secure_delete = {int(was)}")
    return Removed(
        dict(Counter(e.type for e in entities)),
        relations,
        vectors,
        len(sessions),
        log_entries,
        scrubbed,
    )


def _scrub(conn: sqlite3.Connection) -> bool:
    """Merge the full-text segments and truncate the WAL; False if a reader kept part of
    the log from being checkpointed (its pages go at the next checkpoint)."""
    with write_tx(conn):
        for table in TABLES:
            conn.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
    busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    if busy:
        log.warning("forget: a reader kept the write-ahead log from being truncated")
    return not busy
