"""PostToolUse and PreCompact: spooled like Stop, so the agent never waits on the brain.

PostToolUse (and PostToolUseFailure) reads the call into a redacted `ToolEvent` and
appends it to the spool: a few milliseconds, and safe when Claude Code runs the hook
asynchronously (the spool is append-only under a lock; each call carries its id, so a
call spooled twice is stored once). It starts no drainer: the turn's Stop does, and the
drainer stores the calls before the turn, folded.

PreCompact spools every exchange of the transcript's tail (the drainer skips those stored
already) and a mark: the session's last bridge log entry is marked `compacted`, so the
next prompt may load again what the compacted context carried. It starts a drainer.
With a brain server running, both go to the server instead (`/hooks/tool`,
`/hooks/pre-compact`), as Stop does.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brainbridge.hooks.payload import (
    TRANSCRIPT_TAIL_BYTES,
    field,
    hook_transcript,
    transcript_turns,
    turn_key,
)
from brainbridge.hooks.spool import FORMAT, append, start_drainer

if TYPE_CHECKING:
    from collections.abc import Callable

    from brainbridge.brain import Brain
    from brainbridge.bridge import Bridge

log = logging.getLogger(__name__)

TOOL = "tool"
COMPACT = "compact"
# A long session's compaction spools at most this many exchanges (the newest).
MAX_COMPACT_TURNS = 200


def tool_record(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The spool record of one tool call, or None for noise."""
    from brainbridge.observations.calls import tool_event

    event = tool_event(payload)
    if event is None:
        return None
    return {
        "v": FORMAT,
        "type": TOOL,
        "key": event.key,
        "session_id": event.session_id,
        "event": event.to_dict(),
    }


def compact_records(payload: dict[str, Any], read_transcript: bool = True) -> list[dict[str, Any]]:
    """The exchanges of the transcript's tail as spool records (secrets redacted), then
    the compaction mark. An automatic compaction may come mid-turn: that last exchange is
    left to its Stop, which has its final reply."""
    from brainbridge.redact import redact

    session = field(payload, "session_id", "claude-code")
    path = hook_transcript(field(payload, "transcript_path")) if read_transcript else None
    turns = transcript_turns(path, TRANSCRIPT_TAIL_BYTES) if path else []
    trigger = field(payload, "trigger", "auto")
    if trigger != "manual":
        turns = turns[:-1]
    records: list[dict[str, Any]] = []
    for t in turns[-MAX_COMPACT_TURNS:]:
        if not t.prompt.strip() and not t.reply.strip():
            continue
        records.append(
            {
                "v": FORMAT,
                "key": turn_key(session, t.prompt, t.reply, t.uuid),
                "session_id": session,
                "prompt": redact(t.prompt),
                "reply": redact(t.reply),
                "at": t.timestamp or time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "cwd": field(payload, "cwd"),
            }
        )
    records.append(
        {
            "v": FORMAT,
            "type": COMPACT,
            "key": f"{session}/compact/{time.time_ns()}",
            "session_id": session,
            "trigger": trigger[:20],
        }
    )
    return records


def hand_over(
    kind: str,
    payload: dict[str, Any],
    home: Path,
    server: dict[str, Any] | None,
    via_server: Callable[[dict[str, Any], str, dict[str, Any]], dict[str, Any] | None],
) -> None:
    """Send the tool call or compaction to the server through `via_server` (the runner's),
    else spool it (see the module)."""
    if kind == TOOL:
        record = tool_record(payload)
        if record is None:
            return
        if server and via_server(server, kind, {"event": record["event"]}) is not None:
            return
        append(home, record)
        return
    records = compact_records(payload)
    if server:
        body = {"turns": records[:-1], "compact": records[-1]}
        if via_server(server, "pre-compact", body) is not None:
            return
    for record in records:
        append(home, record)
    start_drainer(home)


async def store_record(brain: Brain, bridge: Bridge, record: dict[str, Any]) -> None:
    """Store one spooled tool call or compaction mark (the drainer's side). One that
    cannot be stored is logged and dropped: it must never hold up the turns behind it."""
    try:
        if record.get("type") == TOOL:
            from brainbridge.observations.calls import ToolEvent
            from brainbridge.observations.record import observe_events

            event = ToolEvent.from_dict(record.get("event") or {})
            if event is not None:
                await observe_events(brain, [event])
        elif record.get("type") == COMPACT:
            await mark_compacted(brain, str(record.get("session_id") or ""))
    except Exception:
        log.exception("spooled %s record %s not stored", record.get("type"), record.get("key"))


async def mark_compacted(brain: Brain, session_id: str) -> bool:
    """Mark the session's newest bridge log entry `compacted`: what it loaded is no longer
    in the agent's context, so the next prompt does not skip it as already shown.
    False when the session has no log yet."""
    session = await brain._run(brain.sessions.get, session_id, 1)
    if session is None or not session.bridge_context_log:
        return False
    turn = session.bridge_context_log[-1].get("turn")
    if not isinstance(turn, int):
        return False
    entry = {"compacted": True}
    await brain._run(brain.sessions.record_turn, session_id, turn, entry, False)
    return True
