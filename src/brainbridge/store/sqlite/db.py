"""Opening a brain database: WAL, busy timeout, migrations."""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from brainbridge.errors import BrainError, StoreBusy

# Re-exported: code that took `write_tx` from here keeps working.
from brainbridge.store.sqlite.writes import write_tx as write_tx

log = logging.getLogger(__name__)

# How long a writer waits for another to finish before it fails with "database is locked".
# Writers of one brain take turns, so a writer may wait for every one queued before it:
# twenty at once on two busy cores (eight of them importing 300 entities each) queued
# past 15 s. The chat path does not wait on this: hooks give up at their own deadline.
BUSY_TIMEOUT_MS = 60_000


def connect(path: str | Path, *, readonly: bool = False) -> sqlite3.Connection:
    """Open (creating if needed) a brain database and bring its schema up to date.

    Raises: BrainError if the file cannot be opened; StoreBusy if it stays locked.
    """
    path = Path(path)
    if not readonly and str(path) != ":memory:" and cannot_write(path):
        # A brain on a read-only disk or in a folder the user may not write: it still
        # answers reads; a write fails with SQLITE_READONLY (see `describe`).
        log.info("%s is read-only; opened for reading", path)
        readonly = True
    if not readonly:
        path.parent.mkdir(parents=True, exist_ok=True)
        if str(path) != ":memory:":
            create_private(path)
    uri = read_only_uri(path) if readonly else f"file:{path}"
    try:
        conn = sqlite3.connect(
            uri,
            uri=True,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,  # we issue BEGIN/COMMIT ourselves
            check_same_thread=False,
        )
    except sqlite3.Error as exc:
        raise BrainError(f"cannot open brain database {path}: {exc}") from exc
    conn.row_factory = sqlite3.Row
    try:
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA foreign_keys=ON")
        if readonly:  # tells `SqliteStore.read_only`; a write fails as it would anyway
            conn.execute("PRAGMA query_only=ON")
        else:
            _retry_locked(lambda: conn.execute("PRAGMA journal_mode=WAL"))
            conn.execute("PRAGMA synchronous=NORMAL")
            from brainbridge.store.sqlite.migrations import migrate

            migrate(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreBusy(f"brain database {path} is locked by another process") from exc
        if getattr(exc, "sqlite_errorname", "") in ("SQLITE_NOTADB", "SQLITE_CORRUPT"):
            raise BrainError(
                f"{path} is not a usable brain database ({exc}); move it aside or restore a backup"
            ) from exc
        raise BrainError(describe(exc, path)) from exc
    return conn


def create_private(path: Path) -> None:
    """Create `path` empty, readable by its owner only, unless it exists: the brain holds a
    person's conversations, and SQLite gives its -wal and -shm files the database's mode."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise BrainError(f"cannot create brain database {path}: {exc.strerror or exc}") from exc


def cannot_write(path: Path) -> bool:
    """True when the database exists but this user may not write it or its folder (which
    SQLite needs for its -wal and -shm files), e.g. a read-only mount or a chmod'ed folder."""
    if not path.is_file():
        return False
    return not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def read_only_uri(path: Path) -> str:
    # With no -wal file beside it nothing can be changing the file under us (no writer can
    # exist without one), so SQLite may skip the -shm it cannot create in a read-only folder.
    # A -wal without its -shm in such a folder (copied, or left by a writer on another
    # machine) cannot be read at all: SQLite must create the -shm to read it. Opened as
    # immutable the file still answers, without what the -wal holds (logged).
    wal = path.with_name(path.name + "-wal")
    shm = path.with_name(path.name + "-shm")
    immutable = cannot_write(path) and (not wal.exists() or not shm.exists())
    if immutable and wal.exists():
        log.warning(
            "%s: read-only folder with a -wal but no -shm; read without the -wal's changes", path
        )
    return f"file:{path}?mode=ro{'&immutable=1' if immutable else ''}"


# What SQLite says when a write finds no room: ENOSPC is SQLITE_FULL; a file size limit
# (EFBIG) and some full disks surface as an I/O error of the write itself.
_NO_ROOM = frozenset(
    {
        "SQLITE_FULL",
        "SQLITE_IOERR_WRITE",
        "SQLITE_IOERR_FSYNC",
        "SQLITE_IOERR_TRUNCATE",
        "SQLITE_IOERR_SHMSIZE",
    }
)


def describe(exc: sqlite3.Error, path: str | Path | None = None) -> str:
    """One plain line for a database error a user can act on (full disk, read-only folder).

    Anything else keeps SQLite's own words.
    """
    name = getattr(exc, "sqlite_errorname", "") or ""
    where = f" {path}" if path else ""
    if name.startswith("SQLITE_READONLY"):
        return (
            f"the brain database{where} is read-only here (a read-only disk or folder, or "
            "another user's file); nothing was changed. Reading commands still work."
        )
    if name in _NO_ROOM:
        return (
            f"could not write the brain database{where}: the disk is full or a file size "
            f"limit was reached ({exc}). This write was rolled back; everything stored "
            "before it is intact. Free some space and run the command again."
        )
    if name == "SQLITE_CANTOPEN":
        return f"cannot open the brain database{where} ({exc}); is its folder readable?"
    return f"brain database error{where}: {exc}"


def _retry_locked(fn: Callable[[], object], attempts: int = 50) -> object:
    # journal_mode changes ignore busy_timeout, so a second process racing to
    # create the file needs its own retry.
    for i in range(attempts):
        try:
            return fn()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or i == attempts - 1:
                raise
            time.sleep(0.05)
    return None
