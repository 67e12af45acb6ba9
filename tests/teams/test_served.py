"""A team brain behind `brain serve`: each person's token acts as them over HTTP and MCP,
the CLI manages people, and a revoked token is refused (real processes, a real socket)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from api.served import Served, serve_brain
from brainbridge.brain import Brain
from cli.runner import BrainCli, clean_env
from hooks.conftest import claude_config, prompt_payload, run_hook, stop_payload  # noqa: F401
from hooks.transcript import realistic_transcript


def _as(served: Served, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=served.url, headers={"Authorization": f"Bearer {token}"}, timeout=60
    )


async def _mcp_search(served: Served, token: str, query: str) -> str:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(served.url + "/mcp", http_client=http)) as client,
    ):
        found = await client.call_tool("search", {"query": query})
        assert not found.is_error, found.content
        return str(found.content[0].text)


async def test_each_token_acts_as_its_person(tmp_path: Path, database_url: str) -> None:
    home = tmp_path / "brain"
    cli = BrainCli(home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing"))
    cli.ok("init", "--database-url", database_url)
    cli.ok("add", "Project", "Atlas", "-d", "the campus map, due in May")
    alice = cli.ok("users", "add", "alice", "--json").json()["token"]
    bob = cli.ok("users", "add", "bob", "--shared", "read", "--json").json()["token"]
    listed = {p["name"]: p for p in cli.ok("users", "list", "--json").json()}
    assert listed["bob"]["workspaces"] == {"bob": True, "main": False}
    assert "token" not in json.dumps(listed) and alice not in cli.ok("users", "list").out

    with serve_brain(home) as served:
        with _as(served, alice) as http:
            r = http.post(
                "/entities",
                json={"type": "Person", "name": "Dr. Reyes", "description": "my therapist"},
            )
            assert r.status_code == 200, r.text
            r = http.post(
                "/observe",
                json={
                    "session_id": "alice-1",
                    "message": "My therapist appointment with Dr. Reyes moved to Thursday",
                    "response": "Thursday it is.",
                    "wait": True,
                },
            )
            assert r.status_code == 202 and r.json()["exchange"], r.text
            hits = http.get("/search", params={"q": "therapist Reyes"}).json()["results"]
            assert "Dr. Reyes" in {h["name"] for h in hits}
            assert [s["id"] for s in http.get("/sessions").json()] == ["alice-1"]
            for _ in range(300):  # the server's curator works for each person too
                title = http.get("/sessions/alice-1").json()["title"]
                if title:
                    break
                time.sleep(0.1)
            assert title, "alice's session got no title from the curator"
        assert "Dr. Reyes" in await _mcp_search(served, alice, "therapist Reyes")

        with _as(served, bob) as http:
            hits = http.get("/search", params={"q": "therapist Reyes"}).json()["results"]
            assert hits == []
            assert "Atlas" in {
                h["name"] for h in http.get("/search", params={"q": "campus map"}).json()["results"]
            }
            assert http.post("/recall", json={"query": "therapist Reyes"}).json()["count"] == 0
            assert http.get("/entities/Person/Dr. Reyes").status_code == 404
            block = (
                http.post(
                    "/enrich", json={"message": "When is my therapist appointment with Dr. Reyes?"}
                ).json()["block"]
                or ""
            )
            assert "Reyes" not in block and "Thursday" not in block
            assert http.get("/sessions").json() == []
            assert http.get("/sessions/alice-1").status_code == 404
            exported = http.get("/export").text
            assert "Reyes" not in exported and "alice-1" not in exported
            assert "Atlas" in exported
        assert "Dr. Reyes" not in await _mcp_search(served, bob, "therapist Reyes")

        # a brain with people answers no request without a person's or the owner's token
        assert httpx.get(served.url + "/stats", timeout=30).status_code == 401
        with served.client() as owner:  # the server's own token: the owner, who sees all
            hits = owner.get("/search", params={"q": "therapist Reyes"}).json()["results"]
            assert "Dr. Reyes" in {h["name"] for h in hits}

        cli.ok("users", "revoke", "alice")
        with _as(served, alice) as http:
            assert http.get("/stats").status_code == 401
        with _as(served, bob) as http:
            assert http.get("/stats").status_code == 200
    revoked = {p["name"]: p for p in cli.ok("users", "list", "--json").json()}["alice"]
    assert revoked["revoked"] is True


def test_people_need_a_postgresql_brain(tmp_path: Path) -> None:
    home = tmp_path / "file-brain"
    env = clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing")
    env.pop("BRAIN_DATABASE_URL", None)
    cli = BrainCli(home, env)
    cli.ok("add", "Project", "Atlas")
    refused = cli("users", "add", "alice")
    assert refused.code != 0 and "PostgreSQL" in refused.err
    as_someone = cli("search", "Atlas", env={"BRAIN_USER": "alice"})
    assert as_someone.code != 0 and "PostgreSQL" in as_someone.err


async def test_claude_code_hooks_of_a_person_act_as_them(tmp_path: Path, database_url: str) -> None:
    """With the owner's server running, a person's hooks never borrow the owner's token:
    with their own token (BRAIN_TOKEN) they go through the server as them, without one
    they are handled here as them; either way the turn is in their workspace only."""
    home = tmp_path / "brain"
    cli = BrainCli(home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing"))
    cli.ok("init", "--database-url", database_url)
    alice = cli.ok("users", "add", "alice", "--json").json()["token"]
    bob = cli.ok("users", "add", "bob", "--json").json()["token"]
    as_alice = {"BRAIN_USER": "alice"}
    with serve_brain(home):
        session = "5d0c1e8a-1111-4c8e-a1f0-6d2b7e9c4a10"
        prompt = "My landlord Mrs. Okonkwo wants the lease renewal signed by Friday"
        transcript = realistic_transcript(
            tmp_path / "t.jsonl", session, prompt, "Noted: lease renewal by Friday."
        )
        run_hook("stop", stop_payload(None, transcript, session), home, env=as_alice)
        owner = await Brain.open(home, embedder=None, database_url=database_url)
        try:
            for _ in range(600):  # the detached drainer stores it as alice
                rows = owner.store.conn.execute(
                    "SELECT workspace FROM entities WHERE type = 'Chat_Exchange'"
                ).fetchall()
                if rows:
                    break
                time.sleep(0.1)
            assert [r[0] for r in rows] == ["alice"]
        finally:
            await owner.close()
        question = "When does the landlord want the lease renewal signed again?"
        mine = run_hook(
            "prompt",
            prompt_payload(question, session),
            home,
            env={**as_alice, "BRAIN_TOKEN": alice},
        ).context("UserPromptSubmit")
        assert mine and "Friday" in mine
        theirs = run_hook(
            "prompt",
            prompt_payload(question, session),
            home,
            env={"BRAIN_USER": "bob", "BRAIN_TOKEN": bob},
        ).context("UserPromptSubmit")
        assert not theirs or ("Friday" not in theirs and "Okonkwo" not in theirs)
        here = run_hook(
            "prompt", prompt_payload(question, session), home, env={"BRAIN_USER": "bob"}
        ).context("UserPromptSubmit")
        assert not here or ("Friday" not in here and "Okonkwo" not in here)


async def test_a_personal_brain_moves_into_its_persons_workspace(
    tmp_path: Path, database_url: str
) -> None:
    personal = tmp_path / "alice-laptop"
    mine = BrainCli(personal, clean_env(BRAIN_HOME=str(personal), BRAIN_EMBEDDER="hashing"))
    mine.ok("add", "Person", "Dr. Reyes", "-d", "my therapist, Tuesdays")
    mine.ok("add", "Project", "Atlas", "-d", "my own notes on the campus map")
    team = tmp_path / "team"
    cli = BrainCli(team, clean_env(BRAIN_HOME=str(team), BRAIN_EMBEDDER="hashing"))
    cli.ok("init", "--database-url", database_url)
    cli.ok("add", "Project", "Atlas", "-d", "the campus map, due in May")
    cli.ok("users", "add", "alice")
    cli.ok("users", "add", "bob")
    moved = mine.ok(
        "migrate",
        "--to",
        database_url,
        "--workspace",
        "alice",
        "--json",
        env={"BRAIN_DATABASE_URL": ""},
    ).json()
    assert moved["matches"] is True and moved["records"]["entity"] == 2
    assert {p["name"] for p in cli.ok("users", "list", "--json").json()} == {"alice", "bob"}
    as_alice = cli.ok("search", "therapist", "--json", env={"BRAIN_USER": "alice"}).json()
    assert "Dr. Reyes" in {h["name"] for h in as_alice["results"]}
    shown = cli.ok("show", "Project:Atlas", "--json", env={"BRAIN_USER": "alice"}).json()
    assert "my own notes" in json.dumps(shown)
    as_bob = cli.ok("search", "therapist", "--json", env={"BRAIN_USER": "bob"}).json()
    assert as_bob["results"] == []
    refused = cli("migrate", "--to", str(tmp_path / "copy"))
    assert refused.code != 0 and "has people" in refused.err
