"""Whatever arrives on stdin and whatever state the brain is in, a hook exits 0 quietly."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path

import pytest

from brainbridge.hooks.install import PROMPT_TIMEOUT, STOP_TIMEOUT
from hooks.conftest import fresh_session, prompt_payload, run_hook, wait_drained
from hooks.transcript import session_exchanges

KINDS = ("prompt", "session-start", "stop")
GARBAGE = [
    b"",
    b"   \n",
    b"{not json",
    b"[1, 2, 3]",
    b'"just a string"',
    b"42",
    b"null",
    b'{"prompt": ',
    b"\xff\xfe\xfd invalid utf-8 \x80",
    json.dumps({"prompt": ["not", "a", "string"], "session_id": 7, "cwd": None}).encode(),
]


def assert_harmless(out: bytes) -> None:
    """Nothing, or hook JSON that only adds context (never blocks or stops Claude)."""
    text = out.decode("utf-8").strip()
    if text:
        data = json.loads(text)
        assert set(data) == {"hookSpecificOutput"}, data


@pytest.mark.parametrize("kind", KINDS)
def test_garbage_on_stdin(kind: str, home: Path) -> None:
    for data in GARBAGE:
        run = run_hook(kind, data, home)
        assert_harmless(run.out)
        if kind == "stop":
            assert run.out == b""


def test_invalid_utf8_inside_a_prompt(home: Path) -> None:
    raw = json.dumps(
        prompt_payload("What is Kevin Ortiz planning XX for the spring cohort?")
    ).encode()
    raw = raw.replace(b"XX", b"\xff\xfe")
    assert_harmless(run_hook("prompt", raw, home).out)


def test_a_5mb_prompt(home: Path) -> None:
    prompt = "Summarise what Kevin Ortiz said about the spring cohort. " * 90_000
    assert len(prompt) > 5_000_000
    run = run_hook("prompt", prompt_payload(prompt, fresh_session()), home)
    assert_harmless(run.out)
    if run.output():
        assert len(run.context("UserPromptSubmit") or "") <= 10_000


def test_missing_brain_folder_is_not_created(tmp_path: Path) -> None:
    home = tmp_path / "does" / "not" / "exist"
    run = run_hook("prompt", prompt_payload("What do we know about the Orion launch so far?"), home)
    assert run.out == b""
    assert not home.exists()


@pytest.mark.parametrize("kind", KINDS)
def test_locked_database(kind: str, home: Path) -> None:
    """Another process holds the write lock throughout: the hook gives up before Claude
    Code's timeout (run_hook kills it at that timeout and fails), printing nothing harmful."""
    holder = sqlite3.connect(home / "brain.db", isolation_level=None, timeout=30)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        payload = prompt_payload(
            "How is Kevin Ortiz getting on with the spring cohort?", fresh_session()
        )
        payload.update(
            last_assistant_message="He is on track for March 3.", cwd="/home/dev/src/litellm"
        )
        timeout = STOP_TIMEOUT if kind == "stop" else PROMPT_TIMEOUT
        run = run_hook(kind, payload, home, timeout=timeout)
        assert_harmless(run.out)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    if kind == "stop":
        # The Stop hook never waits on the database: the turn waited in the spool and is
        # stored once the lock is gone (a later drain replays what a failed one claimed).
        from brainbridge.hooks.drain import main as drain
        from brainbridge.hooks.spool import waiting

        deadline = time.monotonic() + 60
        while waiting(home) and time.monotonic() < deadline:
            drain(home)  # returns at once while the detached drainer still holds its lock
            time.sleep(0.1)
        wait_drained(home)
        exchanges = asyncio.run(session_exchanges(home, payload["session_id"]))
        assert [e["ai_response"] for e in exchanges] == ["He is on track for March 3."]
    elif kind != "session-start":  # session-start only reads, and WAL readers never wait
        assert (home / "hooks.log").exists()  # the reason is written down for the user


def test_broken_entity_types_on_a_new_brain(tmp_path: Path) -> None:
    home = tmp_path / "brain"
    home.mkdir()
    (home / "entity_types.yaml").write_text("Person: [unclosed\n  - :::\n", "utf-8")
    for kind in KINDS:
        run = run_hook(
            kind, prompt_payload("How is Kevin Ortiz getting on with the spring cohort?"), home
        )
        assert run.out == b""
    log = (home / "hooks.log").read_text("utf-8")
    assert "entity_types.yaml" in log


def test_broken_entity_types_on_an_existing_brain_keeps_working(home: Path) -> None:
    (home / "entity_types.yaml").write_text("Person: [unclosed\n", "utf-8")
    run = run_hook(
        "prompt",
        prompt_payload("How is Kevin Ortiz getting on with the spring cohort?", fresh_session()),
        home,
    )
    context = run.context("UserPromptSubmit")
    assert context is not None and "Kevin Ortiz" in context


def test_unknown_kind_and_bad_arguments_exit_0(home: Path) -> None:
    import subprocess

    from hooks.conftest import HOOK

    for args in (["teatime"], [], ["prompt", "stop"]):
        proc = subprocess.run([*HOOK, *args], input=b"{}", capture_output=True, timeout=60)
        assert proc.returncode == 0 and proc.stdout == b""
        assert b"usage" in proc.stderr


def test_a_corrupt_database_is_logged_not_shown(tmp_path: Path) -> None:
    home = tmp_path / "brain"
    home.mkdir()
    (home / "brain.db").write_bytes(b"not a database, just junk " * 200)
    run = run_hook("prompt", prompt_payload("What did Kevin say about the spring cohort?"), home)
    assert run.out == b""
    # Claude Code shows hook stderr: one line there, the traceback in hooks.log.
    assert "Traceback" not in run.err and len(run.err.strip().splitlines()) <= 1
    assert "is not a usable brain database" in (home / "hooks.log").read_text()
