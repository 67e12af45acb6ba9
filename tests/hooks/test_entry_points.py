"""Both hook commands (`python -m brainbridge.hooks`, `brain hook KIND`) share one error
path: whatever the brain's state, exit 0 with valid output, failures in hooks.log, never a
traceback on stderr, and no brain created where there was none."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cli.runner import COMMAND
from hooks.conftest import HOOK, fresh_session, prompt_payload, run_hook

QUESTION = "How is Kevin Ortiz getting on with the spring cohort?"
ENTRIES = {"module": HOOK, "brain hook": [*COMMAND, "hook"]}


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_corrupt_brain_gives_no_output_and_no_traceback(entry: str, tmp_path: Path) -> None:
    home = tmp_path / "brain"
    home.mkdir()
    (home / "brain.db").write_bytes(b"\x13not a database" * 700)
    run = run_hook("prompt", prompt_payload(QUESTION), home, command=ENTRIES[entry])
    assert run.out == b""
    assert "Traceback" not in run.err
    assert len(run.err.splitlines()) <= 2, run.err
    assert "not a usable brain database" in (home / "hooks.log").read_text("utf-8")


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_missing_brain_folder_is_not_created(entry: str, tmp_path: Path) -> None:
    home = tmp_path / "does" / "not" / "exist"
    for kind in ("prompt", "session-start", "stop"):
        run = run_hook(kind, prompt_payload(QUESTION), home, command=ENTRIES[entry])
        assert run.out == b"" and "Traceback" not in run.err
    assert not (tmp_path / "does").exists()


def test_the_brain_option_names_the_brain(seeded_home: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    command = [*HOOK, f"--brain={seeded_home}"]
    run = run_hook("prompt", prompt_payload(QUESTION, fresh_session()), empty, command=command)
    context = run.context("UserPromptSubmit")
    assert context is not None and "Kevin Ortiz" in context
    assert not (empty / "brain.db").exists()


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_prompt_under_a_held_write_lock_leaves_once_its_context_is_out(
    entry: str, seeded_home: Path
) -> None:
    """The context is printed at once; logging the turn waits on the lock. The hook leaves
    shortly after its output instead of at the watchdog Claude Code would wait for."""
    log = seeded_home / "hooks.log"
    before = log.read_text("utf-8") if log.exists() else ""
    holder = sqlite3.connect(seeded_home / "brain.db", isolation_level=None, timeout=30)
    holder.execute("BEGIN IMMEDIATE")
    try:
        run = run_hook(
            "prompt", prompt_payload(QUESTION, fresh_session()), seeded_home, command=ENTRIES[entry]
        )
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    context = run.context("UserPromptSubmit")
    assert context is not None and "Kevin Ortiz" in context
    written = log.read_text("utf-8")[len(before) :]
    assert "after its output" in written and "gave up" not in written
