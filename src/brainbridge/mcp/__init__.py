"""The MCP adapter: brain tools for any MCP client (stdio via `brain mcp`, HTTP at /mcp)."""

from brainbridge.mcp.server import build_server

__all__ = ["build_server"]
