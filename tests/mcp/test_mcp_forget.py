"""`forget` over MCP: the same operation as `brain forget`, with a preview first."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from mcp import Client
from mcp_support import text_of

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.forget import AUDIT_FILE
from brainbridge.mcp import build_server

SESSION = "7c0ffee0-1111-4222-8333-944445555666"


async def test_forget_a_session_previewed_then_done(tmp_path: Path) -> None:
    home = tmp_path / "brain"
    async with await Brain.open(home, embedder="hashing") as brain:
        bridge = Bridge(brain)
        said = "We decided to host the quarkplinth offsite in Tbilisi next spring."
        await bridge.observe_now(SESSION, 1, said, "Noted.", today=date(2026, 3, 2))
        await bridge.drain()

    server = build_server(lambda: Brain.open(home, embedder="hashing"))
    async with Client(server) as client:
        args = {"entity_type": "Chat_Session", "name": SESSION}
        preview = text_of(await client.call_tool("forget", {**args, "preview": True}))
        assert preview.startswith(f"Would forget Chat_Session '{SESSION}' with 1 Chat_Exchange")
        assert "- 7c0ffee0:ex:1 (Chat_Exchange)" in preview and "(Decision)" in preview
        found = text_of(await client.call_tool("search", {"query": "quarkplinth offsite"}))
        assert "quarkplinth" in found.lower()  # the preview deleted nothing

        done = text_of(await client.call_tool("forget", args))
        assert done == f"Forgot Chat_Session '{SESSION}' with 1 Chat_Exchange, 1 Decision."
        found = text_of(await client.call_tool("search", {"query": "quarkplinth offsite"}))
        assert found.startswith("Nothing in the brain matches")
        again = text_of(await client.call_tool("forget", args))
        assert again == f"No Chat_Session named '{SESSION}'."

    audit = json.loads((home / AUDIT_FILE).read_text("utf-8").splitlines()[-1])
    assert audit["via"] == "mcp" and audit["item"]["id"] == SESSION
