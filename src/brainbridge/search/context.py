"""Conversation context: a chat exchange is read together with the exchanges beside it.

A question and the reply that answers it often sit in neighbouring exchanges
("what did you name her?" / "Tilly, after my childhood dog"): the words of the
query land on one, the fact on the other. An exchange next to one that matches
the query therefore inherits a share of that match.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from brainbridge.model import CHAT_EXCHANGE
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
    heads: Mapping[int, tuple[str, str]],
    weight: float,
) -> dict[int, tuple[float, list[int]]]:
    """{exchange id: (inherited score, ids of the neighbours it came from)}.

    `heads` holds (type, name) of the scored ids; neighbours are found by name.
    """
    out: dict[int, tuple[float, list[int]]] = {}
    if weight <= 0:
        return out
    sources = [
        (eid, score, adjacent_names(head[1]))
        for eid, score in text_scores.items()
        if (head := heads.get(eid)) is not None and head[0] == CHAT_EXCHANGE and score > 0
    ]
    ids = {name: eid for eid, (etype, name) in heads.items() if etype == CHAT_EXCHANGE}
    ids.update(
        store.ids_named(CHAT_EXCHANGE, [n for *_, ns in sources for n in ns if n not in ids])
    )
    for eid, score, names in sources:
        for name in names:
            near = ids.get(name)
            if near is None:
                continue
            inherited, came_from = out.get(near, (0.0, []))
            out[near] = (inherited + weight * score, [*came_from, eid])
    return out
