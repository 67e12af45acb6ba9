"""The review queue over MCP."""

from __future__ import annotations

from pathlib import Path

from mcp import Client
from mcp_support import error_of, text_of

from brainbridge.brain import Brain
from brainbridge.mcp import build_server


async def test_list_accept_and_undo(tmp_path: Path) -> None:
    home = tmp_path / "brain"
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        await brain.upsert_entity("Person", "Ingrid Solberg")
        await brain.upsert_entity("Person", "Ingrid Solbergh")
        mid = await brain._run(
            brain.store.propose_merge,
            "Person",
            "Ingrid Solberg",
            "Ingrid Solbergh",
            0.97,
            "names nearly alike",
        )
    async with Client(build_server(lambda: Brain.open(home, embedder=None))) as client:
        listed = text_of(await client.call_tool("merges", {}))
        accepted = text_of(await client.call_tool("merges", {"action": "accept", "merge_id": mid}))
        undone = text_of(await client.call_tool("merges", {"action": "undo", "merge_id": mid}))
        bad = error_of(await client.call_tool("merges", {"action": "accept"}))
    assert (
        listed == f"#{mid} Person: 'Ingrid Solberg' ~ 'Ingrid Solbergh' (names nearly alike, 0.97)"
    )
    assert accepted.endswith("is merged.") and undone.endswith("is unmerged.")
    assert "need merge_id" in bad
