"""Where a brain's database lives: the SQLite file in its folder, or a PostgreSQL server
named by `BRAIN_DATABASE_URL` or `[database] url` in the folder's config.toml (read by
`store/url.py`, whose names are importable from here too)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from brainbridge.acting import USER_ENV, WORKSPACE_ENV
from brainbridge.errors import BrainError, InvalidInput
from brainbridge.home import DB_FILE
from brainbridge.store.sqlite.store import SqliteStore
from brainbridge.store.url import ENV, SCHEMES, database_url, redact_url, remember_url

__all__ = ["ENV", "SCHEMES", "database_url", "open_store", "redact_url", "remember_url"]


def open_store(
    folder: Path, url: str | None, user: str | None = None, workspace: str | None = None
) -> SqliteStore:
    """The store at `url` when given, else the brain file in `folder`; on PostgreSQL as
    person `user` writing to `workspace` (see `store/postgres/people.py`).

    Raises: BrainError when the file or the server cannot be opened; InvalidInput for a
    person or workspace asked of a brain file, which has one user and one workspace.
    """
    if (user or workspace) and not url:
        raise InvalidInput(
            f"people and workspaces ({USER_ENV}, {WORKSPACE_ENV}) need a PostgreSQL brain;"
            " this one is a file, with one user"
        )
    if url:
        try:
            from brainbridge.store.postgres.store import PostgresStore
        except ImportError as exc:  # psycopg is the `postgres` extra
            raise InvalidInput(
                f"a PostgreSQL brain needs psycopg: pip install 'brainbridge[postgres]' ({exc})"
            ) from exc
        try:
            return PostgresStore.open(url, user, workspace)
        except sqlite3.Error as exc:
            raise BrainError(f"cannot open the brain's database: {exc}") from exc
    return SqliteStore.open(folder / DB_FILE)
