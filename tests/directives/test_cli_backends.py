"""`brain directives add-message` and `show` as a real subprocess on both backends."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from tests.pg import backend, database_env  # noqa: F401  (runs this module on both backends)

from cli.runner import COMMAND, clean_env


@pytest.mark.usefixtures("database_env")
def test_add_message_twice_to_a_canonical_room_then_show(tmp_path: Path) -> None:
    env = clean_env(BRAIN_HOME=str(tmp_path / "brain"))

    def brain(*args: str) -> str:
        proc = subprocess.run(
            [*COMMAND, "directives", *args], capture_output=True, env=env, timeout=120
        )
        assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
        return proc.stdout.decode("utf-8")

    common = ["--room", "ops", "--author", "dana", "--canonical"]
    brain("add-message", "Send the weekly report on Mondays.", *common, "--at", "2026-11-01T09:00")
    # The second message meets the room already stored: the upsert's conflict branch.
    brain("add-message", "Book the venue for Friday.", *common, "--at", "2026-11-01T10:00")
    shown = brain("show", "--at", "2026-11-02T00:00")
    assert "Send the weekly report on Mondays." in shown
    assert "Book the venue for Friday." in shown
