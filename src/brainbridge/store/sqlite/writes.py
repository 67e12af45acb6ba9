"""What every write to a brain database uses: a transaction taken up front, and the time
stamped on the rows it writes. The lowest module of the store: it imports none of it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from brainbridge.errors import StoreBusy


def now_iso() -> str:
    """The time a write stamps on its rows (UTC, ISO 8601 to the microsecond)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


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
