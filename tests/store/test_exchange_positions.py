"""Exchanges found by their place in a conversation (session, number), as context reads them."""

from __future__ import annotations

from brainbridge.brain import Brain
from brainbridge.model import CHAT_EXCHANGE


async def test_positions_near_and_far_apart_find_their_exchanges(brain: Brain) -> None:
    rows = [
        (CHAT_EXCHANGE, f"{s}:ex:{n}", f"turn {n}", {"session_id": s, "exchange_number": n})
        for s, numbers in (("s-a", (1, 2, 3, 5, 9, 40)), ("s-b", (2, 3)))
        for n in numbers
    ]
    # A second exchange at a taken position (an import, say): the first stored stands for it.
    rows.append(
        (CHAT_EXCHANGE, "s-a:copy:3", "turn 3 again", {"session_id": "s-a", "exchange_number": 3})
    )
    await brain.upsert_many(rows)
    store = brain.store
    ids = store.ids_named(CHAT_EXCHANGE, [r[1] for r in rows])
    wanted = [("s-a", n) for n in (0, 1, 3, 4, 5, 7, 9, 40, 41)] + [("s-b", 3), ("s-c", 3)]

    found = await brain._run(store.exchanges_at, wanted)

    assert found == {
        ("s-a", 1): ids["s-a:ex:1"],
        ("s-a", 3): ids["s-a:ex:3"],
        ("s-a", 5): ids["s-a:ex:5"],
        ("s-a", 9): ids["s-a:ex:9"],
        ("s-a", 40): ids["s-a:ex:40"],
        ("s-b", 3): ids["s-b:ex:3"],
    }
