"""Background LLM calls are capped per hour and per day, counted in the brain folder across
processes, shown in `brain stats`; past a cap the local path runs (issue #33). Real hook
processes, the drainer, the CLI and the fake LLM server."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

from api.served import serve_env
from cli.runner import COMMAND
from fakes.llm_server import FakeLLMServer
from hooks.conftest import fresh_session, prompt_payload, run_hook, stop_payload, wait_drained
from hooks.test_settings import ABOUT_KEVIN, llm_config, scripted
from hooks.transcript import realistic_transcript, session_exchanges


def _stats(home: Path) -> dict[str, int]:
    proc = subprocess.run(
        [*COMMAND, "stats", "--json"], capture_output=True, env=serve_env(home), timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["llm_calls"]


def test_past_the_hourly_cap_hooks_use_the_local_path(
    home: Path, tmp_path: Path, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.responder = scripted
    (home / "config.toml").write_text(
        llm_config(fake_llm_server, "max_calls_per_hour = 2", "max_calls_per_day = 50")
    )
    for _ in range(4):  # each prompt asks the LLM judge once while the cap allows it
        run = run_hook("prompt", prompt_payload(ABOUT_KEVIN, fresh_session()), home)
        context = run.context("UserPromptSubmit")
        assert context and "Kevin Ortiz" in context  # the local judge answered the last two
    assert len(fake_llm_server.requests) == 2

    # The turn's facts: the drainer's extraction is capped too, the local extractor stores it.
    sid = fresh_session()
    reply = "Lena Park reviews the Quasar budget every Monday."
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, "Who reviews it?", reply)
    run_hook("stop", stop_payload(reply, transcript, sid), home)
    wait_drained(home)
    assert len(asyncio.run(session_exchanges(home, sid))) == 1
    assert len(fake_llm_server.requests) == 2

    calls = _stats(home)
    assert calls["last_hour"] == 2 and calls["max_per_hour"] == 2
    assert calls["capped_24h"] >= 3  # two judges and at least the extraction
    shown = subprocess.run(
        [*COMMAND, "stats"], capture_output=True, text=True, env=serve_env(home), timeout=120
    )
    assert "LLM calls, last hour" in shown.stdout and "2 of 2" in shown.stdout


def test_the_daily_cap_holds_across_processes(home: Path, fake_llm_server: FakeLLMServer) -> None:
    fake_llm_server.responder = scripted
    (home / "config.toml").write_text(llm_config(fake_llm_server, "max_calls_per_day = 1"))
    for _ in range(3):
        run_hook("prompt", prompt_payload(ABOUT_KEVIN, fresh_session()), home)
    assert len(fake_llm_server.requests) == 1
    calls = _stats(home)
    assert calls["last_24h"] == 1 and calls["max_per_day"] == 1 and calls["capped_24h"] == 2
