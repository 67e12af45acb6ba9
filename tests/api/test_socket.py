"""`brain serve` as a real process on a real socket: HTTP, MCP over HTTP, start and stop."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from api.seed import SESSION
from api.served import Served, serve_brain, server_file_mode
from cli.runner import BrainCli, clean_env


def test_endpoints_over_a_socket(served: Served) -> None:
    with served.client() as http:
        assert http.get("/health").json()["ok"] is True
        assert http.get("/stats").json()["entities"] >= 7
        assert "/enrich" in http.get("/openapi.json").json()["paths"]
        hits = http.get("/search", params={"q": "Ada Lovelace"}).json()["results"]
        assert hits[0]["name"] == "Ada Lovelace"
        block = http.post(
            "/enrich", json={"message": "Is Kevin Ortiz ready for the spring cohort?"}
        ).json()
        assert "Kevin Ortiz" in block["block"]
        assert http.get(f"/sessions/{SESSION}").json()["title"]
        assert http.get(f"/sessions/{SESSION}/curator-runs").json()
        assert "Acme Robotics" in http.get("/export").text
        assert http.get("/entities/Person/Nobody").status_code == 404

        made = http.post("/entities", json={"type": "Topic", "name": "Socket Topic"})
        assert made.status_code == 200
        related = http.post(
            "/relations",
            json={"src": "Topic:Socket Topic", "relation": "ABOUT", "dst": "Project:litellm"},
        )
        assert related.status_code == 200, related.text
        sub = http.get("/entities/Topic/Socket Topic").json()
        assert "litellm" in {n["name"] for n in sub["nodes"]}
        assert http.delete("/entities/Topic/Socket Topic").json() == {"deleted": True}
        recall = http.post("/recall", json={"query": "Acme Robotics sponsor"}).json()
        assert "Acme Robotics" in [h["name"] for h in recall["results"]]
        ctx = http.post("/brain-context", json={"project_root": "/src/litellm"}).json()
        assert ctx["entries"]
        patched = http.patch(f"/sessions/{SESSION}", json={"summary": "Planning the cohort."})
        assert patched.json()["summary"] == "Planning the cohort."
        hook = http.post(
            "/hooks/prompt",
            json={"session_id": "sock-hook", "prompt": "How is Kevin Ortiz doing with the cohort?"},
        ).json()
        assert "Kevin Ortiz" in hook["context"]
        bad = http.post("/enrich", content=b"{", headers={"Content-Type": "application/json"})
        assert bad.status_code == 422 and "not valid JSON" in bad.json()["error"]


def test_token_and_host_over_a_socket(served: Served) -> None:
    assert httpx.get(f"{served.url}/stats").status_code == 401
    assert httpx.get(f"{served.url}/").status_code == 200
    evil = httpx.get(f"{served.url}/stats", headers={**served.auth, "Host": "attacker.example:80"})
    assert evil.status_code == 403


def test_server_file_is_private(served: Served) -> None:
    assert server_file_mode(served.home) == 0o600


def test_background_observe_lands_in_the_database(served: Served) -> None:
    with served.client() as http:
        r = http.post(
            "/observe",
            json={
                "session_id": "sock-bg",
                "message": "Lena Park will review the Quasar budget.",
                "response": "Noted: Lena Park reviews the Quasar budget.",
            },
        )
        assert r.status_code == 202
        n = r.json()["exchange_number"]
        for _ in range(300):  # the write happens after the answer; poll the real database
            got = http.get(f"/entities/Chat_Exchange/sock-bg:ex:{n}")
            if got.status_code == 200:
                break
            time.sleep(0.1)
        assert got.status_code == 200, got.text
        assert "Lena Park" in got.json()["entity"]["description"]


@pytest.mark.parametrize("path", ["/mcp", "/mcp/"])
async def test_mcp_over_http_with_the_sdk_client(served: Served, path: str) -> None:
    async with (
        httpx2.AsyncClient(headers=served.auth, timeout=60) as http,
        Client(streamable_http_client(served.url + path, http_client=http)) as client,
    ):
        tools = {t.name for t in (await client.list_tools()).tools}
        assert {
            "search",
            "recall",
            "remember",
            "relate",
            "get_entity",
            "forget",
            "enrich",
            "brain_context",
        } <= tools
        found = await client.call_tool("search", {"query": "Ada Lovelace"})
        assert not found.is_error and "Ada Lovelace" in found.content[0].text
        saved = await client.call_tool(
            "remember", {"entity_type": "Person", "name": "Mira Okafor", "description": "Designer."}
        )
        assert not saved.is_error
        bad = await client.call_tool("remember", {"entity_type": "Spaceship", "name": "X"})
        assert bad.is_error and "Spaceship" in bad.content[0].text
    # What MCP stored is in the same brain the HTTP API reads.
    with served.client() as http:
        assert http.get("/entities/Person/Mira Okafor").status_code == 200


async def test_mcp_without_the_token_is_refused(served: Served) -> None:
    statuses: list[int] = []

    async def record(response: httpx2.Response) -> None:
        statuses.append(response.status_code)

    async with httpx2.AsyncClient(timeout=30, event_hooks={"response": [record]}) as http:
        with pytest.raises(Exception):  # noqa: B017 - the SDK wraps the failure in groups
            async with Client(streamable_http_client(served.url + "/mcp", http_client=http)) as c:
                await c.list_tools()
    assert statuses and set(statuses) == {401}


def test_stop_removes_the_server_file(tmp_path: Path) -> None:
    home = tmp_path / "brain"
    with serve_brain(home, token="fixed-token-for-test") as server:
        assert server.token == "fixed-token-for-test"
        assert (home / "server.json").exists()
        code = server.stop()
    assert code == 0
    assert not (home / "server.json").exists()


def test_non_loopback_without_token_exits_with_a_message(tmp_path: Path) -> None:
    home = tmp_path / "brain"
    cli = BrainCli(home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing"))
    result = cli("serve", "--host", "0.0.0.0", "--port", "1", timeout=60)
    assert result.code != 0
    assert "token" in result.err and "0.0.0.0" in result.err
    assert not (home / "server.json").exists()
