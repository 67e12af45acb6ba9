"""Frozen value types shared by every layer (directives: `model.directives`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

CHAT_EXCHANGE = "Chat_Exchange"
# How much of the user's message an exchange keeps (its `user_message`): what is derived
# from the message and must go with it when forgotten is read from as much.
USER_MESSAGE_CHARS = 1000
# A conversation and a day's activity log as entities (the curator keeps them): the
# browser, search and the graph reach them; the bridge's block does not repeat them.
CHAT_SESSION = "Chat_Session"
JOURNAL_ENTRY = "Journal_Entry"
EPISODES = (CHAT_EXCHANGE, CHAT_SESSION, JOURNAL_ENTRY)
# A paragraph or a few of a note, under its headings: what search finds in a long note.
PASSAGE = "Passage"
# What a coding agent did (a tool call, or a run of them folded into one) and the project
# files it touched: written by the PostToolUse hook without an LLM (`observations`).
OBSERVATION = "Observation"
FILE = "File"
# How the user likes things done ("I prefer small PRs"), drawn from what they said.
PREFERENCE = "Preference"
# (type, name, description, attributes): one entity to upsert in bulk.
EntityRow = tuple[str, str, str | None, dict[str, Any] | None]


@dataclass(frozen=True)
class Entity:
    id: int
    type: str
    name: str
    description: str = ""
    attributes: dict[str, Any] = field(default_factory=dict)
    created_at: str = ""
    updated_at: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "name": self.name,
            "description": self.description,
            "attributes": dict(self.attributes),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


def replaced_by(entity: Entity) -> str | None:
    """The name of the statement that replaced `entity`, or a part of it; None while all of
    it holds."""
    by = entity.attributes.get("superseded_by") or entity.attributes.get("part_changed_by")
    return str(by) if by else None


def change_note(entity: Entity, part_limit: int = 0) -> str:
    """What no longer holds of `entity` and since when: '"ceremony at 4pm" superseded on
    2026-09-10' (a part, cut to `part_limit` characters if one is given), "superseded on
    2026-09-10" (all of it), or "" while it holds."""
    if replaced_by(entity) is None:
        return ""
    attrs = entity.attributes
    note = f"superseded on {attrs.get('valid_to') or attrs.get('part_changed_on') or '?'}"
    if part := str(attrs.get("superseded_part") or "").rstrip("."):
        if part_limit and len(part) > part_limit:
            part = part[: part_limit - 1].rstrip() + "…"
        note = f'"{part}" {note}'
    return note


# A part quoted in a search result: enough to know which, short of the whole message.
QUOTED_PART = 160


def no_longer_holds(entity: Entity) -> str:
    """`change_note` with what replaced it, by name to open it ("by the user" when they
    invalidated it themselves): "" while it holds."""
    note = change_note(entity, QUOTED_PART)
    if not note:
        return ""
    by = replaced_by(entity)
    return f"{note} by the user" if by == "user" else f"{note} by {by}"


def holds_at(entity: Entity, as_of: str | None = None, superseded: bool = False) -> bool:
    """Whether what `entity` says was true on `as_of` (YYYY-MM-DD; None: now).

    It starts at `valid_from` (an exchange: the day it happened) and ends at `valid_to`,
    the day something newer replaced it; `superseded=True` keeps what ended. What was
    replaced only in part (`superseded_part`) holds on for the rest.
    """
    attrs = entity.attributes
    start = attrs.get("valid_from") or attrs.get("date")
    if as_of is not None and isinstance(start, str) and start[:10] > as_of:
        return False
    end = attrs.get("valid_to")
    if superseded or not isinstance(end, str) or attrs.get("superseded_part"):
        return True
    return as_of is not None and end[:10] > as_of


@dataclass(frozen=True)
class Relation:
    src_type: str
    src_name: str
    type: str
    dst_type: str
    dst_name: str
    attributes: dict[str, Any] = field(default_factory=dict)
    created_at: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "src": {"type": self.src_type, "name": self.src_name},
            "type": self.type,
            "dst": {"type": self.dst_type, "name": self.dst_name},
            "attributes": dict(self.attributes),
            "created_at": self.created_at,
        }


@dataclass(frozen=True)
class Hit:
    """One search result: the entity, its fused score and the retrievers that found it."""

    entity: Entity
    score: float
    retrievers: tuple[str, ...] = ()
    # What search measured on the way (bm25, coverage, cosine, ...): the bridge's relevance
    # model reads them instead of measuring again. Not part of a hit's identity.
    signals: dict[str, float] = field(default_factory=dict, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        d = self.entity.to_dict()
        d["score"] = round(self.score, 6)
        d["retrievers"] = list(self.retrievers)
        if gone := no_longer_holds(self.entity):
            d["no_longer_holds"] = gone
        return d


@dataclass(frozen=True)
class Subgraph:
    nodes: tuple[Entity, ...]
    edges: tuple[Relation, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "nodes": [n.to_dict() for n in self.nodes],
            "edges": [e.to_dict() for e in self.edges],
        }


class Judgment(StrEnum):
    ENRICH = "enrich"
    STEP_BACK = "step_back"
    PASS_THROUGH = "pass_through"


@dataclass(frozen=True)
class Session:
    id: str
    title: str = ""
    title_source: str = ""
    summary: str = ""
    bridge_context_log: tuple[dict[str, Any], ...] = ()
    message_count: int = 0
    created_at: str = ""
    updated_at: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "title_source": self.title_source,
            "summary": self.summary,
            "bridge_context_log": list(self.bridge_context_log),
            "message_count": self.message_count,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }
