"""Guidance over time: stated starts and ends, replacement from a later day, hand-back,
and replacements that name their target by topic."""

from __future__ import annotations

from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from brainbridge.directives.bridge import DirectiveBridge
from brainbridge.embed import load_embedder
from brainbridge.model.directives import DirectiveConfig, State
from brainbridge.store.sqlite.db import connect
from brainbridge.store.sqlite.directives import SqliteDirectiveStore

from .helpers import Admin, day

# day(0) is Sunday 2026-11-01, 09:00 UTC.
BERLIN = DirectiveConfig(timezone=ZoneInfo("Europe/Berlin"))


@pytest.fixture
def admin(tmp_path: Path) -> Admin:
    return Admin(DirectiveBridge(SqliteDirectiveStore(connect(tmp_path / "b.db")), BERLIN))


def states(admin: Admin, when: float) -> dict[int, State]:
    return {i.id: i.state for i in admin.bridge.build(day(when)).items}


def test_a_rule_that_starts_later_is_scheduled_then_active(admin: Admin) -> None:
    rule = admin.say(2, "Starting Monday, expense claims go to the new tool.")  # Tue 3 Nov
    ctx = admin.bridge.build(day(3))
    assert states(admin, 3)[rule.id] is State.SCHEDULED
    assert "starts Mon 2026-11-09" in ctx.text
    assert "expense claims" not in ctx.text.split("Continuity")[0]
    assert states(admin, 8.5)[rule.id] is State.ACTIVE  # Monday evening


def test_a_rule_with_an_end_holds_through_that_day_then_expires(admin: Admin) -> None:
    rule = admin.say(2, "Until Friday, route all billing questions to Sam.")
    active = admin.bridge.build(day(5.5))  # Friday 21:00 UTC, 22:00 in Berlin
    assert "until Fri 2026-11-06" in active.text
    ctx = admin.bridge.build(day(6))  # Saturday
    assert states(admin, 6)[rule.id] is State.EXPIRED
    assert f"#{rule.id} expired: ended Fri 2026-11-06" in ctx.text


def test_the_end_is_the_end_of_the_day_in_the_brains_timezone(tmp_path: Path) -> None:
    tokyo = DirectiveConfig(timezone=ZoneInfo("Asia/Tokyo"))
    admin = Admin(DirectiveBridge(SqliteDirectiveStore(connect(tmp_path / "t.db")), tokyo))
    rule = admin.say(2, "Until Friday, route all billing questions to Sam.")
    # Friday 21:00 UTC is already Saturday 06:00 in Tokyo.
    assert states(admin, 5.5)[rule.id] is State.EXPIRED


def test_a_bounded_replacement_hands_the_old_rule_back_when_it_ends(admin: Admin) -> None:
    old = admin.say(1, "Route billing questions to Max.")
    new = admin.say(2, "Until Friday, route billing questions to Sam instead.")
    assert states(admin, 3) == {old.id: State.SUPERSEDED, new.id: State.ACTIVE}
    ctx = admin.bridge.build(day(7))
    assert {i.id: i.state for i in ctx.items} == {old.id: State.ACTIVE, new.id: State.EXPIRED}
    assert "back in force" in next(i.note for i in ctx.items if i.id == old.id)


def test_a_replacement_from_a_later_start_leaves_the_old_rule_until_then(admin: Admin) -> None:
    old = admin.say(1, "Design reviews happen on Tuesdays.")
    new = admin.say(2, "Beginning next week, design reviews happen on Wednesdays.")
    ctx = admin.bridge.build(day(3))
    assert {i.id: i.state for i in ctx.items} == {old.id: State.ACTIVE, new.id: State.SCHEDULED}
    assert f"until #{new.id} takes over on Mon 2026-11-09" in ctx.text
    assert states(admin, 9) == {old.id: State.SUPERSEDED, new.id: State.ACTIVE}


def test_till_further_notice_does_not_go_stale(admin: Admin) -> None:
    frozen = admin.say(1, "Keep the code freeze in place till further notice.")
    plain = admin.say(1, "Keep the staging cluster under 12 nodes.")
    assert states(admin, 40) == {frozen.id: State.ACTIVE, plain.id: State.EXPIRED}


def test_a_replacement_names_its_target_by_topic(admin: Admin) -> None:
    fridays = admin.say(1, "Never deploy on Fridays.")
    report = admin.say(1, "Send the weekly report to Alice every Monday.")
    new = admin.say(3, "Forget the earlier rule about Friday releases, ship whenever CI is green.")
    ctx = admin.bridge.build(day(4))
    got = {i.id: i.state for i in ctx.items}
    assert got == {fridays.id: State.SUPERSEDED, report.id: State.ACTIVE, new.id: State.ACTIVE}
    assert f"#{fridays.id} superseded by #{new.id}" in ctx.text


def test_a_cancellation_finds_its_rule_by_topic(admin: Admin) -> None:
    rule = admin.say(1, "Through the end of the month, nothing ships on Fridays.")
    admin.say(2, "Drop the Friday freeze.")
    assert states(admin, 3)[rule.id] is State.COMPLETED


def test_an_unclear_target_is_a_conflict_not_a_guess(admin: Admin) -> None:
    a = admin.say(1, "Post the release notes in #general.")
    b = admin.say(1, "Post the meeting notes in #team.")
    new = admin.say(2, "Forget the earlier rule about notes, keep them in the wiki.")
    ctx = admin.bridge.build(day(3))
    assert {i.id: i.state for i in ctx.items} == {
        a.id: State.ACTIVE,
        b.id: State.ACTIVE,
        new.id: State.ACTIVE,
    }
    item = next(i for i in ctx.items if i.id == new.id)
    assert item.conflict == f"may replace #{a.id} or #{b.id} (unclear which; both kept)"
    assert ctx.stats.conflicts == 1


def test_with_an_embedder_a_replacement_finds_its_rule_by_meaning(tmp_path: Path) -> None:
    bridge = DirectiveBridge(
        SqliteDirectiveStore(connect(tmp_path / "m.db")),
        BERLIN,
        embedder=lambda: load_embedder("minilm"),
    )
    admin = Admin(bridge)
    weekend = admin.say(1, "Never deploy on Saturdays or Sundays.")
    other = admin.say(1, "Answer German customers in German.")
    new = admin.say(2, "Scrap the old rule about weekend deployments.")
    assert states(admin, 3)[weekend.id] is State.COMPLETED
    assert states(admin, 3)[other.id] is State.ACTIVE
    assert new.classification.category.value == "completion"


def test_a_rules_time_bound_is_not_its_topic_and_an_unclear_target_is_shown(
    admin: Admin,
) -> None:
    fridays = admin.say(1, "Never deploy on Fridays.")
    sam = admin.say(1, "Until Friday, route billing questions to Sam.")
    new = admin.say(
        1.5, "Forget the earlier rule about Friday releases, ship whenever CI is green."
    )
    assert states(admin, 2) == {
        fridays.id: State.SUPERSEDED,
        sam.id: State.ACTIVE,
        new.id: State.ACTIVE,
    }
    a = admin.say(2, "Post the release notes in #general.")
    b = admin.say(2, "Post the meeting notes in #team.")
    unclear = admin.say(2.5, "Forget the earlier rule about notes, keep them in the wiki.")
    text = admin.bridge.build(day(3)).text
    assert (
        f"[#{unclear.id}; CONFLICT: may replace #{a.id} or #{b.id} (unclear which; both kept)]"
        in text
    )


def test_a_rival_below_the_floor_does_not_make_the_target_unclear(tmp_path: Path) -> None:
    bridge = DirectiveBridge(
        SqliteDirectiveStore(connect(tmp_path / "r.db")),
        BERLIN,
        embedder=lambda: load_embedder("minilm"),
    )
    admin = Admin(bridge)
    fridays = admin.say(1, "Never deploy on Fridays.")
    # Close in meaning to "Friday releases" (a weekday, a process), but not the rule meant.
    reviews = admin.say(1, "Design reviews happen on Wednesdays.")
    new = admin.say(2, "Forget the earlier rule about Friday releases, ship whenever CI is green.")
    ctx = bridge.build(day(3))
    assert {i.id: i.state for i in ctx.items} == {
        fridays.id: State.SUPERSEDED,
        reviews.id: State.ACTIVE,
        new.id: State.ACTIVE,
    }
    assert "may replace" not in ctx.text
