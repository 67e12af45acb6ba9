"""Write-back that survives any client: spooled before the Stop hook returns, stored once."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from brainbridge.hooks.spool import PENDING, SPOOL_DIR, append, turn_record
from hooks.conftest import fresh_session, run_hook, stop_payload, wait_drained
from hooks.transcript import realistic_transcript, session_exchanges

PROMPT = "Please note the deploy key for the Orion staging box is ready."
REPLY = "Noted: the Orion staging deploy key is ready."


def _drain(home: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "brainbridge.hooks", "drain"],
        env={**os.environ, "BRAIN_HOME": str(home)},
        check=True,
        timeout=120,
    )


def test_the_turn_is_on_disk_before_the_hook_returns_and_secrets_never_are(
    home: Path, tmp_path: Path
) -> None:
    sid = fresh_session()
    secret = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8I9j0" * 4
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, f"{PROMPT} It is {secret}", REPLY)
    record = turn_record(stop_payload(REPLY, transcript, sid))
    assert record is not None and secret not in json.dumps(record)
    spooled = append(home, record)
    assert json.loads(spooled.read_text("utf-8").splitlines()[-1])["key"] == record["key"]
    assert (home / SPOOL_DIR / PENDING).stat().st_mode & 0o777 == 0o600
    _drain(home)
    (ex,) = asyncio.run(session_exchanges(home, sid))
    assert secret not in ex["user_message"] and "Orion staging" in ex["user_message"]
    assert not (home / SPOOL_DIR / PENDING).exists()


def test_the_same_turn_twice_is_stored_once(home: Path, tmp_path: Path) -> None:
    sid = fresh_session()
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, PROMPT, REPLY)
    for _ in range(2):  # a repeated Stop event for one turn
        assert run_hook("stop", stop_payload(REPLY, transcript, sid), home).out == b""
    wait_drained(home)
    assert len(asyncio.run(session_exchanges(home, sid))) == 1


def test_a_dead_drainers_claimed_turns_are_replayed_once(home: Path, tmp_path: Path) -> None:
    sid = fresh_session()
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, PROMPT, REPLY)
    record = turn_record(stop_payload(REPLY, transcript, sid))
    assert record is not None
    folder = home / SPOOL_DIR
    folder.mkdir(parents=True)
    # A drainer claimed the spool and died after storing nothing; a torn last line too.
    (folder / "claimed-1-999999.jsonl").write_text(json.dumps(record) + '\n{"v": 1, "ke', "utf-8")
    _drain(home)
    _drain(home)  # nothing left: a second drain stores nothing again
    (ex,) = asyncio.run(session_exchanges(home, sid))
    assert ex["user_message"] == PROMPT
    assert not list(folder.glob("claimed-*"))
    # ...and after the replay, the same turn arriving again is not a second exchange.
    append(home, record)
    _drain(home)
    assert len(asyncio.run(session_exchanges(home, sid))) == 1


def test_import_claude_after_a_stop_keeps_every_turn_once(home: Path, tmp_path: Path) -> None:
    sid = fresh_session()
    folder = tmp_path / "projects" / "-src-app"
    folder.mkdir(parents=True)
    transcript = folder / f"{sid}.jsonl"
    rows = []
    for i in (1, 2, 3):
        rows.append(
            {
                "type": "user",
                "uuid": f"p{i}",
                "timestamp": f"2026-03-0{i}T10:00:00Z",
                "message": {"role": "user", "content": f"Question {i} about the Lyra rollout?"},
            }
        )
        rows.append(
            {
                "type": "assistant",
                "uuid": f"r{i}",
                "message": {"content": [{"type": "text", "text": f"Answer {i} on Lyra."}]},
            }
        )
    transcript.write_text("\n".join(json.dumps(r) for r in rows) + "\n", "utf-8")
    # The Stop hook saw only the last turn (the others predate the install).
    assert run_hook("stop", stop_payload("Answer 3 on Lyra.", transcript, sid), home).out == b""
    wait_drained(home)
    subprocess.run(
        [sys.executable, "-m", "brainbridge.cli.main", "import-claude", str(tmp_path / "projects")],
        env={**os.environ, "BRAIN_HOME": str(home)},
        check=True,
        capture_output=True,
        timeout=120,
    )
    said = sorted(ex["user_message"] for ex in asyncio.run(session_exchanges(home, sid)))
    assert said == [f"Question {i} about the Lyra rollout?" for i in (1, 2, 3)]


def test_a_prompt_repeated_in_many_turns_is_one_line_of_the_block(
    home: Path, tmp_path: Path
) -> None:
    """Each repeat is a turn of its own (stored), but the block says it once."""
    prompt = "Remind me which venue Kestrel Labs booked for the robotics hackathon"
    reply = "Kestrel Labs booked the Foundry Hall venue for the robotics hackathon."
    for i in range(4):
        sid = fresh_session()
        transcript = realistic_transcript(tmp_path / f"t{i}.jsonl", sid, prompt, reply)
        run_hook("stop", stop_payload(reply, transcript, sid), home)
        wait_drained(home)
    from hooks.conftest import prompt_payload

    run = run_hook(
        "prompt",
        prompt_payload("Which venue did Kestrel Labs book for the robotics hackathon again?"),
        home,
    )
    block = run.context("UserPromptSubmit")
    assert block is not None and "Foundry Hall" in block
    assert block.count("Foundry Hall") == 1, block


def test_brain_serve_stores_what_was_spooled_before_it_started(home: Path, tmp_path: Path) -> None:
    from api.served import serve_brain

    sid = fresh_session()
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, PROMPT, REPLY)
    record = turn_record(stop_payload(REPLY, transcript, sid))
    assert record is not None
    append(home, record)  # a turn whose drainer never ran
    with serve_brain(home):
        wait_drained(home)
    (ex,) = asyncio.run(session_exchanges(home, sid))
    assert ex["user_message"] == PROMPT
