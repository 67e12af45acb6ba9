"""PostToolUse and PreCompact hooks as real subprocesses on a real SQLite brain: tool calls
spooled, stored by the drainer the turn's Stop starts, summed up in the session's summary;
a compaction stores the exchanges so far and lets the next prompt load again what the
compacted context carried."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.hooks.payload import claude_transcripts_root
from brainbridge.hooks.spool import PENDING, read_records, spool_dir
from brainbridge.model import OBSERVATION, Entity
from hooks.conftest import fresh_session, prompt_payload, run_hook, stop_payload, wait_drained
from hooks.transcript import _row, realistic_transcript, session_exchanges
from observations import payloads as p

TEST = "python3 -m pytest tests/test_auth.py -q"


async def _stored(home: Path, session_id: str) -> tuple[list[Entity], str]:
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        found, _ = await brain._run(brain.store.list_entities, OBSERVATION, f"[{session_id[:8]}:")
        session = await brain._run(brain.sessions.get, session_id)
        return sorted(found, key=lambda e: e.id), session.summary if session else ""


def test_tool_calls_are_spooled_then_stored_with_the_turn(home: Path, tmp_path: Path) -> None:
    sid, project = fresh_session(), tmp_path / "proj"
    calls = [
        p.read(project, "api/auth.py", session=sid),
        p.edit(project, "api/auth.py", "a - b", "a + b", session=sid),
        p.bash_failed(project, TEST, p.PYTEST_FAILED, session=sid),
        p.edit(project, "api/auth.py", "a + b", "a + b + 1", session=sid),
        p.bash(project, TEST, "2 passed", session=sid),
        p.bash(project, "pwd", session=sid),
    ]
    for call in calls:
        assert run_hook("tool", call, home).out == b""  # nothing for the conversation
    spooled = list(read_records(spool_dir(home) / PENDING))
    assert [r["type"] for r in spooled] == ["tool"] * 5  # `pwd` is noise

    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, "Fix the token test", "")
    run_hook("stop", stop_payload("Fixed: the token test passes.", transcript, sid), home)
    wait_drained(home)
    observations, summary = asyncio.run(_stored(home, sid))
    assert [o.attributes["title"] for o in observations] == [
        "read api/auth.py",
        "edited api/auth.py",
        f"ran {TEST}",
        "edited api/auth.py",
    ]
    assert observations[2].attributes["outcome"] == "failed → passed"
    assert f"Work: Edited api/auth.py; fixed the failing test ({TEST})" in summary
    (exchange,) = asyncio.run(session_exchanges(home, sid))
    assert exchange["user_message"] == "Fix the token test"


def _context(home: Path, prompt: str, sid: str) -> str:
    return run_hook("prompt", prompt_payload(prompt, sid), home).context("UserPromptSubmit") or ""


def _compact(transcript: Path, sid: str, trigger: str = "manual") -> dict[str, object]:
    payload = {**stop_payload(None, transcript, sid), "hook_event_name": "PreCompact"}
    return payload | {"trigger": trigger, "custom_instructions": ""}


def test_pre_compact_stores_the_exchanges_not_stored_yet(home: Path, tmp_path: Path) -> None:
    sid = fresh_session()
    transcript = realistic_transcript(tmp_path / "c.jsonl", sid, "And the budget?", "12k.")
    assert run_hook("pre-compact", _compact(transcript, sid), home).out == b""
    run_hook("pre-compact", _compact(transcript, sid), home)  # twice: stored once
    wait_drained(home)
    stored = asyncio.run(session_exchanges(home, sid))
    assert [(e["user_message"], e["ai_response"]) for e in stored] == [
        ("Which laptop model did Acme Robotics pick?", "Acme Robotics picked the ThinkPad T14."),
        ("And the budget?", "12k."),
    ]


def _one_exchange(path: Path, sid: str, prompt: str, reply: str) -> Path:
    rows = [_row("user", prompt, sid), _row("assistant", [{"type": "text", "text": reply}], sid)]
    path = claude_transcripts_root() / "-home-dev-src-app" / path.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return path


def test_after_a_compaction_the_next_prompt_loads_again_what_was_just_loaded(
    seeded_home: Path, tmp_path: Path
) -> None:
    question = "How is Kevin Ortiz getting on with the spring cohort?"
    reply = "He is doing well."
    kevin = "**Kevin Ortiz** (knowledge, Person)"  # the person's entry, not the exchange

    def turn(sid: str) -> str:
        context = _context(seeded_home, question, sid)
        transcript = _one_exchange(tmp_path / f"{sid}.jsonl", sid, question, reply)
        run_hook("stop", stop_payload(reply, transcript, sid), seeded_home)
        wait_drained(seeded_home)
        return context

    def transcript_of(sid: str) -> Path:
        return claude_transcripts_root() / "-home-dev-src-app" / f"{sid}.jsonl"

    # Asked twice in a row: what the agent was just given is not given twice.
    plain = fresh_session()
    assert kevin in turn(plain)
    assert kevin not in _context(seeded_home, question, plain)

    # Compacted in between: the agent's context lost it, so it comes again.
    sid = fresh_session()
    assert kevin in turn(sid)
    run_hook("pre-compact", _compact(transcript_of(sid), sid), seeded_home)
    wait_drained(seeded_home)
    assert len(asyncio.run(session_exchanges(seeded_home, sid))) == 1  # stored by Stop already
    assert kevin in _context(seeded_home, question, sid)
