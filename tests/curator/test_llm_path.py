"""With an LLM: one call offering the tools, every returned call executed and recorded,
and the day's running context carried into the next call."""

from __future__ import annotations

import json

import pytest

from brainbridge.curator import Curator
from brainbridge.curator.files import activity_file, day_record_file, read_day, read_lines
from brainbridge.curator.prompts import SYSTEM
from brainbridge.llm.anthropic import AnthropicLLM
from brainbridge.llm.openai_compat import OpenAICompatLLM

from .conftest import MIGRATION_CHAT, fixed_now, seed

CALLS = [
    ("update_title", {"title": "Billing Service Postgres Migration"}),
    ("update_summary", {"summary": "The user plans to move billing from MySQL to Postgres."}),
    ("log_activity", {"summary": "Planned the billing migration with Dana."}),
    ("write_brain_entity", {"type": "Person", "name": "Dana", "description": "Owns billing."}),
]


def make(provider: str, server):
    if provider == "anthropic":
        return AnthropicLLM(api_key="sk-ant-test", base_url=server.anthropic_base_url)
    return OpenAICompatLLM("fake-model", base_url=server.openai_base_url, api_key="sk-test")


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
async def test_every_tool_call_the_model_returns_is_executed_and_recorded(
    brain, fake_llm_server, provider
) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    fake_llm_server.respond_tool_calls(CALLS)
    async with make(provider, fake_llm_server) as llm:
        run = await Curator(brain, llm, now=fixed_now).run("s-1", "exchange 3")

    assert run.error is None and run.decided_by == "llm"
    assert run.actions == ("Updated title", "Updated summary", "Wrote Person:Dana", "Logged")
    session = await brain._run(brain.sessions.get, "s-1")
    assert session.title == "Billing Service Postgres Migration"
    assert session.title_source == "ai"
    assert session.summary == CALLS[1][1]["summary"]
    assert (await brain.get_entity("Person", "Dana")).description == "Owns billing."
    assert read_lines(activity_file(brain.path, fixed_now().date())) == [
        {
            "timestamp": "2026-03-14T09:30:00+00:00",
            "session_id": "s-1",
            "title": "Billing Service Postgres Migration",
            "summary": "Planned the billing migration with Dana.",
        }
    ]
    history = (await Curator(brain).history("s-1"))[0]
    assert [(c["name"], c["by"], c["result"]) for c in history["tool_calls"]] == [
        ("update_title", "llm", "updated"),
        ("update_summary", "llm", "updated"),
        ("write_brain_entity", "llm", "written"),
        ("log_activity", "llm", "logged"),
    ]
    assert history["tool_calls"][0]["arguments"] == CALLS[0][1]

    # One request, offering the four tools, with the conversation in it.
    assert len(fake_llm_server.requests) == 1
    sent = fake_llm_server.last_request
    assert sent.tool_names == [name for name, _ in CALLS[:2]] + [
        "log_activity",
        "write_brain_entity",
    ]
    assert sent.system == SYSTEM
    prompt = sent.user_text
    assert "[Exchange 3]" in prompt and "invoice PDF generator" in prompt
    assert "Title: (none yet)" in prompt


async def test_a_user_title_is_not_offered_and_not_changed(brain, fake_llm_server) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    await brain._run(brain.sessions.update, "s-1", title="Q3 Plans", title_source="user")
    fake_llm_server.respond_tool_calls([("update_title", {"title": "Something Else"})])
    async with make("openai", fake_llm_server) as llm:
        await Curator(brain, llm, now=fixed_now).run("s-1", "exchange 3")

    sent = fake_llm_server.last_request
    assert "update_title" not in sent.tool_names
    assert '"Q3 Plans" (chosen by the user: keep it)' in sent.user_text
    session = await brain._run(brain.sessions.get, "s-1")
    assert (session.title, session.title_source) == ("Q3 Plans", "user")


async def test_the_days_running_context_reaches_the_next_call(brain, fake_llm_server) -> None:
    await seed(brain, "morning", MIGRATION_CHAT[:3])
    await seed(brain, "afternoon", MIGRATION_CHAT[5:])
    fake_llm_server.respond_tool_calls(CALLS[:3])
    fake_llm_server.respond_tool_calls([("update_title", {"title": "Celery Memory Leak"})])
    async with make("anthropic", fake_llm_server) as llm:
        curator = Curator(brain, llm, now=fixed_now)
        await curator.run("morning", "exchange 3")
        await curator.run("afternoon", "exchange 2")

    day = read_day(day_record_file(brain.path, fixed_now().date()))
    assert [r["session_id"] for r in day] == ["morning", "afternoon"]
    assert day[0]["activity"] == "Planned the billing migration with Dana."
    assert day[0]["actions"] == ["Updated title", "Updated summary", "Logged"]
    second = fake_llm_server.requests[1].user_text
    assert "Earlier today" in second
    assert '"Billing Service Postgres Migration"' in second
    assert 'logged "Planned the billing migration with Dana."' in second
    first = fake_llm_server.requests[0].user_text
    assert "Earlier today: nothing yet." in first


async def test_the_prompt_stays_bounded_for_huge_exchanges(brain, fake_llm_server) -> None:
    big = "word " * 5000
    await seed(brain, "s-1", [(big, big)] * 30)
    fake_llm_server.respond_tool_calls([])
    async with make("openai", fake_llm_server) as llm:
        await Curator(brain, llm, now=fixed_now).run("s-1", "exchange 30")

    prompt = fake_llm_server.last_request.user_text
    assert len(prompt) < 20_000
    assert "[Exchange 30]" in prompt


async def test_run_results_serialise_to_json(brain, fake_llm_server) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:1])
    fake_llm_server.respond_tool_calls(CALLS[:1])
    async with make("openai", fake_llm_server) as llm:
        run = await Curator(brain, llm, now=fixed_now).run("s-1", "exchange 1")
    data = json.loads(json.dumps(run.to_dict()))
    assert data["changes"] == "Updated title · Updated summary"  # the summary filled locally
    assert data["decided_by"] == "llm+local"
