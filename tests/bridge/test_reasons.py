"""Reasons a person can trust: each says what the bridge saw and did, never a match it
did not load, and a pass-through says why its signs were not enough."""

from __future__ import annotations

from brainbridge.bridge import Bridge
from brainbridge.model import Judgment


async def test_a_pass_through_says_why_its_signs_did_not_carry_it(bridge: Bridge) -> None:
    result = await bridge.enrich(
        "ok what's the most honest way to present the runway on that slide", None
    )

    assert result.judgment is Judgment.PASS_THROUGH
    assert any("which the brain knows" in r for r in result.reasons)
    assert "passed through" in result.reasons[-1]


async def test_nothing_loaded_is_never_told_as_a_match(bridge: Bridge) -> None:
    message = "let's pick up where we left off on the toast"
    first = await bridge.enrich(message, "s1")
    again = await bridge.enrich(message, "s1")

    assert first.judgment is Judgment.ENRICH and first.loaded
    assert again.judgment is Judgment.PASS_THROUGH and not again.loaded
    said = " ; ".join(again.reasons)
    assert "best match" not in said and "close match" not in said
    assert "holds nothing that matches" not in said
    assert "previous turn" in again.reasons[-1]


async def test_a_question_on_a_topic_is_not_told_as_one_about_the_users_life(
    bridge: Bridge,
) -> None:
    result = await bridge.enrich(
        "I think the standup could be shorter, what do you think about meetings in general?", None
    )

    assert not any("own life" in r for r in result.reasons), result.reasons
