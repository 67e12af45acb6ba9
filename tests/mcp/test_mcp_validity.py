"""Facts over time: invalidate, as_of and superseded over MCP."""

from __future__ import annotations

from pathlib import Path

from mcp import Client
from mcp_support import text_of

from brainbridge.brain import Brain
from brainbridge.mcp import build_server
from test_facts_over_time import _lead_changed, _venues


async def test_mcp_invalidate_and_search_as_of(tmp_path: Path) -> None:
    home = tmp_path / "brain"
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        await _venues(brain)
        await brain.upsert_entity("Commitment", "Book the bus", {"status": "open"})
    server = build_server(lambda: Brain.open(home, embedder="hashing"))
    async with Client(server) as client:
        done = text_of(
            await client.call_tool("invalidate", {"name": "Book the bus", "on": "2026-11-02"})
        )
        now = text_of(await client.call_tool("search", {"query": "offsite venue"}))
        then = text_of(
            await client.call_tool("recall", {"query": "offsite venue", "as_of": "2026-10-15"})
        )
    assert done == "Commitment 'Book the bus' no longer holds from 2026-11-02."
    assert "Hotel Avenida" in now and "room Tejo" not in now
    assert "room Tejo" in then and "Hotel Avenida" not in then


async def test_mcp_search_marks_what_was_replaced_in_part(tmp_path: Path) -> None:
    # Found as a user: the block marked "the engineering lead is Kwame" as replaced, but the
    # search tool it points the agent to listed the same exchange first, unmarked.
    home = tmp_path / "brain"
    await _lead_changed(home)
    server = build_server(lambda: Brain.open(home, embedder="hashing"))
    async with Client(server) as client:
        found = text_of(await client.call_tool("search", {"query": "engineering lead"}))
    [old] = [line for line in found.splitlines() if "is Kwame" in line]
    assert '["the engineering lead is Kwame" superseded on 2026-11-12 by s1:ex:2]' in old, found
    [new] = [line for line in found.splitlines() if "take over" in line]
    assert "superseded" not in new
