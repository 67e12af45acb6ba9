"""Which conversation the guidance is read from: deterministic, with the reason recorded."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from brainbridge.model.directives import DirectiveConfig, RoomInfo, RoomKind, Source, SourceKind

_NEVER = datetime.min.replace(tzinfo=UTC)


def select_source(rooms: list[RoomInfo], now: datetime, config: DirectiveConfig) -> Source:
    """Pick the source: the canonical room, else the latest active admin room, else owner DMs.

    Ties break on the room id (ascending), so the same rooms always give the same source.
    """
    canonical = [r for r in rooms if r.canonical]
    if canonical:
        chosen = _latest(canonical, lambda r: r.canonical_since)
        why = f"room {chosen.id} is marked canonical"
        if len(canonical) > 1:
            why += f" (the most recently marked of {len(canonical)} canonical rooms)"
        return Source(SourceKind.CANONICAL, (chosen.id,), why)

    since = now - config.active_window
    active = [
        r
        for r in rooms
        if r.kind is RoomKind.ADMIN
        and r.last_owner_message_at is not None
        and since <= r.last_owner_message_at <= now
    ]
    if active:
        chosen = _latest(active, lambda r: r.last_owner_message_at)
        last = chosen.last_owner_message_at
        assert last is not None
        return Source(
            SourceKind.ADMIN_ROOM,
            (chosen.id,),
            f"no canonical room; {chosen.id} is the admin room with the latest owner message"
            f" ({last.strftime('%Y-%m-%d %H:%M')} UTC, {len(active)} active in the last"
            f" {config.active_window.days} days)",
        )

    dms = tuple(
        sorted(
            r.id
            for r in rooms
            if r.kind is RoomKind.DM
            and r.last_owner_message_at is not None
            and r.last_owner_message_at >= now - config.retention
        )
    )
    if dms:
        return Source(
            SourceKind.OWNER_DMS,
            dms,
            f"no canonical room and no admin room active in the last {config.active_window.days}"
            f" days; reading the {config.dm_limit} most recent owner-authored DMs"
            f" ({len(dms)} DM rooms)",
        )
    return Source(
        SourceKind.NONE,
        (),
        "no canonical room, no active admin room and no owner-authored DMs",
    )


def _latest(rooms: list[RoomInfo], when: Callable[[RoomInfo], datetime | None]) -> RoomInfo:
    # Latest first; Python's sort is stable even when reversed, so equal times keep
    # the ascending id order of the first sort.
    by_id = sorted(rooms, key=lambda r: r.id)
    return sorted(by_id, key=lambda r: when(r) or _NEVER, reverse=True)[0]
