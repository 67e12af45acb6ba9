"""`brain mcp` as Claude Code runs it: a subprocess speaking MCP on stdin/stdout."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp_support import TOOLS, ProtocolGuard, error_of, stdio_server, text_of

from brainbridge.brain import Brain
from projects.graph_brain import DRIFT, fill


@pytest.fixture
async def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        await fill(brain)
    return home


async def test_every_tool_in_one_stdio_session(home: Path) -> None:
    guard = ProtocolGuard()
    async with Client(stdio_server(home), message_handler=guard) as client:
        # Found by a new user: the server said its version was "".
        assert client.server_info is not None and client.server_info.version
        tools = (await client.list_tools()).tools
        assert {t.name for t in tools} == TOOLS and all(t.description for t in tools)

        said = text_of(
            await client.call_tool(
                "remember",
                {
                    "entity_type": "Person",
                    "name": "Ana Souza",
                    "description": "Platform engineer who owns the proxy's Helm chart.",
                    "attributes": {"role": "platform engineer"},
                },
            )
        )
        assert said == "Remembered Person 'Ana Souza'."
        linked = text_of(
            await client.call_tool(
                "relate", {"source": "Ana Souza", "relation": "works_on", "target": "LiteLLM"}
            )
        )
        assert linked == "Linked Person 'Ana Souza' -works_on-> Project 'LiteLLM'."

        found = text_of(await client.call_tool("search", {"query": "helm chart proxy"}))
        assert "1. Ana Souza (Person): Platform engineer" in found
        recalled = text_of(await client.call_tool("recall", {"query": "staging prod config"}))
        assert DRIFT[1] in recalled
        shown = text_of(await client.call_tool("get_entity", {"name": "Ana Souza"}))
        assert "role=platform engineer" in shown and "-works_on-> LiteLLM" in shown

        context = text_of(
            await client.call_tool("brain_context", {"project_root": "/home/me/src/litellm"})
        )
        assert context.startswith("Brain context for /home/me/src/litellm:")
        assert "Ana Souza (Person)" in context and DRIFT[1] in context  # through the graph

        block = text_of(
            await client.call_tool(
                "enrich",
                {"message": "What does Ana Souza work on these days, and with whom?"},
            )
        )
        assert block.startswith("## Brain Context") and "Ana Souza" in block

        forgot = text_of(
            await client.call_tool("forget", {"entity_type": "Person", "name": "Ana Souza"})
        )
        assert forgot == "Forgot Person 'Ana Souza'."
        assert "no entity named 'Ana Souza'" in error_of(
            await client.call_tool("get_entity", {"name": "Ana Souza"})
        )
        assert "unknown entity type 'Robot'" in error_of(
            await client.call_tool("remember", {"entity_type": "Robot", "name": "R2"})
        )
        junk = text_of(await client.call_tool("search", {"query": '"NEAR( AND * :^'}))
        assert junk.startswith(("Nothing in the brain matches", "1 result", "2 results"))

    assert guard.errors == []  # every line on stdout was protocol

    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        assert await brain.get_entity("Person", "Ana Souza") is None  # the writes were real
        assert await brain.get_entity("Project", "LiteLLM") is not None


async def test_the_guard_catches_a_stray_print_on_stdout(home: Path) -> None:
    """The check above can fail: a server that prints once is caught by it."""
    guard = ProtocolGuard()
    server = stdio_server(home, python_code="print('loading the brain...')")
    async with Client(server, message_handler=guard) as client:
        text_of(await client.call_tool("search", {"query": "litellm"}))

    assert len(guard.errors) == 1
    assert "loading the brain..." in str(guard.errors[0])


@pytest.mark.sqlite_only
async def test_a_broken_brain_folder_is_a_tool_error_not_a_dead_server(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "brain.db").write_bytes(b"this is not a database" * 100)
    guard = ProtocolGuard()
    async with Client(stdio_server(home), message_handler=guard) as client:
        result = await client.call_tool("search", {"query": "anything"})
        message = error_of(result)
        assert "brain.db is not a usable brain database" in message
        assert "Traceback" not in message
        tools = (await client.list_tools()).tools  # still serving
        assert {t.name for t in tools} == TOOLS
    assert guard.errors == []
