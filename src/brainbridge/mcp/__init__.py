"""The MCP adapter: brain tools for any MCP client (stdio via `brain mcp`, HTTP at /mcp).

`build_server` loads on first use: importing the MCP SDK takes most of a second, and
the hooks (which only need `brainbridge.mcp.text`) must not pay for it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["build_server"]


def __getattr__(name: str) -> Any:
    if name == "build_server":
        from brainbridge.mcp.server import build_server

        return build_server
    raise AttributeError(f"module 'brainbridge.mcp' has no attribute {name!r}")
