"""The digest, an item and a session's timeline over HTTP, through the real app: a turn
posted to /hooks/stop from a project, then a SessionStart there."""

from __future__ import annotations

import asyncio
import re

import httpx
from fastapi import FastAPI

SESSION = "d1d1d1d1-0000-4000-8000-000000000001"


async def test_digest_item_and_timeline_over_http(api: httpx.AsyncClient, app: FastAPI) -> None:
    cwd = "/home/dev/src/payments-api"
    turn = {
        "session_id": SESSION,
        "cwd": cwd,
        "prompt": "Fix the 500 on an expired login token",
        "last_assistant_message": "api/auth.py now returns 401 instead.",
        "transcript_path": "/nonexistent.jsonl",
    }
    assert (await api.post("/hooks/stop", json=turn)).json()["accepted"] is True
    await app.state.brainbridge["bridge"].drain()

    digest = (await api.get("/digest", params={"cwd": cwd})).json()
    assert digest["project"] == cwd
    sessions = digest["sections"][0]["items"]
    assert len(sessions) == 1 and "returns 401 instead" in sessions[0]["text"]
    assert re.search(r"^- #\d+ .*returns 401 instead", digest["text"], re.M)

    item = await api.get(f"/items/{sessions[0]['id']}")
    assert item.status_code == 200 and cwd in item.text and "brain_timeline" in item.text
    walk = (await api.get(f"/sessions/%23{sessions[0]['id']}/timeline")).json()
    assert walk["session_id"] == SESSION
    assert [s["attributes"]["user_message"] for s in walk["steps"]] == [turn["prompt"]]
    assert (await api.get("/items/987654")).status_code == 404
    assert (await api.get("/items/auth")).status_code == 400
    # A session started in the same project records it after answering.
    start = {"session_id": "second-session", "cwd": cwd, "hook_event_name": "SessionStart"}
    context = (await api.post("/hooks/session-start", json=start)).json()["context"]
    assert "returns 401 instead" in context
    await asyncio.sleep(0)
    await app.state.brainbridge["bridge"].drain()
    again = (await api.get("/digest", params={"cwd": cwd, "session_id": "x"})).json()
    assert again["sections"][0]["items"] == sessions  # an empty session is not listed
