"""Claude through the official `anthropic` SDK (install `brainbridge[anthropic]`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from brainbridge.errors import LLMError
from brainbridge.llm.base import (
    ClientLifecycle,
    LoopBoundClient,
    ToolCall,
    ToolSpec,
    call_sdk,
    check_required,
    parse_arguments,
    parse_json_object,
)

log = logging.getLogger(__name__)

DEFAULT_MODEL = "claude-haiku-4-5"

# Forced tool use is how Claude returns JSON reliably: the tool's input *is* the answer.
_JSON_TOOL = "answer"
_ANY_OBJECT: dict[str, Any] = {"type": "object"}


class AnthropicLLM(ClientLifecycle):
    """An `LLM` backed by Anthropic's Messages API."""

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        api_key: str | None = None,
        base_url: str | None = None,
        max_tokens: int = 1024,
        max_retries: int = 0,
    ) -> None:
        """Create the SDK client; no request is made yet.

        `api_key=None` lets the SDK find its own credentials (ANTHROPIC_API_KEY, profiles).
        `max_retries` defaults to 0 because every caller has a local fallback and a tight
        timeout: a retry would only spend the budget the fallback needs.

        Raises:
            LLMError: the `anthropic` package is not installed or rejects the settings.
        """
        try:
            import anthropic
        except ImportError:
            raise LLMError(
                "the Anthropic provider needs the anthropic package: "
                "pip install 'brainbridge[anthropic]'"
            ) from None
        self._sdk: ModuleType = anthropic
        self.name = f"anthropic:{model}"
        self.model = model
        self.max_tokens = max_tokens
        self.base_url = base_url
        self._where = base_url or "api.anthropic.com"
        try:
            self._clients = LoopBoundClient(
                lambda: anthropic.AsyncAnthropic(
                    api_key=api_key, base_url=base_url, max_retries=max_retries
                )
            )
        except Exception as exc:  # the SDK raises bare errors for bad credentials/config
            raise LLMError(f"{self.name}: cannot create the client: {exc}") from exc

    async def complete_json(
        self, system: str, user: str, *, schema: dict[str, Any] | None = None, timeout: float
    ) -> dict[str, Any]:
        """Ask for one JSON object, forcing a tool call whose input schema is `schema`.

        Raises:
            LLMError: timeout, HTTP or connection failure, or no usable JSON in the answer.
        """
        tool = {
            "name": _JSON_TOOL,
            "description": "Give your answer as this JSON object.",
            "input_schema": schema or _ANY_OBJECT,
        }
        message = await self._create(
            system,
            [{"role": "user", "content": user}],
            timeout=timeout,
            tools=[tool],
            tool_choice={"type": "tool", "name": _JSON_TOOL},
        )
        self._refuse_truncated(message)
        for block in message.content:
            if block.type == "tool_use" and block.name == _JSON_TOOL:
                value = parse_arguments(block.input, who=self.name, tool=_JSON_TOOL)
                check_required(value, schema, who=self.name)
                return value
        # Some gateways ignore tool_choice; accept JSON in the text rather than fail.
        text = _text_of(message)
        if not text:
            raise LLMError(f"{self.name} answered without the requested JSON")
        value = parse_json_object(text, who=self.name)
        check_required(value, schema, who=self.name)
        return value

    async def complete_text(
        self, system: str, messages: list[dict[str, str]], *, timeout: float
    ) -> str:
        """Continue a chat and return the assistant's text.

        Raises:
            LLMError: timeout, HTTP or connection failure, or an answer with no text.
        """
        message = await self._create(system, messages, timeout=timeout)
        text = _text_of(message)
        if not text:
            raise LLMError(f"{self.name} answered with no text (stop_reason={message.stop_reason})")
        return text

    async def call_tools(
        self,
        system: str,
        messages: list[dict[str, str]],
        tools: Sequence[ToolSpec],
        *,
        timeout: float,
        require: bool = False,
    ) -> list[ToolCall]:
        """Offer `tools` and return every call the model made (possibly none).

        `require=True` makes the model call at least one tool.

        Raises:
            LLMError: timeout, HTTP or connection failure, or malformed tool arguments.
        """
        if not tools:
            raise LLMError("call_tools needs at least one tool")
        offered = {spec.name for spec in tools}
        message = await self._create(
            system,
            messages,
            timeout=timeout,
            tools=[
                {"name": s.name, "description": s.description, "input_schema": s.parameters}
                for s in tools
            ],
            tool_choice={"type": "any" if require else "auto"},
        )
        self._refuse_truncated(message)
        calls = []
        for block in message.content:
            if block.type != "tool_use":
                continue
            if block.name not in offered:
                log.warning("%s called a tool it was not offered: %s", self.name, block.name)
                continue
            calls.append(
                ToolCall(block.name, parse_arguments(block.input, who=self.name, tool=block.name))
            )
        return calls

    async def _create(
        self, system: str, messages: list[dict[str, str]], *, timeout: float, **extra: Any
    ) -> Any:
        """Send one Messages request; `temperature` is never sent (newer Haiku rejects it).

        Raises:
            LLMError: any failure, including an empty conversation.
        """
        system, turns = _split_system(system, messages)
        if not turns:
            raise LLMError(f"{self.name}: nothing to send (no user or assistant messages)")
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": turns,
            **extra,
        }
        if system:
            request["system"] = system
        message = await call_sdk(
            lambda: self._clients.get().messages.create(**request, timeout=timeout),
            sdk=self._sdk,
            who=self.name,
            timeout=timeout,
            where=self._where,
        )
        if not isinstance(getattr(message, "content", None), list):
            raise LLMError(f"{self.name} sent a response without content")
        return message

    def _refuse_truncated(self, message: Any) -> None:
        """A tool call cut off at max_tokens carries partial arguments; never act on them.

        Raises:
            LLMError: the answer hit max_tokens or was refused.
        """
        if message.stop_reason == "max_tokens":
            raise LLMError(f"{self.name}: answer cut off at max_tokens={self.max_tokens}")
        if message.stop_reason == "refusal":
            raise LLMError(f"{self.name} refused to answer")


def _split_system(system: str, messages: list[dict[str, str]]) -> tuple[str, list[dict[str, str]]]:
    """Move any system-role messages into the system prompt, where the Messages API wants them."""
    extra = [m["content"] for m in messages if m.get("role") == "system"]
    turns = [
        {"role": m["role"], "content": m["content"]} for m in messages if m.get("role") != "system"
    ]
    return "\n\n".join(part for part in (system, *extra) if part), turns


def _text_of(message: Any) -> str:
    """Join the text blocks of a response, skipping tool_use, thinking and others."""
    return "".join(block.text for block in message.content if block.type == "text").strip()
