"""The store on PostgreSQL: the SQLite store's statements on a `PgConnection`, with its
own schema, text index, and the few reads that differ (read-only, size, stats)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from brainbridge.store.postgres.conn import PgConnection
from brainbridge.store.postgres.schema import migrate
from brainbridge.store.postgres.text_index import PgTextIndex
from brainbridge.store.sqlite.store import SqliteStore


class PostgresStore(SqliteStore):
    """All reads and writes of one brain in a PostgreSQL database. Not thread-safe: one
    thread uses one store (and its one connection)."""

    def __init__(self, conn: PgConnection) -> None:
        super().__init__(conn, None)  # type: ignore[arg-type]
        self.url = conn.url

    @classmethod
    def open(cls, path: str | Path) -> PostgresStore:  # a URL, named as the base class's
        """Connect to the database at `url`, creating the schema on first use.

        Raises: sqlite3.OperationalError when the server cannot be reached.
        """
        conn = PgConnection.open(str(path))
        try:
            migrate(conn)
        except BaseException:
            conn.close()
            raise
        return cls(conn)

    def _text_index(self) -> Any:
        return PgTextIndex(self.conn)

    @property
    def read_only(self) -> bool:
        row = self.conn.execute("SHOW transaction_read_only").fetchone()
        return row[0] == "on"

    def stats(self) -> dict[str, Any]:
        out = super().stats()
        out["bytes"] = self.conn.execute("SELECT pg_database_size(current_database())").fetchone()[
            0
        ]
        return out
