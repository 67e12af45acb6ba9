"""Core tables: entities, relations, full-text index, vectors, entity types, sessions."""

from __future__ import annotations

import sqlite3


def run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run `;`-separated DDL inside the caller's transaction (executescript would commit)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def m001_core(conn: sqlite3.Connection) -> None:
    run_script(
        conn,
        """
        CREATE TABLE entities (
            id INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            name TEXT NOT NULL,
            description TEXT NOT NULL DEFAULT '',
            attributes TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (type, name)
        );
        CREATE INDEX entities_type ON entities(type);
        CREATE INDEX entities_name_nocase ON entities(name COLLATE NOCASE);

        -- rowid = entities.id, kept in step by the store inside the same transaction.
        CREATE VIRTUAL TABLE entities_fts USING fts5(
            name, description, body,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );

        CREATE TABLE relations (
            id INTEGER PRIMARY KEY,
            src_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            type TEXT NOT NULL,
            dst_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
            attributes TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL,
            UNIQUE (src_id, type, dst_id)
        );
        CREATE INDEX relations_dst ON relations(dst_id);

        -- seq grows on every write so readers can load new vectors incrementally.
        CREATE TABLE vectors (
            entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
            model TEXT NOT NULL,
            seq INTEGER NOT NULL,
            vector BLOB NOT NULL
        );
        CREATE INDEX vectors_seq ON vectors(seq);

        CREATE TABLE entity_types (
            name TEXT PRIMARY KEY,
            description TEXT NOT NULL DEFAULT '',
            spec TEXT NOT NULL DEFAULT '{}'
        );
        """,
    )


def m002_sessions(conn: sqlite3.Connection) -> None:
    run_script(
        conn,
        """
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL DEFAULT '',
            title_source TEXT NOT NULL DEFAULT '',
            summary TEXT NOT NULL DEFAULT '',
            message_count INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        -- One row per turn instead of a JSON list in sessions: appends from
        -- concurrent background tasks never read-modify-write the same cell.
        CREATE TABLE bridge_log (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            turn INTEGER NOT NULL,
            entry TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX bridge_log_session ON bridge_log(session_id, id);

        CREATE TABLE curator_runs (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            trigger TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            tool_calls TEXT NOT NULL DEFAULT '[]',
            actions TEXT NOT NULL DEFAULT '[]',
            error TEXT
        );
        CREATE INDEX curator_runs_session ON curator_runs(session_id, id);
        """,
    )


def m017_vector_parts(conn: sqlite3.Connection) -> None:
    # The vectors of an entity's sentences beside its whole text's (search/parts.py).
    conn.execute("ALTER TABLE vectors ADD COLUMN parts BLOB")
