"""The real anthropic and openai SDK clients against a local server speaking their wire formats."""

from __future__ import annotations

import asyncio
import gc
import json
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from brainbridge.errors import LLMError
from brainbridge.llm import ToolCall, ToolSpec
from brainbridge.llm.anthropic import AnthropicLLM
from brainbridge.llm.openai_compat import OpenAICompatLLM
from fakes.llm_server import (
    FakeLLMServer,
    broken_body,
    error,
    malformed,
    raw,
    reply_json,
    reply_text,
    slow,
    unused_local_url,
)

JUDGE_SCHEMA = {
    "type": "object",
    "properties": {
        "judgment": {"type": "string", "enum": ["enrich", "step_back", "pass_through"]},
        "queries": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["judgment", "queries"],
}
CURATOR_TOOLS = [
    ToolSpec(
        "update_title",
        "Give the session a short title.",
        {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]},
    ),
    ToolSpec(
        "log_activity",
        "Record what the user did today.",
        {"type": "object", "properties": {"entry": {"type": "string"}}, "required": ["entry"]},
    ),
]
CHAT = [
    {"role": "user", "content": "We moved the launch to March."},
    {"role": "assistant", "content": "Noted: launch in March."},
    {"role": "user", "content": "And Dana owns the rollout."},
]


def build(provider: str, base: str) -> AnthropicLLM | OpenAICompatLLM:
    """A provider pointed at `base` (a FakeLLMServer's url, or a dead one)."""
    if provider == "anthropic":
        return AnthropicLLM(api_key="sk-ant-test", base_url=base)
    return OpenAICompatLLM("llama3.2", base_url=f"{base}/v1", api_key="sk-test")


@pytest.fixture(params=["anthropic", "openai"])
async def llm(
    request: pytest.FixtureRequest, fake_llm_server: FakeLLMServer
) -> AsyncIterator[AnthropicLLM | OpenAICompatLLM]:
    provider = build(request.param, fake_llm_server.url)
    yield provider
    await provider.aclose()


# success


async def test_complete_json_returns_the_object(llm, fake_llm_server: FakeLLMServer) -> None:
    answer = {"judgment": "enrich", "queries": ["launch date", "Dana rollout"]}
    fake_llm_server.respond_json(answer)

    result = await llm.complete_json(
        "You judge.", "When is launch?", schema=JUDGE_SCHEMA, timeout=5
    )

    assert result == answer
    sent = fake_llm_server.last_request
    assert sent.user_text == "When is launch?"
    assert "temperature" not in sent.body
    if sent.provider == "anthropic":
        assert sent.model == "claude-haiku-4-5"
        assert sent.system == "You judge."
        assert sent.forced_tool == "answer"
        assert sent.body["tools"][0]["input_schema"] == JUDGE_SCHEMA
        # SDK 2.x sends the key as a bearer token; older ones used x-api-key.
        assert "sk-ant-test" in sent.headers.get("authorization", sent.headers.get("x-api-key"))
    else:
        assert sent.model == "llama3.2"
        assert sent.body["response_format"] == {"type": "json_object"}
        assert "JSON" in sent.system and '"required": ["judgment", "queries"]' in sent.system
        assert sent.headers["authorization"] == "Bearer sk-test"


async def test_complete_json_accepts_fenced_json_in_text(llm, fake_llm_server) -> None:
    fake_llm_server.respond_text('```json\n{"judgment": "pass_through", "queries": []}\n```')

    result = await llm.complete_json("s", "u", schema=JUDGE_SCHEMA, timeout=5)

    assert result == {"judgment": "pass_through", "queries": []}


async def test_complete_json_without_schema(llm, fake_llm_server) -> None:
    fake_llm_server.respond_json({"anything": [1, 2]})

    assert await llm.complete_json("s", "u", timeout=5) == {"anything": [1, 2]}
    if fake_llm_server.last_request.provider == "anthropic":
        assert fake_llm_server.last_request.body["tools"][0]["input_schema"] == {"type": "object"}


async def test_complete_text_sends_the_chat(llm, fake_llm_server) -> None:
    fake_llm_server.respond_text("Dana owns the March rollout.")

    text = await llm.complete_text("Be brief.", CHAT, timeout=5)

    assert text == "Dana owns the March rollout."
    sent = fake_llm_server.last_request
    assert sent.system == "Be brief."
    assert sent.messages == CHAT


async def test_complete_text_moves_system_messages_into_the_system_prompt(
    llm, fake_llm_server
) -> None:
    fake_llm_server.respond_text("ok")

    await llm.complete_text(
        "Be brief.", [{"role": "system", "content": "Use UK spelling."}, *CHAT], timeout=5
    )

    sent = fake_llm_server.last_request
    assert "Be brief." in sent.system and "Use UK spelling." in sent.system
    assert sent.messages == CHAT


async def test_call_tools_returns_every_call(llm, fake_llm_server) -> None:
    fake_llm_server.respond_tool_calls(
        [
            ("update_title", {"title": "March launch"}),
            ("log_activity", {"entry": "planned rollout"}),
        ]
    )

    calls = await llm.call_tools("You curate.", CHAT, CURATOR_TOOLS, timeout=5)

    assert calls == [
        ToolCall("update_title", {"title": "March launch"}),
        ToolCall("log_activity", {"entry": "planned rollout"}),
    ]
    sent = fake_llm_server.last_request
    assert sent.tool_names == ["update_title", "log_activity"]
    if sent.provider == "anthropic":
        assert sent.tool_choice == {"type": "auto"}
        assert sent.body["tools"][0]["input_schema"] == CURATOR_TOOLS[0].parameters
    else:
        assert sent.tool_choice is None  # left out: some compatible servers reject it
        assert sent.body["tools"][0]["function"]["parameters"] == CURATOR_TOOLS[0].parameters


async def test_call_tools_require_asks_for_at_least_one_call(llm, fake_llm_server) -> None:
    fake_llm_server.respond_tool_calls([("update_title", {"title": "t"})])

    await llm.call_tools("s", CHAT, CURATOR_TOOLS, timeout=5, require=True)

    expected = {"anthropic": {"type": "any"}, "openai": "required"}
    assert (
        fake_llm_server.last_request.tool_choice == expected[fake_llm_server.last_request.provider]
    )


async def test_call_tools_with_no_calls_is_an_empty_list(llm, fake_llm_server) -> None:
    fake_llm_server.respond_text("Nothing to update.")

    assert await llm.call_tools("s", CHAT, CURATOR_TOOLS, timeout=5) == []


async def test_call_tools_drops_tools_that_were_not_offered(llm, fake_llm_server) -> None:
    fake_llm_server.respond_tool_calls(
        [("delete_everything", {}), ("update_title", {"title": "t"})]
    )

    calls = await llm.call_tools("s", CHAT, CURATOR_TOOLS, timeout=5)

    assert calls == [ToolCall("update_title", {"title": "t"})]


async def test_provider_still_works_after_a_timeout(llm, fake_llm_server) -> None:
    fake_llm_server.slow(2)
    fake_llm_server.respond_text("back again")

    with pytest.raises(LLMError):
        await llm.complete_text("s", CHAT, timeout=0.3)
    assert await llm.complete_text("s", CHAT, timeout=5) == "back again"


# failures: every method, every provider

CALLS = {
    "complete_json": lambda llm, t: llm.complete_json("s", "u", schema=JUDGE_SCHEMA, timeout=t),
    "complete_text": lambda llm, t: llm.complete_text("s", CHAT, timeout=t),
    "call_tools": lambda llm, t: llm.call_tools("s", CHAT, CURATOR_TOOLS, timeout=t, require=True),
}
FAILURES = {
    "slow": (slow(2), "did not answer within 0.3 s"),
    "rate_limited": (error(429, "Number of requests exceeded", retry_after=7), "rate-limited"),
    "server_error": (error(500, "Internal server error"), r"server error \(HTTP 500\)"),
    "overloaded": (error(529, "Overloaded"), r"server error \(HTTP 529\)"),
    "bad_key": (error(401, "invalid x-api-key"), "rejected the API key"),
    "body_not_json": (broken_body(), "not JSON; is .* the right API endpoint"),
    "html_page": (raw(200, "<html>login</html>", "text/html"), "response without"),
}


@pytest.mark.parametrize("method", CALLS)
@pytest.mark.parametrize("failure", FAILURES)
async def test_failures_become_llm_error(llm, fake_llm_server, method, failure) -> None:
    behaviour, expected = FAILURES[failure]
    fake_llm_server.enqueue(behaviour)

    with pytest.raises(LLMError, match=expected):
        await CALLS[method](llm, 0.3 if failure == "slow" else 5)

    # max_retries=0: a failing provider costs one request, never a retry storm.
    assert len(fake_llm_server.requests) == 1


async def test_rate_limit_message_says_when_to_retry(llm, fake_llm_server) -> None:
    fake_llm_server.fail(429, "Number of requests exceeded", retry_after=7)

    with pytest.raises(LLMError, match=r"retry after 7 s.*Number of requests exceeded"):
        await llm.complete_text("s", CHAT, timeout=5)


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
@pytest.mark.parametrize("method", CALLS)
async def test_dead_endpoint_is_llm_error(provider, method) -> None:
    llm = build(provider, unused_local_url())
    try:
        with pytest.raises(LLMError, match="cannot reach"):
            await CALLS[method](llm, 5)
    finally:
        await llm.aclose()


async def test_malformed_json_is_llm_error(llm, fake_llm_server) -> None:
    fake_llm_server.malformed()

    with pytest.raises(LLMError, match="JSON"):
        await llm.complete_json("s", "u", schema=JUDGE_SCHEMA, timeout=5)


async def test_json_missing_required_field_is_llm_error(llm, fake_llm_server) -> None:
    fake_llm_server.respond_json({"judgment": "enrich"})

    with pytest.raises(LLMError, match="queries"):
        await llm.complete_json("s", "u", schema=JUDGE_SCHEMA, timeout=5)


async def test_json_that_is_not_an_object_is_llm_error(llm, fake_llm_server) -> None:
    fake_llm_server.respond_text('["enrich"]')

    with pytest.raises(LLMError, match="not an object"):
        await llm.complete_json("s", "u", timeout=5)


async def test_answer_cut_off_at_token_limit_is_llm_error(llm, fake_llm_server) -> None:
    stop = "max_tokens" if isinstance(llm, AnthropicLLM) else "length"
    fake_llm_server.enqueue(replace(reply_json({"judgment": "enr"}), stop_reason=stop))

    with pytest.raises(LLMError, match="cut off"):
        await llm.complete_json("s", "u", timeout=5)


async def test_empty_text_answer_is_llm_error(llm, fake_llm_server) -> None:
    fake_llm_server.respond_text("   ")

    with pytest.raises(LLMError, match="no text"):
        await llm.complete_text("s", CHAT, timeout=5)


async def test_empty_conversation_is_llm_error_without_a_request(llm, fake_llm_server) -> None:
    with pytest.raises(LLMError, match="nothing to send"):
        await llm.complete_text("s", [], timeout=5)
    assert fake_llm_server.requests == []


async def test_openai_malformed_tool_arguments_is_llm_error(fake_llm_server) -> None:
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "llama3.2",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "update_title", "arguments": '{"title": "Mar'},
                        }
                    ],
                },
            }
        ],
    }
    fake_llm_server.enqueue(raw(200, body))
    async with build("openai", fake_llm_server.url) as llm:
        with pytest.raises(LLMError, match="malformed arguments"):
            await llm.call_tools("s", CHAT, CURATOR_TOOLS, timeout=5)


async def test_openai_response_without_choices_is_llm_error(fake_llm_server) -> None:
    fake_llm_server.enqueue(raw(200, {"id": "x", "object": "chat.completion", "choices": []}))
    async with build("openai", fake_llm_server.url) as llm:
        with pytest.raises(LLMError, match="without choices"):
            await llm.complete_text("s", CHAT, timeout=5)


async def test_responder_serves_many_calls_by_content(fake_llm_server) -> None:
    def responder(request):
        if "judge" in request.system:
            return reply_json({"judgment": "enrich", "queries": [request.user_text]})
        return reply_text("chat reply")

    fake_llm_server.responder = responder
    async with build("anthropic", fake_llm_server.url) as llm:
        judged = await llm.complete_json("You judge.", "Dana", schema=JUDGE_SCHEMA, timeout=5)
        chatted = await llm.complete_text("You chat.", CHAT, timeout=5)

    assert judged == {"judgment": "enrich", "queries": ["Dana"]}
    assert chatted == "chat reply"
    assert fake_llm_server.unscripted == 0


async def test_unscripted_request_fails_and_is_counted(fake_llm_server) -> None:
    async with build("openai", fake_llm_server.url) as llm:
        with pytest.raises(LLMError, match="nothing scripted"):
            await llm.complete_text("s", CHAT, timeout=5)
    assert fake_llm_server.unscripted == 1


def test_malformed_helper_is_not_json() -> None:
    with pytest.raises(ValueError):
        json.loads(malformed().text or "")


# The first loop's pooled connection cannot be closed from the second loop; it is
# abandoned and its socket closes when collected. That warning is the known cost.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_provider_survives_a_new_event_loop(provider: str) -> None:
    # A CLI may call asyncio.run more than once with one provider.
    with FakeLLMServer() as server:
        server.default = reply_text("hi")
        llm = build(provider, server.url)

        async def chat_then_close() -> str:
            try:
                return await llm.complete_text("s", CHAT, timeout=5)
            finally:
                await llm.aclose()

        assert asyncio.run(llm.complete_text("s", CHAT, timeout=5)) == "hi"
        assert asyncio.run(chat_then_close()) == "hi"
    gc.collect()  # surface the abandoned pool's warning here, not in a later test
