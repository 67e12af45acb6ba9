"""`brain curate`, `brain curator-log` and `brain sessions`, as a user runs them."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from brainbridge.brain import Brain
from brainbridge.cli.common import App
from brainbridge.cli.curator import curator_log

from .conftest import MIGRATION_CHAT, seed


def brain_cli(brain_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {**os.environ, "BRAIN_LLM_PROVIDER": "none", **env}
    return subprocess.run(
        [sys.executable, "-m", "brainbridge.cli.main", "--brain", str(brain_path), *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=120,
    )


async def test_curate_then_read_the_log_and_the_session_list(brain) -> None:
    await seed(brain, "3f9c2a71-aaaa", MIGRATION_CHAT[:3])

    done = brain_cli(brain.path, "curate", "3f9c", "--json")  # a unique prefix will do
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert run["session_id"] == "3f9c2a71-aaaa"
    assert run["changes"] == "Updated title · Updated summary · Logged"

    shown = brain_cli(brain.path, "curator", "log", "3f9c2a71-aaaa", "--json")
    assert shown.returncode == 0, shown.stderr
    runs = json.loads(shown.stdout)["runs"]
    assert [r["trigger"] for r in runs] == ["manual"]
    assert [c["name"] for c in runs[0]["tool_calls"]] == [
        "update_title",
        "update_summary",
        "log_activity",
    ]

    table = brain_cli(brain.path, "curator", "log", "3f9c2a71-aaaa")
    assert table.returncode == 0, table.stderr
    assert "Updated title · Updated summary · Logged" in table.stdout
    assert "update_title(title=" in table.stdout

    listed = brain_cli(brain.path, "sessions", "--json")
    assert listed.returncode == 0, listed.stderr
    (row,) = json.loads(listed.stdout)
    assert row["id"] == "3f9c2a71-aaaa" and row["title"] == run["title"]
    assert row["title_source"] == "local" and row["summary"] == run["summary"]
    assert "bridge_context_log" not in row


async def test_curate_uses_the_configured_llm(brain, fake_llm_server) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    fake_llm_server.respond_tool_calls([("update_title", {"title": "Billing Migration Plan"})])

    done = brain_cli(
        brain.path,
        "curate",
        "s-1",
        BRAIN_LLM_PROVIDER="openai",
        BRAIN_LLM_BASE_URL=fake_llm_server.openai_base_url,
        BRAIN_LLM_MODEL="fake-model",
        BRAIN_LLM_API_KEY="sk-test",
    )

    assert done.returncode == 0, done.stderr
    assert "Updated title" in done.stdout and "Billing Migration Plan" in done.stdout
    assert len(fake_llm_server.requests) == 1


async def test_unknown_and_ambiguous_sessions_are_clear_errors(brain) -> None:
    await seed(brain, "abc-1", MIGRATION_CHAT[:1])
    await seed(brain, "abc-2", MIGRATION_CHAT[:1])

    missing = brain_cli(brain.path, "curate", "zzz")
    assert missing.returncode == 3
    assert "no session 'zzz'" in missing.stderr

    ambiguous = brain_cli(brain.path, "curator", "log", "abc")
    assert ambiguous.returncode == 2
    assert "starts several sessions" in ambiguous.stderr


def test_curator_log_command_without_runs(tmp_path: Path) -> None:
    async def _seed() -> None:
        async with await Brain.open(tmp_path / "brain", embedder=None) as brain:
            await seed(brain, "s-1", MIGRATION_CHAT[:1])

    asyncio.run(_seed())

    result = CliRunner().invoke(curator_log, ["s-1"], obj=App(brain_option=str(tmp_path / "brain")))

    assert result.exit_code == 0, result.output
    assert "has not run on s-1 yet" in result.output


async def test_empty_brain_lists_no_sessions(tmp_path: Path) -> None:
    assert brain_cli(tmp_path / "empty", "init").returncode == 0
    listed = brain_cli(tmp_path / "empty", "sessions")
    assert listed.returncode == 0, listed.stderr
    assert "No sessions yet." in listed.stdout
