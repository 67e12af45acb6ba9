"""Closing a brain that is already closed (e.g. `async with` plus an explicit close)."""

from __future__ import annotations

from pathlib import Path

from brainbridge.brain import Brain


async def test_closing_twice_is_harmless(tmp_path: Path) -> None:
    brain = await Brain.open(tmp_path / "brain", embedder="hashing")
    await brain.close()
    await brain.close()
