"""The bundled sample brain (`data/sample/`): a small startup and its past chats."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

import yaml

from brainbridge.model import CHAT_EXCHANGE

if TYPE_CHECKING:
    from brainbridge.brain import Brain

# Checked by the demo so it never pours the sample into someone's real brain.
MARKER = ("Project", "Atlas")


@dataclass(frozen=True)
class SampleCounts:
    entities: int
    exchanges: int
    relations: int


def read_sample(name: str) -> dict[str, Any]:
    """One YAML file of the bundled sample."""
    text = (resources.files("brainbridge") / "data" / "sample" / name).read_text("utf-8")
    return yaml.safe_load(text)


def exchange_row(
    session_id: str, number: int, user: str, ai: str
) -> tuple[str, str, str, dict[str, Any]]:
    """A Chat_Exchange as (type, name, description, attributes), as the bridge stores one."""
    return (
        CHAT_EXCHANGE,
        f"{session_id[:8]}:ex:{number}",
        f"User: {user[:300]} | AI: {ai[:500]}",
        {
            "session_id": session_id,
            "exchange_number": number,
            "user_message": user[:1000],
            "ai_response": ai[:2000],
        },
    )


def _ref(text: str) -> tuple[str, str]:
    etype, _, name = text.partition(":")
    return etype, name


async def load_sample(brain: Brain) -> SampleCounts:
    """Write the sample's entities, exchanges and relations into `brain` (idempotent).

    Raises: SchemaError if the brain's entity types lack a sample type.
    """
    knowledge, chats = read_sample("knowledge.yaml"), read_sample("chats.yaml")
    rows: list[tuple[str, str, str | None, dict[str, Any] | None]] = [
        (e["type"], e["name"], e.get("description"), e.get("attributes") or {})
        for e in knowledge["entities"]
    ]
    links: list[tuple[tuple[str, str], str, tuple[str, str]]] = [
        (_ref(src), rel, _ref(dst)) for src, rel, dst in knowledge["relations"]
    ]
    exchanges = 0
    for session in chats["sessions"]:
        for number, turn in enumerate(session["exchanges"], start=1):
            row = exchange_row(session["id"], number, turn["user"], turn["ai"])
            rows.append(row)
            exchanges += 1
            links += [((row[0], row[1]), "mentions", _ref(m)) for m in turn.get("mentions", [])]
    await brain.upsert_many(rows)
    for src, rel, dst in links:
        await brain.relate(src, rel, dst)
    return SampleCounts(len(rows) - exchanges, exchanges, len(links))
