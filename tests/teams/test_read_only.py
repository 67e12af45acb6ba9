"""A read-only member who tries to change shared knowledge is told so: a 403 over HTTP
and a tool error naming the reason over MCP, never a 500 or a bare failure."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from mcp import Client

from api.conftest import make_app, running
from brainbridge.brain import Brain
from brainbridge.mcp import build_server
from brainbridge.store.postgres import people


@pytest.fixture
async def home(tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BRAIN_DATABASE_URL", database_url)
    home = tmp_path / "brain"
    owner = await Brain.open(home, embedder="hashing", database_url=database_url)
    try:
        await owner.upsert_entity("Project", "Atlas", description="the campus map")
        await owner.upsert_entity("Project", "Atlas map", description="the campus map too")
    finally:
        await owner.close()
    return home


async def test_a_read_only_member_gets_403_over_http(home: Path, database_url: str) -> None:
    owner = await Brain.open(home, embedder=None, database_url=database_url)
    try:
        token = people.add(owner.store.conn, "carol", shared="read")
    finally:
        await owner.close()
    async with (
        running(make_app(home)) as app,
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://127.0.0.1:8765",
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        ) as carol,
    ):
        assert (await carol.get("/entities/Project/Atlas")).status_code == 200  # she reads
        for method, path, body in (
            ("DELETE", "/entities/Project/Atlas", None),
            (
                "POST",
                "/merges",
                {
                    "keep": {"type": "Project", "name": "Atlas"},
                    "other": {"type": "Project", "name": "Atlas map"},
                },
            ),
        ):
            r = await carol.request(method, path, json=body)
            assert r.status_code == 403, (path, r.text)
            assert "workspace 'main' is read-only for you" in r.json()["error"], r.text
            assert r.json()["kind"] == "PermissionRefused"
        assert (await carol.get("/entities/Project/Atlas")).status_code == 200  # still there


async def test_a_read_only_member_gets_the_reason_over_mcp(home: Path, database_url: str) -> None:
    owner = await Brain.open(home, embedder=None, database_url=database_url)
    try:
        people.add(owner.store.conn, "carol", shared="read")
    finally:
        await owner.close()
    server = build_server(
        lambda: Brain.open(home, embedder="hashing", database_url=database_url, user="carol")
    )
    async with Client(server) as client:
        gone = await client.call_tool("forget", {"entity_type": "Project", "name": "Atlas"})
        assert gone.is_error
        text = gone.content[0].text  # type: ignore[union-attr]
        assert "workspace 'main' is read-only for you" in text, text
        found = await client.call_tool("search", {"query": "campus map"})
        assert "Atlas" in found.content[0].text  # type: ignore[union-attr]
