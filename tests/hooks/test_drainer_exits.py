"""No process outlives its work: the spool drainer the Stop hook starts leaves once the
spool is empty, and one started on an empty spool leaves at once (issue #33)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

from api.served import serve_env
from brainbridge.cli.strays import brain_processes
from hooks.conftest import fresh_session, run_hook, stop_payload, wait_drained
from hooks.transcript import realistic_transcript, session_exchanges


def _drainers(home: Path) -> list[int]:
    return [p.pid for p in brain_processes() if p.role == "drainer" and p.brain == home]


def test_the_drainer_leaves_when_the_spool_is_empty(home: Path, tmp_path: Path) -> None:
    sid = fresh_session()
    reply = "The rollout waits for the telemetry module."
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, "Where is the rollout?", reply)
    run_hook("stop", stop_payload(reply, transcript, sid), home)
    wait_drained(home)
    assert len(asyncio.run(session_exchanges(home, sid))) == 1
    deadline = time.monotonic() + 60
    while _drainers(home) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _drainers(home) == []


def test_a_drainer_on_an_empty_spool_exits_at_once(home: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "brainbridge.hooks", "drain"],
        env=serve_env(home),
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert _drainers(home) == []
