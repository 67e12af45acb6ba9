"""After a turn: store the exchange as an episode and upsert the durable facts in it."""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from brainbridge.bridge.changes import DONE_BY_PRONOUN
from brainbridge.bridge.facts import Fact, extract_facts
from brainbridge.bridge.profile import CLUB_ROLES
from brainbridge.bridge.prompts import EXTRACT_SCHEMA, EXTRACT_SYSTEM, extract_user_prompt
from brainbridge.bridge.resolve import AMBIGUOUS, lookalikes, resolve_name
from brainbridge.errors import BrainError, LLMError
from brainbridge.model import CHAT_EXCHANGE, USER_MESSAGE_CHARS, Entity
from brainbridge.ports import LLM, Store

if TYPE_CHECKING:
    from brainbridge.brain import Brain

log = logging.getLogger(__name__)

EXTRACT_TIMEOUT = 10.0
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
FACT_TYPES = {"Commitment", "Decision", "Person", "Organization", "Project", "Preference", "Fact"}
_PREDICATE = re.compile(r"^[a-z][a-z_ ]{0,30}$")


def exchange_name(session_id: str, exchange_number: int) -> str:
    return f"{session_id[:8]}:ex:{exchange_number}"


def is_trivial(message: str, response: str) -> bool:
    """Too small to be worth remembering: the user wrote < 3 words and the AI < 10, and
    told no deed done ("Sent it." keeps the promise it kept)."""
    return (
        len(message.split()) < 3
        and len(response.split()) < 10
        and not DONE_BY_PRONOUN.match(message)
    )


def exchange_attributes(
    session_id: str, exchange_number: int, message: str, response: str
) -> tuple[str, dict[str, Any]]:
    """The description and attributes of a Chat_Exchange entity (see DESIGN.md)."""
    description = f"User: {message[:300]} | AI: {response[:500]}"
    return description, {
        "session_id": session_id,
        "exchange_number": exchange_number,
        "user_message": message[:USER_MESSAGE_CHARS],
        "ai_response": response[:2000],
    }


async def llm_facts(llm: LLM, message: str, response: str, today: date) -> list[Fact]:
    """Facts from the configured LLM. Raises: LLMError on timeout or a bad answer."""
    data = await llm.complete_json(
        EXTRACT_SYSTEM,
        extract_user_prompt(message, response, today.isoformat()),
        schema=EXTRACT_SCHEMA,
        timeout=EXTRACT_TIMEOUT,
    )
    raw = data.get("facts")
    if not isinstance(raw, list):
        raise LLMError("fact extraction answer has no 'facts' list")
    facts = []
    for item in raw[:8]:
        if not isinstance(item, dict) or item.get("type") not in FACT_TYPES:
            continue
        name = str(item.get("name", "")).strip()[:200]
        if not name:
            continue
        attrs: dict[str, Any] = {}
        due = str(item.get("due") or "")
        if item["type"] == "Commitment":
            attrs = {"owner": "user", "status": "open"}
            if _DATE.match(due):
                attrs["due"] = due
        elif item["type"] == "Person":
            if isinstance(item.get("role"), str) and item["role"].strip():
                attrs["role"] = item["role"].strip().lower()[:60]
            aliases = [
                a.strip()[:80]
                for a in item.get("aliases") or []
                if isinstance(a, str) and a.strip()
            ]
            if aliases:
                attrs["aliases"] = aliases[:5]
        elif item["type"] == "Fact":
            subject = str(item.get("subject") or "").strip()[:80]
            predicate = str(item.get("predicate") or "").strip().lower()
            value = str(item.get("value") or "").strip()[:160]
            if not (subject and value and _PREDICATE.match(predicate)):
                continue  # a fact needs all three; the local extractor may still find it
            name = f"{subject}'s {predicate}: {value}"[:200]
            attrs = {"subject": subject, "predicate": predicate, "value": value}
        rels = tuple(
            (str(r["relation"]), str(r["type"]), str(r["name"]))
            for r in item.get("related_to") or []
            if isinstance(r, dict) and r.get("type") in FACT_TYPES and r.get("name")
        )
        facts.append(Fact(item["type"], name, str(item.get("description", ""))[:500], attrs, rels))
    return facts


async def store_facts(
    brain: Brain, facts: list[Fact], exchange: tuple[str, str] | None, when: date | None = None
) -> list[str]:
    """Upsert facts (never overwriting a richer description) and link them to their exchange.

    Each fact records where it was learned (`source_exchange`) and since when it holds
    (`valid_from`, the day of the exchange), so a later change can retire it.
    """
    stored: list[str] = []
    for fact in await brain._run(_resolved, brain.searcher.store, facts):
        try:
            existing = await brain.get_entity(fact.type, fact.name)
            description = None if existing and existing.description else fact.description
            attrs: dict[str, Any] = dict(fact.attributes)
            if existing and (aliases := attrs.get("aliases")):
                known = existing.attributes.get("aliases") or []
                attrs["aliases"] = list(dict.fromkeys([*known, *aliases]))
            if exchange and (existing is None or existing.attributes.get("superseded_by")):
                # New, or said again after it was retired: it holds again from now on.
                attrs.update(source_exchange=exchange[1], valid_to=None, superseded_by=None)
                attrs["valid_from"] = (when or date.today()).isoformat()
            ent = await brain.upsert_entity(fact.type, fact.name, attrs, description)
            stored.append(f"{fact.type}:{fact.name}")
            if existing is None and fact.type in RESOLVED_TYPES:
                queued = await brain._run(queue_lookalikes, brain.searcher.store, ent)
                stored += [f"merge? {fact.type}:{ent.name} ~ {n}" for n in queued]
            if exchange:
                day = (when or date.today()).isoformat()
                closed = await brain._run(
                    close_single_valued, brain.searcher.store, ent, brain.types, exchange[1], day
                )
                stored += [f"retired {c}" for c in closed]
            if exchange:
                await brain.relate((fact.type, fact.name), "extracted_from", exchange)
        except BrainError as exc:
            log.warning("skipped fact %s %r: %s", fact.type, fact.name, exc)
    for fact in facts:
        for relation, ttype, tname in fact.relations:
            try:
                await brain.relate((fact.type, fact.name), relation, (ttype, tname))
            except BrainError as exc:
                log.debug("skipped relation %s -%s-> %s: %s", fact.name, relation, tname, exc)
    return stored


RESOLVED_TYPES = frozenset({"Person", "Organization"})


def _resolved(store: Store, facts: list[Fact]) -> list[Fact]:
    """Facts about people and organisations named as the brain knows them; a name that
    fits several known ones is left out rather than made into yet another entity."""
    out = []
    names: dict[tuple[str, str], str] = {}
    for fact in facts:
        if fact.type in RESOLVED_TYPES:
            known = resolve_name(store, fact.type, fact.name)
            if known == AMBIGUOUS:
                log.debug("%s %r is ambiguous; not stored", fact.type, fact.name)
                continue
            if known and known != fact.name:
                names[(fact.type, fact.name)] = known
                fact = replace(fact, name=known)
        out.append(fact)
    return [
        replace(f, relations=tuple((r, t, names.get((t, n), n)) for r, t, n in f.relations))
        for f in out
    ]


def queue_lookalikes(store: Store, ent: Entity) -> list[str]:
    """Put near-identical names of a new person or organisation in the review queue."""
    queued = []
    for name, score in lookalikes(store, ent.type, ent.name):
        if store.propose_merge(ent.type, name, ent.name, score, "names nearly alike") is not None:
            queued.append(name)
    return queued


# A person holds these roles for the user one at a time: a new manager ends the old one's.
SINGLE_ROLES = frozenset(
    {
        "manager",
        "boss",
        "landlord",
        "landlady",
        "gp",
        "doctor",
        "dentist",
        "accountant",
        "partner",
        "wife",
        "husband",
        "nanny",
        "therapist",
        "lawyer",
        "thesis supervisor",
        "line manager",
        "charge nurse",
        # Found as a user: "New physio is Aisha Rahman" left Ben the user's physio too.
        "physio",
        "physiotherapist",
        "solicitor",
        "conveyancer",
        "mortgage broker",
        "estate agent",
        "vet",
        "supervisor",
        "pediatrician",
        "paediatrician",
        "personal trainer",
        "coach",
        "hairdresser",
        "optician",
        # Found as users: "my tutor is Joana Lima now" left Rita the user's tutor too.
        "tutor",
        "midwife",
        "treasurer",
        *CLUB_ROLES,
        "caseworker",
        "social worker",
        "health visitor",
        "headteacher",
        # Found as users: "new plumber is Karen Wells" left Gary the user's plumber too.
        "plumber",
        "electrician",
        "childminder",
        "cleaner",
        "gardener",
        "builder",
        "mechanic",
        "dog walker",
        "window cleaner",
    }
)


def close_single_valued(
    store: Store, ent: Entity, types: dict[str, dict[str, Any]], by: str, when: str
) -> list[str]:
    """End the open value of a single-valued fact that `ent` replaces; (type:name) closed.

    A `Fact` whose predicate `entity_types.yaml` declares single-valued ends the subject's
    other current value of it; a person given a one-at-a-time role ("my new manager")
    ends that role for whoever held it before. What ends keeps its history.
    """
    out = []
    if ent.type == "Fact":
        subject, predicate = ent.attributes.get("subject"), ent.attributes.get("predicate")
        if not subject or predicate not in types.get("Fact", {}).get("single_valued", ()):
            return []
        for old in store.names_with_prefix("Fact", f"{subject}'s {predicate}: "):
            if old.id != ent.id and not old.attributes.get("superseded_by"):
                store.upsert_entity("Fact", old.name, None, {"valid_to": when, "superseded_by": by})
                out.append(f"Fact:{old.name}")
    elif ent.type == "Person" and (left := ent.attributes.get("left_role")):
        # "Graham is stepping down as treasurer": his role ends, with no one new yet.
        if ent.attributes.get("role") == left:
            _end_role(store, ent, str(left), by, when)
            out.append(f"Person:{ent.name}")
    elif ent.type == "Person" and (role := ent.attributes.get("role")) in SINGLE_ROLES:
        for old in store.entities_with_attribute("role", str(role)):
            if old.id == ent.id or old.type != "Person" or "source_exchange" not in old.attributes:
                continue
            _end_role(store, old, str(role), by, when)
            out.append(f"Person:{old.name}")
    return out


def _end_role(store: Store, person: Entity, role: str, by: str, when: str) -> None:
    """Mark `person` the user's former `role`, ended on `when` by the exchange `by`."""
    was = f"Formerly the user's {role} (until {when})"
    description = re.sub(rf"^The user's {re.escape(role)}\b[^.]*", was, person.description)
    store.upsert_entity(
        "Person",
        person.name,
        description if description != person.description else f"{was}. {person.description}",
        {
            "role": None,
            "left_role": None,
            "former_role": role,
            "role_until": when,
            "role_ended_by": by,
        },
    )


async def extract(
    llm: LLM | None, message: str, response: str, today: date
) -> tuple[list[Fact], str]:
    """Facts from the LLM when configured and working, else from the local extractor."""
    if llm is not None:
        try:
            return await llm_facts(llm, message, response, today), "llm"
        except LLMError as exc:
            log.warning("LLM fact extraction failed, using the local extractor: %s", exc)
    return extract_facts(message, response, today), "local"


__all__ = [
    "CHAT_EXCHANGE",
    "exchange_attributes",
    "exchange_name",
    "extract",
    "is_trivial",
    "store_facts",
]
