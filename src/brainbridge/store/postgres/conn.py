"""A PostgreSQL connection that the store's SQL runs on unchanged.

The store's SQL is written once, in the dialect both engines share (standard SQL with
RETURNING, ON CONFLICT and recursive CTEs); `PgConnection` speaks the small part of the
sqlite3 DB-API the store uses, so the same statements run on both:

- `?` placeholders become psycopg's `%s` (a literal `%` is doubled);
- rows read by position and by column name, like `sqlite3.Row`;
- `BEGIN IMMEDIATE` takes a transaction-scoped advisory lock of the workspace written, so
  its writers queue exactly as they do on one SQLite file, and an upsert never races
  another;
- errors are raised as their sqlite3 DB-API counterparts (IntegrityError,
  OperationalError, DatabaseError), the one vocabulary the shared code catches;
- `total_changes` counts rows written through the connection.

Where the engines differ (full-text search, a few expressions, the schema), the store
asks `dialect` and each backend keeps its own code.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import psycopg
from psycopg.adapt import Loader

from brainbridge.errors import Forbidden
from brainbridge.store.url import redact_url

DIALECT = "postgres"
# A writer waits this long for the write lock, then fails as SQLite's busy timeout does
# (the same wait; see store/sqlite/db.py for why a minute).
LOCK_TIMEOUT_MS = 60_000
# pg_advisory_xact_lock key of the brain's schema lock ("brain" in ASCII): migrations.
WRITE_LOCK = 0x627261696E
# The write lock of one workspace: (this class, hash of the workspace written). The
# store reads before it writes (an upsert by name, a turn key, a session's log entry), so
# writers of one workspace queue as they do on one SQLite file; writers of different
# workspaces (each person writes their own by default) do not wait for each other, and
# rows they both touch are settled by row locks. One lock for the whole brain made 20
# people's turns slower than one person's (a write waiting in most samples).
WORKSPACE_LOCK = 0x62726169  # "brai"
TAKE_WRITE_LOCK = (
    f"SELECT pg_advisory_xact_lock({WORKSPACE_LOCK},"
    " hashtext(COALESCE(NULLIF(current_setting('brainbridge.workspace', true), ''), 'main')))"
)


class Row(tuple):  # type: ignore[type-arg]
    """A result row read by position or by column name, like sqlite3.Row."""

    _index: dict[str, int]

    def __new__(cls, values: Sequence[Any], index: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._index = index
        return row

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


def _row_factory(cursor: Any) -> Any:
    index = {c.name: i for i, c in enumerate(cursor.description or ())}

    def make(values: Sequence[Any]) -> Row:
        return Row(values, index)

    return make


class _JsonAsText(Loader):
    """jsonb columns come back as the JSON text the store decodes itself."""

    def load(self, data: Any) -> str:
        return bytes(data).decode("utf-8")


_translated: dict[str, str] = {}


def translate(sql: str) -> str:
    """`?` placeholders outside quoted strings as `%s`; every literal `%` doubled."""
    out = _translated.get(sql)
    if out is not None:
        return out
    parts, quote = [], ""
    for ch in sql:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "?":
            parts.append("%s")
            continue
        parts.append("%%" if ch == "%" else ch)
    out = _translated[sql] = "".join(parts)
    return out


class Cursor:
    """The result of one statement: fetchone, fetchall, iteration and rowcount."""

    def __init__(self, cur: psycopg.Cursor[Any] | None) -> None:
        self._cur = cur
        self.rowcount = cur.rowcount if cur is not None else 0

    def fetchone(self) -> Any:
        return self._cur.fetchone() if self._cur is not None and self._cur.description else None

    def fetchall(self) -> list[Any]:
        return self._cur.fetchall() if self._cur is not None and self._cur.description else []

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PgConnection:
    """One PostgreSQL session used as the store uses a sqlite3 connection."""

    dialect = DIALECT

    def __init__(self, conn: psycopg.Connection[Any], url: str) -> None:
        self._conn = conn
        self.url = url
        self.total_changes = 0
        self._trace: Callable[[str], object] | None = None
        self._in_tx = False
        self._settings: list[str] = []  # SETs made again on a new connection

    @classmethod
    def open(cls, url: str) -> PgConnection:
        """Connect in autocommit mode: transactions are the store's own BEGIN / COMMIT.

        Raises: sqlite3.OperationalError when the server cannot be reached.
        """
        return cls(_connect(url), url)

    def _usable(self) -> None:
        """Connect again if the server went away (a restart, a failover, an idle timeout)
        since the last statement: only between transactions, never inside one.

        Raises: sqlite3.OperationalError when it cannot be reached.
        """
        if self._conn.broken or self._conn.closed:
            if self._in_tx:
                raise sqlite3.OperationalError("the connection to the database was lost")
            self._conn = _connect(self.url)
            for setting in self._settings:
                self._conn.execute(setting)

    def keep_setting(self, statement: str) -> None:
        """Run a SET for this session, and again whenever it connects anew."""
        self.execute(statement)
        self._settings.append(statement)

    def set_trace_callback(self, trace: Callable[[str], object] | None) -> None:
        """Call `trace` with every statement run (as sqlite3's method of that name)."""
        self._trace = trace

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Cursor:
        if self._trace is not None:
            self._trace(sql)
        head = sql.lstrip()[:16].upper()
        if head.startswith("BEGIN"):
            return self._begin(immediate="IMMEDIATE" in head)
        if head.startswith(("COMMIT", "ROLLBACK")):
            return self._end(head)
        self._usable()
        # Without parameters psycopg sends the text as it is: nothing to translate (a
        # doubled `%` would reach the server doubled).
        text, args = (translate(sql), list(params)) if params else (sql, None)
        try:
            cur = self._conn.execute(text, args)
        except psycopg.OperationalError as exc:
            if self._in_tx or not self._conn.broken:
                raise _as_sqlite(exc) from exc
            self._usable()  # lost between statements: once more, on a new connection
            try:
                cur = self._conn.execute(text, args)
            except psycopg.Error as again:
                raise _as_sqlite(again) from again
        except psycopg.Error as exc:
            raise _as_sqlite(exc) from exc
        if cur.rowcount > 0 and not cur.description:
            self.total_changes += cur.rowcount
        elif cur.rowcount > 0 and head.startswith(("INSERT", "UPDATE", "DELETE")):
            self.total_changes += cur.rowcount  # ... RETURNING
        return Cursor(cur)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        if self._trace is not None:
            self._trace(sql)
        rows = [list(r) for r in rows]
        if not rows:
            return
        self._usable()
        try:
            with self._conn.cursor() as cur:
                cur.executemany(translate(sql), rows)
        except psycopg.Error as exc:
            raise _as_sqlite(exc) from exc
        self.total_changes += len(rows)

    def _end(self, head: str) -> Cursor:
        """COMMIT or ROLLBACK. A rollback on a lost connection has nothing left to undo."""
        self._in_tx = False
        if head.startswith("ROLLBACK") and (self._conn.broken or self._conn.closed):
            return Cursor(None)
        try:
            return Cursor(self._conn.execute(head.split()[0]))
        except psycopg.Error as exc:
            raise _as_sqlite(exc) from exc

    def _begin(self, immediate: bool) -> Cursor:
        self._usable()
        # The write lock is taken in BEGIN's round trip: a write transaction of a turn
        # (four or five of them) is a few statements, and each round trip costs most
        # under load, when the thread waits for the interpreter again after it.
        sql = f"BEGIN; {TAKE_WRITE_LOCK}" if immediate else "BEGIN"
        for attempt in (1, 2):
            try:
                cur = self._conn.execute(sql)
                break
            except psycopg.Error as exc:
                if attempt == 1 and self._conn.broken:  # lost since the last statement
                    self._usable()
                    continue
                # Not left inside an aborted transaction: the caller never got to begin.
                self._end("ROLLBACK")
                raise _as_sqlite(exc) from exc
        self._in_tx = True
        return Cursor(cur)

    def close(self) -> None:
        self._conn.close()


def _connect(url: str) -> psycopg.Connection[Any]:
    try:
        conn = psycopg.connect(url, autocommit=True, row_factory=_row_factory)
        conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT_MS}ms'")
        # psycopg prepares a statement run five times; PostgreSQL may then plan it once
        # for any parameters, and a text match planned without its words scans the table
        # (17 ms instead of 2.5 at 90k rows). Every statement is planned for its values.
        conn.execute("SET plan_cache_mode = force_custom_plan")
    except psycopg.Error as exc:
        raise sqlite3.OperationalError(f"cannot connect to {redact_url(url)}: {exc}") from exc
    conn.adapters.register_loader("jsonb", _JsonAsText)
    conn.adapters.register_loader("json", _JsonAsText)
    return conn


class PermissionRefused(sqlite3.DatabaseError, Forbidden):
    """The database refused a statement to this role (a read-only member writing shared
    rows): a DB-API error for the store's own handling, and Forbidden for adapters."""


def _refusal(text: str) -> str:
    """What a person is told when the database refused them (not its role names)."""
    found = re.search(r"workspace (\S+) is read-only", text)
    if found:
        return (
            f"not allowed: workspace {found.group(1)!r} is read-only for you; its entries"
            " cannot be changed, merged or deleted by you"
        )
    first = text.splitlines()[0] if text else "permission denied"
    return f"not allowed: {first}"


def _as_sqlite(exc: psycopg.Error) -> sqlite3.Error:
    text = str(exc).strip()
    if isinstance(exc, psycopg.errors.InsufficientPrivilege):
        return PermissionRefused(_refusal(text))
    if isinstance(exc, psycopg.errors.LockNotAvailable):  # lock_timeout: as SQLite says it
        return sqlite3.OperationalError(f"database is locked ({text})")
    if isinstance(exc, psycopg.IntegrityError):
        return sqlite3.IntegrityError(text)
    if isinstance(exc, psycopg.OperationalError):
        return sqlite3.OperationalError(text)
    return sqlite3.DatabaseError(text)
