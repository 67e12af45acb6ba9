"""The real Claude Code CLI (`claude -p`) in a project where memory is off: `[scope]
headless = false`, or a `.brainignore`. The model sees no brain context and the brain
gets nothing from the run (issue #33)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from brainbridge.hooks.spool import SPOOL_DIR, read_records
from claude_code.conftest import ANSWER, Setup
from hooks.conftest import wait_drained
from hooks.test_scope import _bridge_log_rows
from hooks.transcript import session_exchanges

QUESTION = "What did we note about the litellm config drift between staging and prod?"


def _kept(brain: Path, session_id: str) -> bool:
    wait_drained(brain)
    spooled = [r for f in (brain / SPOOL_DIR).glob("*.jsonl") for r in read_records(f)]
    return (
        any(r.get("session_id") == session_id for r in spooled)
        or bool(asyncio.run(session_exchanges(brain, session_id)))
        or _bridge_log_rows(brain, session_id) > 0
    )


def _run(setup: Setup) -> tuple[str, str]:
    result = setup.claude(QUESTION)
    assert result["result"] == ANSWER
    return result["session_id"], json.dumps(setup.model_requests()[-1].body)


def test_headless_runs_are_left_alone_when_the_switch_is_off(setup: Setup) -> None:
    sid, body = _run(setup)  # on by default
    assert "## Brain Context" in body and _kept(setup.brain, sid)
    with (setup.brain / "config.toml").open("a", encoding="utf-8") as config:
        config.write("\n[scope]\nheadless = false\n")
    sid, body = _run(setup)
    assert "Brain context for" not in body and "## Brain Context" not in body
    assert not _kept(setup.brain, sid)


def test_a_brainignore_keeps_a_real_session_out(setup: Setup) -> None:
    (setup.project / ".brainignore").touch()
    sid, body = _run(setup)
    assert "Brain context for" not in body and "## Brain Context" not in body
    assert not _kept(setup.brain, sid)
