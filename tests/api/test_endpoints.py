"""Every endpoint through the real app (ASGI client with the app's lifespan)."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import quote

import httpx
from fastapi import FastAPI

from api.seed import SESSION


async def test_health_and_page_need_no_token(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as bare:
        health = await bare.get("/health")
        page = await bare.get("/")
        script, style = await bare.get("/app.js"), await bare.get("/app.css")
        data = await bare.get("/types")
    assert health.status_code == 200 and health.json()["ok"] is True
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    # The page holds no data; its script reads the token from the URL fragment.
    assert 'src="/app.js"' in page.text
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert "location.hash" in script.text and style.status_code == 200
    assert data.status_code == 401


async def test_openapi_lists_every_endpoint(api: httpx.AsyncClient) -> None:
    paths = (await api.get("/openapi.json")).json()["paths"]
    for path in (
        "/health",
        "/stats",
        "/entities",
        "/entities/{etype}/{name}",
        "/relations",
        "/search",
        "/recall",
        "/brain-context",
        "/enrich",
        "/observe",
        "/sessions",
        "/sessions/{session_id}",
        "/sessions/{session_id}/curator-runs",
        "/hooks/{kind}",
        "/export",
    ):
        assert path in paths, path
    search = paths["/search"]["get"]
    # Type filters are query parameters, not a request body on a GET.
    assert "requestBody" not in search
    assert {p["name"] for p in search["parameters"]} >= {"q", "n", "type", "exclude_type"}


async def test_entity_lifecycle(api: httpx.AsyncClient) -> None:
    created = await api.post(
        "/entities",
        json={
            "type": "Person",
            "name": "Grace Hopper",
            "description": "Wrote the first compiler.",
            "attributes": {"role": "admiral"},
        },
    )
    assert created.status_code == 200, created.text
    assert created.json()["name"] == "Grace Hopper"
    merged = await api.post(
        "/entities",
        json={"type": "Person", "name": "Grace Hopper", "attributes": {"organization": "US Navy"}},
    )
    assert merged.json()["attributes"] == {"role": "admiral", "organization": "US Navy"}

    got = await api.get("/entities/Person/Grace Hopper")
    assert got.status_code == 200
    assert got.json()["entity"]["description"] == "Wrote the first compiler."

    stats = (await api.get("/stats")).json()
    assert stats["entities"] == 1 and stats["entities_by_type"] == {"Person": 1}

    assert (await api.delete("/entities/Person/Grace Hopper")).json() == {"deleted": True}
    assert (await api.get("/entities/Person/Grace Hopper")).status_code == 404
    gone = await api.delete("/entities/Person/Grace Hopper")
    assert gone.status_code == 404 and "Grace Hopper" in gone.json()["error"]


async def test_names_with_slashes_and_unicode(api: httpx.AsyncClient) -> None:
    for name in ("AC/DC", "Zoë Ångström", "50% off?"):
        r = await api.post("/entities", json={"type": "Organization", "name": name})
        assert r.status_code == 200, r.text
        got = await api.get("/entities/Organization/" + quote(name, safe=""))
        assert got.status_code == 200, (name, got.text)
        assert got.json()["entity"]["name"] == name


async def test_relations_and_subgraph(seeded: httpx.AsyncClient) -> None:
    r = await seeded.post(
        "/relations",
        json={
            "src": {"type": "Person", "name": "Ada Lovelace"},
            "relation": "ADVISES",
            "dst": "Project:Spring Cohort",
            "attributes": {"since": "2026"},
        },
    )
    assert r.status_code == 200, r.text
    sub = (await seeded.get("/entities/Project/Spring Cohort", params={"hops": 1})).json()
    names = {n["name"] for n in sub["nodes"]}
    assert {"Spring Cohort", "Kevin Ortiz", "Acme Robotics", "Ada Lovelace"} <= names
    assert any(e["type"] == "ADVISES" for e in sub["edges"]), sub["edges"]

    missing = await seeded.post(
        "/relations", json={"src": "Nobody Atall", "relation": "KNOWS", "dst": "Ada Lovelace"}
    )
    assert missing.status_code == 404 and "Nobody Atall" in missing.json()["error"]


async def test_search_and_type_filters(seeded: httpx.AsyncClient) -> None:
    r = (await seeded.get("/search", params={"q": "spring cohort bootcamp", "n": 10})).json()
    assert r["count"] >= 1 and r["results"][0]["name"] == "Spring Cohort"
    only_people = (
        await seeded.get("/search", params={"q": "spring cohort bootcamp", "type": "Person"})
    ).json()
    assert only_people["results"] and {h["type"] for h in only_people["results"]} == {"Person"}
    without = (
        await seeded.get(
            "/search",
            params=[
                ("q", "spring cohort"),
                ("exclude_type", "Project"),
                ("exclude_type", "Chat_Exchange"),
            ],
        )
    ).json()
    assert all(h["type"] not in ("Project", "Chat_Exchange") for h in without["results"])


async def test_unknown_type_is_400_naming_known_types(seeded: httpx.AsyncClient) -> None:
    for r in (
        await seeded.post("/entities", json={"type": "Spaceship", "name": "Rocinante"}),
        await seeded.get("/search", params={"q": "ada", "type": "Spaceship"}),
        await seeded.post("/recall", json={"query": "ada", "entity_types": ["Spaceship"]}),
        await seeded.get("/entities/Spaceship/Rocinante"),
    ):
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert "Spaceship" in error and "Person" in error and "Project" in error


async def test_recall_and_brain_context(seeded: httpx.AsyncClient) -> None:
    recall = (await seeded.post("/recall", json={"query": "Kevin Ortiz cohort"})).json()
    assert recall["query"] == "Kevin Ortiz cohort"
    assert "Kevin Ortiz" in [h["name"] for h in recall["results"]]

    ctx = await seeded.post(
        "/brain-context",
        json={"project_root": "/home/dev/src/litellm", "recent_files": ["proxy/config.yaml"]},
    )
    assert ctx.status_code == 200
    entries = ctx.json()["entries"]
    assert any("litellm" in (e.get("title") or e.get("slug") or "") for e in entries), entries


async def test_enrich_and_pass_through(seeded: httpx.AsyncClient) -> None:
    r = (
        await seeded.post(
            "/enrich",
            json={"message": "How is Kevin Ortiz doing with the spring cohort this month?"},
        )
    ).json()
    assert r["judgment"] == "enrich"
    assert "Kevin Ortiz" in r["block"] and r["block"].startswith("## Brain Context")
    short = (await seeded.post("/enrich", json={"message": "thanks!"})).json()
    assert short["judgment"] == "pass_through" and short["block"] is None


async def test_enrich_of_a_5mb_message_returns_a_judgment(seeded: httpx.AsyncClient) -> None:
    message = "Tell me what Kevin Ortiz planned for the spring cohort. " * 90_000
    assert len(message) > 5_000_000
    r = await seeded.post("/enrich", json={"message": message})
    assert r.status_code == 200
    assert r.json()["judgment"] in ("enrich", "step_back", "pass_through")


async def test_fts_junk_in_search_is_just_text(seeded: httpx.AsyncClient) -> None:
    junk = [
        '"',
        "*",
        "AND OR NOT",
        "NEAR(ada, 2)",
        "ada:*",
        "^ada",
        "'); DROP TABLE entities;--",
        "\u0000ada",
        "(((",
        "-ada",
        "ada -",
        "col:val",
        "🧠🧠",
        "a" * 5000,
        "   ",
        "",
    ]
    for q in junk:
        r = await seeded.get("/search", params={"q": q})
        assert r.status_code == 200, (q, r.text)
        assert r.json()["query"] == q
    still = (await seeded.get("/search", params={"q": "Ada"})).json()
    assert still["results"][0]["name"] == "Ada Lovelace"


async def test_bad_bodies_get_a_clear_422(api: httpx.AsyncClient) -> None:
    not_json = await api.post(
        "/entities", content=b"{bad json", headers={"Content-Type": "application/json"}
    )
    assert not_json.status_code == 422
    assert "not valid JSON" in not_json.json()["error"]

    no_type = await api.post("/entities", json={"type": "Person"})
    assert no_type.status_code == 422 and "name" in no_type.json()["error"]

    array = await api.post("/enrich", json=["a", "list"])
    assert array.status_code == 422 and "JSON object" in array.json()["error"]

    huge = await api.post("/entities", json={"type": "Person", "name": "x" * 600})
    assert huge.status_code == 422
    assert len(huge.content) < 2000  # errors never echo the input back


async def test_missing_things_are_404(api: httpx.AsyncClient) -> None:
    for r in (
        await api.get("/entities/Person/Nobody"),
        await api.get("/sessions/no-such-session"),
        await api.post("/hooks/teatime", json={}),
        await api.get("/no/such/route"),
    ):
        assert r.status_code == 404
        assert r.json()["error"]


async def test_observe_in_background_lands(app: FastAPI, api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/observe",
        json={
            "session_id": "bg-1",
            "message": "Priya Natarajan joined Acme Robotics as CTO.",
            "response": "Noted: Priya Natarajan is the new CTO of Acme Robotics.",
        },
    )
    assert r.status_code == 202 and r.json() == {"exchange_number": 1, "accepted": True}
    await app.state.brainbridge["bridge"].drain()
    ex = await api.get("/entities/Chat_Exchange/bg-1:ex:1")
    assert ex.status_code == 200
    assert "Priya Natarajan" in ex.json()["entity"]["attributes"]["user_message"]
    session = (await api.get("/sessions/bg-1")).json()
    assert session["message_count"] == 1


async def test_observe_wait_returns_what_was_stored(api: httpx.AsyncClient) -> None:
    r = (
        await api.post(
            "/observe",
            json={
                "session_id": "wait-1",
                "message": "I decided to use Postgres for the team brain.",
                "response": "Decision noted.",
                "wait": True,
            },
        )
    ).json()
    assert r["exchange"] == "wait-1:ex:1" and r["error"] is None
    assert "Chat_Exchange:wait-1:ex:1" in r["stored"]


async def test_concurrent_observes_keep_every_turn(app: FastAPI, api: httpx.AsyncClient) -> None:
    bodies = [
        {
            "session_id": "burst",
            "message": f"Note {i}: the Quasar launch checklist item {i}.",
            "response": f"Noted item {i}.",
        }
        for i in range(1, 6)
    ]
    answers = await asyncio.gather(*(api.post("/observe", json=b) for b in bodies))
    numbers = sorted(a.json()["exchange_number"] for a in answers)
    assert numbers == [1, 2, 3, 4, 5]
    await app.state.brainbridge["bridge"].drain()
    for n in numbers:
        assert (await api.get(f"/entities/Chat_Exchange/burst:ex:{n}")).status_code == 200


async def test_sessions_and_curator_runs(seeded: httpx.AsyncClient) -> None:
    listed = (await seeded.get("/sessions")).json()
    assert [s["id"] for s in listed] == [SESSION]
    session = (await seeded.get(f"/sessions/{SESSION}")).json()
    assert session["message_count"] == 3
    assert session["title"] and session["summary"]
    runs = (await seeded.get(f"/sessions/{SESSION}/curator-runs")).json()
    assert len(runs) >= 2  # the cadence runs after exchanges 1 and 3
    assert any(run["actions"] for run in runs)

    patched = (
        await seeded.patch(f"/sessions/{SESSION}", json={"title": "Bootcamp planning"})
    ).json()
    assert patched["title"] == "Bootcamp planning" and patched["title_source"] == "user"
    again = (await seeded.get(f"/sessions/{SESSION}")).json()
    assert again["title"] == "Bootcamp planning" and again["summary"] == session["summary"]


async def test_hooks_endpoint(app: FastAPI, seeded: httpx.AsyncClient) -> None:
    prompt = (
        await seeded.post(
            "/hooks/prompt",
            json={
                "session_id": "hook-1",
                "prompt": "What is Kevin Ortiz planning for the spring cohort?",
                "cwd": "/tmp",
                "hook_event_name": "UserPromptSubmit",
            },
        )
    ).json()
    assert "Kevin Ortiz" in prompt["context"]

    start = (
        await seeded.post(
            "/hooks/session-start",
            json={"session_id": "hook-1", "cwd": "/home/dev/src/litellm", "source": "startup"},
        )
    ).json()
    assert "litellm" in start["context"]

    stop = (
        await seeded.post(
            "/hooks/stop",
            json={
                "session_id": "hook-1",
                "prompt": "Who sponsors the spring cohort?",
                "last_assistant_message": "Acme Robotics sponsors it.",
                "stop_hook_active": False,
            },
        )
    ).json()
    assert stop["accepted"] is True and stop["context"] is None
    await app.state.brainbridge["bridge"].drain()
    ex = (await seeded.get(f"/entities/Chat_Exchange/hook-1:ex:{stop['exchange_number']}")).json()
    assert ex["entity"]["attributes"]["ai_response"] == "Acme Robotics sponsors it."

    nothing = (await seeded.post("/hooks/stop", json={"session_id": "hook-1"})).json()
    assert nothing["accepted"] is False
    junk = await seeded.post(
        "/hooks/prompt", content=b"\xff\xfe not json", headers={"Content-Type": "application/json"}
    )
    assert junk.status_code == 200 and junk.json()["context"] is None


async def test_export_is_jsonl(seeded: httpx.AsyncClient) -> None:
    r = await seeded.get("/export")
    assert r.status_code == 200
    rows = [json.loads(line) for line in r.text.splitlines() if line]
    names = {row.get("name") for row in rows}
    assert {"Ada Lovelace", "Kevin Ortiz", "Spring Cohort"} <= names


async def test_health_says_nothing_about_the_brain(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as bare:
        health = await bare.get("/health")
    assert health.json() == {"ok": True}


async def test_a_body_over_the_cap_is_refused_before_it_is_read(
    seeded: httpx.AsyncClient,
) -> None:
    from brainbridge.api.guard import MAX_BODY

    big = b'{"message": "' + b"x" * (MAX_BODY + 10) + b'"}'
    r = await seeded.post("/enrich", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "request body over" in r.json()["error"]
