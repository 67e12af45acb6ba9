"""The HTTP adapter: JSON endpoints for every Brain verb, the bridge, sessions, MCP and a web page."""

from brainbridge.api.app import create_app

__all__ = ["create_app"]
