"""Conversation context: a chat exchange is read together with the exchanges beside it.

A question and the reply that answers it often sit in neighbouring exchanges
("what did you name her?" / "Tilly, after my childhood dog"): the words of the
query land on one, the fact on the other. An exchange next to one that matches
the query therefore inherits a share of that match.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from brainbridge.model import CHAT_EXCHANGE, Entity
from brainbridge.store.sqlite.store import SqliteStore

# Exchanges are named "{session_id[:8]}:ex:{n}" (DESIGN.md), so neighbours are found by name.
_EXCHANGE_NAME = re.compile(r"^(?P<session>.+):ex:(?P<n>\d+)$")


def adjacent_names(name: str) -> list[str]:
    """Names of the exchanges just before and after `name` in its session."""
    m = _EXCHANGE_NAME.match(name)
    if m is None:
        return []
    n = int(m["n"])
    return [f"{m['session']}:ex:{i}" for i in (n - 1, n + 1) if i >= 0]


def conversation_context(
    store: SqliteStore,
    text_scores: Mapping[int, float],
    entities: dict[int, Entity],
    weight: float,
) -> dict[int, tuple[float, list[int]]]:
    """{exchange id: (inherited score, ids of the neighbours it came from)}.

    Neighbours that were not yet loaded are added to `entities`.
    """
    out: dict[int, tuple[float, list[int]]] = {}
    if weight <= 0:
        return out
    by_name = {(e.type, e.name): e for e in entities.values()}
    for eid, score in text_scores.items():
        ent = entities.get(eid)
        if ent is None or ent.type != CHAT_EXCHANGE or score <= 0:
            continue
        for name in adjacent_names(ent.name):
            near = by_name.get((CHAT_EXCHANGE, name))
            if near is None:
                near = store.get_entity(CHAT_EXCHANGE, name)
                if near is None:
                    continue
                by_name[(CHAT_EXCHANGE, name)] = entities[near.id] = near
            inherited, sources = out.get(near.id, (0.0, []))
            out[near.id] = (inherited + weight * score, [*sources, eid])
    return out
