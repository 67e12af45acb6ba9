"""The token, the loopback default and DNS-rebinding protection."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from api.conftest import TOKEN, make_app, running
from brainbridge.api.guard import host_name
from brainbridge.errors import InvalidInput


def bare(app: FastAPI, host: str = "127.0.0.1:8765") -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url=f"http://{host}", timeout=30
    )


async def test_token_required_for_data(app: FastAPI) -> None:
    async with bare(app) as client:
        for method, path in (
            ("GET", "/stats"),
            ("GET", "/search?q=x"),
            ("POST", "/enrich"),
            ("GET", "/export"),
            ("POST", "/mcp/"),
            ("POST", "/hooks/prompt"),
        ):
            r = await client.request(method, path, json={"message": "hello there friend"})
            assert r.status_code == 401, (path, r.text)
            assert r.json() == {"error": "missing or wrong token"}
            assert r.headers["www-authenticate"] == "Bearer"
        wrong = await client.get("/stats", headers={"Authorization": "Bearer not-the-token"})
        assert wrong.status_code == 401
        # A token with characters outside ASCII is just wrong, not a server error.
        odd = await client.get("/stats", headers={"Authorization": "Bearer t\u00e9st".encode()})
        assert odd.status_code == 401
        ok = await client.get("/stats", headers={"Authorization": f"Bearer {TOKEN}"})
        assert ok.status_code == 200 and ok.json()["entities"] == 0
        # Only the header: a token in the URL ends up in shell history and proxy logs.
        by_query = await client.get(f"/stats?token={TOKEN}")
        assert by_query.status_code == 401


async def test_without_a_token_loopback_is_open(tmp_path: Path) -> None:
    async with running(make_app(tmp_path / "brain", token=None)) as app, bare(app) as client:
        assert (await client.get("/stats")).status_code == 200


def test_non_loopback_bind_needs_a_token(tmp_path: Path) -> None:
    for host in ("0.0.0.0", "192.168.1.20", "::", "example.com"):
        with pytest.raises(InvalidInput, match="needs a token"):
            make_app(tmp_path / "brain", host=host, token=None)
    assert make_app(tmp_path / "brain", host="0.0.0.0", token=TOKEN) is not None


async def test_dns_rebinding_host_is_refused(app: FastAPI) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    for host in (
        "evil.example.com",
        "evil.example.com:8765",
        "127.0.0.1.nip.io:8765",
        "10.0.0.5:8765",
    ):
        async with bare(app, host) as client:
            r = await client.get("/stats", headers=auth)
            assert r.status_code == 403, host
            assert "not allowed" in r.json()["error"]
            # The page itself is refused too: a rebinding page must not even read it.
            assert (await client.get("/")).status_code == 403
    for host in ("127.0.0.1:8765", "localhost:8765", "localhost", "[::1]:8765", "[::1]"):
        async with bare(app, host) as client:
            assert (await client.get("/stats", headers=auth)).status_code == 200, host


async def test_non_loopback_bind_accepts_any_host_with_the_token(tmp_path: Path) -> None:
    app = make_app(tmp_path / "brain", host="0.0.0.0")
    async with running(app), bare(app, "brain.lan:8765") as client:
        assert (await client.get("/stats")).status_code == 401
        r = await client.get("/stats", headers={"Authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 200
        # The page loads without the token (it holds none; its script sends the token).
        assert (await client.get("/")).status_code == 200


def test_host_name_parsing() -> None:
    assert host_name("127.0.0.1:8765") == "127.0.0.1"
    assert host_name("[::1]:8765") == "::1"
    assert host_name("[::1]") == "::1"
    assert host_name("localhost") == "localhost"
    assert host_name("EVIL.com:80") == "EVIL.com"
    assert host_name("") == ""
