"""Claude Code headless, as installed: `claude -p` and the Agent SDK's `query()`.

What the model receives (the fake Anthropic server records every request body), what the
brain holds once the run has returned, and the brain's MCP tools in the model's hands.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

from brainbridge.brain import Brain
from brainbridge.hooks.spool import PENDING, SPOOL_DIR, read_records
from claude_code.conftest import ANSWER, CLAUDE, REMEMBER, Setup
from hooks.conftest import wait_drained
from hooks.transcript import session_exchanges

QUESTION = "What did we note about the litellm config drift between staging and prod?"


def _stored_or_spooled(brain: Path, session_id: str, prompt: str) -> bool:
    """The turn is durable: in the brain, or in the spool a drainer empties."""
    spooled = [r for f in (brain / SPOOL_DIR).glob("*.jsonl") for r in read_records(f)]
    if any(r["session_id"] == session_id and r["prompt"] == prompt for r in spooled):
        return True
    stored = asyncio.run(session_exchanges(brain, session_id))
    return any(ex["user_message"] == prompt for ex in stored)


def _exchange(brain: Path, session_id: str) -> dict[str, object]:
    wait_drained(brain)
    (exchange,) = asyncio.run(session_exchanges(brain, session_id))
    return exchange


def test_print_mode_gets_context_stores_the_turn_and_uses_the_tools(setup: Setup) -> None:
    result = setup.claude(QUESTION)
    assert result["result"] == ANSWER
    (request,) = setup.model_requests()
    body = json.dumps(request.body)
    # SessionStart: the digest of the project opened; UserPromptSubmit: the block.
    assert f"Brain digest: {setup.project.name} ({setup.project})" in body
    assert "## Brain Context" in body and "litellm config drift" in body
    # The brain's tools are in the model's first list (brain mcp answers in time).
    assert {REMEMBER, "mcp__brain__search", "mcp__brain__recall"} <= set(request.tool_names)

    sid = result["session_id"]
    assert _stored_or_spooled(setup.brain, sid, QUESTION)  # durable when `claude` returned
    exchange = _exchange(setup.brain, sid)
    assert exchange["user_message"] == QUESTION and exchange["ai_response"] == ANSWER

    # A tool call the model makes lands in the brain, and its answer reaches the model.
    asked = "Please remember that Ana Souza owns the proxy's Helm chart."
    result = setup.claude(asked)
    assert result["result"] == "Done, it is in your brain."
    follow_up = setup.model_requests()[-1]
    assert "Remembered Person 'Ana Souza'." in json.dumps(follow_up.body)

    async def ana() -> str:
        async with await Brain.open(setup.brain, embedder=None, background_indexing=False) as b:
            entity = await b.get_entity("Person", "Ana Souza")
            return entity.description if entity else ""

    assert asyncio.run(ana()) == "Platform engineer who owns the proxy's Helm chart."
    assert _exchange(setup.brain, result["session_id"])["user_message"] == asked


def test_agent_sdk_query_gets_context_and_stores_the_turn(setup: Setup) -> None:
    options = ClaudeAgentOptions(
        cwd=setup.project,
        env=setup.env(),
        allowed_tools=[REMEMBER],
        cli_path=CLAUDE,
    )

    async def run() -> ResultMessage:
        results = [m async for m in query(prompt=QUESTION, options=options)]
        (done,) = [m for m in results if isinstance(m, ResultMessage)]
        return done

    done = asyncio.run(run())
    assert done.result == ANSWER and not done.is_error
    (request,) = setup.model_requests()
    assert "## Brain Context" in json.dumps(request.body)
    assert _stored_or_spooled(setup.brain, done.session_id, QUESTION)
    assert _exchange(setup.brain, done.session_id)["ai_response"] == ANSWER
    assert not (setup.brain / SPOOL_DIR / PENDING).exists()
