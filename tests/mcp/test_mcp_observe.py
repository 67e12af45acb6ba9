"""observe_tool_call over MCP: another agent's tool calls become observations."""

from __future__ import annotations

from pathlib import Path

from mcp import Client
from mcp_support import text_of

from brainbridge.brain import Brain
from brainbridge.mcp import build_server
from brainbridge.model import FILE


async def test_an_agent_records_its_tool_calls(tmp_path: Path) -> None:
    home, project = tmp_path / "brain", tmp_path / "proj"
    call = {"session_id": "agent-7", "cwd": str(project)}
    async with Client(build_server(lambda: Brain.open(home, embedder=None))) as client:
        wrote = text_of(
            await client.call_tool(
                "observe_tool_call",
                {**call, "tool_name": "write_file", "tool_input": {"path": "src/app.py"}},
            )
        )
        failed = text_of(
            await client.call_tool(
                "observe_tool_call",
                {
                    **call,
                    "tool_name": "run_shell_command",
                    "tool_input": {"command": "npm test"},
                    "exit_code": 1,
                    "error": "TypeError: app.listen is not a function",
                },
            )
        )
        noise = text_of(
            await client.call_tool(
                "observe_tool_call",
                {**call, "tool_name": "run_shell_command", "tool_input": {"command": "pwd"}},
            )
        )
    assert wrote == "Observed: edited src/app.py: done"
    assert failed == (
        "Observed: ran npm test: failed (exit 1): TypeError: app.listen is not a function"
    )
    assert noise.startswith("Nothing to record")
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        assert await brain.get_entity(FILE, "src/app.py") is not None
