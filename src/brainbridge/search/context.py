"""Conversation context: a chat exchange is read together with the exchanges beside it.

A question and the reply that answers it often sit in neighbouring exchanges
("what did you name her?" / "Tilly, after my childhood dog"): the words of the
query land on one, the fact on the other, and a topic runs over a few turns
("check out my painting" / "wow, the colours!" / "I painted that lake sunrise last
year"). An exchange up to `REACH` positions from one that matches the query therefore
inherits a share of that match, halved with each step away. Neighbours are found by
what an exchange is (its session and position), whatever it is named.
"""

from __future__ import annotations

from collections.abc import Mapping

from brainbridge.bounds import MAX_STORED
from brainbridge.ports import Store

# How far a match reaches: two positions measured +0.02 turn recall@10 over one on the
# LoCoMo conversations tuned on (docs/benchmarks.md).
REACH = 2


def adjacent(position: tuple[str, int], reach: int = REACH) -> list[tuple[str, int]]:
    """The positions up to `reach` before and after `position` in its session."""
    session, n = position
    # Only positions a database can hold: a number stored out of range (before the edge
    # bounded them) must not break every search that matches it.
    return [
        (session, i) for d in range(1, reach + 1) for i in (n - d, n + d) if 0 <= i <= MAX_STORED
    ]


def conversation_context(
    store: Store,
    text_scores: Mapping[int, float],
    weight: float,
    reach: int = REACH,
) -> dict[int, tuple[float, list[int]]]:
    """{exchange id: (inherited score, ids of the neighbours it came from)}: `weight`
    of a match's score one position away, half that two away, and so on."""
    out: dict[int, tuple[float, list[int]]] = {}
    if weight <= 0 or reach <= 0:
        return out
    matched = [eid for eid, score in text_scores.items() if score > 0]
    if not matched:
        return out
    # Only exchanges have a position: reading them is the type check too.
    where = store.exchange_positions(matched)
    ids = store.exchanges_at(p for pos in where.values() for p in adjacent(pos, reach))
    for eid, pos in where.items():
        for near_pos in adjacent(pos, reach):
            near = ids.get(near_pos)
            if near is None or near == eid:
                continue
            inherited, came_from = out.get(near, (0.0, []))
            share = weight / 2 ** (abs(near_pos[1] - pos[1]) - 1) * text_scores[eid]
            out[near] = (inherited + share, [*came_from, eid])
    return out
