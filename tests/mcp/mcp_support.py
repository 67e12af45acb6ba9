"""What the MCP tests share: reading plain-text results, the stdio server, a protocol guard."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp import StdioServerParameters
from mcp.types import CallToolResult, TextContent

from cli.runner import clean_env

TOOLS = {
    "brain_context",
    "brain_get",
    "brain_timeline",
    "search",
    "recall",
    "remember",
    "relate",
    "get_entity",
    "forget",
    "enrich",
    "invalidate",
    "merges",
    "observe_tool_call",
}


def text_of(result: CallToolResult) -> str:
    """The one plain-text block of a successful result (no JSON wrapper, no structured copy)."""
    assert not result.is_error, result.content
    return _plain(result)


def error_of(result: CallToolResult) -> str:
    """The message of a tool error."""
    assert result.is_error, result.content
    return _plain(result)


def _plain(result: CallToolResult) -> str:
    assert result.structured_content is None
    [block] = result.content
    assert isinstance(block, TextContent)
    assert not block.text.lstrip().startswith(("{", "[")), block.text
    return block.text


def stdio_server(home: Path, *, python_code: str | None = None) -> StdioServerParameters:
    """`brain mcp` over stdio on the brain at `home` (or `python_code` run first, then it)."""
    env = clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing")
    args = ["-m", "brainbridge.cli.main", "mcp"]
    if python_code is not None:
        run = "import runpy; runpy.run_module('brainbridge.cli.main', run_name='__main__')"
        args = ["-c", f"{python_code}\n{run}", "mcp"]
    return StdioServerParameters(command=sys.executable, args=args, env=env)


class ProtocolGuard:
    """A client message handler that keeps every line the client could not read as protocol.

    The SDK's client logs a non-JSON-RPC line on stdout and carries on, so a stray print
    in the server would go unnoticed without this.
    """

    def __init__(self) -> None:
        self.errors: list[Exception] = []

    async def __call__(self, message: Any) -> None:
        if isinstance(message, Exception):
            self.errors.append(message)
