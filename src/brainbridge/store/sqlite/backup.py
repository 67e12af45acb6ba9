"""Backup, restore and check of a brain database.

- `backup`: SQLite's online backup API, so the copy is consistent while other processes
  write (WAL readers never block writers); written to a temporary file, checked, then
  moved into place.
- `restore`: the backup API the other way, into the live database, so other processes see
  the restored brain at their next transaction instead of holding a deleted file; the
  brain as it was is kept beside it first.
- `check`: SQLite's integrity and foreign-key checks, FTS5's own integrity check, and
  whether the full-text index holds exactly the entities; `repair` rebuilds the full-text
  index from the entities (the one thing here that can be rebuilt; vectors are re-embedded
  by `brain index`).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from brainbridge.errors import BrainError, InvalidInput, NotFound
from brainbridge.store.sqlite.db import (
    BUSY_TIMEOUT_MS,
    cannot_write,
    connect,
    create_private,
    read_only_uri,
)
from brainbridge.store.sqlite.text_index import EXCHANGE_TYPE, HISTORY, KNOWLEDGE
from brainbridge.store.sqlite.writes import write_tx


def backup(db: Path, target: Path) -> int:
    """Copy the brain database `db` to `target` (a file); return its size in bytes.

    Raises: NotFound without a brain; InvalidInput if `target` cannot be written.
    """
    if not db.is_file():
        raise NotFound(f"no brain database at {db}")
    if target.is_dir():
        raise InvalidInput(f"{target} is a folder; name the backup file, e.g. {target}/brain.db")
    tmp = target.with_name(f".{target.name}.partial")
    try:
        src = _open(db, readonly=True)
        try:
            tmp.unlink(missing_ok=True)
            create_private(tmp)
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)
                _must_be_sound(dst, str(target))
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InvalidInput(f"cannot write {target}: {exc.strerror or exc}") from exc
    except sqlite3.Error as exc:
        tmp.unlink(missing_ok=True)
        raise BrainError(f"backup failed: {exc}") from exc
    return target.stat().st_size


def restore(source: Path, db: Path) -> Path | None:
    """Make the brain database `db` a copy of the backup `source`; the brain as it was is
    kept as `brain.db.before-restore` (returned; None when there was none).

    Raises: NotFound / InvalidInput for a missing, damaged or foreign backup file.
    """
    if not source.is_file():
        raise NotFound(f"{source}: no such backup file")
    try:
        src = _open(source, readonly=True)
    except sqlite3.Error as exc:
        raise InvalidInput(f"{source} is not a SQLite database ({exc})") from exc
    kept = db.with_name(db.name + ".before-restore")
    try:
        _must_be_sound(src, str(source))
        tables = {r[0] for r in src.execute("SELECT name FROM sqlite_master")}
        if not {"entities", "relations", "_migrations"} <= tables:
            raise InvalidInput(f"{source} is not a brainbridge backup (no entities table)")
        existed = db.is_file()
        live = connect(db)  # creates the folder and schema if the brain is new
        try:
            if existed:
                saved = sqlite3.connect(kept)
                try:
                    live.backup(saved)
                finally:
                    saved.close()
            src.backup(live)
        finally:
            live.close()
    except sqlite3.Error as exc:
        raise BrainError(f"restore failed: {exc}; the brain as it was is in {kept}") from exc
    finally:
        src.close()
    connect(db).close()  # a backup from an older version gets this version's migrations
    return kept if existed else None


@dataclass(frozen=True)
class Finding:
    check: str
    ok: bool
    detail: str = ""
    repairable: bool = False


def check(db: Path) -> list[Finding]:
    """What is wrong with the brain database, check by check."""
    if not db.is_file():
        raise NotFound(f"no brain database at {db}")
    # FTS5's integrity check is an INSERT, though it writes nothing: skipped when read-only
    writable = not cannot_write(db)
    conn = _open(db, readonly=not writable)
    try:
        return _findings(conn, writable)
    finally:
        conn.close()


def repair(db: Path) -> list[Finding]:
    """Rebuild the full-text index from the entities, then check again."""
    conn = connect(db)
    try:
        with write_tx(conn):
            for table in (KNOWLEDGE, HISTORY):
                conn.execute(f"DELETE FROM {table}")
        from brainbridge.store.sqlite.store import SqliteStore

        SqliteStore(conn, db).reindex_text()
        return _findings(conn, True)
    finally:
        conn.close()


def _findings(conn: sqlite3.Connection, writable: bool) -> list[Finding]:
    out = []
    rows = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    out.append(Finding("database integrity", rows == ["ok"], "; ".join(rows[:5])))
    bad = conn.execute("PRAGMA foreign_key_check").fetchall()
    out.append(Finding("foreign keys", not bad, f"{len(bad)} rows point at nothing"))
    for table, op in ((KNOWLEDGE, "!="), (HISTORY, "=")):
        try:
            if writable:
                conn.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
            ok, detail = True, "" if writable else "not checked: the brain is read-only"
        except sqlite3.Error as exc:
            ok, detail = False, str(exc)
        out.append(Finding(f"full-text index {table}", ok, detail, repairable=True))
        missing = conn.execute(
            f"SELECT COUNT(*) FROM entities e WHERE e.type {op} ?"
            f" AND NOT EXISTS (SELECT 1 FROM {table} f WHERE f.rowid = e.id)",
            (EXCHANGE_TYPE,),
        ).fetchone()[0]
        orphans = conn.execute(
            f"SELECT COUNT(*) FROM {table} f WHERE NOT EXISTS"
            f" (SELECT 1 FROM entities e WHERE e.id = f.rowid AND e.type {op} ?)",
            (EXCHANGE_TYPE,),
        ).fetchone()[0]
        out.append(
            Finding(
                f"{table} matches the entities",
                not missing and not orphans,
                f"{missing} entities not indexed, {orphans} index rows without an entity",
                repairable=True,
            )
        )
    pending = conn.execute(
        "SELECT COUNT(*) FROM entities e WHERE NOT EXISTS"
        " (SELECT 1 FROM vectors v WHERE v.entity_id = e.id)"
    ).fetchone()[0]
    out.append(Finding("vectors", True, f"{pending} entities wait for a vector (brain index)"))
    return out


def _open(path: Path, readonly: bool) -> sqlite3.Connection:
    uri = read_only_uri(path) if readonly else f"file:{path}?mode=rw"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return conn


def _must_be_sound(conn: sqlite3.Connection, name: str) -> None:
    try:
        rows = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        raise InvalidInput(f"{name} is not a usable database ({exc})") from exc
    if rows != ["ok"]:
        raise InvalidInput(f"{name} fails SQLite's integrity check: {'; '.join(rows[:3])}")
