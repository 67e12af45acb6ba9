"""OpenAI and OpenAI-compatible servers (Ollama, vLLM, LM Studio) through the `openai` SDK."""

from __future__ import annotations

import json
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

# Local servers ignore the key, but the SDK refuses to start without one.
_LOCAL_KEY = "not-needed"

# JSON mode is rejected unless the prompt mentions JSON, and a local model needs the
# schema in the prompt because json_object mode does not constrain the shape.
_JSON_INSTRUCTION = "Reply with one JSON object and nothing else."


class OpenAICompatLLM(ClientLifecycle):
    """An `LLM` backed by a Chat Completions endpoint."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        max_tokens: int | None = None,
        max_retries: int = 0,
    ) -> None:
        """Create the SDK client; no request is made yet.

        With a `base_url` and no `api_key` a placeholder key is sent, so a real
        OPENAI_API_KEY from the environment never leaks to a third-party server.
        `max_tokens=None` leaves the limit to the server (some models reject the field).

        Raises:
            LLMError: the `openai` package is not installed, or no key is available.
        """
        try:
            import openai
        except ImportError:
            raise LLMError(
                "the OpenAI-compatible provider needs the openai package: "
                "pip install 'brainbridge[openai]'"
            ) from None
        self._sdk: ModuleType = openai
        self.name = f"openai:{model}"
        self.model = model
        self.max_tokens = max_tokens
        self.base_url = base_url
        self._where = base_url or "api.openai.com"
        options: dict[str, Any] = {"max_retries": max_retries}
        if base_url:
            options["base_url"] = base_url
            options["api_key"] = api_key or _LOCAL_KEY
        elif api_key:
            options["api_key"] = api_key
        try:
            self._clients = LoopBoundClient(lambda: openai.AsyncOpenAI(**options))
        except Exception as exc:  # OpenAIError when no key can be found
            raise LLMError(f"{self.name}: cannot create the client: {exc}") from exc

    async def complete_json(
        self, system: str, user: str, *, schema: dict[str, Any] | None = None, timeout: float
    ) -> dict[str, Any]:
        """Ask for one JSON object in JSON mode, with the schema spelled out in the prompt.

        Raises:
            LLMError: timeout, HTTP or connection failure, or no usable JSON in the answer.
        """
        instruction = _JSON_INSTRUCTION
        if schema:
            instruction += f"\nIt must match this JSON schema:\n{json.dumps(schema)}"
        prompt = f"{system}\n\n{instruction}" if system else instruction
        message, finish = await self._create(
            prompt,
            [{"role": "user", "content": user}],
            timeout=timeout,
            response_format={"type": "json_object"},
        )
        if finish == "length":
            raise LLMError(f"{self.name}: answer cut off at the token limit")
        if not message.content:
            raise LLMError(f"{self.name} answered without the requested JSON")
        value = parse_json_object(message.content, who=self.name)
        check_required(value, schema, who=self.name)
        return value

    async def complete_text(
        self, system: str, messages: list[dict[str, str]], *, timeout: float
    ) -> str:
        """Continue a chat and return the assistant's text.

        Raises:
            LLMError: timeout, HTTP or connection failure, or an answer with no text.
        """
        message, finish = await self._create(system, messages, timeout=timeout)
        text = (message.content or "").strip()
        if not text:
            raise LLMError(f"{self.name} answered with no text (finish_reason={finish})")
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
        """Offer `tools` as functions and return every call the model made (possibly none).

        `require=True` sends tool_choice="required"; otherwise tool_choice is left out,
        since some compatible servers reject the field and "auto" is the default anyway.

        Raises:
            LLMError: timeout, HTTP or connection failure, or malformed tool arguments.
        """
        if not tools:
            raise LLMError("call_tools needs at least one tool")
        offered = {spec.name for spec in tools}
        extra: dict[str, Any] = {
            "tools": [
                {
                    "type": "function",
                    "function": {
                        "name": s.name,
                        "description": s.description,
                        "parameters": s.parameters,
                    },
                }
                for s in tools
            ]
        }
        if require:
            extra["tool_choice"] = "required"
        message, finish = await self._create(system, messages, timeout=timeout, **extra)
        if finish == "length":
            raise LLMError(f"{self.name}: answer cut off at the token limit")
        calls = []
        for call in message.tool_calls or ():
            function = getattr(call, "function", None)
            if function is None:  # custom (non-function) tool calls are not ours
                continue
            if function.name not in offered:
                log.warning("%s called a tool it was not offered: %s", self.name, function.name)
                continue
            arguments = parse_arguments(function.arguments, who=self.name, tool=function.name)
            calls.append(ToolCall(function.name, arguments))
        return calls

    async def _create(
        self, system: str, messages: list[dict[str, str]], *, timeout: float, **extra: Any
    ) -> tuple[Any, str | None]:
        """Send one chat completion and return (message, finish_reason).

        Raises:
            LLMError: any failure, including an empty conversation or a response with no choices.
        """
        turns = [{"role": m["role"], "content": m["content"]} for m in messages]
        if not any(m["role"] != "system" for m in turns):
            raise LLMError(f"{self.name}: nothing to send (no user or assistant messages)")
        if system:
            turns.insert(0, {"role": "system", "content": system})
        request: dict[str, Any] = {"model": self.model, "messages": turns, **extra}
        if self.max_tokens is not None:
            request["max_tokens"] = self.max_tokens
        completion = await call_sdk(
            lambda: self._clients.get().chat.completions.create(**request, timeout=timeout),
            sdk=self._sdk,
            who=self.name,
            timeout=timeout,
            where=self._where,
        )
        choices = getattr(completion, "choices", None)
        if not choices or getattr(choices[0], "message", None) is None:
            raise LLMError(f"{self.name} sent a response without choices")
        return choices[0].message, choices[0].finish_reason
