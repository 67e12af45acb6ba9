"""The curator's files in the brain folder: the daily activity log, its running context for
the day, and the per-session lock that keeps runs from overlapping across processes.

Every writer may be another process (hooks, MCP server, CLI, web server), so appends hold
an `flock` and go out in one `os.write` on an O_APPEND descriptor, and the day record is
replaced atomically.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: runs stay serialised within a process only
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

ACTIVITY_DIR = Path("Daily") / ".activity"
LOCK_DIR = Path(".locks") / "curator"
DAY_RUNS_KEPT = 60


def activity_file(brain: Path, day: date) -> Path:
    """`Daily/.activity/{YYYY-MM-DD}.jsonl` in the brain folder."""
    return brain / ACTIVITY_DIR / f"{day.isoformat()}.jsonl"


def day_record_file(brain: Path, day: date) -> Path:
    """`Daily/.activity/{YYYY-MM-DD}.curator.json`: the curator's own notes for the day."""
    return brain / ACTIVITY_DIR / f"{day.isoformat()}.curator.json"


@contextlib.contextmanager
def _locked(fd: int) -> Iterator[None]:
    if fcntl is None:
        yield
        return
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


def append_line(path: Path, entry: dict[str, Any]) -> None:
    """Append `entry` as one JSON line, whole, even with other processes appending; every
    string in it redacted (it quotes the session's summary).

    Raises: OSError if the file cannot be written.
    """
    from brainbridge.redact import redact_value

    data = (
        json.dumps(redact_value(entry), ensure_ascii=False, separators=(",", ":")) + "\n"
    ).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        with _locked(fd):
            size = os.fstat(fd).st_size
            # A writer that died mid-line must not swallow this line into its fragment.
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data
            written = os.write(fd, data)
            while written < len(data):  # regular files practically never write short
                written += os.write(fd, data[written:])
    finally:
        os.close(fd)


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSON Lines file; unreadable lines are skipped."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    out = []
    for line in raw.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def read_day(path: Path) -> list[dict[str, Any]]:
    """The runs recorded in a day record, oldest first ([] if missing or damaged)."""
    try:
        value = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        log.warning("ignoring unreadable curator day record %s", path)
        return []
    runs = value.get("runs") if isinstance(value, dict) else None
    return [r for r in runs if isinstance(r, dict)] if isinstance(runs, list) else []


def add_to_day(path: Path, run: dict[str, Any], keep: int = DAY_RUNS_KEPT) -> None:
    """Add one run, secrets redacted, to the day record, keeping the latest `keep`; atomic
    for readers.

    Raises: OSError if the record cannot be written.
    """
    from brainbridge.redact import redact_value

    run = redact_value(run)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = os.open(path.parent / ".curator-day.lock", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with _locked(lock):
            runs = [*read_day(path), run][-keep:]
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_text(
                json.dumps({"date": path.name[:10], "runs": runs}, ensure_ascii=False, indent=1),
                "utf-8",
            )
            os.replace(tmp, path)
    finally:
        os.close(lock)


class SessionGuard:
    """A lock file per session so that one run at a time tends it, in any process.

    A trigger that finds the lock taken leaves a `pending` mark instead of waiting;
    the holder looks for marks before letting go and runs again for them, so no
    trigger is lost and none piles up behind a slow LLM.
    """

    def __init__(self, brain: Path, session_id: str) -> None:
        key = hashlib.sha256(session_id.encode()).hexdigest()[:24]
        folder = brain / LOCK_DIR
        self.lock_path = folder / f"{key}.lock"
        self.pending_path = folder / f"{key}.pending"
        self._fd: int | None = None

    def try_acquire(self) -> bool:
        """Take the lock if it is free; never waits."""
        if self._fd is not None:
            return True
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.lock_path, os.O_WRONLY | os.O_CREAT, 0o600)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                return False
        self._fd = fd
        return True

    def acquire(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the lock (blocking; for synchronous callers)."""
        deadline = time.monotonic() + timeout
        while not self.try_acquire():
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        return True

    def release(self) -> None:
        """Let go of the lock (closing the descriptor releases the flock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def mark_pending(self) -> None:
        """Ask whoever holds the lock for one more run."""
        self.pending_path.parent.mkdir(parents=True, exist_ok=True)
        self.pending_path.touch()

    def take_pending(self) -> bool:
        """Clear the mark; True if there was one."""
        try:
            self.pending_path.unlink()
        except FileNotFoundError:
            return False
        return True

    def has_pending(self) -> bool:
        """True if a trigger asked for another run."""
        return self.pending_path.exists()
