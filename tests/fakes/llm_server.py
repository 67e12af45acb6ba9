"""A local HTTP server that speaks the Anthropic Messages and OpenAI Chat Completions wire
formats, so tests drive the real SDK clients without a network.

Script it with a queue (`respond_json`, `respond_text`, `respond_tool_calls`, `fail`, `slow`,
`malformed`, `broken_body`) or a `responder(request) -> Behaviour` for tests that make many
calls. Every request is recorded in `server.requests`.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from .llm_wire import (
    REASONS,
    Behaviour,
    FakeRequest,
    anthropic_events,
    anthropic_message,
    error_body,
    new_id,
    openai_completion,
)

log = logging.getLogger(__name__)

__all__ = [
    "Behaviour",
    "FakeLLMServer",
    "FakeRequest",
    "broken_body",
    "error",
    "fake_llm_server",
    "malformed",
    "raw",
    "reply_json",
    "reply_text",
    "reply_tool_calls",
    "slow",
    "unused_local_url",
]


def reply_text(text: str) -> Behaviour:
    """The model answers with plain text."""
    return Behaviour(text=text)


def reply_json(value: Any) -> Behaviour:
    """The model answers with this JSON value: as the forced tool's input when the Anthropic
    request forces a tool, as message text otherwise."""
    return Behaviour(json=value)


def reply_tool_calls(calls: Iterable[tuple[str, Mapping[str, Any]] | Any]) -> Behaviour:
    """The model calls these tools, given as (name, arguments) pairs or ToolCall objects."""
    pairs = []
    for call in calls:
        name, arguments = (call.name, call.arguments) if hasattr(call, "name") else call
        pairs.append((name, dict(arguments)))
    return Behaviour(tool_calls=tuple(pairs))


def error(status: int, message: str = "", *, retry_after: int | None = None) -> Behaviour:
    """The API answers with an HTTP error in the provider's error format."""
    if status == 429 and retry_after is None:
        retry_after = 1
    return Behaviour(status=status, error_message=message, retry_after=retry_after)


def malformed() -> Behaviour:
    """A well-formed response whose model text is not valid JSON (and makes no tool call)."""
    return Behaviour(text='Sure! Here it is: {"title": "Unfinished, "summary": ')


def broken_body() -> Behaviour:
    """HTTP 200 labelled JSON whose body is not JSON, as a misbehaving proxy might send."""
    return raw(200, b"<html><body>502 Bad Gateway</body></html>")


def raw(status: int, body: bytes | str | Mapping[str, Any], content_type: str = "") -> Behaviour:
    """Send exactly this status and body, for wire-level cases the helpers do not cover."""
    if isinstance(body, Mapping):
        body = json.dumps(body)
    data = body.encode() if isinstance(body, str) else body
    return Behaviour(status=status, raw_body=data, content_type=content_type or "application/json")


def slow(seconds: float, then: Behaviour | None = None) -> Behaviour:
    """Wait `seconds` before answering (with `then`, or a short text)."""
    return replace(then or reply_text("late answer"), delay=seconds)


Responder = Callable[[FakeRequest], Behaviour | None]


class FakeLLMServer:
    """A threaded HTTP server on 127.0.0.1 that plays a scripted model.

    Order of precedence per request: the queue, then `responder`, then `default`; with none
    of them the server answers 500 and counts the request in `unscripted`.
    """

    def __init__(self, *, keep_alive: bool = True) -> None:
        """`keep_alive=False` closes every connection after its answer, like some proxies."""
        self.keep_alive = keep_alive
        self.responder: Responder | None = None
        self.default: Behaviour | None = None
        self.unscripted = 0
        self._queue: deque[Behaviour] = deque()
        self._requests: list[FakeRequest] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # lifecycle

    def start(self) -> FakeLLMServer:
        """Bind an ephemeral port and serve in a background thread."""
        self._httpd = _Server(("127.0.0.1", 0), _Handler, self)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving; wakes any handler sleeping in `slow` so nothing outlives the test."""
        self._closing.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # addresses

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT"""
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def anthropic_base_url(self) -> str:
        """base_url for AnthropicLLM / AsyncAnthropic (the SDK appends /v1/messages)."""
        return self.url

    @property
    def openai_base_url(self) -> str:
        """base_url for OpenAICompatLLM / AsyncOpenAI (the SDK appends /chat/completions)."""
        return f"{self.url}/v1"

    # scripting

    def enqueue(self, *behaviours: Behaviour) -> None:
        """Answer the next requests with these behaviours, in order."""
        with self._lock:
            self._queue.extend(behaviours)

    def respond_text(self, text: str) -> None:
        """Next request: the model answers with `text`."""
        self.enqueue(reply_text(text))

    def respond_json(self, value: Any) -> None:
        """Next request: the model answers with this JSON value."""
        self.enqueue(reply_json(value))

    def respond_tool_calls(self, calls: Iterable[tuple[str, Mapping[str, Any]] | Any]) -> None:
        """Next request: the model calls these tools."""
        self.enqueue(reply_tool_calls(calls))

    def fail(self, status: int, message: str = "", *, retry_after: int | None = None) -> None:
        """Next request: an HTTP error (429 carries a retry-after header)."""
        self.enqueue(error(status, message, retry_after=retry_after))

    def slow(self, seconds: float, then: Behaviour | None = None) -> None:
        """Next request: answer only after `seconds`."""
        self.enqueue(slow(seconds, then))

    def malformed(self) -> None:
        """Next request: the model's answer is not valid JSON."""
        self.enqueue(malformed())

    def broken_body(self) -> None:
        """Next request: HTTP 200 with a body that is not JSON."""
        self.enqueue(broken_body())

    # inspection

    @property
    def requests(self) -> list[FakeRequest]:
        """Every request received so far, oldest first."""
        with self._lock:
            return list(self._requests)

    @property
    def last_request(self) -> FakeRequest:
        """The most recent request."""
        with self._lock:
            assert self._requests, "the fake LLM server received no request"
            return self._requests[-1]

    @property
    def pending(self) -> int:
        """Queued behaviours not yet used."""
        with self._lock:
            return len(self._queue)

    # called from handler threads

    def _choose(self, request: FakeRequest) -> Behaviour | None:
        with self._lock:
            self._requests.append(request)
            if self._queue:
                return self._queue.popleft()
        behaviour = self.responder(request) if self.responder is not None else None
        if behaviour is None:
            behaviour = self.default
        if behaviour is None:
            with self._lock:
                self.unscripted += 1
        return behaviour


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type, fake: FakeLLMServer) -> None:
        super().__init__(address, handler)
        self.fake = fake

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (timeout) closes its socket; that is expected, not a failure.
        log.debug("fake LLM server: error while handling %s", client_address, exc_info=True)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("fake LLM server: " + format, *args)

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        request = FakeRequest(
            path=self.path.split("?", 1)[0],
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
        )
        if request.path not in ("/v1/messages", "/v1/chat/completions"):
            self._send(404, {"error": {"message": f"no route {request.path}"}})
            return
        fake = self.server.fake
        try:
            behaviour = fake._choose(request)
        except Exception as exc:  # a buggy responder must show up in the test, not hang it
            log.exception("fake LLM server: responder failed")
            self._send(500, error_body(request, 500, f"responder raised {exc!r}"))
            return
        if behaviour is None:
            self._send(500, error_body(request, 500, "fake LLM server: nothing scripted"))
            return
        if behaviour.delay and fake._closing.wait(behaviour.delay):
            self.close_connection = True
            return
        self._answer(request, behaviour)

    def _answer(self, request: FakeRequest, behaviour: Behaviour) -> None:
        if behaviour.raw_body is not None:
            self._send(behaviour.status, behaviour.raw_body, content_type=behaviour.content_type)
        elif behaviour.status != 200:
            headers = {}
            if behaviour.retry_after is not None:
                headers["retry-after"] = str(behaviour.retry_after)
            message = behaviour.error_message or REASONS.get(behaviour.status, "Error")
            self._send(behaviour.status, error_body(request, behaviour.status, message), headers)
        elif request.provider == "anthropic" and request.body.get("stream"):
            events = anthropic_events(anthropic_message(request, behaviour))
            self._send(200, events, content_type="text/event-stream")
        elif request.provider == "anthropic":
            self._send(200, anthropic_message(request, behaviour))
        else:
            self._send(200, openai_completion(request, behaviour))

    def _send(
        self,
        status: int,
        body: Any,
        headers: Mapping[str, str] | None = None,
        content_type: str = "application/json",
    ) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", new_id("req_fake"))
            if not self.server.fake.keep_alive:
                self.send_header("connection", "close")
                self.close_connection = True
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            log.debug("fake LLM server: client went away before the answer")


def unused_local_url() -> str:
    """An http://127.0.0.1 URL nothing listens on, for connection-refused tests."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def fake_llm_server() -> Iterator[FakeLLMServer]:
    """A running FakeLLMServer, closed after the test."""
    with FakeLLMServer() as server:
        yield server
