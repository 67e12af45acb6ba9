"""What the reliability tests share: a brain folder driven only through real processes,
read back through a separate read-only connection, and the figures each test reports."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from api.served import serve_env
from brainbridge.store.dialect import POSTGRES, SQLITE
from brainbridge.store.postgres.conn import PgConnection
from cli.runner import COMMAND
from hooks.conftest import wait_drained

HOOKS = [sys.executable, "-m", "brainbridge.hooks"]


@dataclass
class Figures:
    """What one reliability test did and what it found; `lost` and `errors` must stay 0."""

    test: str
    processes: int = 0
    operations: int = 0
    kills: int = 0
    errors: list[str] = field(default_factory=list)
    lost: int = 0

    def row(self) -> dict[str, Any]:
        return {
            "test": self.test,
            "processes": self.processes,
            "operations": self.operations,
            "kills": self.kills,
            "errors": len(self.errors),
            "lost": self.lost,
        }


@dataclass
class Rig:
    """One brain folder and the ways the suite starts processes on it."""

    home: Path
    figures: Figures
    env: dict[str, str] = field(default_factory=dict)
    window: float = 1.0  # share of a kill window still in use (see `kill_during`)
    database_url: str | None = None  # a brain in PostgreSQL instead of the folder's file

    def __post_init__(self) -> None:
        self.env = serve_env(self.home)
        if self.database_url:
            self.env["BRAIN_DATABASE_URL"] = self.database_url

    def argv(self, *args: str) -> list[str]:
        return [*COMMAND, *args]

    def start(self, argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        """Start a process on this brain (counted)."""
        self.figures.processes += 1
        kwargs.setdefault("stdout", subprocess.PIPE)
        kwargs.setdefault("stderr", subprocess.PIPE)
        return subprocess.Popen(list(argv), env={**self.env, **kwargs.pop("env", {})}, **kwargs)

    def run(
        self, argv: Sequence[str], *, input: bytes | None = None, expect: int = 0, **kwargs: Any
    ) -> subprocess.CompletedProcess[bytes]:
        """Run a process to its end; an unexpected exit code or a traceback is an error."""
        self.figures.processes += 1
        proc = subprocess.run(
            list(argv),
            input=input,
            capture_output=True,
            env={**self.env, **kwargs.pop("env", {})},
            timeout=kwargs.pop("timeout", 300),
            **kwargs,
        )
        self.judge(argv, proc.returncode, proc.stderr, expect)
        return proc

    def judge(self, argv: Sequence[str], code: int, err: bytes, expect: int = 0) -> None:
        text = err.decode("utf-8", "replace")
        if code != expect or "Traceback" in text:
            self.figures.errors.append(f"{' '.join(argv[-3:])}: exit {code}: {text[-1500:]}")

    def brain(self, *args: str, expect: int = 0, **kwargs: Any) -> str:
        return self.run(self.argv(*args), expect=expect, **kwargs).stdout.decode("utf-8")

    def kill_during(
        self, argv: Sequence[str], rng: random.Random, earliest: float, latest: float
    ) -> bool:
        """Start `argv`, SIGKILL it at a random moment in [earliest, latest] s; True when the
        kill landed before it ended on its own. A run that ended first shrinks the window of
        the next ones (the rehearsal may have run on a busier machine than this run)."""
        proc = self.start(argv)
        try:
            proc.wait(timeout=rng.uniform(earliest, latest) * self.window)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            self.figures.kills += 1
            return True
        _, err = proc.communicate()
        self.judge(argv, proc.returncode, err)
        self.window *= 0.6
        return False

    def timed(self, argv: Sequence[str], home: Path) -> float:
        """Seconds `argv` takes to run to its end on another brain folder `home` (a rehearsal
        that tells when a kill lands mid-way)."""
        start = time.monotonic()
        self.run(argv, env={"BRAIN_HOME": str(home)})
        return time.monotonic() - start

    def check(self) -> None:
        """`brain check` must pass: SQLite integrity, foreign keys, full-text indexes. On
        PostgreSQL (whose server checks its own pages) every entity must have its text row."""
        if self.database_url:
            unindexed = self.rows(
                "SELECT count(*) FROM entities e LEFT JOIN texts t ON t.entity_id = e.id"
                " WHERE t.entity_id IS NULL"
            )[0][0]
            if unindexed:
                self.figures.errors.append(f"{unindexed} entities without their text row")
            return
        out = json.loads(self.brain("check", "--json"))
        failed = [c for c in out["checks"] if not c["ok"]]
        if failed:
            self.figures.errors.append(f"brain check: {failed}")

    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Read the database directly (read-only), beside whatever is running."""
        if self.database_url:
            conn = PgConnection.open(self.database_url)
            try:
                return [tuple(r) for r in conn.execute(sql, params)]
            finally:
                conn.close()
        uri = f"file:{self.home / 'brain.db'}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True, timeout=30)) as conn:
            return [tuple(r) for r in conn.execute(sql, params)]

    def exchange_sessions(self) -> list[str]:
        """The session of every stored chat exchange."""
        session = POSTGRES.session if self.database_url else SQLITE.session
        rows = self.rows(f"SELECT {session} FROM entities WHERE type = 'Chat_Exchange'")
        return [r[0] for r in rows]

    def names(self, etype: str) -> set[str]:
        return {r[0] for r in self.rows("SELECT name FROM entities WHERE type = ?", etype)}

    def wait_drained(self, timeout: float = 120.0) -> None:
        """Wait for the Stop hooks' drainer (`hooks.conftest.wait_drained`); a spool still
        waiting is an error of the run, not an exception."""
        try:
            wait_drained(self.home, timeout)
        except AssertionError as exc:
            self.figures.errors.append(str(exc))


def entity_lines(prefix: str, count: int, etype: str = "Topic") -> str:
    """JSONL for `brain import`: `count` entities named `{prefix}-{i}`."""
    return "".join(
        json.dumps(
            {
                "kind": "entity",
                "type": etype,
                "name": f"{prefix}-{i}",
                "description": f"note {i} of {prefix} about reliability under load",
                "attributes": {"batch": prefix},
            }
        )
        + "\n"
        for i in range(count)
    )
