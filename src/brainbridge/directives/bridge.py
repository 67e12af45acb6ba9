"""`DirectiveBridge`: record admin chat, build the guidance an autonomous run receives."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from brainbridge.directives.classify import classify, classify_with_llm
from brainbridge.directives.lifecycle import resolve, skip_decision
from brainbridge.directives.render import render
from brainbridge.directives.source import select_source
from brainbridge.errors import InvalidInput, NotFound
from brainbridge.model.directives import (
    GUIDANCE,
    NOISE,
    ROLODEX,
    Budget,
    Category,
    Classification,
    Decision,
    DirectiveConfig,
    DirectiveContext,
    DirectiveStats,
    DirectiveStore,
    Message,
    RoomKind,
    SourceKind,
    State,
    utc,
)
from brainbridge.redact import redact

if TYPE_CHECKING:
    from brainbridge.ports import LLM, Embedder

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 20_000
_FOLDED = frozenset(Category) - NOISE


class DirectiveBridge:
    """Records messages from rooms and builds, at request time, the admin's standing guidance."""

    def __init__(
        self,
        store: DirectiveStore,
        config: DirectiveConfig | None = None,
        *,
        llm: LLM | None = None,
        llm_timeout: float = 3.0,
        embedder: Callable[[], Embedder | None] | None = None,
    ) -> None:
        """`embedder` is called (once, only when a replacement names its target in words
        no rule shares) for the sentence embedder that compares meaning."""
        self.store = store
        self.config = config or DirectiveConfig()
        self.llm = llm
        self.llm_timeout = llm_timeout
        self._meaning = _Meaning(embedder) if embedder else None

    def add_message(
        self,
        room_id: str,
        author: str,
        text: str,
        *,
        at: datetime,
        author_is_owner: bool,
        canonical: bool = False,
        room_kind: RoomKind | str = RoomKind.ADMIN,
    ) -> Message:
        """Store a message classified by the local rules; secrets are redacted first.

        Raises: InvalidInput for an empty room or author, a naive `at`, an unknown room
        kind or an oversized text; StoreBusy.
        """
        kind, clean, when = self._check(room_id, author, text, at, room_kind)
        return self._store(
            room_id, author, clean, when, author_is_owner, canonical, kind, classify(clean)
        )

    async def add_message_async(
        self,
        room_id: str,
        author: str,
        text: str,
        *,
        at: datetime,
        author_is_owner: bool,
        canonical: bool = False,
        room_kind: RoomKind | str = RoomKind.ADMIN,
    ) -> Message:
        """Like `add_message`, classified by the LLM when one is configured (rules on any failure).

        Raises: InvalidInput; StoreBusy.
        """
        kind, clean, when = self._check(room_id, author, text, at, room_kind)
        if self.llm is not None and author_is_owner:
            label = await classify_with_llm(self.llm, clean, timeout=self.llm_timeout)
        else:
            label = classify(clean)  # only owner messages can become guidance: no LLM call
        return self._store(room_id, author, clean, when, author_is_owner, canonical, kind, label)

    def complete(self, directive_id: int, *, at: datetime | None = None, note: str = "") -> Message:
        """Mark a directive or objective completed by the admin.

        Raises: NotFound for an unknown id; InvalidInput if the message is no directive
        or objective.
        """
        message = self.store.get_message(directive_id)
        if message is None:
            raise NotFound(f"no directive #{directive_id}")
        if message.classification.category not in GUIDANCE:
            raise InvalidInput(
                f"message #{directive_id} is a {message.classification.category.value},"
                " not a directive or objective"
            )
        when = utc(at, "completion time") if at else datetime.now(UTC)
        self.store.mark_completed(directive_id, when, " ".join(note.split())[:200])
        return message

    def set_canonical(
        self, room_id: str, canonical: bool = True, *, at: datetime | None = None
    ) -> None:
        """Mark `room_id` as the canonical admin room (or unmark it with `canonical=False`).

        Raises: NotFound for a room that has no messages yet.
        """
        self.store.set_canonical(room_id, canonical, utc(at, "time") if at else datetime.now(UTC))

    def build(
        self, now: datetime | None = None, *, budget: Budget | None = None
    ) -> DirectiveContext:
        """The guidance as of `now` (default: the current time), computed from the store.

        Raises: InvalidInput for a naive `now`; BrainError if the store cannot be read.
        """
        started = time.perf_counter()
        now = utc(now, "build time") if now else datetime.now(UTC)
        config = self.config if budget is None else replace(self.config, budget=budget)
        source = select_source(self.store.rooms(until=now), now, config)
        # Read back at least as far as the expiry horizon, whatever the retention says.
        since = now - max(config.retention, config.expiry)
        skipped: list[Decision] = []
        if source.kind is SourceKind.OWNER_DMS:
            messages = self.store.owner_dms(config.dm_limit, since, now)
        elif source.kind is SourceKind.NONE:
            messages = []
        else:
            # Noise and other authors are accounted for from their labels alone; only
            # the owner's candidate messages are loaded and folded. People claims do
            # not expire, so they are read past the retention horizon.
            labels = self.store.room_labels(source.room_ids, since, now)
            skipped = [d for label in labels if (d := skip_decision(label)) is not None]
            messages = self.store.room_messages(
                source.room_ids, since, now, ROLODEX, categories=_FOLDED, owner_only=True
            )
        resolution = resolve(
            messages, self.store.completions(), now, config, skipped, self._meaning
        )
        text, truncated = render(resolution.items, source, now, config.budget)

        states = Counter(i.state.value for i in resolution.items)
        guidance = [i for i in resolution.items if i.category in GUIDANCE]
        expired = sum(i.state is State.EXPIRED for i in guidance)
        excluded = Counter(d.code for d in resolution.decisions if not d.included)
        stats = DirectiveStats(
            source=source.label,
            source_reason=source.reason,
            summary_chars=len(text),
            budget_chars=config.budget.total,
            messages_read=len(messages) + len(skipped),
            included=sum(d.included for d in resolution.decisions),
            excluded=sum(excluded.values()),
            excluded_by_reason=dict(sorted(excluded.items())),
            states={s.value: states.get(s.value, 0) for s in State},
            conflicts=resolution.conflicts,
            truncated=truncated,
            stale_rate=expired / len(guidance) if guidance else 0.0,
            build_ms=(time.perf_counter() - started) * 1000,
        )
        log.debug("directive build: %s", stats.to_dict())
        return DirectiveContext(text, stats, source, resolution.items, resolution.decisions)

    def _check(
        self, room_id: str, author: str, text: str, at: datetime, room_kind: RoomKind | str
    ) -> tuple[RoomKind, str, datetime]:
        if not isinstance(room_id, str) or not room_id.strip():
            raise InvalidInput("room id must be a non-empty string")
        if not isinstance(author, str) or not author.strip():
            raise InvalidInput("author must be a non-empty string")
        if not isinstance(text, str):
            raise InvalidInput("message text must be a string")
        if len(text) > MAX_MESSAGE_CHARS:
            raise InvalidInput(f"message is {len(text)} chars; the limit is {MAX_MESSAGE_CHARS}")
        try:
            kind = RoomKind(room_kind)
        except ValueError:
            known = ", ".join(k.value for k in RoomKind)
            raise InvalidInput(f"unknown room kind {room_kind!r} (use one of {known})") from None
        return kind, redact(text), utc(at, "message time")

    def _store(
        self,
        room_id: str,
        author: str,
        text: str,
        at: datetime,
        author_is_owner: bool,
        canonical: bool,
        kind: RoomKind,
        label: Classification,
    ) -> Message:
        message = self.store.add_message(
            room_id=room_id.strip(),
            room_kind=kind,
            canonical=canonical,
            author=author.strip(),
            author_is_owner=author_is_owner,
            at=at,
            text=text,
            classification=label,
        )
        log.debug("directive message #%d: %s (%s)", message.id, label.category.value, label.reason)
        return message


class _Meaning:
    """Cosine similarity of two texts with an embedder loaded on first use (vectors cached)."""

    def __init__(self, load: Callable[[], Embedder | None]) -> None:
        self._load = load
        self._embedder: Embedder | None = None
        self._tried = False
        self._vectors: dict[str, list[float]] = {}

    def __call__(self, a: str, b: str) -> float:
        if not self._tried:
            self._tried = True
            try:
                self._embedder = self._load()
            except Exception:  # no model here: words alone decide
                log.warning("directive replacement: no embedder, matching by words", exc_info=True)
        if self._embedder is None:
            return 0.0
        va, vb = self._vector(a), self._vector(b)
        dot = sum(x * y for x, y in zip(va, vb, strict=False))
        norm = (sum(x * x for x in va) * sum(y * y for y in vb)) ** 0.5
        return dot / norm if norm else 0.0

    def _vector(self, text: str) -> list[float]:
        if text not in self._vectors:
            assert self._embedder is not None
            self._vectors[text] = [float(v) for v in self._embedder.embed([text])[0]]
        return self._vectors[text]
