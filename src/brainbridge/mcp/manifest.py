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
import os

TYPE_CHECKING = False  # typing itself is not imported: `brain mcp` answers before it could
if TYPE_CHECKING:
    from typing import Any

MANIFEST_FILE = "mcp_manifest.json"
MANIFEST_PATH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", MANIFEST_FILE)


def load_manifest() -> dict[str, Any] | None:
    """The stored manifest, or None: {"initialize": {version: result}, "handshake":
    {method: result}, "stateless": {version: {method: result}}}."""
    try:
        with open(MANIFEST_PATH, encoding="utf-8") as fh:
            manifest = json.load(fh)
    except (OSError, ValueError):
        return None
    parts = ("initialize", "handshake", "stateless")
    ok = isinstance(manifest, dict) and all(isinstance(manifest.get(k), dict) for k in parts)
    return manifest if ok else None


MODERN_META = "io.modelcontextprotocol/protocolVersion"
# What a client asks for while connecting; answered from the manifest (first page only).
LISTS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")


def version_of(params: Any) -> str | None:
    """The protocol version a stateless (2026-07 and later) request names in its `_meta`."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(MODERN_META) if isinstance(meta, dict) else None
    return version if isinstance(version, str) else None


async def record() -> dict[str, Any]:
    """Ask a real server (on a throwaway brain it never opens) what it answers.

    Two sessions: the `initialize` handshake (each version it negotiates, then the
    lists), and the stateless protocol Claude Code probes for first (`server/discover`
    and the lists, each request carrying its version).
    """
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

    from brainbridge.mcp.server import build_server

    async def never_opened() -> Any:
        raise RuntimeError("recording the manifest opens no brain")

    client = {"name": "brainbridge-manifest", "version": "1"}
    handshake: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": f"initialize {version}",
            "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": client},
        }
        for version in HANDSHAKE_PROTOCOL_VERSIONS
    ]
    handshake += [{"jsonrpc": "2.0", "method": "notifications/initialized"}]
    handshake += [{"jsonrpc": "2.0", "id": m, "method": m} for m in LISTS]
    stateless = []
    for version in MODERN_PROTOCOL_VERSIONS:
        meta = {
            MODERN_META: version,
            "io.modelcontextprotocol/clientInfo": client,
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        stateless += [
            {
                "jsonrpc": "2.0",
                "id": f"{method} {version}",
                "method": method,
                "params": {"_meta": meta},
            }
            for method in ("server/discover", *LISTS)
        ]
    answers = await _session(build_server(never_opened), handshake)
    answers |= await _session(build_server(never_opened), stateless)
    return {
        "initialize": {v: answers[f"initialize {v}"] for v in HANDSHAKE_PROTOCOL_VERSIONS},
        "handshake": {m: answers[m] for m in LISTS},
        "stateless": {
            v: {m: answers[f"{m} {v}"] for m in ("server/discover", *LISTS)}
            for v in MODERN_PROTOCOL_VERSIONS
        },
    }


async def _session(server: Any, requests: list[dict[str, Any]]) -> dict[str, Any]:
    """Run one stdio session of `requests` against the server: {request id: result}."""
    import anyio
    from mcp.server.stdio import stdio_server

    expected = sum("id" in r for r in requests)
    replies: dict[str, Any] = {}
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
            reply = json.loads(line)
            replies[reply["id"]] = reply.get("result", reply.get("error"))
            if len(replies) == expected:
                done.set()

        async def flush(self) -> None:
            pass

    lowlevel = server._lowlevel_server
    async with (
        stdio_server(stdin=Lines(), stdout=Replies()) as (read, write),  # type: ignore[arg-type]
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(lowlevel.run, read, write, lowlevel.create_initialization_options())
        await done.wait()
        tg.cancel_scope.cancel()
    return replies


def main() -> None:
    import anyio

    with open(MANIFEST_PATH, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(anyio.run(record), indent=1, sort_keys=True) + "\n")
    print(f"wrote {MANIFEST_PATH}")


if __name__ == "__main__":
    main()
