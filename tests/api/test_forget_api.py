"""`POST /forget`: preview, then forget a curated session over HTTP, on both backends."""

from __future__ import annotations

from pathlib import Path

import httpx

from api.seed import SESSION


async def test_forget_a_session_over_http(seeded: httpx.AsyncClient, tmp_path: Path) -> None:
    item = {"type": "Chat_Session", "name": SESSION}
    preview = await seeded.post("/forget", json={**item, "preview": True})
    assert preview.status_code == 200, preview.text
    plan = preview.json()
    assert not plan["done"] and plan["item"] == {"type": "Chat_Session", "id": SESSION}
    names = {(e["type"], e["name"]) for e in plan["entities"]}
    assert ("Chat_Session", SESSION) in names
    assert {("Chat_Exchange", f"{SESSION[:8]}:ex:{n}") for n in (1, 2, 3)} <= names
    assert plan["counts"]["sessions"] == 1
    day = plan["journal_days"][0]  # the curator's journal of the day lists the session
    assert (await seeded.get(f"/entities/Journal_Entry/{day}")).status_code == 200
    assert (await seeded.get(f"/sessions/{SESSION}")).status_code == 200  # still there

    done = await seeded.post("/forget", json=item)
    assert done.status_code == 200 and done.json()["done"] is True
    assert (await seeded.get(f"/sessions/{SESSION}")).status_code == 404
    gone = await seeded.get(f"/entities/Chat_Exchange/{SESSION[:8]}:ex:3")
    assert gone.status_code == 404
    found = (await seeded.get("/search", params={"q": "syllabus draft", "n": 20})).json()
    assert all(h["type"] in ("Person", "Project") for h in found["results"]), found
    # The day's journal listed only this session: it goes, and the curator's files of
    # the day no longer quote it.
    assert (await seeded.get(f"/entities/Journal_Entry/{day}")).status_code == 404
    daily = tmp_path / "brain" / "Daily" / ".activity"
    assert list(daily.iterdir())
    for path in daily.iterdir():
        text = path.read_text("utf-8", "replace").lower()
        assert SESSION not in text and "syllabus" not in text, path.name

    again = await seeded.post("/forget", json=item)
    assert again.status_code == 404 and "no session" in again.json()["error"]
    unknown = await seeded.post("/forget", json={"type": "Spaceship", "name": "X"})
    assert unknown.status_code == 400
