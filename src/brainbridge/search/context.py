"""Conversation context: a chat exchange is read together with the exchanges beside it.

A question and the reply that answers it often sit in neighbouring exchanges
("what did you name her?" / "Tilly, after my childhood dog"): the words of the
query land on one, the fact on the other. An exchange next to one that matches
the query therefore inherits a share of that match. Neighbours are found by what an
exchange is (its session and position), whatever it is named.
"""

from __future__ import annotations

from collections.abc import Mapping

from brainbridge.model import CHAT_EXCHANGE
from brainbridge.ports import Store


def adjacent(position: tuple[str, int]) -> list[tuple[str, int]]:
    """The positions just before and after `position` in its session."""
    session, n = position
    return [(session, i) for i in (n - 1, n + 1) if i >= 0]


def conversation_context(
    store: Store,
    text_scores: Mapping[int, float],
    heads: Mapping[int, tuple[str, str]],
    weight: float,
) -> dict[int, tuple[float, list[int]]]:
    """{exchange id: (inherited score, ids of the neighbours it came from)}.

    `heads` holds (type, name) of the scored ids.
    """
    out: dict[int, tuple[float, list[int]]] = {}
    if weight <= 0:
        return out
    matched = [
        eid
        for eid, score in text_scores.items()
        if score > 0 and (head := heads.get(eid)) is not None and head[0] == CHAT_EXCHANGE
    ]
    if not matched:
        return out
    where = store.exchange_positions(matched)
    ids = store.exchanges_at(p for pos in where.values() for p in adjacent(pos))
    for eid, pos in where.items():
        for near_pos in adjacent(pos):
            near = ids.get(near_pos)
            if near is None or near == eid:
                continue
            inherited, came_from = out.get(near, (0.0, []))
            out[near] = (inherited + weight * text_scores[eid], [*came_from, eid])
    return out
