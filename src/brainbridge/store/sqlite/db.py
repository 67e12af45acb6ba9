"""Opening a brain database: WAL, busy timeout, migrations."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from brainbridge.errors import BrainError, StoreBusy

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 15_000


def connect(path: str | Path, *, readonly: bool = False) -> sqlite3.Connection:
    """Open (creating if needed) a brain database and bring its schema up to date.

    Raises: BrainError if the file cannot be opened; StoreBusy if it stays locked.
    """
    path = Path(path)
    if not readonly:
        path.parent.mkdir(parents=True, exist_ok=True)
    uri = f"file:{path}?mode=ro" if readonly else f"file:{path}"
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
        if not readonly:
            _retry_locked(lambda: conn.execute("PRAGMA journal_mode=WAL"))
            conn.execute("PRAGMA synchronous=NORMAL")
            from brainbridge.store.sqlite.migrations import migrate

            migrate(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreBusy(f"brain database {path} is locked by another process") from exc
        raise BrainError(
            f"{path} is not a usable brain database ({exc}); move it aside or restore a backup"
        ) from exc
    return conn


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


@contextmanager
def write_tx(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction taken up front (BEGIN IMMEDIATE) so writers queue, never deadlock.

    Raises: StoreBusy when the database stays locked past the busy timeout.
    """
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreBusy(f"brain database is locked by another process: {exc}") from exc
        raise
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")
