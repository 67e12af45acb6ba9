"""The bridge with a configured LLM: real SDK clients against the fake provider server."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from datetime import date

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge, BridgeConfig
from brainbridge.bridge.block import STEP_BACK_NOTE
from brainbridge.bridge.prompts import EXTRACT_SYSTEM, JUDGE_SYSTEM
from brainbridge.llm import make_llm
from brainbridge.model import CHAT_EXCHANGE, Judgment, Session
from brainbridge.ports import LLM
from fakes.llm_server import FakeLLMServer, broken_body, error, malformed, reply_json, slow

# The local judge enriches this one on its own (it names Kevin and his cohort).
LOCAL_ENRICH = "how is Kevin's cohort going this month?"
WEDNESDAY = date(2026, 3, 4)


@pytest.fixture(params=["anthropic", "openai"])
async def llm(request: pytest.FixtureRequest, fake_llm_server: FakeLLMServer) -> AsyncIterator[LLM]:
    if request.param == "anthropic":
        client = make_llm("anthropic", base_url=fake_llm_server.anthropic_base_url, api_key="test")
    else:
        client = make_llm(
            "openai", "llama3.2", base_url=fake_llm_server.openai_base_url, api_key="test"
        )
    assert client is not None
    yield client
    await client.aclose()


def _bridge(brain: Brain, llm: LLM, **config: float) -> Bridge:
    return Bridge(brain, llm, BridgeConfig(**config))


async def test_the_llm_judgment_and_queries_are_used(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.respond_json({"judgment": "enrich", "queries": ["Flock Safety letter"]})
    bridge = _bridge(life, llm)
    session = Session("s-llm", summary="Drafting a renewal letter for a client.")

    result = await bridge.enrich(
        "can you help me get the thing from before over the line?", session
    )
    await bridge.drain()

    assert (result.judgment, result.source, result.queries) == (
        Judgment.ENRICH,
        "llm",
        ("Flock Safety letter",),
    )
    assert result.loaded[0] == "Flock Safety Contract Letter"
    request = fake_llm_server.last_request
    assert request.system.startswith(JUDGE_SYSTEM)
    assert "Drafting a renewal letter" in request.user_text
    assert "can you help me get the thing from before" in request.user_text


@pytest.mark.parametrize(
    ("answer", "judgment", "block"),
    [
        ({"judgment": "pass_through", "queries": []}, Judgment.PASS_THROUGH, None),
        ({"judgment": "step_back", "queries": []}, Judgment.STEP_BACK, STEP_BACK_NOTE),
    ],
)
async def test_the_llm_can_overrule_the_local_judge(
    life: Brain,
    llm: LLM,
    fake_llm_server: FakeLLMServer,
    answer: dict,
    judgment: Judgment,
    block: str | None,
) -> None:
    fake_llm_server.respond_json(answer)
    bridge = _bridge(life, llm)

    result = await bridge.enrich(LOCAL_ENRICH, "s-llm")
    await bridge.drain()

    assert (result.judgment, result.source, result.block) == (judgment, "llm", block)


async def test_an_llm_enrich_without_queries_gets_local_ones(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.respond_json({"judgment": "enrich", "queries": []})
    bridge = _bridge(life, llm)

    result = await bridge.enrich(LOCAL_ENRICH, "s-llm")
    await bridge.drain()

    assert result.source == "llm" and result.queries
    assert "Kevin Alvarez" in result.loaded


async def test_short_messages_never_reach_the_llm(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer
) -> None:
    bridge = _bridge(life, llm)

    result = await bridge.enrich("how's Kevin doing?", "s-llm")

    assert result.source == "short_circuit"
    assert fake_llm_server.requests == []


@pytest.mark.parametrize(
    "failure",
    [
        malformed(),
        error(429, "slow down"),
        error(500),
        broken_body(),
        reply_json({"judgment": "maybe", "queries": []}),
        reply_json({"queries": ["no judgment"]}),
    ],
    ids=["malformed", "429", "500", "broken-body", "unknown-judgment", "missing-judgment"],
)
async def test_a_failing_llm_falls_back_to_the_local_judge(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer, failure, caplog: pytest.LogCaptureFixture
) -> None:
    fake_llm_server.enqueue(failure)
    bridge = _bridge(life, llm)

    result = await bridge.enrich(LOCAL_ENRICH, "s-llm")
    await bridge.drain()

    assert (result.judgment, result.source) == (Judgment.ENRICH, "local")
    assert "Kevin Alvarez" in result.loaded
    assert len(fake_llm_server.requests) == 1, "no retries on the chat path"
    assert any("using the local judge" in r.getMessage() for r in caplog.records)


async def test_a_slow_llm_falls_back_within_the_judge_timeout(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.enqueue(slow(30, reply_json({"judgment": "pass_through", "queries": []})))
    bridge = _bridge(life, llm, judge_timeout=0.5)

    started = time.monotonic()
    result = await bridge.enrich(LOCAL_ENRICH, "s-llm")
    waited = time.monotonic() - started
    await bridge.drain()

    assert (result.judgment, result.source) == (Judgment.ENRICH, "local")
    # A behavioural bound, not a benchmark: far below the 30 s the model would take.
    assert waited < 5


async def test_the_chat_never_waits_past_the_deadline(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.enqueue(slow(30))
    bridge = _bridge(life, llm, judge_timeout=60, deadline=0.5)

    started = time.monotonic()
    result = await bridge.enrich(LOCAL_ENRICH, "s-llm")
    waited = time.monotonic() - started
    await bridge.drain()

    assert (result.judgment, result.source, result.block) == (Judgment.PASS_THROUGH, "error", None)
    assert waited < 5


# -- extraction ----------------------------------------------------------------------


async def test_llm_facts_about_the_user_replace_the_old_value(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.respond_json(
        {
            "facts": [
                {
                    "type": "Fact",
                    "name": "x",
                    "description": "The user lives in Austin.",
                    "subject": "User",
                    "predicate": "home",
                    "value": "Austin",
                }
            ]
        }
    )
    fake_llm_server.respond_json(
        {
            "facts": [
                {
                    "type": "Fact",
                    "name": "x",
                    "description": "The user lives in Denver now.",
                    "subject": "User",
                    "predicate": "home",
                    "value": "Denver",
                },
                {
                    "type": "Fact",
                    "name": "bad",
                    "description": "no predicate",
                    "subject": "User",
                    "predicate": "Where They Live!",
                    "value": "?",
                },
                {
                    "type": "Person",
                    "name": "Robert Vasquez",
                    "description": "Our CFO.",
                    "role": "CFO",
                    "aliases": ["Bobby"],
                },
            ]
        }
    )
    bridge = _bridge(life, llm)
    await bridge.observe_now(
        "llm-facts-1", 1, "We live in Austin, near the river.", "Nice.", today=date(2026, 1, 20)
    )
    obs = await bridge.observe_now(
        "llm-facts-2",
        1,
        "We relocated to Denver, Robert (Bobby) is our CFO.",
        "Welcome to Colorado.",
        today=date(2026, 8, 1),
    )

    assert obs.extractor == "llm"
    austin = await life.get_entity("Fact", "User's home: Austin")
    denver = await life.get_entity("Fact", "User's home: Denver")
    assert austin.attributes["valid_to"] == "2026-08-01" and "valid_to" not in denver.attributes
    assert await life.get_entity("Fact", "User's where they live!: ?") is None
    cfo = await life.get_entity("Person", "Robert Vasquez")
    assert cfo.attributes["role"] == "cfo" and cfo.attributes["aliases"] == ["Bobby"]
    assert (await life.resolve("Bobby")).name == "Robert Vasquez"


async def test_llm_extraction_is_stored_and_linked(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer
) -> None:
    fake_llm_server.respond_json(
        {
            "facts": [
                {
                    "type": "Commitment",
                    "name": "Send SBIR budget justification to Marcus",
                    "description": "User will send the budget justification to Marcus Reid.",
                    "due": "2026-03-06",
                    "related_to": [
                        {"relation": "involves", "type": "Person", "name": "Marcus Reid"}
                    ],
                },
                {
                    "type": "Decision",
                    "name": "Apply for SBIR Phase I only",
                    "description": "No Phase II yet.",
                },
                {"type": "Spaceship", "name": "ignored", "description": "not a fact type"},
                {"type": "Preference", "name": "", "description": "nameless"},
            ]
        }
    )
    bridge = _bridge(life, llm)
    message = "ok I'll get the budget justification to Marcus by Friday, and we only do Phase I."

    obs = await bridge.observe_now(
        "a1b2c3d4-e5", 3, message, "Sounds like a plan.", today=WEDNESDAY
    )

    assert obs.extractor == "llm" and obs.error is None
    assert obs.stored == (
        f"{CHAT_EXCHANGE}:a1b2c3d4:ex:3",
        "Commitment:Send SBIR budget justification to Marcus",
        "Decision:Apply for SBIR Phase I only",
    )
    commitment = await life.get_entity("Commitment", "Send SBIR budget justification to Marcus")
    assert commitment.attributes == {
        "owner": "user",
        "status": "open",
        "due": "2026-03-06",
        "source_exchange": "a1b2c3d4:ex:3",  # where it was learned, and since when it holds
        "valid_from": "2026-03-04",
    }
    graph = await life.subgraph(("Commitment", commitment.name), hops=1)
    edges = {(e.type, e.dst_name) for e in graph.edges if e.src_name == commitment.name}
    assert edges == {("extracted_from", "a1b2c3d4:ex:3"), ("involves", "Marcus Reid")}
    request = fake_llm_server.last_request
    assert request.system.startswith(EXTRACT_SYSTEM)
    assert "Today is 2026-03-04." in request.user_text


@pytest.mark.parametrize("failure", [error(500), malformed(), reply_json({"facts": "none"})])
async def test_llm_extraction_falls_back_to_the_local_extractor(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer, failure
) -> None:
    fake_llm_server.enqueue(failure)
    bridge = _bridge(life, llm)

    obs = await bridge.observe_now(
        "a1b2c3d4-e5",
        4,
        "I'll send the revised budget to Marcus by Friday.",
        "Noted.",
        today=WEDNESDAY,
    )

    assert obs.extractor == "local" and obs.error is None
    assert "Commitment:Send the revised budget to Marcus" in obs.stored


async def test_the_llm_decides_the_review_queue_with_guardrails(
    life: Brain, llm: LLM, fake_llm_server: FakeLLMServer
) -> None:
    from brainbridge.bridge.merging import decide_with_llm

    for name in ("Oskar Lindqvist", "Oscar Lindqvist", "Jon Smith", "John Smith"):
        await life.upsert_entity("Person", name, description=f"{name}, met at the offsite.")
    propose = life.store.propose_merge
    first = await life._run(propose, "Person", "Oskar Lindqvist", "Oscar Lindqvist", 0.97, "alike")
    second = await life._run(propose, "Person", "Jon Smith", "John Smith", 0.93, "alike")
    fake_llm_server.respond_json(
        {"decisions": [{"id": first, "same": True}, {"id": 999, "same": True}]}  # 999: invented
    )

    merged = await decide_with_llm(life, llm)

    assert [m["id"] for m in merged] == [first]
    assert await life.get_entity("Person", "Oscar Lindqvist") is None
    pending = await life.merges("pending")
    assert [m["id"] for m in pending] == [second]  # left out of the answer: still the user's call
    assert "Pair" in fake_llm_server.last_request.user_text
    fake_llm_server.enqueue(malformed())
    assert await decide_with_llm(life, llm) == []
    assert [m["id"] for m in await life.merges("pending")] == [second]
