"""`brain enrich` and `brain chat` as a user runs them: real processes, a real brain folder,
and for chat the fake LLM server speaking the OpenAI wire format."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge.prompts import EXTRACT_SYSTEM, JUDGE_SYSTEM
from brainbridge.curator.prompts import SYSTEM as CURATOR_SYSTEM
from brainbridge.model import CHAT_EXCHANGE
from bridge.judge_set import fill, load
from cli.runner import clean_env
from fakes.llm_server import (
    FakeLLMServer,
    FakeRequest,
    reply_json,
    reply_text,
    reply_tool_calls,
)

REPLY = "Loop is in good shape; Seedling still needs a sharper market slide before demo day."


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A brain folder holding the judge set's fixture."""
    folder = tmp_path / "brain"

    async def _fill() -> None:
        brain = await Brain.open(folder, embedder=None, background_indexing=False)
        await fill(brain, load()[0])
        await brain._run(brain.sessions.ensure, "grant-session")
        await brain._run(
            brain.sessions.update,
            "grant-session",
            summary="Working on the broader impacts section of the SBIR project narrative.",
        )
        await brain.close()

    asyncio.run(_fill())
    return folder


def _env(home: Path, **extra: str) -> dict[str, str]:
    return {
        **clean_env(),
        "BRAIN_HOME": str(home),
        "BRAIN_EMBEDDER": "none",
        "PYTHONIOENCODING": "utf-8",
        **extra,
    }


def brain(home: Path, *args: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "brainbridge.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=_env(home, **env),
        timeout=120,
    )


# -- brain enrich ---------------------------------------------------------------------


def test_enrich_prints_judgment_reasons_queries_and_block(home: Path) -> None:
    done = brain(home, "enrich", "how is Kevin's cohort going this month?")

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "judgment: enrich  (local)"
    assert lines[1].startswith("reasons:  it names what the brain knows: Kevin Alvarez")
    assert lines[2].startswith('queries:  "Kevin Alvarez cohort')
    block = done.stdout[done.stdout.index("## Brain Context") :]
    assert "- **Kevin Alvarez** (knowledge, Person): Program lead" in block


def test_enrich_json_for_scripts(home: Path) -> None:
    done = brain(
        home, "enrich", "--json", "--budget", "120", "what did Nadia say about the sync bug?"
    )

    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["judgment"] == "enrich" and data["source"] == "local"
    assert data["queries"] and data["loaded"]
    assert len(data["block"]) <= 120 * 3.5
    assert set(data) >= {"judgment", "queries", "results", "block", "loaded", "reasons"}


@pytest.mark.parametrize(
    ("message", "first_line", "rest"),
    [
        ("thanks!", "judgment: pass_through  (short_circuit)", "nothing would be injected"),
        (
            "explain how a mutex differs from a semaphore",
            "judgment: pass_through  (local)",
            "nothing would be injected",
        ),
        (
            "search my brain for anything about the SBIR grant",
            "judgment: step_back  (local)",
            "_Brain context: stepping back — you are directly querying your knowledge graph._",
        ),
    ],
)
def test_enrich_for_other_judgments(home: Path, message: str, first_line: str, rest: str) -> None:
    done = brain(home, "enrich", message)

    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == first_line
    assert done.stdout.rstrip().endswith(rest)


def test_enrich_in_a_session_uses_its_summary(home: Path) -> None:
    done = brain(
        home,
        "enrich",
        "--session",
        "grant-session",
        "--json",
        "let's continue with that section we started",
    )

    data = json.loads(done.stdout)
    assert data["judgment"] == "enrich"
    assert "SBIR Project Narrative" in data["loaded"]


def test_enrich_reads_a_long_message_from_stdin(home: Path) -> None:
    message = "how is Kevin's cohort going? " + "Some background on the day. " * 400
    done = brain(home, "enrich", "--json", "-", stdin=message)

    assert json.loads(done.stdout)["judgment"] == "enrich"


# -- brain chat -----------------------------------------------------------------------


def _scripted(request: FakeRequest):
    if request.system.startswith(JUDGE_SYSTEM):
        if "Kevin" in request.user_text:
            return reply_json({"judgment": "enrich", "queries": ["Kevin Alvarez cohort"]})
        return reply_json({"judgment": "pass_through", "queries": []})
    if request.system.startswith(EXTRACT_SYSTEM):
        return reply_json({"facts": []})
    if request.system.startswith(CURATOR_SYSTEM):
        if any(m["role"] == "tool" for m in request.messages):
            return reply_text("Done.")
        return reply_tool_calls([("update_title", {"title": "Kevin's Cohort This Month"})])
    return reply_text(REPLY)


def _llm_env(server: FakeLLMServer) -> dict[str, str]:
    return {
        "BRAIN_LLM_PROVIDER": "openai",
        "BRAIN_LLM_BASE_URL": server.openai_base_url,
        "BRAIN_LLM_MODEL": "fake-chat",
        "BRAIN_LLM_API_KEY": "test",
    }


def test_chat_runs_the_bridge_around_every_turn(home: Path, fake_llm_server: FakeLLMServer) -> None:
    fake_llm_server.responder = _scripted
    stdin = "how is Kevin's cohort going this month?\n/ctx\nthanks, that's all for now!\n/quit\n"

    done = brain(
        home, "chat", "--session", "0123abcd-chat", stdin=stdin, **_llm_env(fake_llm_server)
    )

    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count(REPLY) == 2
    first, second = out.split(REPLY)[1:]
    loaded = first.splitlines()[1]
    assert loaded.startswith("🧠 ") and loaded.endswith("brain contexts loaded")
    # /ctx expands the last turn: its judgment, queries and items.
    assert "judgment: enrich  (llm)" in first and 'queries:  "Kevin Alvarez cohort"' in first
    assert "- **Kevin Alvarez** (knowledge, Person)" in first
    assert "🧠" not in second  # pass-through: no line at all

    chats = [
        r
        for r in fake_llm_server.requests
        if not r.system.startswith((JUDGE_SYSTEM, EXTRACT_SYSTEM, CURATOR_SYSTEM))
    ]
    assert len(chats) == 2
    assert "## Brain Context" in chats[0].system and "Kevin Alvarez" in chats[0].system
    assert "## Brain Context" not in chats[1].system
    assert [m["role"] for m in chats[1].messages] == ["user", "assistant", "user"]

    async def _stored() -> tuple:
        b = await Brain.open(home, embedder=None, background_indexing=False)
        try:
            session = await b._run(b.sessions.get, "0123abcd-chat")
            return (
                session,
                await b.get_entity(CHAT_EXCHANGE, "0123abcd:ex:1"),
                await b.get_entity(CHAT_EXCHANGE, "0123abcd:ex:2"),
            )
        finally:
            await b.close()

    session, ex1, ex2 = asyncio.run(_stored())
    assert ex1 is not None and ex1.attributes["ai_response"] == REPLY
    assert ex2 is not None
    assert session.message_count == 2
    assert [e["judgment"] for e in session.bridge_context_log] == ["enrich", "pass_through"]
    # The curator runs in chat as in `brain serve` and the hooks.
    assert session.title == "Kevin's Cohort This Month"


def test_chat_keeps_going_when_the_llm_fails(home: Path, fake_llm_server: FakeLLMServer) -> None:
    fake_llm_server.responder = _scripted
    fake_llm_server.fail(500, "overloaded")  # the first request of the first turn
    stdin = "explain how a mutex differs from a semaphore\nand now in one sentence please\n"

    done = brain(home, "chat", stdin=stdin, **_llm_env(fake_llm_server))

    assert done.returncode == 0, done.stderr
    assert done.stdout.count(REPLY) >= 1


def test_chat_without_an_llm_says_how_to_configure_one(home: Path) -> None:
    done = brain(home, "chat", stdin="hello there, anyone home?\n")

    assert done.returncode == 2  # invalid setup, per the CLI contract
    assert "BRAIN_LLM_PROVIDER" in done.stderr and "config.toml" in done.stderr
    assert done.stdout == ""
