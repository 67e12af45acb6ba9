"""Without a server, hooks build their bridge from the brain's config.toml like the CLI does;
a config.toml they cannot use never breaks them. Real hook processes, the fake LLM server."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge.block import estimate_tokens
from brainbridge.bridge.prompts import EXTRACT_SYSTEM, JUDGE_SYSTEM
from brainbridge.curator.prompts import SYSTEM as CURATOR_SYSTEM
from brainbridge.hooks.runner import FAILURE_LOG
from fakes.llm_server import FakeLLMServer, FakeRequest, reply_json, reply_tool_calls
from hooks.conftest import (
    HOOK,
    fresh_session,
    prompt_payload,
    run_hook,
    session_start_payload,
    stop_payload,
    wait_drained,
)

# The local judge leaves this alone (general knowledge); only the configured LLM enriches it.
GENERAL = "explain how a mutex differs from a semaphore in plain words"
ABOUT_KEVIN = "How is Kevin Ortiz getting on with the spring cohort?"
BUDGET = 100  # room for one of the three items the seed has on Kevin and his cohort
FACT = "Lena Park reviews the Quasar budget"
TITLE = "Quasar Budget Reviews"


def llm_config(server: FakeLLMServer, *extra: str) -> str:
    return "\n".join(
        [
            "[llm]",
            'provider = "openai"',
            'model = "fake-hooks"',
            f'base_url = "{server.openai_base_url}"',
            *extra,
            "",
        ]
    )


def scripted(request: FakeRequest) -> Any:
    if request.system.startswith(JUDGE_SYSTEM):
        return reply_json({"judgment": "enrich", "queries": ["Kevin Ortiz spring cohort"]})
    if request.system.startswith(EXTRACT_SYSTEM):
        fact = {"type": "Decision", "name": FACT, "description": f"{FACT} every Monday."}
        return reply_json({"facts": [fact]})
    if request.system == CURATOR_SYSTEM:
        return reply_tool_calls([("update_title", {"title": TITLE})])
    return None  # anything else is a 500 and counted in `unscripted`


def items(context: str) -> list[str]:
    return [line for line in context.splitlines() if line.startswith("- **")]


def test_prompt_uses_the_llm_and_budget_of_config_toml(
    home: Path, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.responder = scripted
    (home / "config.toml").write_text(
        llm_config(fake_llm_server, "[bridge]", f"budget_tokens = {BUDGET}")
    )

    run = run_hook("prompt", prompt_payload(GENERAL, fresh_session()), home)

    context = run.context("UserPromptSubmit")
    assert context is not None, run.err
    assert items(context) == [
        "- **Kevin Ortiz** (knowledge, Person): Runs the spring cohort of the data bootcamp;"
        " prefers async updates."
    ]
    assert estimate_tokens(context) <= BUDGET
    (judge,) = fake_llm_server.requests
    assert judge.model == "fake-hooks" and judge.system.startswith(JUDGE_SYSTEM)
    assert GENERAL in judge.user_text
    assert fake_llm_server.unscripted == 0

    # The same turn at the default budget: the configured one is what cut it short.
    (home / "config.toml").write_text(llm_config(fake_llm_server))
    roomy = run_hook("prompt", prompt_payload(GENERAL, fresh_session()), home)
    assert len(items(roomy.context("UserPromptSubmit") or "")) == 3


def test_stop_uses_the_llm_and_curator_cadence_of_config_toml(
    home: Path, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.responder = scripted
    # The curator's first run only after the second exchange (its default is the first).
    (home / "config.toml").write_text(
        llm_config(fake_llm_server, "[curator]", "first = [2]", "every = 0")
    )
    sid = fresh_session()

    def stop(n: int) -> None:
        payload = {
            **stop_payload(f"Noted ({n}): {FACT} on Mondays.", home / "none.jsonl", sid),
            "prompt": f"Remember this ({n}): {FACT} every Monday from now on.",
        }
        assert run_hook("stop", payload, home).out == b""
        wait_drained(home)  # the detached drainer stores the turn with the brain's settings

    stop(1)
    fact, session = asyncio.run(_read(home, sid))
    assert fact is not None and fact.description == f"{FACT} every Monday."
    assert session.title == ""  # not curated yet
    assert [r.system.startswith(EXTRACT_SYSTEM) for r in fake_llm_server.requests] == [True]

    stop(2)
    _, session = asyncio.run(_read(home, sid))
    assert session.message_count == 2
    assert (session.title, session.title_source) == (TITLE, "ai")
    assert [r.system == CURATOR_SYSTEM for r in fake_llm_server.requests] == [False, False, True]
    assert fake_llm_server.unscripted == 0


async def _read(home: Path, sid: str) -> tuple[Any, Any]:
    brain = await Brain.open(home, embedder=None, background_indexing=False)
    try:
        return (
            await brain.get_entity("Decision", FACT),
            await brain._run(brain.sessions.get, sid),
        )
    finally:
        await brain.close()


def imported(stderr: str) -> set[str]:
    """Top-level packages in `python -X importtime` output."""
    return {m.group(1) for m in re.finditer(r"^import time:.*\|\s+(\w+)", stderr, re.M)}


def test_no_llm_sdk_is_imported_unless_one_is_configured(
    home: Path, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.responder = scripted
    command = [sys.executable, "-X", "importtime", *HOOK[1:]]

    run = run_hook("prompt", prompt_payload(GENERAL, fresh_session()), home, command=command)
    assert run.output() is None  # the local judge passes it through
    assert imported(run.err) >= {"brainbridge", "sqlite3"}
    assert not imported(run.err) & {"openai", "anthropic", "httpx"}

    (home / "config.toml").write_text(llm_config(fake_llm_server))
    run = run_hook("prompt", prompt_payload(GENERAL, fresh_session()), home, command=command)
    assert run.context("UserPromptSubmit") is not None
    assert "openai" in imported(run.err) and "anthropic" not in imported(run.err)


BROKEN = [
    pytest.param(b"[llm\nprovider = 'openai'\n", "config.toml: not valid TOML", id="toml"),
    pytest.param(b"# caf\xe9\n", "config.toml: not valid UTF-8", id="utf8"),
    pytest.param(
        b'[bridge]\nbudget_tokens = "lots"\n', "budget_tokens must be a whole number", id="budget"
    ),
    pytest.param(b'llm = "openai"\n', "[llm] must be a table", id="not-a-table"),
    pytest.param(None, "cannot read", id="unreadable"),
]


@pytest.mark.parametrize(("content", "complaint"), BROKEN)
def test_a_config_toml_it_cannot_use_leaves_the_hook_on_defaults(
    home: Path, content: bytes | None, complaint: str
) -> None:
    config = home / "config.toml"
    config.unlink()
    if content is None:
        config.mkdir()  # reading it fails with an OSError, like a file we may not read
    else:
        config.write_bytes(content)

    for _ in range(2):
        run = run_hook("prompt", prompt_payload(ABOUT_KEVIN, fresh_session()), home)
        context = run.context("UserPromptSubmit")
        assert context is not None and len(items(context)) >= 2  # more than BUDGET fits
        assert complaint in run.err and "default settings" in run.err

    log = (home / FAILURE_LOG).read_text()
    assert log.count(complaint) == 1, log  # once, not once per prompt
    assert "Traceback" not in log


def test_session_start_and_stop_run_on_a_broken_config_toml(home: Path) -> None:
    (home / "config.toml").write_text("[llm\nprovider = 'openai'\n")
    sid = fresh_session()

    start = run_hook("session-start", session_start_payload("/home/dev/src/litellm"), home)
    assert "litellm config drift" in (start.context("SessionStart") or "")
    stop = run_hook(
        "stop",
        stop_payload("Kevin Ortiz moved the cohort start to March 10.", home / "x.jsonl", sid)
        | {"prompt": "When does the spring cohort start now?"},
        home,
    )
    assert stop.out == b""
    wait_drained(home)
    _, session = asyncio.run(_read(home, sid))
    assert session.message_count == 1
    assert "not valid TOML" in (home / FAILURE_LOG).read_text()


def test_a_bad_setting_costs_only_that_part(home: Path) -> None:
    """An unknown provider drops the LLM, a bad [curator] value the curator's settings;
    the budget and the rest of the hook stay as configured."""
    (home / "config.toml").write_text(
        '[llm]\nprovider = "nonsense"\n'
        f"[bridge]\nbudget_tokens = {BUDGET}\n"
        '[curator]\nevery = "often"\n'
    )
    sid = fresh_session()

    run = run_hook("prompt", prompt_payload(ABOUT_KEVIN, sid), home)
    context = run.context("UserPromptSubmit")
    assert context is not None and len(items(context)) == 1
    stop = run_hook(
        "stop",
        stop_payload("The cohort is on track for March 3.", home / "x.jsonl", sid)
        | {"prompt": ABOUT_KEVIN},
        home,
    )
    assert stop.out == b""
    wait_drained(home)
    _, session = asyncio.run(_read(home, sid))
    assert session.message_count == 1

    log = (home / FAILURE_LOG).read_text()
    assert "unknown LLM provider 'nonsense'" in log and "ran without an LLM" in log
    assert "[curator] every" in log and "curator used its defaults" in log
