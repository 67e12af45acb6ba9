"""Where memory is off, the hooks do nothing: a `.brainignore` in the project, config globs,
opt-in mode, subagents and headless runs (issue #33). Real hook subprocesses, real brain."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from brainbridge.hooks.spool import spool_dir
from hooks.conftest import (
    fresh_session,
    prompt_payload,
    run_hook,
    session_start_payload,
    stop_payload,
    wait_drained,
)
from hooks.transcript import realistic_transcript, session_exchanges
from observations import payloads as p

PROMPT = "How is Kevin Ortiz getting on with the spring cohort?"
# What Claude Code 2.1.x puts in its hooks' environment for `claude -p` (captured from the
# bundled CLI), and what it adds to the payload of a hook fired inside a subagent.
HEADLESS = {"CLAUDE_CODE_ENTRYPOINT": "sdk-cli", "CLAUDE_CODE_SESSION_ATTENDED": "0"}
INTERACTIVE = {"CLAUDE_CODE_ENTRYPOINT": "cli"}
SUBAGENT = {"agent_id": "a1b2c3d4e5f6", "agent_type": "general-purpose"}


def _bridge_log_rows(home: Path, session: str) -> int:
    with closing(sqlite3.connect(home / "brain.db")) as conn:
        return conn.execute(
            "SELECT count(*) FROM bridge_log WHERE session_id = ?", (session,)
        ).fetchone()[0]


def _exchanges(home: Path, session: str) -> int:
    return len(asyncio.run(session_exchanges(home, session)))


def _spooled(home: Path) -> list[Path]:
    folder = spool_dir(home)
    return (
        [f for f in folder.rglob("*") if f.is_file() and f.stat().st_size]
        if folder.exists()
        else []
    )


def _turn(
    home: Path, project: Path, tmp_path: Path, env: dict[str, str] | None = None, **extra: str
) -> tuple[str, str | None]:
    """One whole turn in `project`: SessionStart, prompt, a tool call, PreCompact, Stop.
    The session id and the context SessionStart and the prompt got (None for none)."""
    sid = fresh_session()
    start = {**session_start_payload(str(project)), "session_id": sid, **extra}
    digest = run_hook("session-start", start, home, env=env).context("SessionStart")
    prompt = {**prompt_payload(PROMPT, sid), "cwd": str(project), **extra}
    context = run_hook("prompt", prompt, home, env=env).context("UserPromptSubmit")
    tool = {**p.edit(project, "api/auth.py", "a - b", "a + b", session=sid), **extra}
    run_hook("tool", tool, home, env=env)
    transcript = realistic_transcript(tmp_path / f"{sid}.jsonl", sid, PROMPT, "He is doing well.")
    compact = {
        "session_id": sid,
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "PreCompact",
        "trigger": "manual",
        "custom_instructions": "",
        **extra,
    }
    run_hook("pre-compact", compact, home, env=env)
    stop = {**stop_payload("He is doing well.", transcript, sid), "cwd": str(project), **extra}
    assert run_hook("stop", stop, home, env=env).out == b""
    said = [c for c in (digest, context) if c]
    return sid, "\n".join(said) if said else None


def _assert_nothing_kept(home: Path, sid: str, context: str | None) -> None:
    assert context is None
    assert _spooled(home) == []
    wait_drained(home)  # had anything been spooled, it would be stored now
    assert _bridge_log_rows(home, sid) == 0
    assert _exchanges(home, sid) == 0


def _project(tmp_path: Path, name: str = "app") -> Path:
    project = tmp_path / "src" / name
    (project / ".git").mkdir(parents=True)
    (project / "api").mkdir()
    return project


def _config(home: Path, text: str) -> None:
    (home / "config.toml").write_text(text, encoding="utf-8")


def test_a_brainignore_turns_every_hook_off_in_the_project_and_below(
    home: Path, tmp_path: Path
) -> None:
    project = _project(tmp_path)
    (project / ".brainignore").write_text("", encoding="utf-8")
    sid, context = _turn(home, project / "api", tmp_path)
    _assert_nothing_kept(home, sid, context)
    # The same turn elsewhere is remembered: the rule, not the setup, kept it out.
    other = _project(tmp_path, "other")
    sid, context = _turn(home, other, tmp_path)
    assert context and "Kevin Ortiz" in context
    assert _bridge_log_rows(home, sid) >= 1


def test_config_globs_exclude_projects(home: Path, tmp_path: Path) -> None:
    _config(home, f'[scope]\nexclude = ["{tmp_path}/src/client-*"]\n')
    sid, context = _turn(home, _project(tmp_path, "client-acme"), tmp_path)
    _assert_nothing_kept(home, sid, context)
    sid, context = _turn(home, _project(tmp_path, "mine"), tmp_path)
    assert context and _bridge_log_rows(home, sid) >= 1


def test_opt_in_mode_remembers_only_where_marked(home: Path, tmp_path: Path) -> None:
    _config(home, f'[scope]\nmode = "opt-in"\ninclude = ["{tmp_path}/src/listed"]\n')
    sid, context = _turn(home, _project(tmp_path, "unmarked"), tmp_path)
    _assert_nothing_kept(home, sid, context)
    sid, context = _turn(home, _project(tmp_path, "listed"), tmp_path)
    assert context and _bridge_log_rows(home, sid) >= 1
    marked = _project(tmp_path, "marked")
    (marked / ".brainremember").write_text("", encoding="utf-8")
    sid, context = _turn(home, marked / "api", tmp_path)
    assert context and _bridge_log_rows(home, sid) >= 1


@pytest.mark.parametrize(
    ("switch", "extra", "env"),
    [
        ("subagents", SUBAGENT, INTERACTIVE),
        ("headless", {}, HEADLESS),
    ],
)
def test_switches_turn_memory_off_for_subagents_and_headless_runs(
    home: Path, tmp_path: Path, switch: str, extra: dict[str, str], env: dict[str, str]
) -> None:
    project = _project(tmp_path)
    # On by default.
    sid, context = _turn(home, project, tmp_path, env=env, **extra)
    assert context and _bridge_log_rows(home, sid) >= 1
    # That turn's drainer may still hold its claimed spool file on a loaded machine.
    wait_drained(home)
    _config(home, f"[scope]\n{switch} = false\n")
    sid, context = _turn(home, project, tmp_path, env=env, **extra)
    _assert_nothing_kept(home, sid, context)
    # The main thread of an interactive session is still remembered.
    sid, context = _turn(home, project, tmp_path, env=INTERACTIVE)
    assert context and _bridge_log_rows(home, sid) >= 1
