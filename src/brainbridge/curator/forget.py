"""A forgotten session out of the curator's files and the day journals built from them.

The curator keeps, per day, an activity log (`{day}.jsonl`) and a day record of its runs
(`{day}.curator.json`), both naming the session of each line; the day's `Journal_Entry`
is written from the record. Forgetting a session drops its lines and runs, and the
journal of each day it appeared in is rewritten from what remains (or goes, if nothing).
"""

from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from brainbridge.curator.files import ACTIVITY_DIR, _locked, read_day
from brainbridge.curator.nodes import journal_text
from brainbridge.model import JOURNAL_ENTRY

if TYPE_CHECKING:
    from brainbridge.store.sqlite.store import SqliteStore

_RECORD = ".curator.json"


def _mentions(path: Path, session_id: str) -> bool:
    """Whether a curator file names the session (read without parsing most of it)."""
    try:
        return session_id.encode("utf-8") in path.read_bytes()
    except OSError:
        return False


def session_days(folder: Path, session_id: str) -> list[str]:
    """The days (YYYY-MM-DD) whose curator files name `session_id`."""
    days = {
        p.name[:10]
        for p in (folder / ACTIVITY_DIR).glob("*.json*")
        if p.name[:10] and _mentions(p, session_id)
    }
    return sorted(d for d in days if _is_day(d))


def forget_session(store: SqliteStore, folder: Path, session_id: str, days: list[str]) -> None:
    """Drop the session from these days' files and rewrite their journal entries.

    Raises: OSError if a file cannot be rewritten; BrainError from the store.
    """
    where = folder / ACTIVITY_DIR
    for day in days:
        log = where / f"{day}.jsonl"
        if log.exists():
            _drop_lines(log, session_id)
        record = where / f"{day}{_RECORD}"
        runs = [r for r in read_day(record) if r.get("session_id") != session_id]
        if record.exists():
            _replace(record, json.dumps({"date": day, "runs": runs}, ensure_ascii=False, indent=1))
        text, sessions = journal_text(runs)
        if sessions:
            store.upsert_entity(JOURNAL_ENTRY, day, text, {"day": day})
        else:
            store.delete_entity(JOURNAL_ENTRY, day)


def _drop_lines(path: Path, session_id: str) -> None:
    """Rewrite an activity log in place without the session's lines, holding the lock its
    appenders take (so no line appended meanwhile goes to a replaced file)."""
    fd = os.open(path, os.O_RDWR)
    try:
        with _locked(fd):
            kept = []
            for line in os.pread(fd, os.fstat(fd).st_size, 0).splitlines(keepends=True):
                try:
                    entry = json.loads(line)
                except ValueError:
                    entry = None
                if not (isinstance(entry, dict) and entry.get("session_id") == session_id):
                    kept.append(line)
            data = b"".join(kept)
            os.ftruncate(fd, 0)
            os.pwrite(fd, data, 0)
    finally:
        os.close(fd)


def _replace(path: Path, text: str) -> None:
    """Rewrite a day record atomically, under the lock its writers take."""
    lock = os.open(path.parent / ".curator-day.lock", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with _locked(lock):
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_text(text, "utf-8")
            os.replace(tmp, path)
    finally:
        os.close(lock)


def _is_day(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True
