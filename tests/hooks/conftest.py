"""Hook fixtures: the hook commands as real subprocesses with Claude Code's payload shapes."""

from __future__ import annotations

import json
import shlex
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from api.seed import seed_folder
from api.served import serve_env
from brainbridge.hooks.install import PROMPT_TIMEOUT, hook_command
from fakes.llm_server import fake_llm_server  # noqa: F401  (a pytest fixture)

# What `brain hooks install` writes, split for subprocess: `<python> -m brainbridge.hooks`.
HOOK = shlex.split(hook_command())
SESSION_ID = "9f1c2a7e-5b3d-4c8e-a1f0-6d2b7e9c4a10"


@pytest.fixture(autouse=True)
def claude_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Claude Code's config folder for this test: hooks read transcripts only below it."""
    folder = tmp_path / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    return folder


@dataclass
class HookRun:
    code: int
    out: bytes
    err: str

    def output(self) -> dict[str, Any] | None:
        """The hook's JSON on stdout (None if it printed nothing); fails on anything else."""
        text = self.out.decode("utf-8").strip()
        if not text:
            return None
        data = json.loads(text)
        assert isinstance(data, dict), text
        return data

    def context(self, event: str) -> str | None:
        """additionalContext for `event`, checked against what Claude Code accepts."""
        data = self.output()
        if data is None:
            return None
        specific = data["hookSpecificOutput"]
        assert specific["hookEventName"] == event
        assert "decision" not in data and "continue" not in data  # never blocks
        context = specific["additionalContext"]
        assert isinstance(context, str) and 0 < len(context) <= 10_000
        return context


def run_hook(
    kind: str,
    payload: dict[str, Any] | bytes,
    home: Path,
    *,
    command: list[str] | None = None,
    verbose: bool = False,
    env: dict[str, str] | None = None,
    timeout: float = PROMPT_TIMEOUT,
) -> HookRun:
    """Run one hook like Claude Code does: payload on stdin, killed at its timeout."""
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
    argv = [*(command or HOOK), *(["-v"] if verbose else []), kind]
    proc = subprocess.run(
        argv,
        input=data,
        capture_output=True,
        env={**serve_env(home), **(env or {})},
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    return HookRun(proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace"))


def prompt_payload(prompt: str, session_id: str = SESSION_ID, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": session_id,
        "transcript_path": f"/home/dev/.claude/projects/-home-dev-src-app/{session_id}.jsonl",
        "cwd": "/home/dev/src/app",
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
        "prompt_id": str(uuid.uuid4()),
        "permission_mode": "default",
        **extra,
    }


def stop_payload(
    last_assistant_message: str | None, transcript: Path | str, session_id: str = SESSION_ID
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "session_id": session_id,
        "transcript_path": str(transcript),
        "cwd": "/home/dev/src/app",
        "hook_event_name": "Stop",
        "stop_hook_active": False,
    }
    if last_assistant_message is not None:
        payload["last_assistant_message"] = last_assistant_message
    return payload


def session_start_payload(cwd: str, source: str = "startup") -> dict[str, Any]:
    return {
        "session_id": SESSION_ID,
        "transcript_path": f"/home/dev/.claude/projects/x/{SESSION_ID}.jsonl",
        "cwd": cwd,
        "hook_event_name": "SessionStart",
        "source": source,
        "model": "claude-sonnet-4-5",
    }


@pytest.fixture(scope="module")
def seeded_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A brain folder with the shared seed data (read-mostly: tests use fresh sessions)."""
    return seed_folder(tmp_path_factory.mktemp("hooks") / "brain")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A fresh brain folder with the seed data and no session."""
    return seed_folder(tmp_path / "brain", with_session=False)


def fresh_session() -> str:
    return str(uuid.uuid4())


def wait_drained(home: Path, timeout: float = 60.0) -> None:
    """Wait for the detached drainer the Stop hook started: nothing left in the spool and
    no drainer holding the lock."""
    import time

    from brainbridge.hooks.spool import drainer_lock, waiting

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not waiting(home):
            with drainer_lock(home) as free:
                if free:
                    return
        time.sleep(0.05)
    raise AssertionError(f"the spool in {home} was not drained in {timeout:.0f} s")
