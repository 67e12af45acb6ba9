"""Facts over time: invalidate, as_of and superseded through the facade."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from tests.pg import backend  # noqa: F401  (this module runs on both backends)

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import InvalidInput, NotFound
from brainbridge.model import Entity, no_longer_holds


async def _venues(brain: Brain) -> None:
    await brain.upsert_entity(
        "Fact",
        "Offsite venue: room Tejo",
        {
            "subject": "Offsite",
            "predicate": "venue",
            "value": "room Tejo",
            "valid_from": "2026-10-01",
        },
        description="The offsite venue is room Tejo in the Lisbon office.",
    )
    await brain.upsert_entity(
        "Fact",
        "Offsite venue: Hotel Avenida",
        {
            "subject": "Offsite",
            "predicate": "venue",
            "value": "Hotel Avenida",
            "valid_from": "2026-10-27",
        },
        description="The offsite venue is the main hall of the Hotel Avenida.",
    )
    await brain.invalidate(("Fact", "Offsite venue: room Tejo"), on="2026-10-27")


def _names(hits: list) -> set[str]:
    return {h.entity.name for h in hits}


async def test_search_holds_what_is_true_now_then_or_ever(brain: Brain) -> None:
    await _venues(brain)
    now = _names(await brain.search("offsite venue", 5))
    then = _names(await brain.search("offsite venue", 5, as_of="2026-10-15"))
    ever = _names(await brain.search("offsite venue", 5, superseded=True))
    assert now == {"Offsite venue: Hotel Avenida"}
    assert then == {"Offsite venue: room Tejo"}  # the hotel was not the venue yet
    assert ever == {"Offsite venue: Hotel Avenida", "Offsite venue: room Tejo"}
    old = await brain.get_entity("Fact", "Offsite venue: room Tejo")
    assert old.attributes["valid_to"] == "2026-10-27" and old.attributes["superseded_by"] == "user"
    recalled = await brain.recall("offsite venue", 5, as_of="2026-10-15")
    assert [r["name"] for r in recalled["results"]] == ["Offsite venue: room Tejo"]


async def test_bad_dates_and_unknown_names_are_clear_errors(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Kevin Lee")
    with pytest.raises(InvalidInput, match="not a date"):
        await brain.search("anything", as_of="next tuesday")
    with pytest.raises(NotFound, match="did you mean 'Kevin Lee'"):
        await brain.resolve("Kevin Leigh")


async def _lead_changed(home: Path) -> None:
    """A brain told who the engineering lead is, then that someone else takes over."""
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        bridge = Bridge(brain)
        told = [
            ("My project is the onboarding revamp; the engineering lead is Kwame.", 10, 1),
            ("Kwame is leaving; Aisha will take over as engineering lead.", 11, 12),
        ]
        for n, (user, month, day) in enumerate(told, start=1):
            await bridge.observe_now("s1", n, user, "Noted.", today=date(2026, month, day))
        await bridge.drain()


def test_what_no_longer_holds_is_said_briefly_and_by_whom() -> None:
    # The review: a long replaced part hid "by <name>" once clipped, and an invalidation
    # read "by user", a name nobody can open.
    long = Entity(
        1, "Chat_Exchange", "s1:ex:1", "", {"superseded_by": "s2:ex:1", "valid_to": "2026-10-01"}
    )
    long.attributes["superseded_part"] = "the standup is on Mondays " * 40
    gone = no_longer_holds(long)
    assert gone.endswith('…" superseded on 2026-10-01 by s2:ex:1') and len(gone) < 220
    mine = Entity(2, "Fact", "Office", "", {"superseded_by": "user", "valid_to": "2026-10-02"})
    assert no_longer_holds(mine) == "superseded on 2026-10-02 by the user"
    assert no_longer_holds(Entity(3, "Fact", "Now", "", {})) == ""
