"""Forget: delete an item and what was derived from it, show it first, audit it without content.

What goes with what:

- an entity: itself, its relations, vectors and index rows, and a document's passages;
- a chat exchange: also the facts extracted from it and from no other exchange, and the
  bridge log entry of its turn (its queries quote the prompt);
- a session (`Chat_Session:ID`, whether or not the curator made a node of it): its
  exchanges and observations with what was extracted from them, its node, and its row
  with the bridge log and curator runs; the curator's activity logs and day records drop
  its lines, and each day's journal entry is rewritten from what remains.

Every forget appends one line to `forgotten.jsonl` in the brain's files: when, who, by
which door, the item's id and type, and counts; never a name or any text of it.
"""

from __future__ import annotations

import getpass
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from brainbridge.curator.forget import forget_session, session_days
from brainbridge.errors import NotFound
from brainbridge.model import CHAT_EXCHANGE, CHAT_SESSION, PASSAGE, Entity
from brainbridge.store.sqlite import forget as rows

if TYPE_CHECKING:
    from brainbridge.brain import Brain, EntityRef
    from brainbridge.store.sqlite.store import SqliteStore

AUDIT_FILE = "forgotten.jsonl"


@dataclass(frozen=True)
class Forgetting:
    """What a forget removes (a preview) or removed (`done`)."""

    kind: str  # the item's type; Chat_Session for a session
    key: str  # the entity id, or the session id for a session
    entities: tuple[Entity, ...]
    sessions: tuple[str, ...] = ()
    turns: tuple[tuple[str, int], ...] = ()
    journal_days: tuple[str, ...] = ()  # days whose journal entry is rewritten without it
    relations: int = 0
    vectors: int = 0
    log_entries: int = 0
    done: bool = False
    scrubbed: bool = False
    counts: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The item, what goes with it and the counts; `done` says whether it is gone."""
        return {
            "item": {"type": self.kind, "id": self.key},
            "done": self.done,
            "scrubbed": self.scrubbed,
            "entities": [{"type": e.type, "name": e.name} for e in self.entities],
            "sessions": list(self.sessions),
            "journal_days": list(self.journal_days),
            "counts": self.counts,
        }


def session_ref(ref: EntityRef) -> str | None:
    """The session id when `ref` names a session, else None."""
    if isinstance(ref, Entity):
        return ref.name if ref.type == CHAT_SESSION else None
    if isinstance(ref, tuple):
        return ref[1] if ref[0] == CHAT_SESSION else None
    return None


def plan(brain: Brain, ref: EntityRef, target: Entity | None) -> Forgetting:
    """On the store thread: what forgetting `ref` (resolved to `target`, or a session
    without a node) would remove.

    Raises: NotFound when there is no such item.
    """
    store = _store(brain)
    sid = session_ref(target or ref)
    sessions: tuple[str, ...] = ()
    turns: tuple[tuple[str, int], ...] = ()
    days: tuple[str, ...] = ()
    if sid is not None:
        found = rows.session_entities(store, sid)
        if target is not None and all(e.id != target.id for e in found):
            found.append(target)
        if not found and not rows.session_exists(store, sid):
            raise NotFound(f"no session {sid!r}")
        sessions = (sid,) if rows.session_exists(store, sid) else ()
        exchanges = [e.id for e in found if e.type == CHAT_EXCHANGE]
        found += [f for f in rows.derived_facts(store, exchanges) if f not in found]
        kind, key = CHAT_SESSION, sid
        days = tuple(session_days(brain.files, sid))
    else:
        assert target is not None
        found = [target]
        kind, key = target.type, str(target.id)
        if target.type == CHAT_EXCHANGE:
            found += rows.derived_facts(store, [target.id])
            number = target.attributes.get("exchange_number")
            session = target.attributes.get("session_id")
            if isinstance(number, int) and isinstance(session, str):
                turns = ((session, number),)
        elif target.type != PASSAGE:
            found += _passages(brain, target)
    relations, vectors = rows.count_links(store, [e.id for e in found])
    entities = tuple(found)
    return Forgetting(
        kind,
        key,
        entities,
        sessions,
        turns,
        days,
        relations,
        vectors,
        rows.count_log(store, sessions, turns),
        counts=_counts(entities, sessions, relations, vectors),
    )


def _store(brain: Brain) -> SqliteStore:
    # The brain's own store (SQLite's, or PostgreSQL's subclass of it): forgetting reaches
    # tables the `Store` port does not name (sessions, bridge log, merges).
    return cast("SqliteStore", brain.searcher.store)


def _passages(brain: Brain, owner: Entity) -> list[Entity]:
    from brainbridge.vault.passages import name_prefixes, owner_of

    store = _store(brain)
    others = [e for e in store.find_by_name(owner.name) if e.name == owner.name and e != owner]
    if others:  # passages are named after their owner; another entity of that name keeps them
        return []
    out: list[Entity] = []
    for prefix in name_prefixes(owner.name):
        found = store.names_with_prefix(PASSAGE, prefix, limit=100_000)
        out += [p for p in found if owner_of(p.name) == owner.name]
    return out


def _counts(
    entities: tuple[Entity, ...], sessions: tuple[str, ...], relations: int, vectors: int
) -> dict[str, int]:
    counts: dict[str, int] = {}
    for e in entities:
        counts[e.type] = counts.get(e.type, 0) + 1
    counts.update(relations=relations, vectors=vectors, sessions=len(sessions))
    return counts


def carry_out(brain: Brain, forgetting: Forgetting, via: str) -> Forgetting:
    """On the store thread: delete what `forgetting` lists and write the audit line.

    Raises: StoreBusy; OSError if the audit line cannot be written (the deletion stands).
    """
    store = _store(brain)

    def journals() -> None:
        if forgetting.kind == CHAT_SESSION and forgetting.journal_days:
            forget_session(store, brain.files, forgetting.key, list(forgetting.journal_days))

    removed = rows.delete(
        store, forgetting.entities, forgetting.sessions, forgetting.turns, then=journals
    )
    exchanges = [e for e in forgetting.entities if e.type == CHAT_EXCHANGE]
    _undo_retirements(store, [e.name for e in exchanges])
    _unamend_people(store, exchanges)
    done = Forgetting(
        forgetting.kind,
        forgetting.key,
        forgetting.entities,
        forgetting.sessions,
        forgetting.turns,
        forgetting.journal_days,
        removed.relations,
        removed.vectors,
        removed.log_entries,
        done=True,
        scrubbed=removed.scrubbed,
        counts=_counts(
            forgetting.entities, forgetting.sessions, removed.relations, removed.vectors
        ),
    )
    audit(brain, done, via)
    return done


def _undo_retirements(store: SqliteStore, exchanges: list[str]) -> None:
    """What the forgotten `exchanges` marked as replaced, done or no longer someone's role
    holds again: a change nobody remembers making changed nothing ("Alan Cho is my
    dentist", forgotten, leaves Dr. Romero the user's dentist, not their former one)."""
    restored: list[Entity] = []
    for by in exchanges:
        for ent in store.entities_with_attribute("superseded_by", by):
            attrs: dict[str, Any] = {
                "superseded_by": None,
                "valid_to": None,
                "superseded_part": None,
            }
            if ent.type == "Commitment" and ent.attributes.get("status") in ("done", "dropped"):
                attrs["status"] = "open"
            restored.append(store.upsert_entity(ent.type, ent.name, None, attrs))
        for ent in store.entities_with_attribute("role_ended_by", by):
            role = str(ent.attributes.get("former_role") or "")
            if not role or any(
                e.type == "Person" and e.id != ent.id
                for e in store.entities_with_attribute("role", role)
            ):
                continue  # someone else holds the role now ("my dentist is now Dr. Nair")
            was = re.compile(rf"^Formerly the user's {re.escape(role)} \(until [^)]*\)(?:\. )?")
            described = ent.description
            if was.match(described):
                rest = was.sub("", described, count=1)
                described = f"The user's {role}" + (
                    rest if rest.startswith((".", " ")) or not rest else f". {rest}"
                )
            attrs = {"role": role, "former_role": None, "role_until": None, "role_ended_by": None}
            store.upsert_entity(ent.type, ent.name, described, attrs)
    pending = {e.id for e in restored}
    for ent in restored:
        if ent.id in pending:
            pending -= _retire_again(store, ent, pending)


def _unamend_people(store: SqliteStore, exchanges: list[Entity]) -> None:
    """Take out of people's descriptions what the forgotten `exchanges` added to them
    ("Since 2026-11-20: Dr Shah upped the amlodipine to 10mg.")."""
    from brainbridge.bridge import changes
    from brainbridge.words import query_terms

    for ex in exchanges:
        when = str(ex.attributes.get("date") or ex.created_at)[:10]
        note = changes.person_note(changes.said(ex), when)
        query = " ".join(query_terms(note)[:12])
        if not query:
            continue
        hits = store.bm25(query, _RECHECKED, entity_types=("Person",))
        for person in store.get_entities([eid for eid, _ in hits]).values():
            if note in person.description:
                described = person.description.replace(note, "", 1)
                store.upsert_entity("Person", person.name, described, None)


def _retire_again(store: SqliteStore, ent: Entity, pending: set[int]) -> set[int]:
    """Mark `ent` (and what else of `pending` the same statement retires) replaced or done
    again where a statement still remembered does so: a later exchange that said the same
    ("Booked the van for the move, confirmation came through") found it already marked,
    and marked nothing itself. The ids marked again."""
    from brainbridge.bridge import changes
    from brainbridge.words import query_terms

    since = str(ent.attributes.get("date") or ent.attributes.get("valid_from") or "")[:10]
    query = " ".join(query_terms(changes.said(ent))[:12])
    if not query:
        return set()
    hits = store.bm25(query, _RECHECKED, entity_types=(CHAT_EXCHANGE,))
    for later in store.get_entities([eid for eid, _ in hits]).values():
        when = str(later.attributes.get("date") or later.created_at[:10])
        if later.id == ent.id or when < since:
            continue
        text = str(later.attributes.get("user_message") or later.description)
        found = [
            r
            for r in changes.find_retired(store, text, later.id, later.name, when)
            if r.entity.id in pending
        ]
        if any(r.entity.id == ent.id for r in found):
            changes.retire(store, found, later.name, when)
            return {r.entity.id for r in found}
    return set()


# Statements read for one that still marks an entity a forgotten one had marked.
_RECHECKED = 10


def audit(brain: Brain, done: Forgetting, via: str) -> None:
    """Append the audit line of a forget: no name, no text, only what and how many.

    A forgotten exchange's turn key (its session and message id, or a hash of its text)
    is kept too, so an import of the same transcript or export does not bring it back.
    """
    from brainbridge.curator.files import append_line

    keys = [
        e.attributes["turn_key"]
        for e in done.entities
        if e.type == CHAT_EXCHANGE and isinstance(e.attributes.get("turn_key"), str)
    ]
    entry: dict[str, Any] = {
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        "by": brain.user or _os_user(),
        "via": via,
        "item": {"type": done.kind, "id": done.key},
        "counts": {
            **done.counts,
            "log_entries": done.log_entries,
            "journal_days": len(done.journal_days),
        },
        "scrubbed": done.scrubbed,
    }
    if keys and done.kind != CHAT_SESSION:  # a session's id already names all its turns
        entry["turn_keys"] = keys
    append_line(brain.files / AUDIT_FILE, entry)


def forgotten(folder: Path) -> tuple[set[str], set[str]]:
    """The sessions and the turn keys forgotten in the brain whose files are in `folder`,
    for importers to skip."""
    from brainbridge.curator.files import read_lines

    sessions: set[str] = set()
    keys: set[str] = set()
    for entry in read_lines(folder / AUDIT_FILE):
        item = entry.get("item")
        if isinstance(item, dict) and item.get("type") == CHAT_SESSION:
            sessions.add(str(item.get("id")))
        found = entry.get("turn_keys")
        if isinstance(found, list):
            keys.update(k for k in found if isinstance(k, str))
    return sessions, keys


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # a container user with no passwd entry
        return str(os.getuid()) if hasattr(os, "getuid") else "unknown"
