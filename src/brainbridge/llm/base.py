"""Provider-neutral pieces: tool specs, JSON parsing and mapping SDK failures to LLMError.

Nothing here imports a provider SDK; the SDK module is passed in where its exception
classes are needed, so `import brainbridge.llm` stays cheap and dependency-free.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import ModuleType, TracebackType
from typing import Any, Generic, Self, TypeVar

from brainbridge.errors import LLMError

log = logging.getLogger(__name__)

T = TypeVar("T")

# How many characters of a bad model answer to quote in an error message.
_QUOTE_CHARS = 120

_FENCE = re.compile(r"^```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?```$", re.DOTALL)


@dataclass(frozen=True)
class ToolSpec:
    """A tool the model may call: a name, what it does, and a JSON schema for its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model made, with its arguments already parsed."""

    name: str
    arguments: dict[str, Any]


class LoopBoundClient(Generic[T]):
    """An SDK client for the running event loop, rebuilt when the loop changes.

    An async SDK client's pooled connections belong to the loop that opened them; reused
    from a later `asyncio.run` they fail with "Event loop is closed". A CLI or a sync
    wrapper may run several loops over one provider, so a new loop gets a new client.
    The abandoned pool cannot be closed from another loop; its sockets close when collected.
    """

    def __init__(self, factory: Callable[[], T]) -> None:
        # Built now, not lazily, so bad settings fail in the provider's constructor.
        self._factory = factory
        self._client = factory()
        self._loop: asyncio.AbstractEventLoop | None = None

    def get(self) -> T:
        """Return the client for the running loop."""
        loop = asyncio.get_running_loop()
        if self._loop is not None and self._loop is not loop:
            log.debug("event loop changed; opening a new LLM connection pool")
            self._client = self._factory()
        self._loop = loop
        return self._client

    async def aclose(self) -> None:
        """Close the current client's connection pool.

        From a different loop than the one that used it, the pool cannot be closed and is
        left to the garbage collector instead of failing.
        """
        if self._loop is not None and self._loop is not asyncio.get_running_loop():
            log.debug("LLM client closed from another event loop; leaving its pool to the GC")
            return
        await self._client.close()  # type: ignore[attr-defined]


class ClientLifecycle:
    """`aclose` and `async with` for a provider whose SDK client is `self._clients`."""

    _clients: LoopBoundClient[Any]

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self._clients.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


def quote(text: str) -> str:
    """Return a short, single-line excerpt of `text` for an error message."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _QUOTE_CHARS else flat[:_QUOTE_CHARS] + "…"


def parse_json_object(text: str, *, who: str) -> dict[str, Any]:
    """Parse one JSON object from a model's text answer, tolerating ``` fences and chatter.

    Raises:
        LLMError: the text holds no JSON object.
    """
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        value = json.loads(body)
    except ValueError:
        # Local models often wrap the object in a sentence despite JSON mode.
        start, end = body.find("{"), body.rfind("}")
        if start < 0 or end <= start:
            raise LLMError(f"{who} did not answer with JSON: {quote(text)!r}") from None
        try:
            value = json.loads(body[start : end + 1])
        except ValueError:
            raise LLMError(f"{who} answered with malformed JSON: {quote(text)!r}") from None
    if not isinstance(value, dict):
        raise LLMError(f"{who} answered with JSON that is not an object: {quote(text)!r}")
    return value


def check_required(value: Mapping[str, Any], schema: Mapping[str, Any] | None, *, who: str) -> None:
    """Check that every key the schema marks as required is present.

    A full JSON-schema validator would be a new dependency; missing keys are the failure
    callers actually trip over, so this is the one check worth making here.

    Raises:
        LLMError: a required key is missing.
    """
    if not schema:
        return
    missing = [key for key in schema.get("required", ()) if key not in value]
    if missing:
        raise LLMError(f"{who} left out required field(s) {', '.join(missing)}")


def parse_arguments(raw: str | Mapping[str, Any] | None, *, who: str, tool: str) -> dict[str, Any]:
    """Turn a tool call's arguments (a JSON string or an object) into a dict.

    Raises:
        LLMError: the arguments are not a JSON object.
    """
    if raw is None or raw == "":
        return {}
    if isinstance(raw, Mapping):
        return dict(raw)
    try:
        value = json.loads(raw)
    except ValueError:
        raise LLMError(f"{who} called {tool} with malformed arguments: {quote(raw)!r}") from None
    if not isinstance(value, dict):
        raise LLMError(f"{who} called {tool} with arguments that are not an object")
    return value


async def call_sdk(
    call: Callable[[], Awaitable[T]], *, sdk: ModuleType, who: str, timeout: float, where: str
) -> T:
    """Await one SDK request under a hard deadline, turning every failure into LLMError.

    `call` makes the request when called, so argument errors are mapped too.
    `sdk` is the provider's module (`anthropic` or `openai`); both share the same
    exception hierarchy, so one mapping serves both.

    Raises:
        LLMError: timeout, rate limit, HTTP error, unreachable endpoint or unusable response.
    """
    try:
        # The SDK's own timeout applies per connect/read phase; wait_for bounds the total.
        return await asyncio.wait_for(call(), timeout)
    except TimeoutError:
        raise LLMError(f"{who} did not answer within {timeout:g} s") from None
    except sdk.APITimeoutError:
        raise LLMError(f"{who} did not answer within {timeout:g} s") from None
    except sdk.APIConnectionError as exc:
        log.debug("connection to %s failed", where, exc_info=True)
        raise LLMError(f"{who}: cannot reach {where} ({_root_cause(exc)})") from exc
    except sdk.APIStatusError as exc:
        raise LLMError(_status_message(exc, who=who, where=where)) from exc
    except sdk.APIError as exc:
        # Includes APIResponseValidationError: a body the SDK could not read.
        raise LLMError(f"{who} sent a response that could not be read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise LLMError(
            f"{who} sent a response that is not JSON; is {where} the right API endpoint?"
        ) from exc
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        # The SDK raises plain errors when a 200 response is not the shape it expects.
        raise LLMError(f"{who} sent a malformed response: {exc}") from exc
    except (OSError, RuntimeError) as exc:
        # Transport failures the SDK does not wrap, e.g. a pool torn down with its loop.
        log.debug("request to %s failed", where, exc_info=True)
        raise LLMError(f"{who}: request to {where} failed ({exc})") from exc


def _root_cause(exc: BaseException) -> str:
    """Return the innermost cause's text, which names the socket-level problem."""
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return str(exc) or type(exc).__name__


def _status_message(exc: Any, *, who: str, where: str) -> str:
    """Explain an HTTP error status in words a person can act on."""
    status = int(getattr(exc, "status_code", 0))
    detail = _api_message(getattr(exc, "body", None))
    suffix = f": {detail}" if detail else ""
    if status == 429:
        retry_after = exc.response.headers.get("retry-after")
        wait = f"; retry after {retry_after} s" if retry_after else ""
        return f"{who} is rate-limited (HTTP 429){wait}{suffix}"
    if status in (401, 403):
        return f"{who} rejected the API key (HTTP {status}){suffix}"
    if status == 404:
        return f"{who}: model or endpoint not found at {where} (HTTP 404){suffix}"
    if status >= 500:
        return f"{who} had a server error (HTTP {status}){suffix}"
    return f"{who} rejected the request (HTTP {status}){suffix}"


def _api_message(body: Any) -> str:
    """Pull the provider's human-readable message out of an error body, if there is one."""
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        if isinstance(inner, Mapping) and isinstance(inner.get("message"), str):
            return quote(inner["message"])
    if isinstance(body, str):
        return quote(body)
    return ""
