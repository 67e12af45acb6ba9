"""The web app's routes: types with counts, browsing with a filter, an entity's page, the
graph, a session's transcript with what the bridge did per turn, the curator on demand and
the directives."""

from __future__ import annotations

import httpx

from api.seed import SESSION


async def test_types_count_every_kind_and_browse_filters_literally(
    seeded: httpx.AsyncClient,
) -> None:
    types = {t["type"]: t["count"] for t in (await seeded.get("/types")).json()}
    assert types["Person"] >= 2 and types["Chat_Exchange"] >= 1 and "Recipe" not in types
    people = (await seeded.get("/browse", params={"type": "Person"})).json()
    assert people["total"] == types["Person"] and {e["type"] for e in people["entities"]} == {
        "Person"
    }
    kevin = (await seeded.get("/browse", params={"type": "Person", "q": "kevin"})).json()
    assert [e["name"] for e in kevin["entities"]] == ["Kevin Ortiz"]
    # LIKE's wildcards are literal in a filter
    assert (await seeded.get("/browse", params={"q": "%_%"})).json()["total"] == 0
    assert (await seeded.get("/browse", params={"limit": 0})).status_code == 422


async def test_an_entity_page_holds_relations_and_where_it_came_from(
    seeded: httpx.AsyncClient,
) -> None:
    page = (await seeded.get("/entity", params={"type": "Person", "name": "Kevin Ortiz"})).json()
    assert page["entity"]["name"] == "Kevin Ortiz" and page["current"] is True
    leads = [r for r in page["relations"] if r["relation"] == "LEADS"]
    assert leads and leads[0]["other"]["name"] == "Spring Cohort" and leads[0]["direction"] == "out"
    missing = await seeded.get("/entity", params={"type": "Person", "name": "Nobody"})
    assert missing.status_code == 404

    graph = (await seeded.get("/graph", params={"type": "Person", "name": "Kevin Ortiz"})).json()
    names = {n["name"] for n in graph["nodes"]}
    assert {"Kevin Ortiz", "Spring Cohort", "Acme Robotics"} <= names  # two hops
    too_far = {"type": "Person", "name": "Kevin Ortiz", "hops": 3}
    assert (await seeded.get("/graph", params=too_far)).status_code == 422


async def test_a_transcript_shows_each_turn_with_the_bridge_log_in_words(
    seeded: httpx.AsyncClient,
) -> None:
    await seeded.post(
        "/enrich",
        json={
            "message": "How is Kevin Ortiz getting on with the spring cohort?",
            "session_id": SESSION,
        },
    )
    data = (await seeded.get(f"/sessions/{SESSION}/transcript")).json()
    assert data["session"]["id"] == SESSION and data["turns"]
    numbers = [t["exchange_number"] for t in data["turns"]]
    assert numbers == sorted(numbers)
    logged = [t["context"] for t in data["turns"] if t["context"] and t["context"]["loaded"]]
    assert logged
    for ctx in logged:
        assert ctx["why"] and "\\b" not in ctx["why"]  # plain words, never a regex
        assert all(item["type"] for item in ctx["loaded"])  # resolved, so linkable
    assert (await seeded.get("/sessions/nope/transcript")).status_code == 404


async def test_the_curator_runs_on_demand_and_directives_answer_on_an_empty_room(
    seeded: httpx.AsyncClient,
) -> None:
    before = len((await seeded.get(f"/sessions/{SESSION}/curator-runs")).json())
    run = (await seeded.post(f"/sessions/{SESSION}/curate")).json()
    assert run["trigger"] == "manual" and not run["error"]
    assert len((await seeded.get(f"/sessions/{SESSION}/curator-runs")).json()) == before + 1
    assert (await seeded.post("/sessions/nope/curate")).status_code == 404
    directives = (await seeded.get("/directives")).json()
    assert directives["items"] == [] and "stats" in directives
