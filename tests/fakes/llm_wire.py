"""The two wire formats the fake LLM server speaks: what a request says, what a response
looks like. Field for field as the Anthropic Messages and OpenAI Chat Completions APIs."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

_ids = itertools.count(1)


def new_id(prefix: str) -> str:
    """A unique id in the provider's style, e.g. msg_fake000001."""
    return f"{prefix}{next(_ids):06d}"


ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
OPENAI_ERROR_TYPES = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    404: ("invalid_request_error", "model_not_found"),
    429: ("requests", "rate_limit_exceeded"),
    500: ("server_error", None),
}
REASONS = {429: "Too Many Requests", 500: "Internal Server Error", 529: "Overloaded"}


@dataclass(frozen=True)
class Behaviour:
    """What the fake model does for one request; build it with the helpers in llm_server."""

    text: str | None = None
    json: Any = None
    tool_calls: tuple[tuple[str, dict[str, Any]], ...] = ()
    status: int = 200
    error_message: str = ""
    retry_after: int | None = None
    delay: float = 0.0
    raw_body: bytes | None = None
    content_type: str = "application/json"
    stop_reason: str | None = None


@dataclass(frozen=True)
class FakeRequest:
    """One request as received: path, lower-cased headers and the parsed JSON body."""

    path: str
    headers: Mapping[str, str]
    body: Mapping[str, Any] = field(default_factory=dict)

    @property
    def provider(self) -> str:
        """Which API was called: "anthropic" or "openai"."""
        return "anthropic" if self.path.endswith("/messages") else "openai"

    @property
    def model(self) -> str:
        """The model the client asked for."""
        return str(self.body.get("model", ""))

    @property
    def system(self) -> str:
        """The system prompt, wherever the wire format puts it."""
        if self.provider == "anthropic":
            return _flatten(self.body.get("system", ""))
        return "\n\n".join(
            _flatten(m.get("content"))
            for m in self.body.get("messages", [])
            if m["role"] == "system"
        )

    @property
    def messages(self) -> list[dict[str, str]]:
        """Non-system messages as {"role", "content"} with content flattened to text."""
        return [
            {"role": m["role"], "content": _flatten(m.get("content"))}
            for m in self.body.get("messages", [])
            if m["role"] != "system"
        ]

    @property
    def user_text(self) -> str:
        """The last user message's text: what most responders match on."""
        users = [m["content"] for m in self.messages if m["role"] == "user"]
        return users[-1] if users else ""

    @property
    def tool_names(self) -> list[str]:
        """Names of the tools offered, in order."""
        tools = self.body.get("tools") or []
        return [t["function"]["name"] if "function" in t else t["name"] for t in tools]

    @property
    def tool_choice(self) -> Any:
        """The tool_choice field as sent, or None."""
        return self.body.get("tool_choice")

    @property
    def forced_tool(self) -> str | None:
        """The Anthropic tool name the request forces, if any."""
        choice = self.tool_choice
        if isinstance(choice, Mapping) and choice.get("type") == "tool":
            return str(choice["name"])
        return None


def anthropic_message(request: FakeRequest, behaviour: Behaviour) -> dict[str, Any]:
    """A Messages API response body."""
    content: list[dict[str, Any]] = []
    stop = "end_turn"
    if behaviour.json is not None and request.forced_tool:
        content.append(_tool_use(request.forced_tool, behaviour.json))
        stop = "tool_use"
    elif behaviour.json is not None:
        content.append({"type": "text", "text": json.dumps(behaviour.json)})
    if behaviour.text is not None:
        content.append({"type": "text", "text": behaviour.text})
    for name, arguments in behaviour.tool_calls:
        content.append(_tool_use(name, arguments))
        stop = "tool_use"
    return {
        "id": new_id("msg_fake"),
        "type": "message",
        "role": "assistant",
        "model": request.model,
        "content": content,
        "stop_reason": behaviour.stop_reason or stop,
        "stop_sequence": None,
        "usage": {"input_tokens": _tokens(request), "output_tokens": 12},
    }


def _tool_use(name: str, arguments: Any) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": new_id("toolu_fake"),
        "name": name,
        "input": arguments,
    }


def openai_completion(request: FakeRequest, behaviour: Behaviour) -> dict[str, Any]:
    """A Chat Completions response body."""
    message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
    finish = "stop"
    if behaviour.json is not None:
        message["content"] = json.dumps(behaviour.json)
    elif behaviour.text is not None:
        message["content"] = behaviour.text
    if behaviour.tool_calls:
        message["tool_calls"] = [
            {
                "id": new_id("call_fake"),
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
            for name, arguments in behaviour.tool_calls
        ]
        finish = "tool_calls"
    prompt = _tokens(request)
    return {
        "id": new_id("chatcmpl-fake"),
        "object": "chat.completion",
        "created": 1_763_700_000,
        "model": request.model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": behaviour.stop_reason or finish,
            }
        ],
        "usage": {"prompt_tokens": prompt, "completion_tokens": 12, "total_tokens": prompt + 12},
    }


def error_body(request: FakeRequest, status: int, message: str) -> dict[str, Any]:
    """The provider's error envelope for `status`."""
    if request.provider == "anthropic":
        kind = ANTHROPIC_ERROR_TYPES.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    kind, code = OPENAI_ERROR_TYPES.get(status, ("server_error", None))
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def _tokens(request: FakeRequest) -> int:
    """A rough prompt token count, so usage looks plausible."""
    text = request.system + " ".join(m["content"] for m in request.messages)
    return max(1, len(text) // 4)


def _flatten(content: Any) -> str:
    """Message content as text, whether a string or a list of content blocks."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, Mapping):
            parts.append(str(block.get("text", "")))
        else:
            parts.append(str(block))
    return "".join(parts)


def anthropic_events(message: Mapping[str, Any]) -> bytes:
    """A Messages API response as the server-sent events of a `"stream": true` request."""
    events: list[tuple[str, dict[str, Any]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    **message,
                    "content": [],
                    "stop_reason": None,
                    "usage": {**message["usage"], "output_tokens": 1},
                },
            },
        )
    ]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": message["usage"]["output_tokens"]},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode()
