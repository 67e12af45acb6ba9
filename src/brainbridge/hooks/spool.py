"""Write-back that survives any client: the Stop hook spools the turn, a drainer stores it.

Claude Code ends a `claude -p` run (and an Agent SDK session) by killing every hook
still running, so a Stop hook that opens the brain and stores the turn loses it. Instead
the hook only appends the turn, secrets already redacted, to `<brain>/spool/pending.jsonl`
(flock, fsync: a few milliseconds) and starts a detached drainer, then exits.

The drainer takes the spool by renaming it (`claimed-<pid>-<time>.jsonl`), stores each
turn through the bridge as the hook used to, and deletes the claimed file only after
every turn in it is stored. A drainer that dies leaves its claimed file behind; the next
one replays it. Each turn carries a key (the transcript's id of its prompt, else a hash
of its text), stored on the exchange, so a replayed or repeated turn is stored once.
One drainer runs at a time (an flock); a turn spooled while it finishes is picked up
by it or by the drainer the next Stop starts.

PostToolUse and PreCompact spool records of their own beside the turns (`type`: "tool",
"compact"; see hooks/observe.py), stored in order by the same drainer.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from brainbridge.acting import acting
from brainbridge.hooks.payload import (
    TRANSCRIPT_TAIL_BYTES,
    field,
    hook_transcript,
    transcript_turns,
    turn_key,
)

SPOOL_DIR = "spool"
PENDING = "pending.jsonl"
LOCK = "drain.lock"
FORMAT = 1


def spool_dir(home: Path) -> Path:
    """The spool of whoever this process acts as: a person of a team brain (BRAIN_USER)
    has a spool of their own, drained as them, never by the owner's server."""
    person = re.sub(r"[^a-z0-9_-]", "_", (acting()[0] or "").lower())
    return home / SPOOL_DIR / person if person else home / SPOOL_DIR


def turn_record(payload: dict[str, Any], read_transcript: bool = True) -> dict[str, Any] | None:
    """The turn a Stop event ends, ready to spool (secrets redacted), or None if empty.

    The hook's own fields come first; at Stop time the transcript may not yet hold the
    last reply (FACTS), but it holds the prompt and the prompt's message id. Only a
    transcript Claude Code wrote for this user is read (`hook_transcript`), and only its
    tail; `read_transcript=False` reads none (the server: the hook sends it the turn).
    """
    from brainbridge.redact import redact

    path = hook_transcript(field(payload, "transcript_path")) if read_transcript else None
    turns = transcript_turns(path, TRANSCRIPT_TAIL_BYTES) if path else []
    last = turns[-1] if turns else None
    prompt = field(payload, "prompt") or (last.prompt if last else "")
    reply = field(payload, "last_assistant_message") or (last.reply if last else "")
    if not prompt.strip() and not reply.strip():
        return None
    session = field(payload, "session_id", "claude-code")
    uuid = last.uuid if last and last.prompt == prompt else ""
    return {
        "v": FORMAT,
        "key": turn_key(session, prompt, reply, uuid),
        "session_id": session,
        "prompt": redact(prompt),
        "reply": redact(reply),
        "at": (last.timestamp if last and last.timestamp else "")
        or time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "cwd": field(payload, "cwd"),
    }


def received_turn(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The turn a Stop hook handed to the server: the record it built from its own
    transcript (`turn_record`), checked and redacted again. The server never opens a
    path a request names; a payload without a turn gives what its own fields hold."""
    from brainbridge.redact import redact

    turn = payload.get("turn")
    if not isinstance(turn, dict):
        return turn_record(payload, read_transcript=False)
    text = {k: field(turn, k) for k in ("key", "session_id", "prompt", "reply", "at", "cwd")}
    if not text["prompt"].strip() and not text["reply"].strip():
        return None
    session = text["session_id"] or "claude-code"
    return {
        "v": FORMAT,
        "key": text["key"][:200] or turn_key(session, text["prompt"], text["reply"], ""),
        "session_id": session,
        "prompt": redact(text["prompt"]),
        "reply": redact(text["reply"]),
        "at": text["at"][:40] or time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "cwd": text["cwd"],
    }


def append(home: Path, record: dict[str, Any]) -> Path:
    """Append one record durably (flock against concurrent hooks, fsync before return)."""
    folder = spool_dir(home)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / PENDING
    line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8", "replace")
    while True:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            # A drainer may have claimed (renamed) the file while this hook waited for the
            # lock: writing now would land in a file it may have read already.
            try:
                current = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                current = False
            if current:
                os.write(fd, line)
                os.fsync(fd)
                return path
        finally:
            os.close(fd)  # closing releases the lock


def start_drainer(home: Path) -> None:
    """Start `python -m brainbridge.hooks drain` detached: it outlives this hook and its
    client, and writes nothing to the conversation."""
    env = {**os.environ, "BRAIN_HOME": str(home)}
    subprocess.Popen(  # noqa: S603 (our own module, no shell)
        [sys.executable, "-m", "brainbridge.hooks", "drain"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )


def claim(home: Path) -> list[Path]:
    """Take the pending spool (renamed, so hooks start a new one) and any claimed file a
    dead drainer left behind, oldest first."""
    folder = spool_dir(home)
    pending = folder / PENDING
    if pending.exists():
        with _locked(pending):
            target = folder / f"claimed-{time.time_ns()}-{os.getpid()}.jsonl"
            with suppress(FileNotFoundError):
                pending.rename(target)
    return sorted(folder.glob("claimed-*.jsonl"), key=lambda p: p.name)


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a spool file; a torn last line (a crash mid-write) is skipped."""
    try:
        data = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return
    for line in data.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and row.get("v") == FORMAT and isinstance(row.get("key"), str):
            yield row


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


@contextmanager
def drainer_lock(home: Path) -> Iterator[bool]:
    """Whether this process is the one drainer (non-blocking); released on exit."""
    folder = spool_dir(home)
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def spooled(home: Path) -> list[Path]:
    """The spool files holding turns not stored yet: pending, and claimed by a drainer
    that may have died."""
    folder = spool_dir(home)
    pending = folder / PENDING
    return [*([pending] if pending.exists() else []), *folder.glob("claimed-*.jsonl")]


def waiting(home: Path) -> bool:
    """Whether turns wait in the spool."""
    return bool(spooled(home))
