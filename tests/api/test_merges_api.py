"""The review queue over HTTP."""

from __future__ import annotations

import httpx


async def test_merge_decide_and_unmerge(api: httpx.AsyncClient) -> None:
    for name in ("Baker & Sons", "Baker and Sons"):
        assert (await api.post("/entities", json={"type": "Organization", "name": name})).is_success
    done = await api.post(
        "/merges",
        json={
            "keep": {"type": "Organization", "name": "Baker & Sons"},
            "other": {"type": "Organization", "name": "Baker and Sons"},
        },
    )
    assert done.status_code == 200 and done.json()["status"] == "merged"
    listed = (await api.get("/merges", params={"status": ""})).json()
    assert listed["count"] == 1
    undone = await api.post(f"/merges/{done.json()['id']}/unmerge")
    assert undone.json()["status"] == "unmerged"
    again = await api.post(f"/merges/{done.json()['id']}/unmerge")
    assert again.status_code == 400
    assert (await api.post("/merges/1/explode")).status_code == 404
