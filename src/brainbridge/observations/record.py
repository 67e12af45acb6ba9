"""Tool events into `Observation` entities: folded, linked to their session and files.

A call on the same file or task as the session's last observation folds into it (`count`
goes up): an edit after an edit of the same file, a re-read, a read right after editing
that file. A command or test run again within the last few observations folds into the
earlier run, so "failed, edit, passed" reads "ran pytest …: failed → passed". Each
observation is named "<title> [<session:8>:<n>]", unique and stable while it folds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from brainbridge.model import CHAT_SESSION, FILE, OBSERVATION, Entity
from brainbridge.observations.calls import ToolEvent
from brainbridge.types import validate

if TYPE_CHECKING:
    from brainbridge.brain import Brain
    from brainbridge.ports import Store

# How many of a session's latest observations a new run of the same command may fold into.
RERUN_WINDOW = 4
# How many of them are searched for a call already stored (a drainer replaying its file).
SEEN_WINDOW = 32
MAX_KEYS = 24  # call keys kept per observation, so a replayed spool stores a call once
MAX_STATES = 6


def session_tag(session_id: str) -> str:
    """What every observation name of a session holds: "[76bcd7b5:"."""
    return f"[{session_id[:8]}:"


async def observe_events(brain: Brain, events: Sequence[ToolEvent]) -> list[Entity]:
    """Store tool events as observations (folded, oldest first); the observations written.

    Raises: SchemaError if the brain has no Observation type (a brain opened without
    syncing its types), BrainError on storage trouble.
    """
    if not events:
        return []
    written = await brain._run(_store_events, brain.store, brain.types, list(events))
    brain._written()
    return written


def recent_observations(store: Store, session_id: str, limit: int) -> tuple[list[Entity], int]:
    """The session's latest observations, newest first, and how many it has."""
    tag = session_tag(session_id)
    found, total = store.list_entities(OBSERVATION, tag, limit=limit)
    mine = [e for e in found if e.attributes.get("session_id") == session_id]
    return mine, total


def _store_events(
    store: Store, types: dict[str, dict[str, Any]], events: list[ToolEvent]
) -> list[Entity]:
    written: dict[str, Entity] = {}
    for event in events:
        recent, total = recent_observations(store, event.session_id, SEEN_WINDOW)
        if any(event.key in (o.attributes.get("keys") or []) for o in recent):
            continue  # stored already: a replayed spool, a repeated request
        target = _fold_target(event, recent[:RERUN_WINDOW])
        if target is None:
            name = f"{event.title[:180]} {session_tag(event.session_id)}{total + 1}]"
            attrs = _new_attributes(event)
        else:
            name, attrs = target.name, _folded(target.attributes, event)
        validate(types, OBSERVATION, attrs)
        obs = store.upsert_entity(OBSERVATION, name, _description(attrs), attrs)
        written[obs.name] = obs
        _link(store, obs, event)
    return list(written.values())


def _fold_target(event: ToolEvent, recent: list[Entity]) -> Entity | None:
    if not recent:
        return None
    last = recent[0]
    attrs = last.attributes
    same_project = attrs.get("project") == event.project
    if not same_project:
        return None
    if attrs.get("fold_key") == event.fold_key:
        return last
    # Reading the file just edited checks the edit: nothing new happened.
    if (
        event.kind == "read"
        and attrs.get("kind") == "edit"
        and list(event.files[:1]) == (attrs.get("files") or [])[:1]
    ):
        return last
    if event.kind == "read":  # a re-read of a file not edited since tells nothing new
        for earlier in recent[1:]:
            seen = earlier.attributes
            if seen.get("kind") == "edit" and (seen.get("files") or [])[:1] == [*event.files[:1]]:
                break
            if seen.get("fold_key") == event.fold_key:
                return earlier
    if event.kind in ("command", "test"):
        for earlier in recent[1:]:
            if earlier.attributes.get("fold_key") == event.fold_key:
                return earlier
    return None


def _state(event: ToolEvent) -> str:
    return "failed" if event.failed else ("passed" if event.kind == "test" else "ok")


def _new_attributes(event: ToolEvent) -> dict[str, Any]:
    return {
        "session_id": event.session_id,
        "project": event.project,
        "kind": event.kind,
        "title": event.title,
        "files": list(event.files),
        "command": event.command,
        "exit_code": event.exit_code,
        "error": event.error,
        "outcome": event.outcome,
        "tool": event.tool,
        "at": event.at,
        "count": 1,
        "fold_key": event.fold_key,
        "states": [_state(event)],
        "keys": [event.key],
    }


def _folded(old: dict[str, Any], event: ToolEvent) -> dict[str, Any]:
    """The observation `old` with one more call folded in."""
    states = [s for s in old.get("states") or [] if isinstance(s, str)]
    if event.kind == old.get("kind"):  # a read of an edited file adds a call, not a state
        new = _state(event)
        if not states or states[-1] != new:
            states.append(new)
    states = states[-MAX_STATES:]
    files = [f for f in old.get("files") or [] if isinstance(f, str)]
    files += [f for f in event.files if f not in files]
    same_kind = event.kind == old.get("kind")
    outcome = event.outcome if same_kind else str(old.get("outcome") or "")
    if len(states) > 1 and event.kind in ("command", "test"):
        outcome = " → ".join(states)
        if event.failed and event.error:
            outcome += f": {event.error}"
    error = event.error if same_kind and event.failed else old.get("error")
    return {
        **old,
        "files": files[:8],
        "exit_code": event.exit_code if same_kind else old.get("exit_code"),
        "error": error,
        "outcome": outcome,
        "at": event.at or old.get("at"),
        "count": int(old.get("count") or 1) + 1,
        "states": states,
        "keys": [*(old.get("keys") or []), event.key][-MAX_KEYS:],
    }


def _description(attrs: dict[str, Any]) -> str:
    """One line: "ran pytest tests/test_calc.py: failed → passed (3 calls)"."""
    text = f"{attrs['title']}: {attrs.get('outcome') or 'done'}"
    count = int(attrs.get("count") or 1)
    if count > 1:
        text += f" ({count} calls)"
    error = attrs.get("error")
    if error and error not in text:
        text += f"; error was: {error}"
    return text


def _link(store: Store, obs: Entity, event: ToolEvent) -> None:
    """Observation --touched--> File (project-relative paths only), --in_session--> the
    session's node (made here when the curator has not made it yet)."""
    for path in event.files:
        if path.startswith("/"):
            continue  # outside the project: no File of the project
        store.upsert_entity(FILE, path, None, {"project": event.project})
        store.relate((OBSERVATION, obs.name), "touched", (FILE, path))
    if store.get_entity(CHAT_SESSION, event.session_id) is None:
        store.upsert_entity(
            CHAT_SESSION,
            event.session_id,
            None,
            {"session_id": event.session_id, "project": event.project},
        )
    store.relate((OBSERVATION, obs.name), "in_session", (CHAT_SESSION, event.session_id))
