"""Facts over time: invalidate, as_of and superseded over HTTP."""

from __future__ import annotations

import httpx


async def test_http_invalidate_search_and_recall(api: httpx.AsyncClient) -> None:
    for name in ("Home: Austin", "Home: Denver"):
        r = await api.post("/entities", json={"type": "Fact", "name": name, "description": name})
        assert r.status_code in (200, 201), r.text
    r = await api.post("/entities/Fact/Home: Austin/invalidate", json={"on": "2026-08-01"})
    assert r.status_code == 200 and r.json()["attributes"]["valid_to"] == "2026-08-01"
    now = (await api.get("/search", params={"q": "Home"})).json()
    ever = (await api.get("/search", params={"q": "Home", "superseded": "true"})).json()
    assert {x["name"] for x in now["results"]} == {"Home: Denver"}
    assert {x["name"] for x in ever["results"]} == {"Home: Austin", "Home: Denver"}
    then = (await api.post("/recall", json={"query": "Home", "as_of": "2026-07-01"})).json()
    assert {x["name"] for x in then["results"]} == {"Home: Austin", "Home: Denver"}
    bad = await api.get("/search", params={"q": "Home", "as_of": "soon"})
    assert bad.status_code == 400
