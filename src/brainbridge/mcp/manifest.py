"""What `brain mcp` answers before the MCP SDK has loaded: the handshake and the tool list.

Importing the SDK takes most of a second, and Claude Code lists a server's tools without
waiting for it, so a slow server's tools are missing from the first requests. The
stdio front (`stdio.py`) answers `initialize` and `tools/list` from this manifest at once
and hands the session to the SDK when it is ready.

The manifest is what the real SDK server answers, recorded by driving it over its own
stdio transport; a test checks that the stored copy still matches. After changing a tool:

    python -m brainbridge.mcp.manifest      # rewrites src/brainbridge/data/mcp_manifest.json
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

MANIFEST_FILE = "mcp_manifest.json"


def load_manifest() -> dict[str, Any] | None:
    """The stored manifest: {"initialize": {version: result}, "tools/list": result}, or None."""
    try:
        text = (resources.files("brainbridge") / "data" / MANIFEST_FILE).read_text("utf-8")
        manifest = json.loads(text)
    except (OSError, ValueError):
        return None
    ok = isinstance(manifest, dict) and isinstance(manifest.get("initialize"), dict)
    return manifest if ok and isinstance(manifest.get("tools/list"), dict) else None


async def record() -> dict[str, Any]:
    """Ask a real server (on a throwaway brain it never opens) what it answers."""
    import anyio
    from mcp.server.stdio import stdio_server
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    from brainbridge.mcp.server import build_server

    async def never_opened() -> Any:
        raise RuntimeError("recording the manifest opens no brain")

    server = build_server(never_opened)
    requests = [
        {
            "jsonrpc": "2.0",
            "id": i,
            "method": "initialize",
            "params": {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "brainbridge-manifest", "version": "1"},
            },
        }
        for i, version in enumerate(HANDSHAKE_PROTOCOL_VERSIONS)
    ]
    requests += [
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": len(requests), "method": "tools/list"},
    ]
    replies: list[dict[str, Any]] = []
    done = anyio.Event()

    class Lines:
        def __aiter__(self) -> Any:
            return self._lines()

        async def _lines(self) -> Any:
            for request in requests:
                yield json.dumps(request) + "\n"
            await done.wait()

    class Replies:
        async def write(self, line: str) -> None:
            replies.append(json.loads(line))
            if len(replies) == len(requests) - 1:
                done.set()

        async def flush(self) -> None:
            pass

    async with (
        stdio_server(stdin=Lines(), stdout=Replies()) as (read, write),  # type: ignore[arg-type]
        anyio.create_task_group() as tg,
    ):
        options = server._lowlevel_server.create_initialization_options()
        tg.start_soon(server._lowlevel_server.run, read, write, options)
        await done.wait()
        tg.cancel_scope.cancel()
    by_id = {r["id"]: r["result"] for r in replies}
    return {
        "initialize": {version: by_id[i] for i, version in enumerate(HANDSHAKE_PROTOCOL_VERSIONS)},
        "tools/list": by_id[len(requests) - 2],
    }


def main() -> None:
    import anyio

    path = Path(__file__).resolve().parent.parent / "data" / MANIFEST_FILE
    path.write_text(json.dumps(anyio.run(record), indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
