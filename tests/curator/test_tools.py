"""Each curator tool, as the LLM or the local curator would call it."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brainbridge.curator.files import activity_file, read_lines
from brainbridge.curator.tools import MAX_TITLE_CHARS, TOOLS, Rejected, Toolbox, _text
from brainbridge.llm import ToolCall
from brainbridge.model import Session

from .conftest import MIGRATION_CHAT, fixed_now, seed


async def toolbox(brain, session_id: str = "s-1") -> Toolbox:
    session = await brain._run(brain.sessions.ensure, session_id)
    return Toolbox(brain, session, fixed_now, brain.path)


async def stored(brain, session_id: str = "s-1") -> Session:
    return await brain._run(brain.sessions.get, session_id)


async def test_update_title_by_llm_is_an_ai_title(brain) -> None:
    box = await toolbox(brain)

    result = await box.execute(ToolCall("update_title", {"title": '"Postgres Migration."'}), "llm")

    assert result == "updated"
    session = await stored(brain)
    assert (session.title, session.title_source) == ("Postgres Migration", "ai")
    assert box.actions == ["Updated title"]
    assert box.records == [
        {
            "name": "update_title",
            "arguments": {"title": '"Postgres Migration."'},
            "by": "llm",
            "result": "updated",
        }
    ]


async def test_update_title_never_overwrites_a_user_title(brain) -> None:
    await brain._run(brain.sessions.ensure, "s-1")
    await brain._run(brain.sessions.update, "s-1", title="My Title", title_source="user")
    box = await toolbox(brain)

    result = await box.execute(ToolCall("update_title", {"title": "Better Title"}), "llm")

    assert result == "kept the user's title"
    assert box.actions == []
    session = await stored(brain)
    assert (session.title, session.title_source) == ("My Title", "user")
    assert "update_title" not in [t.name for t in box.offered()]


async def test_user_renaming_during_a_run_wins(brain) -> None:
    box = await toolbox(brain)  # read before the user renames the session
    await brain._run(brain.sessions.update, "s-1", title="Renamed", title_source="user")

    assert await box.execute(ToolCall("update_title", {"title": "AI"}), "llm") == (
        "kept the user's title"
    )
    assert (await stored(brain)).title == "Renamed"


async def test_update_summary_replaces_the_summary_once(brain) -> None:
    box = await toolbox(brain)
    call = ToolCall("update_summary", {"summary": "The user  plans\na Postgres migration."})

    assert await box.execute(call, "llm") == "updated"
    assert await box.execute(call, "llm") == "unchanged"

    assert (await stored(brain)).summary == "The user plans a Postgres migration."
    assert box.actions == ["Updated summary"]


async def test_log_activity_appends_one_json_line_with_the_current_title(brain) -> None:
    box = await toolbox(brain)
    await box.execute_all(
        [
            ToolCall("log_activity", {"summary": "Planned the Postgres migration."}),
            ToolCall("update_title", {"title": "Postgres Migration"}),
        ],
        "llm",
    )

    path = brain.path / "Daily" / ".activity" / "2026-03-14.jsonl"
    assert path == activity_file(brain.path, fixed_now().date())
    lines = path.read_text("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        {
            "timestamp": "2026-03-14T09:30:00+00:00",
            "session_id": "s-1",
            "title": "Postgres Migration",  # the title is updated first, whatever the order
            "summary": "Planned the Postgres migration.",
        }
    ]
    assert box.actions == ["Updated title", "Logged"]


async def test_log_activity_does_not_repeat_the_last_entry(brain) -> None:
    box = await toolbox(brain)
    call = ToolCall("log_activity", {"summary": "Planned the migration."})
    await box.execute(call, "local")
    assert await box.execute(call, "local") == "unchanged: already logged"
    assert len(read_lines(activity_file(brain.path, fixed_now().date()))) == 1


async def test_write_brain_entity_upserts_a_typed_entity(brain) -> None:
    box = await toolbox(brain)
    call = ToolCall(
        "write_brain_entity",
        {"type": "Person", "name": "Dana", "description": "Owns the billing migration."},
    )

    assert await box.execute(call, "llm") == "written"

    dana = await brain.get_entity("Person", "Dana")
    assert dana is not None and dana.description == "Owns the billing migration."
    assert box.actions == ["Wrote Person:Dana"]


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ({"type": "Spaceship", "name": "X", "description": "d"}, "unknown entity type"),
        ({"type": "Chat_Exchange", "name": "x:ex:1", "description": "d"}, "written by the bridge"),
        ({"type": "Person", "name": "   ", "description": "d"}, "name is empty"),
        ({"type": "Person", "name": 7, "description": "d"}, "name must be a string"),
        ({"type": "Person", "name": "Dana"}, "description must be a string"),
    ],
)
async def test_write_brain_entity_rejects_bad_arguments(brain, arguments, reason) -> None:
    box = await toolbox(brain)

    result = await box.execute(ToolCall("write_brain_entity", arguments), "llm")

    assert result.startswith("rejected:") and reason in result
    assert box.actions == []
    assert (await brain.stats())["entities"] == 0


@pytest.mark.parametrize(
    "call",
    [
        ToolCall("update_title", {}),
        ToolCall("update_title", {"title": ["not", "text"]}),
        ToolCall("update_summary", {"summary": None}),
        ToolCall("log_activity", {"entry": "wrong key"}),
    ],
)
async def test_invalid_arguments_are_rejected_and_recorded(brain, call) -> None:
    box = await toolbox(brain)

    result = await box.execute(call, "llm")

    assert result.startswith("rejected:")
    assert box.records[0]["result"] == result
    session = await stored(brain)
    assert (session.title, session.summary) == ("", "")


async def test_unknown_tools_are_ignored_with_a_warning(brain, caplog) -> None:
    box = await toolbox(brain)
    caplog.set_level(logging.WARNING, "brainbridge.curator")

    result = await box.execute(ToolCall("delete_everything", {"really": True}), "llm")
    await box.execute(ToolCall("__init__", {}), "llm")

    assert result == "ignored: unknown tool"
    assert "delete_everything" in caplog.text
    assert box.actions == []


async def test_secrets_in_tool_arguments_are_redacted(brain) -> None:
    key = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8" * 5
    box = await toolbox(brain)

    await box.execute(ToolCall("update_summary", {"summary": f"The user pasted {key}."}), "llm")

    session = await stored(brain)
    assert key not in session.summary and "[REDACTED" in session.summary
    assert key not in json.dumps(box.records)


async def test_the_tools_offered_are_the_four_of_the_issue(brain) -> None:
    assert [t.name for t in TOOLS] == [
        "update_title",
        "update_summary",
        "log_activity",
        "write_brain_entity",
    ]
    for tool in TOOLS:
        assert tool.parameters["type"] == "object"
        assert set(tool.parameters["required"]) <= set(tool.parameters["properties"])


@given(value=st.one_of(st.text(), st.integers(), st.none(), st.lists(st.text())))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_text_arguments_are_bounded_or_rejected(value: Any) -> None:
    try:
        text = _text({"title": value}, "title", MAX_TITLE_CHARS)
    except Rejected:
        assert not isinstance(value, str) or not value.split()
        return
    assert 0 < len(text) <= MAX_TITLE_CHARS
    assert text == text.strip() and "\n" not in text


async def test_a_local_run_records_its_tool_calls(brain) -> None:
    from brainbridge.curator import Curator

    await seed(brain, "s-1", MIGRATION_CHAT[:3])
    run = await Curator(brain, now=fixed_now).curate("s-1")

    history = (await Curator(brain).history("s-1"))[0]
    assert [c["name"] for c in history["tool_calls"]] == [
        "update_title",
        "update_summary",
        "log_activity",
    ]
    assert {c["by"] for c in history["tool_calls"]} == {"local"}
    assert history["actions"] == ["Updated title", "Updated summary", "Logged"]
    assert run.changes == "Updated title · Updated summary · Logged"
