"""Never harmful: LLM failures fall back to the local curator, store failures are recorded
or logged, and the chat path never notices."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from brainbridge.bridge.bridge import Bridge, BridgeConfig
from brainbridge.curator import Curator, CuratorConfig
from brainbridge.curator.files import activity_file
from brainbridge.llm.anthropic import AnthropicLLM
from brainbridge.llm.openai_compat import OpenAICompatLLM
from brainbridge.model import Judgment
from fakes.llm_server import FakeLLMServer, error, malformed, raw, slow

from .conftest import MIGRATION_CHAT, fixed_now, seed


def make(provider: str, server: FakeLLMServer):
    if provider == "anthropic":
        return AnthropicLLM(api_key="sk-ant-test", base_url=server.anthropic_base_url)
    return OpenAICompatLLM("fake-model", base_url=server.openai_base_url, api_key="sk-test")


FAILURES = {
    "server_error": (error(500, "boom"), "HTTP 500"),
    "rate_limited": (error(429, "slow down"), "rate-limited"),
    "slow": (slow(3), "did not answer within 0.3 s"),
    "not_json": (raw(200, b"<html>proxy</html>"), "not JSON"),
}


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
@pytest.mark.parametrize("failure", FAILURES)
async def test_llm_failure_falls_back_to_the_local_curator(
    brain, fake_llm_server, provider, failure
) -> None:
    behaviour, reason = FAILURES[failure]
    fake_llm_server.enqueue(behaviour)
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    async with make(provider, fake_llm_server) as llm:
        curator = Curator(brain, llm, CuratorConfig(llm_timeout=0.3), now=fixed_now)
        run = await curator.run("s-1", "exchange 3")

    assert run is not None
    assert run.actions == ("Updated title", "Updated summary", "Logged")
    assert run.decided_by == "local"
    assert run.error is not None and "local curator ran instead" in run.error
    assert reason in run.error
    session = await brain._run(brain.sessions.get, "s-1")
    assert session.title and session.title_source == "local" and session.summary
    history = (await curator.history("s-1"))[0]
    assert history["error"] == run.error
    assert {c["by"] for c in history["tool_calls"]} == {"local"}


async def test_malformed_tool_arguments_fall_back(brain, fake_llm_server) -> None:
    body = {
        "id": "x",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "update_title", "arguments": '{"title": "Unfin'},
                        }
                    ],
                },
            }
        ],
    }
    fake_llm_server.enqueue(raw(200, body))
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    async with make("openai", fake_llm_server) as llm:
        run = await Curator(brain, llm, now=fixed_now).run("s-1", "exchange 3")

    assert run.decided_by == "local" and "malformed arguments" in run.error
    assert "Updated title" in run.actions


async def test_an_answer_without_tool_calls_leaves_the_gaps_to_the_local_curator(
    brain, fake_llm_server
) -> None:
    fake_llm_server.enqueue(malformed())  # text, no tool call
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    async with make("anthropic", fake_llm_server) as llm:
        run = await Curator(brain, llm, now=fixed_now).run("s-1", "exchange 3")

    assert run.error is None
    assert run.decided_by == "llm+local"
    assert run.actions == ("Updated title", "Updated summary")  # filled in; no activity guessed
    assert not activity_file(brain.path, fixed_now().date()).exists()


async def test_the_chat_path_is_unaffected_by_a_failing_curator(brain, fake_llm_server) -> None:
    fake_llm_server.default = error(500, "down")
    async with make("openai", fake_llm_server) as llm:
        curator = Curator(brain, llm, CuratorConfig(llm_timeout=2))
        bridge = Bridge(brain, config=BridgeConfig(after_observe=[curator.after_observe]))
        for n, (user, ai) in enumerate(MIGRATION_CHAT[:3], start=1):
            obs = await bridge.observe_now("s-1", n, user, ai)
            assert obs.error is None and obs.exchange is not None
        enrichment = await bridge.enrich("What did we decide about the billing migration?", "s-1")
        await curator.drain()

    assert enrichment.judgment is not None and enrichment.source != "error"
    assert enrichment.judgment in (Judgment.ENRICH, Judgment.PASS_THROUGH, Judgment.STEP_BACK)
    runs = await curator.history("s-1")
    assert runs and all("HTTP 500" in r["error"] for r in runs)
    session = await brain._run(brain.sessions.get, "s-1")
    assert session.title and session.summary  # the local curator did the job


async def test_a_broken_store_is_recorded_and_nothing_raises(brain, monkeypatch, caplog) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:3])

    def broken(*args, **kwargs):
        raise OSError("disk I/O error")

    monkeypatch.setattr(brain.sessions, "session_exchanges", broken)
    curator = Curator(brain)

    await curator.after_observe("s-1", 3)
    await curator.drain()
    run = await curator.run("s-1", "exchange 3")

    assert run is not None and run.error == "OSError: disk I/O error"
    assert (await curator.history("s-1"))[0]["error"] == "OSError: disk I/O error"
    assert "curator run failed" in caplog.text


async def test_without_a_runs_table_the_failure_is_only_logged(brain, caplog) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:1])
    with sqlite3.connect(brain.path / "brain.db") as other:  # as another process might
        other.execute("DROP TABLE curator_runs")
    curator = Curator(brain)

    run = await curator.run("s-1", "exchange 1")

    assert run is not None and run.run_id is None and "curator_runs" in run.error
    assert "curator run failed" in caplog.text


async def test_an_unwritable_activity_log_does_not_stop_the_other_tools(brain, caplog) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    activity_file(brain.path, fixed_now().date()).mkdir(parents=True)  # a folder in its place
    caplog.set_level(logging.WARNING)

    run = await Curator(brain, now=fixed_now).run("s-1", "exchange 3")

    assert run.actions[:2] == ("Updated title", "Updated summary")
    assert "Logged" not in run.actions
    assert any(
        c["name"] == "log_activity" and c["result"].startswith("failed") for c in run.tool_calls
    )


async def test_a_session_deleted_mid_flight_is_an_error_not_a_crash(brain) -> None:
    curator = Curator(brain)
    run = await curator.run("never-existed", "exchange 1")
    assert run is not None and run.error is not None
