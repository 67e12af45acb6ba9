"""Tool calls over HTTP: any agent posts one to /observations; the PostToolUse and
PreCompact hooks hand theirs to a running server at /hooks/tool and /hooks/pre-compact."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from fastapi import FastAPI

from brainbridge.hooks.observe import tool_record
from observations import payloads as p

SID = p.SESSION
REPLY = "Fixed: tokens now expire after 15 minutes, as the spec says."


async def test_any_agent_posts_its_tool_calls(api: httpx.AsyncClient, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    fields = ("session_id", "cwd", "tool_name", "tool_input", "tool_response", "error")

    def body(payload: dict[str, object]) -> dict[str, object]:
        return {k: payload[k] for k in fields if k in payload}

    failed = await api.post(
        "/observations", json=body(p.bash_failed(project, "pytest -q", p.PYTEST_FAILED))
    )
    assert failed.status_code == 200, failed.text
    (obs,) = failed.json()["observations"]
    assert obs["type"] == "Observation" and obs["attributes"]["kind"] == "test"
    assert obs["attributes"]["exit_code"] == 1

    passed = await api.post("/observations", json=body(p.bash(project, "pytest -q", "2 passed")))
    (again,) = passed.json()["observations"]
    assert again["name"] == obs["name"] and again["attributes"]["outcome"] == "failed → passed"

    noise = await api.post("/observations", json=body(p.bash(project, "ls")))
    assert noise.json() == {"stored": False, "reason": "noise", "observations": []}
    bad = await api.post("/observations", json={"session_id": SID, "tool_name": "Read"})
    assert bad.status_code == 422

    found = (await api.get("/search", params={"q": "pytest failed"})).json()
    assert any(h["name"] == obs["name"] for h in found["results"]), found


async def test_the_hooks_hand_their_work_to_the_server(
    app: FastAPI, api: httpx.AsyncClient, tmp_path: Path
) -> None:
    record = tool_record(p.edit(tmp_path / "proj", "api/auth.py", "a", "b"))
    assert record is not None
    answer = await api.post("/hooks/tool", json={"event": record["event"]})
    assert answer.json() == {"context": None, "accepted": True}
    assert (await api.post("/hooks/tool", json={"nothing": 1})).status_code == 400

    prompt = "Please fix the token expiry check in api/auth.py."
    turn = {"key": f"{SID}/u1", "session_id": SID, "prompt": prompt, "reply": REPLY}
    turns = [turn, turn]
    compact = {"type": "compact", "session_id": SID}
    answer = await api.post("/hooks/pre-compact", json={"turns": turns, "compact": compact})
    assert answer.json()["accepted"] is True

    brain = app.state.brainbridge["brain"]
    await app.state.brainbridge["bridge"].drain()
    for _ in range(100):  # the hook's work is done after the answer
        edited = await brain.get_entity("File", "api/auth.py")
        exchanges = await brain._run(brain.sessions.session_exchanges, SID)
        if edited is not None and exchanges:
            break
        await asyncio.sleep(0.05)
    assert edited is not None
    assert [e.attributes["user_message"] for e in exchanges] == [prompt]  # stored once
