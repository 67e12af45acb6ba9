"""The server's front door: Host-header check against DNS rebinding, the bearer token,
and the security headers every response carries."""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Awaitable, Callable

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def is_loopback(host: str) -> bool:
    """True for loopback addresses and names (and an empty host)."""
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


PUBLIC_PATHS = frozenset({"/", "/app.js", "/app.css", "/health", "/openapi.json"})
# On every response: the page loads only its own script and style and talks only to this
# server, no site may frame it (clickjacking), no address leaks in a Referer header, and
# no file is sniffed into another type.
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        b" connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)
# Request bodies above this are refused before they are read: a 5 MB message as JSON
# (hooks, /enrich, /observe) fits with room to spare.
MAX_BODY = 16 * 1024 * 1024
# The scope key naming the person a request acts as (absent: the brain's owner).
PERSON = "brainbridge.person"


class People:
    """How the guard knows a team brain's people: whether it has any, and whose a token
    is (None: nobody's, or revoked). Both are asked of the database at each request, so a
    revoked token is refused at once."""

    def __init__(
        self,
        enabled: Callable[[], Awaitable[bool]],
        who: Callable[[str], Awaitable[str | None]],
    ) -> None:
        self.enabled = enabled
        self.who = who


class BodyTooLarge(Exception):
    pass


class Guard:
    """Checks the Host header (against DNS rebinding) and the bearer token on every request.

    Pure ASGI rather than `@app.middleware`, so MCP's streamed responses pass untouched.
    The page, the health check and the API schema hold no data and need no token; the
    page reads the token from its URL fragment, which browsers never send to the server.
    """

    def __init__(
        self, app: ASGIApp, bind_host: str, token: str | None, people: People | None = None
    ) -> None:
        self.app = app
        self.bind_host = bind_host
        self.loopback = is_loopback(bind_host)
        self.token = token.encode() if token else None
        self.people = people

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _secured(send)
        headers = dict(scope.get("headers") or [])
        if self.loopback:
            host = host_name(headers.get(b"host", b"").decode("latin-1")).lower()
            if host and not is_loopback(host) and host != self.bind_host:
                await _refuse(scope, receive, send, 403, f"host {host!r} not allowed")
                return
        public = scope["path"] in PUBLIC_PATHS and scope["method"] in ("GET", "HEAD")
        if not public:
            allowed, person = await self._caller(scope, headers)
            if not allowed:
                await _refuse(scope, receive, send, 401, "missing or wrong token")
                return
            scope = {**scope, PERSON: person} if person else scope
        length = headers.get(b"content-length", b"")
        if length.isdigit() and int(length) > MAX_BODY:
            await _refuse(scope, receive, send, 413, f"request body over {MAX_BODY} bytes")
            return
        if scope["path"] == "/mcp":  # both /mcp and /mcp/ reach the MCP app, no redirect
            scope = {**scope, "path": "/mcp/", "raw_path": b"/mcp/"}
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, _capped(receive), tracked)
        except BodyTooLarge as exc:
            if started:
                raise
            await _refuse(scope, receive, send, 413, str(exc))

    async def _caller(self, scope: Scope, headers: dict[bytes, bytes]) -> tuple[bool, str | None]:
        """(allowed, the person it acts as or None for the owner). The server's own token
        is the owner's; in a brain with people, any other request needs a person's token."""
        sent = _sent_token(headers)
        if self.token and sent and secrets.compare_digest(sent, self.token):
            return True, None
        if self.people is not None and await self.people.enabled():
            person = await self.people.who(sent.decode("latin-1")) if sent else None
            return person is not None, person
        return self.token is None, None


def _sent_token(headers: dict[bytes, bytes]) -> bytes:
    """The bearer token of the Authorization header. Only there: a token in the query
    string would end up in shell history, proxy logs and Referer headers."""
    auth = headers.get(b"authorization", b"")
    return auth[7:].strip() if auth[:7].lower() == b"bearer " else b""


def _secured(send: Send) -> Send:
    """`send` that adds SECURITY_HEADERS to the response's start (unless already set)."""

    async def secured(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers") or []}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
            message = {**message, "headers": [*(message.get("headers") or []), *extra]}
        await send(message)

    return secured


def _capped(receive: Receive) -> Receive:
    """`receive` that stops a body sent without a length (chunked) at MAX_BODY bytes."""
    seen = 0

    async def capped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise BodyTooLarge(f"request body over {MAX_BODY} bytes")
        return message

    return capped


def host_name(header: str) -> str:
    """The host part of a Host header: `[::1]:8765` → `::1`, `localhost:80` → `localhost`."""
    header = header.strip()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    await JSONResponse({"error": message}, status_code=status, headers=headers)(
        scope, receive, send
    )
