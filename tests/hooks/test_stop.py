"""The Stop hook stores the exchange and prints nothing; transcripts as the fallback."""

from __future__ import annotations

import asyncio
from pathlib import Path

from brainbridge.hooks.payload import transcript_exchanges
from hooks.conftest import fresh_session, run_hook, stop_payload, wait_drained
from hooks.transcript import realistic_transcript, session_exchanges

PROMPT = "Can you check whether the spring cohort calendar is free on March 3?"
REPLY = "Yes: the calendar is free on March 3, so Kevin Ortiz can start the cohort then."


def test_stop_stores_the_exchange_and_prints_nothing(home: Path, tmp_path: Path) -> None:
    sid = fresh_session()
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, PROMPT, "older text in the file")
    run = run_hook("stop", stop_payload(REPLY, transcript, sid), home)
    assert run.out == b""
    wait_drained(home)
    (ex,) = asyncio.run(session_exchanges(home, sid))
    assert ex["exchange_number"] == 1
    assert ex["user_message"] == PROMPT  # the prompt comes from the transcript
    assert ex["ai_response"] == REPLY  # the reply from last_assistant_message


def test_stop_falls_back_to_the_transcript(home: Path, tmp_path: Path) -> None:
    sid = fresh_session()
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, PROMPT, REPLY)
    run = run_hook("stop", stop_payload(None, transcript, sid), home)
    assert run.out == b""
    wait_drained(home)
    (ex,) = asyncio.run(session_exchanges(home, sid))
    assert ex["user_message"] == PROMPT and ex["ai_response"] == REPLY
    for leaked in ("SECRET-THOUGHT", "TOOL-OUTPUT", "SIDECHAIN", "toolu_", "interrupted"):
        assert leaked not in ex["user_message"] + ex["ai_response"]


def test_turns_are_numbered_in_order(home: Path, tmp_path: Path) -> None:
    sid = fresh_session()
    for i in (1, 2, 3):
        transcript = realistic_transcript(
            tmp_path / f"t{i}.jsonl", sid, f"Question {i} about the Orion launch plan?", "x"
        )
        run_hook(
            "stop", stop_payload(f"Answer {i}: the Orion launch plan holds.", transcript, sid), home
        )
    wait_drained(home)
    exchanges = asyncio.run(session_exchanges(home, sid))
    assert [e["exchange_number"] for e in exchanges] == [1, 2, 3]
    assert [e["ai_response"][:8] for e in exchanges] == ["Answer 1", "Answer 2", "Answer 3"]


def test_stop_hook_active_and_empty_turns_store_nothing(home: Path, tmp_path: Path) -> None:
    sid = fresh_session()
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, PROMPT, REPLY)
    again = {**stop_payload(REPLY, transcript, sid), "stop_hook_active": True}
    assert run_hook("stop", again, home).out == b""
    assert run_hook("stop", stop_payload(None, tmp_path / "missing.jsonl", sid), home).out == b""
    wait_drained(home)
    assert asyncio.run(session_exchanges(home, sid)) == []


def test_transcript_exchanges_skip_what_is_not_a_prompt(tmp_path: Path) -> None:
    transcript = realistic_transcript(tmp_path / "t.jsonl", "s", PROMPT, REPLY)
    assert transcript_exchanges(transcript) == [
        ("Which laptop model did Acme Robotics pick?", "Acme Robotics picked the ThinkPad T14."),
        (PROMPT, REPLY),
    ]
    assert transcript_exchanges(tmp_path / "missing.jsonl") == []
    assert transcript_exchanges("") == []
    (tmp_path / "bin.jsonl").write_bytes(b'\xff\xfe\x00garbage\n[1,2]\n"str"\n')
    assert transcript_exchanges(tmp_path / "bin.jsonl") == []


def test_stops_of_one_session_running_at_once_keep_every_exchange(
    home: Path, tmp_path: Path
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    sid = fresh_session()
    payloads = []
    for i in range(1, 5):
        transcript = realistic_transcript(
            tmp_path / f"c{i}.jsonl", sid, f"Question {i} about the Vega budget review?", "x"
        )
        payloads.append(stop_payload(f"Answer {i}: the Vega budget review holds.", transcript, sid))
    # Several clients (or subagents) may end turns at once: their hooks overlap.
    with ThreadPoolExecutor(len(payloads)) as pool:
        runs = list(pool.map(lambda p: run_hook("stop", p, home), payloads))
    assert all(r.out == b"" for r in runs)
    wait_drained(home)
    exchanges = asyncio.run(session_exchanges(home, sid))
    assert sorted(e["exchange_number"] for e in exchanges) == [1, 2, 3, 4]
    assert sorted(e["ai_response"][:8] for e in exchanges) == [f"Answer {i}" for i in range(1, 5)]
