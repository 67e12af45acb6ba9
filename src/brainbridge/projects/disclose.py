"""Progressive disclosure: open a digest item by id, walk a session's timeline.

The digest names items by entity id with a token cost; these are the two calls that
open them (`brain_get`, `brain_timeline` over MCP and HTTP). Text is sanitised and
redacted like the digest, since it lands in the agent's context all the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from brainbridge.errors import NotFound
from brainbridge.model import CHAT_EXCHANGE, CHAT_SESSION, Entity
from brainbridge.projects.digest import OBSERVATION
from brainbridge.redact import redact
from brainbridge.sanitise import inline

if TYPE_CHECKING:
    from brainbridge.ports import Sessions, Store

_HIDDEN = frozenset({"body", "content_hash", "vault", "user_message", "ai_response"})
MAX_RELATIONS = 40
MAX_STEPS = 400


def _line(text: str, limit: int | None = None, opens: bool = False) -> str:
    return inline(text, limit, opens_line=opens, redact=redact)


def parse_id(ref: str | int) -> int | None:
    """An entity id from `12`, `"12"` or `"#12"`; None for anything else."""
    if isinstance(ref, int):
        return ref if ref > 0 else None
    text = ref.strip().removeprefix("#")
    return int(text) if text.isdigit() and 0 < int(text) < 2**63 else None


def item_text(store: Store, item_id: int) -> str:
    """The entity `item_id` in full: description, attributes, body, relations.

    Raises: NotFound.
    """
    ent = store.get_entities([item_id]).get(item_id)
    if ent is None:
        raise NotFound(f"no item #{item_id}")
    attrs = ent.attributes
    lines = [f"#{ent.id} {_line(ent.name, opens=True)} ({_line(ent.type)})"]
    if ent.type == CHAT_EXCHANGE:
        lines.append("User: " + _line(str(attrs.get("user_message") or "")))
        lines.append("AI: " + _line(str(attrs.get("ai_response") or "")))
    elif ent.description:
        lines.append(_line(ent.description, opens=True))
    shown = {k: v for k, v in attrs.items() if k not in _HIDDEN and v not in (None, "", [])}
    if shown:
        lines.append(
            "Attributes: "
            + "; ".join(f"{_line(str(k))}={_line(str(v), 300)}" for k, v in shown.items())
        )
    body = attrs.get("body")
    if isinstance(body, str) and body.strip():
        lines.append("Body:")
        lines += [_line(row, opens=True) for row in body.splitlines() if row.strip()]
    near = store.neighbors([ent.id], 1, limit=MAX_RELATIONS)
    relations = store.relations_among([ent.id, *near]) if near else []
    mine = [
        r
        for r in relations
        if (r.src_type, r.src_name) == (ent.type, ent.name)
        or (r.dst_type, r.dst_name) == (ent.type, ent.name)
    ]
    if mine:
        lines.append("Relations:")
        lines += [
            f"- {_line(r.src_name, 120, True)} -{_line(r.type)}-> {_line(r.dst_name, 120)}"
            for r in mine[:MAX_RELATIONS]
        ]
    if ent.type == CHAT_SESSION:
        lines.append(f"Its exchanges and tool calls in order: brain_timeline({ent.id}).")
    return "\n".join(line for line in lines if line)


@dataclass(frozen=True)
class Step:
    """One step of a session: an exchange or an observation, with its time."""

    at: str
    entity: Entity

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.entity.id, "at": self.at, **self.entity.to_dict()}


def session_id_of(store: Store, sessions: Sessions, ref: str) -> str:
    """The session a reference names: a Chat_Session id (`#12`), a session id or a prefix.

    Raises: NotFound.
    """
    eid = parse_id(ref)
    if eid is not None:
        ent = store.get_entities([eid]).get(eid)
        if ent is not None and ent.type == CHAT_SESSION:
            return str(ent.attributes.get("session_id") or ent.name)
    ref = ref.strip()
    if ref and sessions.get(ref, 0) is not None:
        return ref
    ids = sessions.session_ids_with_prefix(ref, 2) if len(ref) >= 4 else []
    if len(ids) == 1:
        return ids[0]
    raise NotFound(f"no session {ref!r}" + (" (the prefix names several)" if ids else ""))


def timeline(store: Store, sessions: Sessions, session_id: str) -> list[Step]:
    """The session's exchanges and observations in the order they happened."""
    steps = [Step(e.created_at, e) for e in sessions.session_exchanges(session_id, MAX_STEPS)]
    for e in store.entities_with_attribute("session_id", session_id):
        if e.type == OBSERVATION:
            steps.append(Step(str(e.attributes.get("at") or e.created_at), e))
    steps.sort(key=lambda s: (s.at, s.entity.id))
    return steps[-MAX_STEPS:]


def timeline_text(session_id: str, steps: list[Step]) -> str:
    """A timeline as numbered lines an agent reads; each names the id to open in full."""
    if not steps:
        return f"Session {_line(session_id)} has no stored exchanges or tool calls."
    lines = [f"Session {_line(session_id)}: {len(steps)} steps, oldest first."]
    for step in steps:
        e, a = step.entity, step.entity.attributes
        when = step.at[:16].replace("T", " ")
        if e.type == CHAT_EXCHANGE:
            lines.append(
                f"- #{e.id} {when} User: {_line(str(a.get('user_message') or ''), 300)}"
                f" | AI: {_line(str(a.get('ai_response') or ''), 400)}"
            )
        else:
            detail = a.get("error") or a.get("outcome") or e.description
            tail = f": {_line(str(detail), 200)}" if detail else ""
            lines.append(
                f"- #{e.id} {when} [{_line(str(a.get('kind') or 'tool'))}] {_line(e.name, 160)}{tail}"
            )
    return "\n".join(lines)
