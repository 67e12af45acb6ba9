"""`brain_context`: what a coding agent gets for its project, graph and files included."""

from __future__ import annotations

from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.vault import import_notes
from projects.graph_brain import DRIFT, ENTITIES, GRAPHSTORE, RELEVANT, fill
from vault.sample_vault import write_vault

ROOT = "/home/me/src/litellm"


def _titles(entries: list[dict]) -> list[str]:
    return [e["title"] for e in entries]


async def _bm25_names(brain: Brain, query: str, n: int) -> list[str]:
    ids = [eid for eid, _ in await brain._run(brain.store.bm25, query, n)]
    ents = await brain._run(brain.store.get_entities, ids)
    return [ents[i].name for i in ids]


async def test_an_entry_reachable_only_through_the_graph_comes_back(brain: Brain) -> None:
    await fill(brain)
    drift = next(e for e in ENTITIES if e[:2] == DRIFT)
    assert "litellm" not in f"{drift[1]} {drift[2]} {drift[3]}".lower()

    keyword_top3 = await _bm25_names(brain, "litellm", 3)
    entries = await brain.brain_context(ROOT)

    assert DRIFT[1] not in keyword_top3
    assert DRIFT[1] not in await _bm25_names(brain, "litellm", 50)  # no keyword path at all
    assert DRIFT[1] in _titles(entries)
    entry = next(e for e in entries if e["title"] == DRIFT[1])
    assert entry["slug"] == "config-drift"
    assert entry["type"] == "Decision"
    assert entry["excerpt"].startswith("Staging and prod proxy configs diverged")


async def test_without_relations_it_is_keyword_matches_only(brain: Brain) -> None:
    await fill(brain, relations=False)

    entries = await brain.brain_context(ROOT)

    assert _titles(entries) and all("litellm" in t.lower() for t in _titles(entries))
    assert set(_titles(entries)) == set(await _bm25_names(brain, "litellm", 50))
    assert DRIFT[1] not in _titles(entries)


async def test_a_populated_brain_gives_relevant_entries_and_no_noise(brain: Brain) -> None:
    await fill(brain)

    entries = await brain.brain_context(ROOT)
    titles = _titles(entries)

    assert len(set(titles) & RELEVANT) >= 3
    assert titles[0] == "LiteLLM"
    assert len(titles) == len(set(titles))  # de-duplicated
    # The owner links to 25 side projects: a path through a hub is not a reason.
    noise = {"Sourdough", "Kevin Lee", *(f"Side project {i}" for i in range(25))}
    assert not set(titles) & noise
    scores = [e["score"] for e in entries]
    assert scores == sorted(scores, reverse=True)


async def test_recent_files_boost_entries_that_share_their_terms(brain: Brain) -> None:
    await fill(brain)

    plain = _titles(await brain.brain_context(ROOT))
    boosted = _titles(await brain.brain_context(ROOT, ["internal/graphstore/pg.go"]))
    absolute = _titles(await brain.brain_context(ROOT, [f"{ROOT}/internal/graphstore/pg.go"]))

    assert plain[0] != GRAPHSTORE[1]
    assert boosted[0] == GRAPHSTORE[1]  # "graphstore" meets "graph-store"
    assert absolute == boosted


async def test_unrelated_recent_files_change_nothing(brain: Brain) -> None:
    await fill(brain)

    plain = await brain.brain_context(ROOT)
    other = await brain.brain_context(ROOT, ["/home/me/elsewhere/src/main.py", "README.md"])

    assert other == plain


async def test_limit_keeps_the_best(brain: Brain) -> None:
    await fill(brain)

    full = await brain.brain_context(ROOT, limit=10)
    two = await brain.brain_context(ROOT, limit=2)

    assert two == full[:2]
    assert await brain.brain_context(ROOT, limit=0) == []


async def test_an_empty_brain_or_an_unknown_project_gives_nothing(brain: Brain) -> None:
    assert await brain.brain_context(ROOT) == []
    await fill(brain)
    assert await brain.brain_context("/home/me/src/quantum-teapot") == []
    assert await brain.brain_context("/") == []


async def test_chat_exchanges_never_come_back(brain: Brain) -> None:
    await fill(brain)
    await brain.upsert_entity(
        "Chat_Exchange",
        "abcd1234:ex:1",
        {"session_id": "abcd1234", "exchange_number": 1},
        description="User: litellm litellm litellm | AI: yes, litellm",
    )
    await brain.relate(("Chat_Exchange", "abcd1234:ex:1"), "mentions", ("Project", "LiteLLM"))

    entries = await brain.brain_context(ROOT)

    assert entries and all(e["type"] != "Chat_Exchange" for e in entries)


async def test_entries_without_a_file_take_the_excerpt_from_the_description(
    brain: Brain,
) -> None:
    long = "Gateway notes. " + "word " * 100
    await brain.upsert_entity("Project", "LiteLLM", description=long)

    [entry] = await brain.brain_context(ROOT)

    assert entry["excerpt"] == " ".join(long.split())[:200].rstrip()
    assert (entry["doc_path"], entry["slug"]) == ("", "litellm")


async def test_notes_give_their_path_slug_and_body_excerpt(brain: Brain, tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault")
    body = "The gateway handles every call. " + "It retries and logs. " * 20
    note = f"---\ntitle: LiteLLM\ntype: Project\n---\n{body}\nSee [[Config drift]].\n"
    (vault / "LiteLLM.md").write_text(note)
    await import_notes(brain, vault)

    entries = await brain.brain_context(ROOT)
    by_title = {e["title"]: e for e in entries}

    hub = by_title["LiteLLM"]
    assert hub["excerpt"] == body[:200].rstrip()  # the body after the frontmatter
    assert hub["slug"] == "litellm"
    assert hub["doc_path"] == str(vault.resolve() / "LiteLLM.md")
    # Linked from the hub's note, never naming the project itself.
    drift = by_title["Config drift between staging and prod"]
    assert b"litellm" not in Path(drift["doc_path"]).read_bytes().lower()
    assert drift["slug"] == "config-drift"
    assert drift["excerpt"].startswith("Symptoms Staging routed gpt-4o")
