"""`brain mcp`: MCP over stdio, answering the handshake before the SDK has loaded.

A reader thread takes the client's lines from the first moment. Until the SDK server is
built (in another thread: importing the SDK takes most of a second) it answers
`initialize`, `tools/list` and `ping` from the recorded manifest (`manifest.py`) and
holds every other message. Then the SDK takes over the session: it is handed the
client's `initialize` again (its answer, a copy of the one already sent, is dropped),
then everything held, then the live stream. A client that asks for its tools at once
therefore gets them in milliseconds, and every tool call still runs in the SDK.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
from collections.abc import AsyncIterator, Callable
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

EOF = None


class Front:
    """The session before and after the hand-off; `lines` is what the SDK will read."""

    def __init__(self, manifest: dict[str, Any] | None, out: IO[bytes]) -> None:
        self.manifest = manifest
        self.out = out
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.handed_over = False
        self.holding = False
        self.replayed_id: Any = None  # the SDK's answer to this id is a duplicate
        self._lock = threading.Lock()

    def take(self, line: str) -> None:
        """One line from the client: answer it here, or pass it on to the SDK."""
        with self._lock:
            if self.handed_over or self.holding:
                self.lines.put(line)
                return
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if isinstance(message, dict) and "id" not in message:
                self.lines.put(line)  # a notification: the SDK's, and nothing waits on it
                return
            answer = self._answer(message, line)
            if answer is None:
                self.holding = True  # answer nothing ahead of what waits for the SDK
                self.lines.put(line)
            else:
                self._write(answer)

    def hand_over(self) -> None:
        with self._lock:
            self.handed_over = True

    def _answer(self, message: Any, line: str) -> dict[str, Any] | None:
        if self.manifest is None or not isinstance(message, dict):
            return None
        method, params = message.get("method"), message.get("params") or {}
        result: Any = None
        if method == "initialize" and isinstance(params, dict):
            result = self.manifest["initialize"].get(str(params.get("protocolVersion")))
            if result is not None:
                self.replayed_id = message["id"]
                self.lines.put(line)  # the SDK must see the handshake too
        elif method == "tools/list" and not (isinstance(params, dict) and params.get("cursor")):
            result = self.manifest["tools/list"]
        elif method == "ping":
            result = {}
        if result is None:
            return None
        return {"jsonrpc": "2.0", "id": message["id"], "result": result}

    def write_line(self, line: str) -> None:
        """A line from the SDK, unless it repeats the handshake answer already sent."""
        if self.replayed_id is not None:
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if (
                isinstance(message, dict)
                and message.get("id") == self.replayed_id
                and "method" not in message
            ):
                self.replayed_id = None
                return
        with self._lock:
            self.out.write(line.rstrip("\n").encode("utf-8") + b"\n")
            self.out.flush()

    def _write(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
        self.out.flush()


def read_client(front: Front, stdin: IO[bytes]) -> None:
    """The reader thread: every line from the client into the front; EOF ends the queue."""
    try:
        for raw in iter(stdin.readline, b""):
            line = raw.decode("utf-8", "replace")
            if line.strip():
                front.take(line)
    finally:
        front.lines.put(EOF)


def serve(build: Callable[[], MCPServer[Any]]) -> None:
    """Serve MCP on this process's stdin and stdout until the client closes stdin.

    `build` makes the SDK server (it runs in a thread while the front answers).
    Raises: whatever `build` raises.
    """
    from brainbridge.mcp.manifest import load_manifest

    front = Front(load_manifest(), sys.stdout.buffer)
    built: dict[str, Any] = {}
    ready = threading.Event()

    def prepare() -> None:
        try:
            built["server"] = build()
        except BaseException as exc:  # re-raised on the main thread
            built["error"] = exc
        finally:
            ready.set()

    threading.Thread(target=prepare, name="mcp-sdk-import", daemon=True).start()
    threading.Thread(
        target=read_client, args=(front, sys.stdin.buffer), name="mcp-stdin", daemon=True
    ).start()
    ready.wait()
    if "error" in built:
        raise built["error"]
    run_sdk(built["server"], front)


def run_sdk(server: MCPServer[Any], front: Front) -> None:
    import anyio
    from mcp.server.stdio import stdio_server

    class Lines:
        def __aiter__(self) -> AsyncIterator[str]:
            return self._lines()

        async def _lines(self) -> AsyncIterator[str]:
            while True:
                line = await anyio.to_thread.run_sync(front.lines.get)
                if line is EOF:
                    return
                yield line

    class Out:
        async def write(self, line: str) -> None:
            front.write_line(line)

        async def flush(self) -> None:
            pass

    async def main() -> None:
        front.hand_over()
        lowlevel = server._lowlevel_server  # what MCPServer.run_stdio_async runs
        async with stdio_server(stdin=Lines(), stdout=Out()) as (read, write):  # type: ignore[arg-type]
            await lowlevel.run(read, write, lowlevel.create_initialization_options())

    anyio.run(main)
