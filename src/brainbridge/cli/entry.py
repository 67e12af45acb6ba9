"""The `brain` console script.

`brain mcp` is started by MCP clients that list its tools without waiting, so it skips
the command-line framework and answers at once (`brainbridge.mcp.stdio`); everything
else, `brain --brain X mcp` included, goes through `brainbridge.cli.main`.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run `brain`; exits with its code."""
    if sys.argv[1:] == ["mcp"]:
        from brainbridge.mcp.stdio import main as mcp

        sys.exit(mcp())
    from brainbridge.cli.main import main as cli

    cli()
