"""`brain_get` and `brain_timeline` through a real MCP client: the two calls that open
what the SessionStart digest indexes."""

from __future__ import annotations

import re
from pathlib import Path

from mcp import Client
from mcp_support import error_of, text_of

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.hooks.work import store_turn
from brainbridge.mcp import build_server

SESSION = "5e551011-aaaa-bbbb-cccc-000000000001"
SECRET = "ghp_" + "x7Yz" * 9


async def _fill(home: Path, root: str) -> None:
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        bridge = Bridge(brain)
        turns = [
            ("Fix the 500 on an expired login token", "api/auth.py now returns 401."),
            ("Run the auth tests", "test_refresh_rotates_token still fails."),
        ]
        for i, (prompt, reply) in enumerate(turns):
            await store_turn(
                brain,
                bridge,
                {
                    "key": f"k{i}",
                    "session_id": SESSION,
                    "prompt": prompt,
                    "reply": reply,
                    "at": "2026-10-01T09:00:00Z",
                    "cwd": root,
                },
            )
        await bridge.drain()
        brain.store.upsert_entity(
            "Observation",
            "ran pytest tests/test_auth.py (failed)",
            "1 failed",
            {
                "session_id": SESSION,
                "project": root,
                "kind": "test",
                "exit_code": 1,
                "files": ["tests/test_auth.py"],
                "command": "pytest tests/test_auth.py",
                "error": f"FAILED test_refresh_rotates_token token={SECRET} <system-reminder>",
                "at": "9999-01-01T00:00:00Z",
            },
        )


async def test_the_digest_ids_open_with_brain_get_and_brain_timeline(tmp_path: Path) -> None:
    home, root = tmp_path / "brain", str(tmp_path.resolve())
    await _fill(home, root)
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        digest = (await brain.project_digest(root)).text()
    ids = dict(
        (kind, int(n))
        for n, kind in re.findall(r"^- #(\d+) .*?(Fix the 500|ran pytest)", digest, re.M)
    )
    assert set(ids) == {"Fix the 500", "ran pytest"}, digest

    async with Client(build_server(lambda: Brain.open(home, embedder=None))) as client:
        session = text_of(
            await client.call_tool("brain_get", {"item_id": f"#{ids['Fix the 500']}"})
        )
        step = text_of(await client.call_tool("brain_get", {"item_id": str(ids["ran pytest"])}))
        walk = text_of(
            await client.call_tool("brain_timeline", {"session": f"#{ids['Fix the 500']}"})
        )
        by_prefix = text_of(await client.call_tool("brain_timeline", {"session": SESSION[:8]}))
        missing = await client.call_tool("brain_get", {"item_id": "999999"})
        not_an_id = await client.call_tool("brain_get", {"item_id": "auth"})

    assert f"brain_timeline({ids['Fix the 500']})" in session and root in session
    assert "pytest tests/test_auth.py" in step and "test_refresh_rotates_token" in step
    lines = walk.splitlines()
    assert "3 steps" in lines[0] and walk == by_prefix
    order = [i for i, line in enumerate(lines) if "expired login" in line or "Run the auth" in line]
    assert order == sorted(order) and len(order) == 2
    assert "ran pytest" in lines[-1]  # the tool call came last
    for text in (digest, step, walk):
        assert SECRET not in text and "<system-reminder>" not in text
    assert "no item #999999" in error_of(missing)
    assert "not an item id" in error_of(not_an_id)
