"""Conversation context: exchanges near a match inherit a share of it, less with distance."""

from __future__ import annotations

from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.model import CHAT_EXCHANGE

TURNS = [
    "Check out the painting I finished for the art show!",
    "Wow, the colours are so vivid.",
    "Thanks! I did the lake at sunrise last summer.",
    "Anyway, how is your week going?",
]


async def test_a_match_reaches_two_exchanges_each_way_halving(tmp_path: Path) -> None:
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    try:
        for n, said in enumerate(TURNS, start=1):
            await brain.upsert_entity(
                CHAT_EXCHANGE,
                f"t{n}",
                {"session_id": "s-1", "exchange_number": n, "user_message": said},
                description=f"User: {said} | AI: ",
            )
        hits = await brain.search("painting for the art show", 10, entity_types=[CHAT_EXCHANGE])
        score = {h.entity.name: h.score for h in hits}
        assert set(score) == {"t1", "t2", "t3"}  # t4 is three away
        assert score["t1"] > score["t2"] > score["t3"] > 0
        assert score["t2"] == 2 * score["t3"]  # half the match one away, a quarter two away
        assert [h.retrievers for h in hits[1:]] == [("context",), ("context",)]
    finally:
        await brain.close()
