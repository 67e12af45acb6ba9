"""Where a brain's database lives: the SQLite file in its folder, or a PostgreSQL server
named by `BRAIN_DATABASE_URL` or `[database] url` in the folder's config.toml."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from brainbridge.acting import USER_ENV, WORKSPACE_ENV
from brainbridge.errors import BrainError, InvalidInput
from brainbridge.home import CONFIG_FILE, DB_FILE
from brainbridge.store.sqlite.store import SqliteStore

log = logging.getLogger(__name__)

ENV = "BRAIN_DATABASE_URL"
SCHEMES = ("postgresql://", "postgres://")


def database_url(folder: Path, env: Mapping[str, str] | None = None) -> str | None:
    """The PostgreSQL URL this brain uses, or None for the SQLite file in `folder`.

    Raises: InvalidInput for a URL that is not a postgresql:// one.
    """
    from brainbridge.settings import read_config

    env = os.environ if env is None else env
    url = env.get(ENV, "").strip()
    source = f"environment variable {ENV}"
    if not url:
        try:
            config = read_config(folder / CONFIG_FILE)
        except InvalidInput as exc:
            # As for every other setting, a config.toml that cannot be read leaves the
            # defaults (the hooks must not fail); the CLI reports the file itself.
            log.warning("%s; the brain file is used", exc)
            config = {}
        table = config.get("database") or {}
        url = str(table.get("url") or "").strip() if isinstance(table, dict) else ""
        source = f"{folder / CONFIG_FILE}: database.url"
    if not url:
        return None
    if not url.startswith(SCHEMES):
        raise InvalidInput(f"{source} must start with postgresql:// (got {url.split(':')[0]}:)")
    return url


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


def redact_url(url: str) -> str:
    """A database URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if not parts.password:  # none, or empty (`postgres:@`): nothing to hide
        return url
    user = f"{parts.username}:***@" if parts.username else ":***@"
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=user + host))


def remember_url(folder: Path, url: str) -> Path:
    """Write `[database] url` into the folder's config.toml (replacing one set before), so
    every entry point opened on this folder uses the database. The file is made readable
    by its owner only when the URL holds a password.

    Raises: InvalidInput for a URL that is not a postgresql:// one.
    """
    if not url.startswith(SCHEMES):
        raise InvalidInput(
            f"a database URL must start with postgresql:// (got {url.split(':')[0]}:)"
        )
    file = folder / CONFIG_FILE
    lines = file.read_text("utf-8").splitlines() if file.exists() else []
    entry = f"url = {json.dumps(url)}"
    start = next((i for i, line in enumerate(lines) if line.strip() == "[database]"), None)
    if start is None:
        lines += ["", "[database]", entry]
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")),
            len(lines),
        )
        body = [line for line in lines[start + 1 : end] if not line.strip().startswith("url")]
        lines[start + 1 : end] = [entry, *body]
    file.write_text("\n".join(lines).lstrip("\n") + "\n", "utf-8")
    if urlsplit(url).password:
        file.chmod(0o600)
    return file
