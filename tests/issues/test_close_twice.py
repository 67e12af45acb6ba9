"""Closing a brain that is already closed (e.g. `async with` plus an explicit close)."""

from __future__ import annotations

from pathlib import Path

import pytest

from brainbridge.brain import Brain


@pytest.mark.xfail(
    strict=True,
    reason="Brain.close submits to an executor it already shut down: RuntimeError "
    "'cannot schedule new futures after shutdown'",
)
async def test_closing_twice_is_harmless(tmp_path: Path) -> None:
    brain = await Brain.open(tmp_path / "brain", embedder="hashing")
    await brain.close()
    await brain.close()
