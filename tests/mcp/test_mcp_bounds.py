"""Numbers, nesting and dates at the MCP door (`brain mcp` over stdio): every bad argument
is answered with a tool error that says what is wrong, never silence or a bare failure."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp_support import error_of, stdio_server, text_of

from brainbridge.brain import Brain


def nested(depth: int) -> dict[str, object]:
    value: dict[str, object] = {"leaf": "x"}
    for _ in range(depth - 1):
        value = {"k": value}
    return value


@pytest.fixture
async def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        await brain.upsert_entity("Project", "Atlas", description="the campus map")
    return home


async def test_deep_attributes_huge_ids_and_bad_dates_get_clear_errors(home: Path) -> None:
    async with Client(stdio_server(home)) as client:
        with anyio.fail_after(60):  # before the fix: no answer at all
            deep = await client.call_tool(
                "remember", {"entity_type": "Project", "name": "Deep", "attributes": nested(200)}
            )
        assert "deeper than 32 levels" in error_of(deep)
        just_over = await client.call_tool(
            "remember", {"entity_type": "Project", "name": "Deep", "attributes": nested(33)}
        )
        assert "attributes nests deeper than 32 levels" in error_of(just_over)
        shallow = await client.call_tool(
            "remember", {"entity_type": "Project", "name": "Fine", "attributes": nested(4)}
        )
        assert text_of(shallow) == "Remembered Project 'Fine'."

        huge = await client.call_tool("merges", {"action": "accept", "merge_id": 2**63 - 1})
        assert "less than or equal to 2147483647" in error_of(huge)

        for tool in ("search", "recall"):
            bad = await client.call_tool(tool, {"query": "campus map", "as_of": "garbage"})
            assert "not a date: 'garbage'" in error_of(bad), tool
        found = await client.call_tool("recall", {"query": "campus map", "as_of": "2999-01-01"})
        assert "Atlas" in text_of(found)
