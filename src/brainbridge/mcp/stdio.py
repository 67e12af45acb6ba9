"""`brain mcp`: MCP over stdio, answering the handshake before the SDK has loaded.

A reader thread takes the client's lines from the first moment. Until the SDK server is
built (in another thread: importing the SDK takes most of a second) it answers from the
recorded manifest (`manifest.py`): Claude Code's `server/discover` probe and the lists of
the stateless protocol, `initialize`, the lists and `ping` of the handshake one; it
acknowledges a `subscriptions/listen` stream as the SDK would, and holds every other
message. Then the SDK takes over the session: it is handed the
client's `initialize` again (its answer, a copy of the one already sent, is dropped),
then everything held, then the live stream. A client that asks for its tools at once
therefore gets them in milliseconds, and every tool call still runs in the SDK.
"""

from __future__ import annotations

import contextlib
import json
import queue
import re
import sys
import threading

from brainbridge.bounds import MAX_DEPTH, depth_of
from brainbridge.mcp.manifest import version_of

TYPE_CHECKING = False  # typing itself is not imported: the first answer must not wait for it
if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable
    from typing import IO, Any

    from mcp.server.mcpserver import MCPServer

    from brainbridge.settings import Settings

EOF = None
# A message's envelope (message → params → arguments) around a tool's argument: a message
# nested deeper than this is answered here, before the SDK's parser (which never answered
# one nested 200 deep). Arguments within it are bounded by the tools themselves.
MAX_MESSAGE_DEPTH = MAX_DEPTH + 4
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"


class Front:
    """The session before and after the hand-off; `lines` is what the SDK will read."""

    def __init__(self, manifest: dict[str, Any] | None, out: IO[bytes]) -> None:
        self.manifest = manifest
        self.out = out
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.handed_over = False
        self.holding = False
        self.replayed_id: Any = None  # the SDK's answer to this id is a duplicate
        self.acknowledged: set[str] = set()  # listen streams acknowledged here (JSON ids)
        self._lock = threading.Lock()

    def take(self, line: str) -> None:
        """One line from the client: answer it here, or pass it on to the SDK."""
        with self._lock:
            if self._too_deep(line):
                return
            if self.handed_over:
                self.lines.put(line)
                return
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if isinstance(message, dict) and "id" not in message:
                self.lines.put(line)  # a notification: the SDK's, and nothing waits on it
                return
            stateless = isinstance(message, dict) and version_of(message.get("params"))
            # A handshake session is ordered: nothing is answered ahead of a held request.
            # Stateless requests stand alone (a held subscriptions/listen blocks nothing).
            answer = None if self.holding and not stateless else self._answer(message, line)
            if answer is None:
                self.holding = self.holding or not stateless
                self.lines.put(line)
            else:
                self._write(answer)

    def _too_deep(self, line: str) -> bool:
        """Whether `line` nests deeper than MAX_MESSAGE_DEPTH; such a request is answered
        here with an error that says so (a tool call with a tool error the model can read).
        Called with the lock held."""
        if line.count("{") + line.count("[") <= MAX_MESSAGE_DEPTH:
            return False  # cannot nest that deep: no need to parse it twice
        try:
            message = json.loads(line)
        except RecursionError:  # deeper than the parser goes: find what to answer by hand
            message = _envelope(line)
        except ValueError:
            return False  # not JSON: the SDK answers that
        if message is not None and depth_of(message, MAX_MESSAGE_DEPTH + 1) <= MAX_MESSAGE_DEPTH:
            return False
        said = f"the request nests deeper than {MAX_MESSAGE_DEPTH} levels"
        if isinstance(message, dict) and "id" not in message:
            return True  # a notification: nobody waits for an answer
        if not isinstance(message, dict):
            self._write({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": said}})
            return True
        if message.get("method") == "tools/call":
            text = f"the arguments nest deeper than {MAX_DEPTH} levels"
            result = {
                "content": [{"type": "text", "text": text}],
                "isError": True,
                "resultType": "complete",
            }
            self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})
        else:
            error = {"code": -32600, "message": said}
            self._write({"jsonrpc": "2.0", "id": message["id"], "error": error})
        return True

    def hand_over(self) -> None:
        with self._lock:
            self.handed_over = True

    def _answer(self, message: Any, line: str) -> dict[str, Any] | None:
        if self.manifest is None or not isinstance(message, dict):
            return None
        method, params = message.get("method"), message.get("params") or {}
        if isinstance(params, dict) and params.get("cursor"):
            return None  # later pages: the SDK's
        version = version_of(params)  # the 2026-07 protocol: no initialize, versioned calls
        result: Any = None
        if version is not None and method == "subscriptions/listen":
            self._acknowledge(message, params)
            return None  # and on to the SDK, which serves the stream
        if version is not None:
            result = self.manifest["stateless"].get(version, {}).get(method)
        elif method == "initialize" and isinstance(params, dict):
            result = self.manifest["initialize"].get(str(params.get("protocolVersion")))
            if result is not None:
                self.replayed_id = message["id"]
                self.lines.put(line)  # the SDK must see the handshake too
        elif method == "ping":
            result = {}
        else:
            result = self.manifest["handshake"].get(str(method))
        if result is None:
            return None
        return {"jsonrpc": "2.0", "id": message["id"], "result": result}

    def _acknowledge(self, message: dict[str, Any], params: dict[str, Any]) -> None:
        """Acknowledge a listen stream now (Claude Code waits for it before listing tools)
        as the SDK would: every kind asked for is honoured. The SDK serves the stream from
        the hand-over on; its own acknowledgement, a copy, is dropped."""
        asked = params.get("notifications")
        asked = asked if isinstance(asked, dict) else {}
        honoured: dict[str, Any] = {
            k: True
            for k in ("toolsListChanged", "promptsListChanged", "resourcesListChanged")
            if asked.get(k)
        }
        if asked.get("resourceSubscriptions"):
            honoured["resourceSubscriptions"] = list(asked["resourceSubscriptions"])
        self._write(
            {
                "jsonrpc": "2.0",
                "method": ACKNOWLEDGED,
                "params": {"_meta": {SUBSCRIPTION_ID: message["id"]}, "notifications": honoured},
            }
        )
        self.acknowledged.add(json.dumps(message["id"]))

    def write_line(self, line: str) -> None:
        """A line from the SDK, unless it repeats the handshake answer already sent."""
        if self.replayed_id is not None or self.acknowledged:
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if _is_copy(message, self):
                return
        with self._lock:
            self.out.write(line.rstrip("\n").encode("utf-8") + b"\n")
            self.out.flush()

    def _write(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
        self.out.flush()


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')


def _envelope(line: str) -> dict[str, Any] | None:
    """The top-level `id` and `method` of a message too deep for `json.loads` (a client
    waits for the answer to that id), or None when the line is no JSON object."""
    found: dict[str, Any] = {}
    depth, key, last = 0, None, ""
    for m in _TOKEN.finditer(line):
        token = m.group()
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
        elif depth == 1 and token == ":":
            key = last
        elif depth == 1 and key in ('"id"', '"method"') and token != ",":
            with contextlib.suppress(ValueError):
                found[json.loads(key)] = json.loads(token)
            key = None
        elif token == ",":
            key = None
        last = token
        if len(found) == 2:
            break
    return found if line.lstrip().startswith("{") else None


def _is_copy(message: Any, front: Front) -> bool:
    """The SDK's answer to the replayed initialize, or its acknowledgement of a listen
    stream the front already acknowledged (each dropped once)."""
    if not isinstance(message, dict):
        return False
    if "method" not in message and message.get("id") == front.replayed_id:
        front.replayed_id = None
        return True
    if message.get("method") == ACKNOWLEDGED:
        meta = (message.get("params") or {}).get("_meta") or {}
        key = json.dumps(meta.get(SUBSCRIPTION_ID))
        if key in front.acknowledged:
            front.acknowledged.discard(key)
            return True
    return False


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

    # The reader first, and short GIL turns while the SDK imports in the other thread, so a
    # waiting client is answered within milliseconds.
    threading.Thread(
        target=read_client, args=(front, sys.stdin.buffer), name="mcp-stdin", daemon=True
    ).start()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    threading.Thread(target=prepare, name="mcp-sdk-import", daemon=True).start()
    ready.wait()
    sys.setswitchinterval(interval)
    if "error" in built:
        raise built["error"]
    run_sdk(built["server"], front)


def server_for(settings: Settings) -> MCPServer[Any]:
    """The SDK server on the brain and LLM that `settings` name (the brain opens on first use).

    Raises: BrainError for an LLM setting that cannot be used.
    """
    from brainbridge.brain import Brain
    from brainbridge.mcp.server import build_server

    llm = settings.make_llm()
    return build_server(
        lambda: Brain.open(settings.brain_path, embedder=settings.embedder),
        make_bridge=lambda brain: settings.make_bridge(brain, llm),
    )


def main() -> int:
    """`brain mcp` without the CLI framework: the first answer goes out in milliseconds.

    Problems (a missing package, a bad setting) are one line on stderr and exit 1.
    """
    import importlib.util
    import os

    if importlib.util.find_spec("mcp") is None:
        print(
            f"brain: error: mcp is not installed in {sys.executable}; reinstall brainbridge:"
            " python -m pip install brainbridge",
            file=sys.stderr,
        )
        return 1

    def build() -> MCPServer[Any]:
        from brainbridge.settings import load_settings

        return server_for(load_settings(os.environ))

    try:
        serve(build)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        from brainbridge.errors import BrainError

        if not isinstance(exc, BrainError):
            raise
        print(f"brain: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    return 0


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
