"""The store reads the curator relies on."""

from __future__ import annotations

from .conftest import seed


async def test_session_exchanges_are_in_numeric_order_and_only_the_sessions_own(brain) -> None:
    turns = [(f"user says thing number {n}", f"ai answers thing {n}") for n in range(1, 13)]
    await seed(brain, "abcdefgh-one", turns)
    # Same 8-character name prefix (exchange numbers apart: equal names would collide).
    await seed(brain, "abcdefgh-two", turns[:3], start=20)

    rows = await brain._run(brain.sessions.session_exchanges, "abcdefgh-one")
    assert [r.attributes["exchange_number"] for r in rows] == list(range(1, 13))
    assert {r.attributes["session_id"] for r in rows} == {"abcdefgh-one"}

    latest = await brain._run(brain.sessions.session_exchanges, "abcdefgh-one", 4)
    assert [r.attributes["exchange_number"] for r in latest] == [9, 10, 11, 12]
    assert await brain._run(brain.sessions.session_exchanges, "nothing") == []


async def test_session_ids_with_prefix_match_literally(brain) -> None:
    for sid in ("a_1", "ab1", "A_2", "x%y"):
        await brain._run(brain.sessions.ensure, sid)

    assert await brain._run(brain.sessions.session_ids_with_prefix, "a_") == ["a_1"]
    assert await brain._run(brain.sessions.session_ids_with_prefix, "x%") == ["x%y"]
    assert await brain._run(brain.sessions.session_ids_with_prefix, "%") == []
    assert sorted(await brain._run(brain.sessions.session_ids_with_prefix, "")) == sorted(
        ["a_1", "ab1", "A_2", "x%y"]
    )
