"""The MCP adapter: brain tools for any MCP client (stdio via `brain mcp`, HTTP at /mcp).

`build_server` loads on first use: importing the MCP SDK takes most of a second, and
the hooks (which only need `brainbridge.mcp.text`) must not pay for it.
"""

from __future__ import annotations

from brainbridge.lazy import lazy_exports

_EXPORTS = {"build_server": "brainbridge.mcp.server"}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)
