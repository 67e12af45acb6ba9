"""Value types of the directive bridge: messages, classifications, items, the built context."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from enum import StrEnum
from typing import Any, Protocol

from brainbridge.errors import InvalidInput
from brainbridge.when import Calendar


class RoomKind(StrEnum):
    """Where a message was said. Only admin rooms and owner DMs can be a source."""

    ADMIN = "admin"  # a conversation between the agent and its admin
    DM = "dm"  # a direct message thread
    GROUP = "group"  # anything else; never a source of guidance


class Category(StrEnum):
    """What a message is, as far as standing guidance goes."""

    DIRECTIVE = "directive"  # an explicit instruction ("always…", "never…", "send…")
    OBJECTIVE = "objective"  # an operational goal still to reach ("we need X by Friday")
    ROLE = "role"  # who someone is ("Alice is our accountant")
    TRUST = "trust"  # whom to trust ("don't act on requests from Mallory")
    CONTACT = "contact"  # how to reach someone: personal identifiers, off by default
    COMPLETION = "completion"  # an earlier directive or objective is done or cancelled
    GREETING = "greeting"
    ACK = "ack"
    CHITCHAT = "chitchat"


GUIDANCE = frozenset({Category.DIRECTIVE, Category.OBJECTIVE})
NOISE = frozenset({Category.GREETING, Category.ACK, Category.CHITCHAT})
ROLODEX = frozenset({Category.ROLE, Category.TRUST, Category.CONTACT})
DEFAULT_ALLOWED = frozenset({Category.DIRECTIVE, Category.OBJECTIVE, Category.ROLE, Category.TRUST})


class State(StrEnum):
    SCHEDULED = "scheduled"  # stated with a start that has not come yet
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    COMPLETED = "completed"


class SourceKind(StrEnum):
    CANONICAL = "canonical"
    ADMIN_ROOM = "admin_room"
    OWNER_DMS = "owner_dms"
    NONE = "none"


def utc(ts: datetime, what: str = "timestamp") -> datetime:
    """`ts` in UTC.

    Raises: InvalidInput for a naive datetime (its zone would be a guess).
    """
    if ts.tzinfo is None or ts.utcoffset() is None:
        raise InvalidInput(f"{what} {ts.isoformat()} has no time zone; pass an aware datetime")
    return ts.astimezone(UTC)


@dataclass(frozen=True)
class Classification:
    """A category for one message, with the reason and who decided (rules or the LLM)."""

    category: Category
    reason: str
    priority: int = 0  # 0 normal, 1 high ("never", "must", "urgent", "!")
    by: str = "rules"


@dataclass(frozen=True)
class Message:
    """One stored chat message with its room metadata and classification."""

    id: int
    room_id: str
    room_kind: RoomKind
    canonical: bool
    author: str
    author_is_owner: bool
    at: datetime
    text: str
    classification: Classification


@dataclass(frozen=True)
class MessageLabel:
    """A message without its text: what a build needs to account for one it skips."""

    id: int
    author: str
    author_is_owner: bool
    category: Category
    reason: str


@dataclass(frozen=True)
class RoomInfo:
    """A room as source selection sees it."""

    id: str
    kind: RoomKind
    canonical: bool
    canonical_since: datetime | None
    last_owner_message_at: datetime | None


@dataclass(frozen=True)
class Source:
    """Which conversation the guidance was read from, and why that one."""

    kind: SourceKind
    room_ids: tuple[str, ...]
    reason: str

    @property
    def label(self) -> str:
        if self.kind is SourceKind.OWNER_DMS:
            return f"owner DMs ({len(self.room_ids)} rooms)"
        if self.kind is SourceKind.NONE:
            return "none"
        return f"{'canonical' if self.kind is SourceKind.CANONICAL else 'admin'} room {self.room_ids[0]}"


@dataclass(frozen=True)
class Budget:
    """Character budgets of the rendered context; the total is their sum."""

    directives: int = 700
    identity: int = 300
    continuity: int = 200
    item_max: int = 220  # one item longer than this is clipped, so one essay can't starve the rest

    def __post_init__(self) -> None:
        if min(self.directives, self.identity, self.continuity) < 0 or self.item_max < 20:
            raise InvalidInput("directive budgets must be >= 0 and item_max >= 20")

    @property
    def total(self) -> int:
        return self.directives + self.identity + self.continuity


@dataclass(frozen=True)
class DirectiveConfig:
    """Policy knobs; every one has a default that works."""

    expiry: timedelta = timedelta(days=14)  # active guidance not restated this long expires
    retention: timedelta = timedelta(days=90)  # older messages are not read at all (rolodex aside)
    active_window: timedelta = timedelta(days=30)  # an admin room is "active" within this
    dm_limit: int = 200  # most recent owner DMs read when no room qualifies
    budget: Budget = field(default_factory=Budget)
    allowed: frozenset[Category] = DEFAULT_ALLOWED
    # The brain's timezone: "until Friday" ends when Friday ends there (None: this machine's).
    timezone: tzinfo | None = None
    calendar: Calendar = field(default_factory=Calendar)  # what "next sprint" means

    def day(self, at: datetime) -> date:
        """The calendar day `at` falls on in the brain's timezone."""
        return at.astimezone(self.timezone).date()

    def __post_init__(self) -> None:
        if self.expiry <= timedelta(0) or self.retention <= timedelta(0) or self.dm_limit < 1:
            raise InvalidInput("expiry and retention must be positive and dm_limit >= 1")


@dataclass(frozen=True)
class Item:
    """A message kept as guidance, with the state it has reached at build time."""

    message: Message
    state: State
    last_seen: datetime  # the message itself or its latest restatement
    note: str = ""  # why the state (superseded by #n: …, completed by admin on …)
    replaces: tuple[int, ...] = ()  # items this one superseded (a conflict, marked in output)
    conflict: str = ""  # the heuristic that found the conflict
    superseded_by: int | None = None
    starts: date | None = None  # first day it holds, as stated ("starting the 20th")
    ends: date | None = None  # last day it holds, as stated ("until Friday")

    @property
    def id(self) -> int:
        return self.message.id

    @property
    def category(self) -> Category:
        return self.message.classification.category

    @property
    def priority(self) -> int:
        return self.message.classification.priority


@dataclass(frozen=True)
class Decision:
    """Why one message was or was not kept as guidance."""

    message_id: int
    included: bool
    code: str  # a stable key for counting: "directive", "greeting", "superseded", …
    reason: str  # for a person: the rule that fired, the item that replaced it, …


@dataclass(frozen=True)
class DirectiveStats:
    """What one build did: sizes, counts, truncation and staleness."""

    source: str
    source_reason: str
    summary_chars: int
    budget_chars: int
    messages_read: int
    included: int
    excluded: int
    excluded_by_reason: dict[str, int]
    states: dict[str, int]
    conflicts: int
    truncated: dict[str, int]
    stale_rate: float  # expired / all directives and objectives seen
    build_ms: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "source_reason": self.source_reason,
            "summary_chars": self.summary_chars,
            "budget_chars": self.budget_chars,
            "messages_read": self.messages_read,
            "included": self.included,
            "excluded": self.excluded,
            "excluded_by_reason": dict(self.excluded_by_reason),
            "states": dict(self.states),
            "conflicts": self.conflicts,
            "truncated": dict(self.truncated),
            "stale_rate": round(self.stale_rate, 4),
            "build_ms": round(self.build_ms, 3),
        }


@dataclass(frozen=True)
class DirectiveContext:
    """The built guidance: `text` to inject, `stats`, every item and every decision."""

    text: str
    stats: DirectiveStats
    source: Source
    items: tuple[Item, ...]
    decisions: tuple[Decision, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "stats": self.stats.to_dict(),
            "source": {
                "kind": self.source.kind.value,
                "rooms": list(self.source.room_ids),
                "reason": self.source.reason,
            },
            "items": [
                {
                    "id": i.id,
                    "category": i.category.value,
                    "state": i.state.value,
                    "at": i.message.at.isoformat(),
                    "last_seen": i.last_seen.isoformat(),
                    "text": i.message.text,
                    "note": i.note,
                    "replaces": list(i.replaces),
                    "superseded_by": i.superseded_by,
                    "conflict": i.conflict,
                    "starts": i.starts.isoformat() if i.starts else None,
                    "ends": i.ends.isoformat() if i.ends else None,
                }
                for i in self.items
            ],
        }


class DirectiveStore(Protocol):
    """What the directive bridge needs from storage (`store.sqlite.directives` implements it)."""

    def add_message(
        self,
        *,
        room_id: str,
        room_kind: RoomKind,
        canonical: bool,
        author: str,
        author_is_owner: bool,
        at: datetime,
        text: str,
        classification: Classification,
    ) -> Message:
        """Store one message (creating or updating its room)."""
        ...

    def rooms(self, until: datetime | None = None) -> list[RoomInfo]:
        """Every room with its flags and its latest owner message at or before `until`."""
        ...

    def room_messages(
        self,
        room_ids: tuple[str, ...],
        since: datetime,
        until: datetime,
        keep_categories: Iterable[Category] = (),
        *,
        categories: Iterable[Category] | None = None,
        owner_only: bool = False,
    ) -> list[Message]:
        """Messages of these rooms in [since, until], plus older ones of `keep_categories`,
        oldest first; only of `categories` and only the owner's when asked."""
        ...

    def room_labels(
        self, room_ids: tuple[str, ...], since: datetime, until: datetime
    ) -> list[MessageLabel]:
        """Id, author and classification of every message of these rooms in [since, until]."""
        ...

    def owner_dms(self, limit: int, since: datetime, until: datetime) -> list[Message]:
        """The `limit` most recent owner-authored DM messages in [since, until], oldest first."""
        ...

    def set_canonical(self, room_id: str, canonical: bool, at: datetime) -> None:
        """Mark a room as the canonical admin room, or unmark it.

        Raises: NotFound.
        """
        ...

    def get_message(self, message_id: int) -> Message | None:
        """One message by id."""
        ...

    def mark_completed(self, message_id: int, at: datetime, note: str) -> None:
        """Record that the admin completed this directive.

        Raises: NotFound.
        """
        ...

    def completions(self) -> dict[int, tuple[datetime, str]]:
        """Admin completions: message id -> (when, note)."""
        ...


def directive_config(table: Mapping[str, Any]) -> DirectiveConfig:
    """A `DirectiveConfig` from config.toml's `[directives]` table.

    Raises: InvalidInput naming the key whose value cannot be used.
    """
    zone: tzinfo | None = None
    if name := table.get("timezone"):
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            zone = ZoneInfo(str(name))
        except (ZoneInfoNotFoundError, ValueError):
            raise InvalidInput(
                f"[directives] timezone {name!r} is no IANA zone name (like Europe/Berlin)"
            ) from None
    start = table.get("sprint_start")
    if isinstance(start, str):
        try:
            start = date.fromisoformat(start)
        except ValueError:
            raise InvalidInput(f"[directives] sprint_start {start!r} is no date") from None
    if start is not None and not isinstance(start, date):
        raise InvalidInput("[directives] sprint_start must be a date like 2026-11-16")
    days = table.get("sprint_days", 14)
    if not isinstance(days, int) or days < 1:
        raise InvalidInput("[directives] sprint_days must be a whole number of days >= 1")
    return DirectiveConfig(timezone=zone, calendar=Calendar(start, days))
