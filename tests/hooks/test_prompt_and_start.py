"""UserPromptSubmit and SessionStart hooks as real subprocesses."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from brainbridge.brain import Brain
from brainbridge.hooks.payload import context_output
from cli.runner import COMMAND
from hooks.conftest import (
    fresh_session,
    prompt_payload,
    run_hook,
    session_start_payload,
)


def test_prompt_gets_brain_context(seeded_home: Path) -> None:
    run = run_hook(
        "prompt",
        prompt_payload("How is Kevin Ortiz getting on with the spring cohort?", fresh_session()),
        seeded_home,
    )
    context = run.context("UserPromptSubmit")
    assert context is not None and "Kevin Ortiz" in context
    assert context.startswith("## Brain Context")


def test_pass_through_prints_nothing(seeded_home: Path) -> None:
    for prompt in ("ok thanks", "yes", "lgtm", ""):
        run = run_hook("prompt", prompt_payload(prompt, fresh_session()), seeded_home)
        assert run.output() is None, prompt


def test_brain_hook_command_and_brain_option(seeded_home: Path, tmp_path: Path) -> None:
    """`brain hook prompt` (what users may write by hand) works, and honours --brain."""
    payload = prompt_payload(
        "What did Acme Robotics agree to sponsor for the cohort?", fresh_session()
    )
    elsewhere = tmp_path / "empty-home"
    run = run_hook(
        "prompt", payload, elsewhere, command=[*COMMAND, "--brain", str(seeded_home), "hook"]
    )
    context = run.context("UserPromptSubmit")
    assert context is not None and "Acme Robotics" in context
    assert not (elsewhere / "brain.db").exists()


def test_context_stays_under_claude_codes_limit(tmp_path: Path) -> None:
    home = tmp_path / "brain"

    async def fill() -> None:
        async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
            for i in range(60):
                await brain.upsert_entity(
                    "Project",
                    f"Orion module {i}",
                    description=f"Orion rollout module {i}: " + "telemetry pipeline detail " * 80,
                )

    asyncio.run(fill())
    run = run_hook(
        "prompt",
        prompt_payload(
            "Where are we with the Orion rollout modules and telemetry?", fresh_session()
        ),
        home,
    )
    context = run.context("UserPromptSubmit")
    assert context is not None and "Orion" in context  # the checks in context() cap the size


@given(st.text(max_size=30_000))
def test_context_output_is_valid_and_bounded(text: str) -> None:
    data = json.loads(context_output("UserPromptSubmit", text))
    out = data["hookSpecificOutput"]["additionalContext"]
    assert data["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert len(out) <= 10_000
    if len(text) <= 9_500:
        assert out == text


def test_session_start_loads_project_context(seeded_home: Path) -> None:
    for source in ("startup", "resume", "clear", "compact"):
        run = run_hook(
            "session-start", session_start_payload("/home/dev/src/litellm", source), seeded_home
        )
        context = run.context("SessionStart")
        assert context is not None and "litellm config drift" in context, source


def test_session_start_without_a_match_prints_nothing(tmp_path: Path) -> None:
    run = run_hook(
        "session-start", session_start_payload("/home/dev/src/unrelated-zzz"), tmp_path / "brain"
    )
    assert run.output() is None
    run = run_hook("session-start", {"hook_event_name": "SessionStart"}, tmp_path / "brain")
    assert run.output() is None
