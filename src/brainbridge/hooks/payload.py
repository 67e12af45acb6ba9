"""Reading Claude Code's hook input and transcripts (stdlib only: hooks start cold)."""

from __future__ import annotations

import json
import os
import stat
import sys
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

MAX_STDIN_BYTES = 20_000_000
MAX_CONTEXT_CHARS = 9_500  # Claude Code cuts additionalContext to a preview past ~10,000
# A hook needs the last turn of a transcript, so it reads only the file's tail: a long
# session's transcript (or a file that is no transcript) never fills memory.
TRANSCRIPT_TAIL_BYTES = 4_000_000


def read_payload(stream: Any = None) -> dict[str, Any]:
    """The hook's JSON input; {} for empty, malformed or non-object input (never raises)."""
    from brainbridge.bounds import load_json
    from brainbridge.errors import InvalidInput

    stream = stream or sys.stdin.buffer
    try:
        raw = stream.read(MAX_STDIN_BYTES)
        text = raw.decode("utf-8", errors="replace")
        # Bounded: a payload nested deeper than MAX_DEPTH reads as {} like any bad input.
        data = load_json(text, "the hook input") if raw.strip() else {}
    except (InvalidInput, OSError):
        return {}
    return data if isinstance(data, dict) else {}


def field(payload: dict[str, Any], key: str, default: str = "") -> str:
    """A text field of the hook's input: the string, or `default` when it is missing or
    not a string (a malformed payload must not stop the hook)."""
    value = payload.get(key)
    return value if isinstance(value, str) and value else default


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def _is_tool_result(content: Any) -> bool:
    return isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in content
    )


# User lines that Claude Code writes itself: slash-command echoes, local command output,
# interruptions. They are not prompts and must not end the exchange before them.
_NOT_PROMPTS = (
    "<command-name>",
    "<command-message>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "[Request interrupted by user",
)


@dataclass(frozen=True)
class TranscriptTurn:
    """One exchange of a transcript: the prompt, the final reply, and what identifies it."""

    prompt: str
    reply: str
    timestamp: str = ""  # the prompt line's own ISO timestamp, when the transcript has one
    uuid: str = ""  # the prompt line's message id


def claude_transcripts_root() -> Path:
    """Where Claude Code keeps this user's transcripts: `<config dir>/projects`."""
    return Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude") / "projects"


def hook_transcript(path: str) -> Path | None:
    """The transcript a hook payload names, if it is one Claude Code wrote for this user:
    an absolute `.jsonl` path inside `claude_transcripts_root()` once links and `..` are
    resolved. Anything else (another file, a relative path, a NUL byte) is None.
    """
    if not path or "\x00" in path or not os.path.isabs(path) or not path.endswith(".jsonl"):
        return None
    try:
        real = Path(path).resolve(strict=True)
        root = claude_transcripts_root().resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    return real if real.is_relative_to(root) and real.suffix == ".jsonl" else None


def _read_regular(path: Path, tail: int | None) -> str:
    """The text of a regular file (its last `tail` bytes, from a whole line); "" for
    anything else. Opened without blocking, so a FIFO or device named here never hangs."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError):  # ValueError: a path with a NUL byte in it
        return ""
    try:
        size = os.fstat(fd).st_size
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        start = max(0, size - tail) if tail else 0
        with os.fdopen(os.dup(fd), "rb") as fh:
            fh.seek(start)
            data = fh.read(size - start)
    except OSError:
        return ""
    finally:
        os.close(fd)
    if start:
        data = data.split(b"\n", 1)[-1]  # the first line is cut: it is not JSON
    return data.decode("utf-8", errors="replace")


def transcript_turns(path: str | Path, tail: int | None = None) -> list[TranscriptTurn]:
    """The exchanges of a transcript JSONL (its last `tail` bytes when given), oldest first.

    Tool results arrive as `type: user` lines, sidechains are sub-agents and `isMeta`
    lines are Claude Code's own notes: none starts a new exchange. Assistant text
    between prompts is joined; thinking and tool calls are left out.
    """
    turns: list[TranscriptTurn] = []
    start: dict[str, Any] | None = None
    prompt = ""
    reply: list[str] = []
    lines = _read_regular(Path(path), tail).splitlines()

    def close() -> None:
        if start is not None:
            ts, uid = start.get("timestamp"), start.get("uuid")
            turns.append(
                TranscriptTurn(
                    prompt,
                    "\n".join(reply).strip(),
                    ts if isinstance(ts, str) else "",
                    uid if isinstance(uid, str) else "",
                )
            )

    for line in lines:
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):  # a line nested past the parser's stack
            continue
        if not isinstance(row, dict) or row.get("isSidechain") or row.get("isMeta"):
            continue
        message = row.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if row.get("type") == "user" and not _is_tool_result(content):
            text = _text(content).strip()
            if not text or text.startswith(_NOT_PROMPTS):
                continue
            close()
            start, prompt, reply = row, text, []
        elif row.get("type") == "assistant" and start is not None:
            text = _text(content).strip()
            if text:
                reply.append(text)
    close()
    return turns


def transcript_exchanges(path: str | Path) -> list[tuple[str, str]]:
    """(user prompt, final assistant text) pairs of a transcript JSONL, oldest first."""
    return [(t.prompt, t.reply) for t in transcript_turns(path)]


def context_output(event: str, text: str) -> str:
    """The JSON a hook prints to add context to the conversation."""
    if len(text) > MAX_CONTEXT_CHARS:
        text = text[: MAX_CONTEXT_CHARS - 1].rsplit("\n", 1)[0] + "\n…"
    return json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}})


def day_of(timestamp: str) -> date | None:
    """The local day of an ISO timestamp ("2026-03-02T18:04:11.120Z"), or None."""
    try:
        when = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when.astimezone().date() if when.tzinfo else when.date()


def turn_key(session_id: str, prompt: str, reply: str, uuid: str = "") -> str:
    """What identifies one turn of one session: its prompt's message id, else its text."""
    import hashlib

    own = uuid or hashlib.sha256(f"{session_id}\0{prompt}\0{reply}".encode()).hexdigest()[:32]
    return f"{session_id}/{own}"
