"""The HTTP door under probing: numbers and nesting past any sane bound, the token in a
URL, and the headers every response carries (issue #31)."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from api.conftest import TOKEN

MAX_NUMBER = 2**31 - 1  # brainbridge.bounds.MAX_NUMBER


async def test_numbers_past_the_bound_are_422_and_search_keeps_working(
    app: FastAPI, api: httpx.AsyncClient
) -> None:
    for number in (2**63 - 1, 10**19, MAX_NUMBER + 1, 0):
        r = await api.post(
            "/observe",
            json={
                "session_id": "big",
                "exchange_number": number,
                "message": "We moved the Zephyr review to Monday",
                "response": "Zephyr review on Monday, noted.",
                "wait": True,
            },
        )
        assert r.status_code == 422, (number, r.text)
        assert "exchange_number" in r.json()["error"]
    for method, path in (
        ("GET", "/browse?offset=1e20"),
        ("GET", f"/browse?offset={10**20}"),
        ("POST", "/merges/1e20/accept"),
        ("POST", f"/merges/{10**20}/accept"),
        ("POST", f"/merges/{2**63 - 1}/reject"),
    ):
        r = await api.request(method, path)
        assert r.status_code == 422, (path, r.text)
        assert ("offset" if "browse" in path else "merge_id") in r.json()["error"]
    ok = await api.post(
        "/observe",
        json={
            "session_id": "big",
            "exchange_number": MAX_NUMBER,
            "message": "We moved the Zephyr review to Monday",
            "response": "Zephyr review on Monday, noted.",
            "wait": True,
        },
    )
    assert ok.status_code == 202 and ok.json()["exchange_number"] == MAX_NUMBER
    found = await api.get("/search", params={"q": "Zephyr review"})
    assert found.status_code == 200 and found.json()["count"] >= 1


async def test_a_number_stored_before_the_bound_does_not_break_search(
    app: FastAPI, api: httpx.AsyncClient
) -> None:
    # What an older server let in: the exchange is there, search must still answer.
    await app.state.brainbridge["bridge"].observe_now(
        "old", 2**63 - 1, "We moved the Zephyr review to Monday", "Zephyr review Monday."
    )
    found = await api.get("/search", params={"q": "Zephyr review"})
    assert found.status_code == 200, found.text
    assert found.json()["count"] >= 1
    recalled = await api.post("/recall", json={"query": "Zephyr review"})
    assert recalled.status_code == 200 and recalled.json()["count"] >= 1


async def test_deep_json_is_a_4xx_that_says_so(api: httpx.AsyncClient) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    for kind in ("prompt", "stop", "session-start"):
        r = await api.post(
            f"/hooks/{kind}", content=deep, headers={"Content-Type": "application/json"}
        )
        assert r.status_code == 400, (kind, r.text)
        assert "nests deeper than 32 levels" in r.json()["error"]
    attributes: dict[str, Any] = {"leaf": 1}
    for _ in range(200):
        attributes = {"k": attributes}
    r = await api.post(
        "/entities", json={"type": "Project", "name": "Deep", "attributes": attributes}
    )
    assert r.status_code == 422 and "nests deeper than 32 levels" in r.json()["error"]
    r = await api.post(
        "/entities", json={"type": "Project", "name": "Fine", "attributes": {"a": {"b": 1}}}
    )
    assert r.status_code == 200, r.text


async def test_the_token_counts_only_in_the_authorization_header(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as bare:
        for method, path in (
            ("GET", f"/stats?token={TOKEN}"),
            ("POST", f"/entities?token={TOKEN}"),
            ("DELETE", f"/entities/Project/Atlas?token={TOKEN}"),
        ):
            r = await bare.request(method, path, json={"type": "Project", "name": "Atlas"})
            assert r.status_code == 401, (path, r.text)
        header = await bare.get("/stats", headers={"Authorization": f"Bearer {TOKEN}"})
        assert header.status_code == 200


async def test_every_response_carries_the_security_headers(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as bare:
        responses = [
            await bare.get("/"),
            await bare.get("/app.js"),
            await bare.get("/health"),
            await bare.get("/stats"),  # a 401
            await bare.get("/stats", headers={"Authorization": f"Bearer {TOKEN}"}),
            await bare.get("/no-such-page", headers={"Authorization": f"Bearer {TOKEN}"}),
        ]
        docs = await bare.get("/docs", headers={"Authorization": f"Bearer {TOKEN}"})
    for r in responses:
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, r.url
        assert "http" not in csp  # no third-party source
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-content-type-options"] == "nosniff"
    # FastAPI's Swagger page loads its scripts from a CDN: not served at all.
    assert docs.status_code == 404 and "cdn" not in docs.text
