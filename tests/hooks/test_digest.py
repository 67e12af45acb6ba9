"""The SessionStart digest through the real hook processes: a turn a Stop hook stored in
one project, tool calls observed there, then a new session opened in a subfolder."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.model import CHAT_SESSION
from hooks.conftest import (
    fresh_session,
    run_hook,
    session_start_payload,
    stop_payload,
    wait_drained,
)
from hooks.transcript import realistic_transcript


def _project(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    (root / ".git").mkdir(parents=True)
    (root / "api").mkdir()
    return root.resolve()


async def _observe(home: Path, root: Path, session: str) -> None:
    """Tool calls as the PostToolUse path stores them (SPEC_33 shapes)."""
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        for name, attrs in [
            (
                "ran pytest tests/test_auth.py (failed)",
                {
                    "kind": "test",
                    "files": ["tests/test_auth.py"],
                    "exit_code": 1,
                    "command": "pytest tests/test_auth.py",
                    "error": "FAILED tests/test_auth.py::test_refresh_rotates_token",
                },
            ),
            ("edited api/auth.py", {"kind": "edit", "files": ["api/auth.py"], "outcome": "401"}),
        ]:
            brain.store.upsert_entity(
                "Observation",
                name,
                "",
                {
                    **attrs,
                    "session_id": session,
                    "project": str(root),
                    "at": "2026-10-01T09:00:00Z",
                    "count": 1,
                },
            )
        brain.store.upsert_entity("File", "api/auth.py", None, {"project": str(root)})


def test_the_next_session_start_names_the_last_session_its_failure_and_files(
    home: Path, tmp_path: Path
) -> None:
    root, other = _project(tmp_path, "payments-api"), _project(tmp_path, "dashboard")
    session = fresh_session()
    stop = stop_payload("The refresh path now returns 401.", "/nonexistent.jsonl", session)
    stop.update(cwd=str(root / "api"), prompt="Fix the 500 on an expired login token")
    run_hook("stop", stop, home)
    wait_drained(home)
    asyncio.run(_observe(home, root, session))

    start = session_start_payload(str(root / "api"))
    context = run_hook("session-start", start, home).context("SessionStart")

    assert context is not None
    assert context.startswith(f"## Brain digest: payments-api ({root})")
    assert "The refresh path now returns 401." in context  # where the last session here ended
    assert "test_refresh_rotates_token" in context  # the failure it left
    assert "api/auth.py" in context  # the file worked on
    items = re.findall(r"^- #(\d+) .* \(~(\d+) tok\)$", context, re.M)
    assert len(items) >= 3 and all(int(cost) > 0 for _, cost in items)
    # Another project's SessionStart does not see this one's work.
    elsewhere = run_hook("session-start", session_start_payload(str(other)), home)
    assert "test_refresh_rotates_token" not in (elsewhere.context("SessionStart") or "")


def test_a_sessions_first_turn_records_its_project(home: Path, tmp_path: Path) -> None:
    """Stop (and a tool call) record the project, after the answer; SessionStart, whose
    process Claude Code waits for, writes nothing."""
    root = _project(tmp_path, "payments-api")
    sid = fresh_session()
    start = {**session_start_payload(str(root / "api")), "session_id": sid}
    run_hook("session-start", start, home)

    async def project_of() -> object:
        async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
            node = await brain.get_entity(CHAT_SESSION, sid)
            return node.attributes.get("project") if node else None

    assert asyncio.run(project_of()) is None
    transcript = realistic_transcript(
        tmp_path / "t.jsonl", sid, "Why does the refund job fail?", "x"
    )
    stop = {**stop_payload("The refund job fails on a null amount.", transcript, sid)}
    stop["cwd"] = str(root / "api")
    run_hook("stop", stop, home)
    wait_drained(home)
    assert asyncio.run(project_of()) == str(root)
