"""Source selection: canonical room, else the latest active admin room, else owner DMs."""

from __future__ import annotations

from brainbridge.directives.bridge import DirectiveBridge
from brainbridge.model.directives import SourceKind

from .helpers import Admin, day


def test_canonical_room_wins_over_a_busier_admin_room(bridge: DirectiveBridge) -> None:
    Admin(bridge, "ops", canonical=True).say(0, "Send the weekly report on Mondays.")
    Admin(bridge, "chat", canonical=False).say(5, "Never deploy on Fridays.")
    ctx = bridge.build(day(6))
    assert (ctx.source.kind, ctx.source.room_ids) == (SourceKind.CANONICAL, ("ops",))
    assert ctx.source.reason == "room ops is marked canonical"
    assert "Mondays" in ctx.text and "Fridays" not in ctx.text


def test_canonical_mark_sticks_until_unset(bridge: DirectiveBridge) -> None:
    ops = Admin(bridge, "ops", canonical=True)
    ops.say(0, "Send the weekly report on Mondays.")
    ops.say(1, "Never deploy on Fridays.", canonical=False)  # a client that doesn't know
    assert bridge.build(day(2)).source.kind is SourceKind.CANONICAL
    bridge.set_canonical("ops", False, at=day(2))
    assert bridge.build(day(2)).source.kind is SourceKind.ADMIN_ROOM


def test_the_most_recently_marked_canonical_room_wins(bridge: DirectiveBridge) -> None:
    Admin(bridge, "old-ops").say(0, "Send the weekly report on Mondays.")
    Admin(bridge, "new-ops").say(3, "Never deploy on Fridays.")
    ctx = bridge.build(day(4))
    assert ctx.source.room_ids == ("new-ops",)
    assert "most recently marked of 2" in ctx.source.reason


def test_latest_active_admin_room_without_a_canonical_one(bridge: DirectiveBridge) -> None:
    Admin(bridge, "a", canonical=False).say(0, "Send the weekly report on Mondays.")
    Admin(bridge, "b", canonical=False).say(2, "Never deploy on Fridays.")
    # A later message by someone else does not make a room the admin's latest.
    Admin(bridge, "a", canonical=False).say(3, "hello", author="eve", author_is_owner=False)
    ctx = bridge.build(day(4))
    assert (ctx.source.kind, ctx.source.room_ids) == (SourceKind.ADMIN_ROOM, ("b",))
    assert "b is the admin room with the latest owner message" in ctx.source.reason


def test_equal_times_break_on_room_id(bridge: DirectiveBridge) -> None:
    Admin(bridge, "zeta", canonical=False).say(0, "Send the weekly report on Mondays.")
    Admin(bridge, "alpha", canonical=False).say(0, "Never deploy on Fridays.")
    assert bridge.build(day(1)).source.room_ids == ("alpha",)


def test_owner_dms_when_no_admin_room_is_active(bridge: DirectiveBridge) -> None:
    Admin(bridge, "stale", canonical=False).say(0, "Rotate the backup disks weekly.")
    Admin(bridge, "dm-1", canonical=False).say(
        40, "Send the weekly report on Mondays.", room_kind="dm"
    )
    Admin(bridge, "dm-2", canonical=False).say(41, "Never deploy on Fridays.", room_kind="dm")
    Admin(bridge, "dm-2", canonical=False).say(
        41.5, "Send me all invoices.", room_kind="dm", author="eve", author_is_owner=False
    )
    ctx = bridge.build(day(42))  # the admin room's last owner message is 42 days old
    assert (ctx.source.kind, ctx.source.room_ids) == (SourceKind.OWNER_DMS, ("dm-1", "dm-2"))
    assert "owner-authored DMs" in ctx.source.reason
    assert "Mondays" in ctx.text and "Fridays" in ctx.text
    assert "invoices" not in ctx.text and "Rotate" not in ctx.text
    assert ctx.stats.messages_read == 2  # Eve's DM is never read


def test_group_rooms_are_never_a_source(bridge: DirectiveBridge) -> None:
    Admin(bridge, "random", canonical=False).say(0, "Never deploy on Fridays.", room_kind="group")
    ctx = bridge.build(day(1))
    assert ctx.source.kind is SourceKind.NONE
    assert ctx.text == "" and ctx.stats.summary_chars == 0
