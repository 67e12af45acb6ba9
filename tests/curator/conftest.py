"""Curator fixtures: a real brain with sessions seeded the way the bridge stores them."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge.observe import exchange_attributes, exchange_name
from brainbridge.errors import LLMError
from brainbridge.llm import ToolCall, ToolSpec
from brainbridge.model import CHAT_EXCHANGE
from fakes.llm_server import fake_llm_server  # noqa: F401  (a pytest fixture)

# A coding session whose topic shifts halfway: migrations first, then a memory leak.
MIGRATION_CHAT = [
    (
        "We are migrating the billing service from MySQL to Postgres next month.",
        "Good plan. The main risks of the Postgres migration are sequence handling and JSON columns.",
    ),
    (
        "Dana owns the billing migration and wants a dry run on staging first.",
        "A staging dry run is wise. Snapshot the MySQL billing data before the dry run.",
    ),
    (
        "Does the invoice PDF generator talk to MySQL directly?",
        "If the invoice generator uses raw MySQL queries, they need review before the Postgres cutover.",
    ),
    (
        "The invoice generator uses raw queries in three places. I will port them this week.",
        "Porting the three raw invoice queries first keeps the Postgres cutover on schedule.",
    ),
    (
        "Sequence handling worries me: our order ids come from an AUTO_INCREMENT column.",
        "Postgres identity columns replace AUTO_INCREMENT; reset each sequence after the data copy.",
    ),
    (
        "Separate topic: the worker process leaks memory after the upgrade to Celery 5.",
        "Celery 5 memory leaks often come from prefetch settings; try worker_max_tasks_per_child.",
    ),
    (
        "Setting worker_max_tasks_per_child to 200 stopped the Celery memory leak.",
        "Good. Recycling Celery workers every 200 tasks caps the leak while you find its cause.",
    ),
]


def fixed_now() -> datetime:
    return datetime(2026, 3, 14, 9, 30, tzinfo=UTC)


async def seed(
    brain: Brain, session_id: str, turns: Sequence[tuple[str, str]], start: int = 1
) -> int:
    """Store turns as the bridge's observe does (Chat_Exchange + turn log); the last number."""
    rows = []
    for n, (user, ai) in enumerate(turns, start=start):
        description, attrs = exchange_attributes(session_id, n, user, ai)
        rows.append((CHAT_EXCHANGE, exchange_name(session_id, n), description, attrs))
    await brain.upsert_many(rows)
    last = start + len(turns) - 1
    await brain._run(brain.sessions.record_turn, session_id, last, {"stored": []})
    return last


class GatedLLM:
    """An LLM-protocol fake whose `call_tools` waits for `release`: a model as slow as a test
    needs, without timing. Answers with `calls` (default: a title update)."""

    name = "gated"

    def __init__(self, calls: list[ToolCall] | None = None) -> None:
        self.calls = calls if calls is not None else [ToolCall("update_title", {"title": "Gated"})]
        self.release = asyncio.Event()
        self.entered = asyncio.Event()
        self.in_flight = 0
        self.max_in_flight = 0
        self.requests: list[dict[str, Any]] = []

    async def call_tools(
        self,
        system: str,
        messages: list[dict[str, str]],
        tools: Sequence[ToolSpec],
        *,
        timeout: float,
        require: bool = False,
    ) -> list[ToolCall]:
        self.requests.append({"messages": messages, "tools": [t.name for t in tools]})
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        self.entered.set()
        try:
            await self.release.wait()
        finally:
            self.in_flight -= 1
        return list(self.calls)

    async def complete_json(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        raise LLMError("gated fake: only call_tools")

    async def complete_text(self, *args: Any, **kwargs: Any) -> str:
        raise LLMError("gated fake: only call_tools")

    async def aclose(self) -> None:
        pass


@pytest.fixture
def gated_llm() -> GatedLLM:
    return GatedLLM()
