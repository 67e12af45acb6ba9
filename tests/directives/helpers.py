"""Helpers for directive tests: a fixed calendar and an admin who talks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from brainbridge.directives.bridge import DirectiveBridge
from brainbridge.model.directives import DirectiveConfig, Message
from brainbridge.store.sqlite.db import connect
from brainbridge.store.sqlite.directives import SqliteDirectiveStore

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def day(n: float) -> datetime:
    """`n` days after the first test day."""
    return T0 + timedelta(days=n)


class Admin:
    """Writes messages as the owner (or someone else) into one room."""

    def __init__(self, bridge: DirectiveBridge, room: str = "ops", canonical: bool = True) -> None:
        self.bridge = bridge
        self.room = room
        self.canonical = canonical

    def say(self, when: float, text: str, **kwargs: Any) -> Message:
        kwargs.setdefault("author_is_owner", True)
        kwargs.setdefault("canonical", self.canonical)
        return self.bridge.add_message(
            kwargs.pop("room", self.room),
            kwargs.pop("author", "dana"),
            text,
            at=day(when),
            **kwargs,
        )


def open_bridge(path: Path, config: DirectiveConfig | None = None) -> DirectiveBridge:
    return DirectiveBridge(SqliteDirectiveStore(connect(path)), config)
