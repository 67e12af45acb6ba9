"""A directive bridge on a real SQLite brain database in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from brainbridge.directives.bridge import DirectiveBridge

from .helpers import Admin, open_bridge


@pytest.fixture
def bridge(tmp_path: Path) -> Iterator[DirectiveBridge]:
    b = open_bridge(tmp_path / "brain" / "brain.db")
    yield b
    b.store.conn.close()  # type: ignore[attr-defined]


@pytest.fixture
def admin(bridge: DirectiveBridge) -> Admin:
    return Admin(bridge)
