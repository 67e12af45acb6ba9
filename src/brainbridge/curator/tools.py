"""The curator's tools: the only ways a run changes anything, each call recorded.

The LLM and the local curator both act through `Toolbox.execute`, so every run's
history reads the same whoever decided.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from brainbridge.curator.files import activity_file, append_line
from brainbridge.curator.text import clip
from brainbridge.llm import ToolCall, ToolSpec
from brainbridge.model import CHAT_EXCHANGE, Session
from brainbridge.redact import redact

if TYPE_CHECKING:
    from pathlib import Path

    from brainbridge.brain import Brain

log = logging.getLogger(__name__)

MAX_TITLE_CHARS = 100
MAX_SUMMARY_CHARS = 2000
MAX_ACTIVITY_CHARS = 500
MAX_ENTITY_NAME_CHARS = 200
MAX_DESCRIPTION_CHARS = 2000
_RECORDED_ARG_CHARS = 1000


def _spec(name: str, description: str, fields: dict[str, str]) -> ToolSpec:
    """A tool whose arguments are all required strings: `fields` maps each to what it is."""
    properties = {key: {"type": "string", "description": text} for key, text in fields.items()}
    return ToolSpec(
        name,
        description,
        {"type": "object", "properties": properties, "required": list(fields)},
    )


UPDATE_TITLE = _spec(
    "update_title",
    "Give the session a short, specific title (3–8 words, Title Case). Call it only when "
    "there is no title yet or the current one no longer fits.",
    {"title": "The new title."},
)
UPDATE_SUMMARY = _spec(
    "update_summary",
    "Replace the session's running summary (at most 600 characters, third person): what the "
    "user is working on, decisions, facts and open questions. It must cover the whole session, "
    "earlier parts included.",
    {"summary": "The complete new summary."},
)
LOG_ACTIVITY = _spec(
    "log_activity",
    "Add one entry to today's activity log: a sentence, past tense, on what happened in this "
    "session since its last entry. Skip it when nothing new happened.",
    {"summary": "The log entry."},
)
WRITE_BRAIN_ENTITY = _spec(
    "write_brain_entity",
    "Save one durable fact in the brain as an entity (a person, project, decision, "
    "preference …) when the conversation states it plainly. Never for chat small talk.",
    {
        "type": "One of the entity types listed.",
        "name": "The entity's name.",
        "description": "One or two sentences.",
    },
)
TOOLS = (UPDATE_TITLE, UPDATE_SUMMARY, LOG_ACTIVITY, WRITE_BRAIN_ENTITY)
# Titles first so that an activity entry logged in the same run carries the new title.
_ORDER = {"update_title": 0, "update_summary": 1, "write_brain_entity": 2, "log_activity": 3}


class Rejected(ValueError):
    """A tool call's arguments cannot be used."""


def _text(args: dict[str, Any], key: str, limit: int) -> str:
    value = args.get(key)
    if not isinstance(value, str):
        raise Rejected(f"{key} must be a string")
    value = redact(" ".join(value.split()))
    if not value:
        raise Rejected(f"{key} is empty")
    return clip(value, limit)


def _title(args: dict[str, Any]) -> str:
    title = _text(args, "title", MAX_TITLE_CHARS).strip("\"'“”‘’ ")
    title = title.removeprefix("Title:").strip().rstrip(".")
    if not title:
        raise Rejected("title is empty")
    return title


class Toolbox:
    """Carries out the tool calls of one run on one session and records each of them."""

    def __init__(
        self,
        brain: Brain,
        session: Session,
        now: Callable[[], datetime],
        brain_folder: Path,
        last_activity: str = "",
    ) -> None:
        self.brain = brain
        self.session_id = session.id
        self.title = session.title
        self.title_source = session.title_source
        self.summary = session.summary
        self.activity: str | None = None
        self.records: list[dict[str, Any]] = []
        self.actions: list[str] = []
        self._now = now
        self._folder = brain_folder
        self._last_activity = last_activity
        self._by = ""

    def offered(self) -> list[ToolSpec]:
        """The tools worth offering now: no title tool once the user named the session."""
        return [t for t in TOOLS if not (t is UPDATE_TITLE and self.title_source == "user")]

    async def execute_all(self, calls: Sequence[ToolCall], by: str, limit: int = 12) -> None:
        """Execute `calls` in a safe order (title, summary, entities, log); never raises."""
        ordered = sorted(calls, key=lambda c: _ORDER.get(c.name, 9))
        if len(ordered) > limit:
            log.warning("curator: %d tool calls, only the first %d run", len(ordered), limit)
        for call in ordered[:limit]:
            await self.execute(call, by)

    async def execute(self, call: ToolCall, by: str) -> str:
        """Run one tool call and record it with its result; never raises."""
        tool = getattr(self, f"_tool_{call.name}", None) if call.name in _ORDER else None
        if tool is None:
            log.warning("curator: ignoring a call to unknown tool %r", call.name)
            result = "ignored: unknown tool"
        else:
            self._by = by
            try:
                result = await tool(call.arguments if isinstance(call.arguments, dict) else {})
            except Rejected as exc:
                log.warning("curator: rejected %s call: %s", call.name, exc)
                result = f"rejected: {exc}"
            except Exception as exc:  # one failing tool must not stop the others
                log.warning("curator: %s failed", call.name, exc_info=True)
                result = f"failed: {type(exc).__name__}: {exc}"
        self.records.append(
            {"name": call.name, "arguments": _recorded(call.arguments), "by": by, "result": result}
        )
        return result

    def _act(self, action: str) -> None:
        if action not in self.actions:
            self.actions.append(action)

    async def _tool_update_title(self, args: dict[str, Any]) -> str:
        title = _title(args)
        sessions = self.brain.sessions
        source = "ai" if self._by == "llm" else "local"
        changed = await self.brain._run(
            sessions.set_title_unless_user, self.session_id, title, source
        )
        if changed:
            self.title, self.title_source = title, source
            self._act("Updated title")
            return "updated"
        current = await self.brain._run(sessions.get, self.session_id, 0)
        if current is not None and current.title_source == "user":
            self.title, self.title_source = current.title, "user"
            return "kept the user's title"
        return "unchanged"

    async def _tool_update_summary(self, args: dict[str, Any]) -> str:
        summary = _text(args, "summary", MAX_SUMMARY_CHARS)
        if summary == self.summary:
            return "unchanged"
        await self.brain._run(self.brain.sessions.update, self.session_id, summary=summary)
        self.summary = summary
        self._act("Updated summary")
        return "updated"

    async def _tool_log_activity(self, args: dict[str, Any]) -> str:
        text = _text(args, "summary", MAX_ACTIVITY_CHARS)
        if text == self._last_activity:
            return "unchanged: already logged"
        now = self._now()
        entry = {
            "timestamp": now.isoformat(timespec="seconds"),
            "session_id": self.session_id,
            "title": self.title,
            "summary": text,
        }
        await asyncio.to_thread(append_line, activity_file(self._folder, now.date()), entry)
        self.activity = self._last_activity = text
        self._act("Logged")
        return "logged"

    async def _tool_write_brain_entity(self, args: dict[str, Any]) -> str:
        etype = _text(args, "type", 100)
        if etype == CHAT_EXCHANGE:
            raise Rejected(f"{CHAT_EXCHANGE} entities are written by the bridge only")
        if etype not in self.brain.types:
            raise Rejected(f"unknown entity type {etype!r}")
        name = _text(args, "name", MAX_ENTITY_NAME_CHARS)
        description = _text(args, "description", MAX_DESCRIPTION_CHARS)
        await self.brain.upsert_entity(etype, name, {}, description)
        self._act(f"Wrote {etype}:{name}")
        return "written"


def _recorded(arguments: Any) -> Any:
    """Arguments as stored in the run history: redacted and clipped."""
    if isinstance(arguments, dict):
        return {str(k): _recorded(v) for k, v in arguments.items()}
    if isinstance(arguments, str):
        return clip(redact(arguments), _RECORDED_ARG_CHARS)
    if isinstance(arguments, list):
        return [_recorded(v) for v in arguments[:20]]
    return arguments
