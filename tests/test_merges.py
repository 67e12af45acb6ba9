"""Who is who: the review queue, merge as redirect plus alias, and unmerge restoring both."""

from __future__ import annotations

from datetime import date

import pytest
from tests.pg import backend  # noqa: F401  (this module runs on both backends)

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import InvalidInput


async def _two_oskars(brain: Brain) -> None:
    await brain.upsert_entity(
        "Person", "Oskar Lindqvist", {"role": "manager"}, "The user's manager."
    )
    await brain.upsert_entity("Person", "Oscar Lindqvist", {"email": "o@x.se"}, "Leads Falcon.")
    await brain.upsert_entity("Project", "Falcon")
    await brain.upsert_entity("Project", "Atlas")
    await brain.relate(("Person", "Oscar Lindqvist"), "leads", ("Project", "Falcon"))
    await brain.relate(("Person", "Oscar Lindqvist"), "works_on", ("Project", "Atlas"))
    await brain.relate(("Person", "Oskar Lindqvist"), "works_on", ("Project", "Atlas"))


async def _edges(brain: Brain, name: str) -> set[tuple[str, str]]:
    graph = await brain.subgraph(("Person", name), hops=1)
    return {(e.type, e.dst_name) for e in graph.edges if e.src_name == name}


async def test_merge_is_a_redirect_and_unmerge_restores_both(brain: Brain) -> None:
    await _two_oskars(brain)
    done = await brain.merge(("Person", "Oskar Lindqvist"), ("Person", "Oscar Lindqvist"))
    assert done["status"] == "merged"
    assert await brain.get_entity("Person", "Oscar Lindqvist") is None
    kept = await brain.get_entity("Person", "Oskar Lindqvist")
    assert kept.attributes["aliases"] == ["Oscar Lindqvist"]
    assert kept.attributes["email"] == "o@x.se" and kept.description == "The user's manager."
    assert await _edges(brain, "Oskar Lindqvist") == {("leads", "Falcon"), ("works_on", "Atlas")}
    assert (await brain.resolve("oscar lindqvist")).name == "Oskar Lindqvist"  # the old name

    await brain.unmerge(done["id"])
    back = await brain.get_entity("Person", "Oscar Lindqvist")
    kept = await brain.get_entity("Person", "Oskar Lindqvist")
    assert back.description == "Leads Falcon." and back.attributes == {"email": "o@x.se"}
    assert "aliases" not in kept.attributes and "email" not in kept.attributes
    assert await _edges(brain, "Oscar Lindqvist") == {("leads", "Falcon"), ("works_on", "Atlas")}
    assert await _edges(brain, "Oskar Lindqvist") == {("works_on", "Atlas")}
    with pytest.raises(InvalidInput, match="not merged"):
        await brain.unmerge(done["id"])


async def test_observe_queues_near_identical_names_and_never_look_alikes(brain: Brain) -> None:
    bridge = Bridge(brain)
    for n, said in enumerate(
        [
            "My manager Oskar Lindqvist wants the roadmap before the offsite.",
            "Our plumber Dan Park fixed the sink on Monday.",
            "Oscar Lindqvist said the offsite moved to Lisbon.",
            "Dan Alvarez from finance approved the travel budget.",
        ],
        start=1,
    ):
        await bridge.observe_now(f"s{n}-long-id", 1, said, "Noted.", today=date(2026, 5, n))
    await bridge.drain()
    pending = await brain.merges("pending")
    assert [(m["keep_name"], m["other_name"]) for m in pending] == [
        ("Oskar Lindqvist", "Oscar Lindqvist")
    ]
    assert pending[0]["score"] >= 0.88
    decided = await brain.decide_merge(pending[0]["id"], accept=True)
    assert decided["status"] == "merged" and not await brain.merges("pending")
    assert await brain.get_entity("Person", "Oscar Lindqvist") is None


async def test_a_rejected_pair_is_not_proposed_again(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Jon Smith")
    await brain.upsert_entity("Person", "John Smith")
    first = await brain._run(
        brain.store.propose_merge, "Person", "Jon Smith", "John Smith", 0.9, "x"
    )
    await brain.decide_merge(first, accept=False)
    again = await brain._run(
        brain.store.propose_merge, "Person", "John Smith", "Jon Smith", 0.9, "x"
    )
    assert again is None
    assert await brain.get_entity("Person", "Jon Smith") and await brain.get_entity(
        "Person", "John Smith"
    )


async def test_export_import_round_trips_aliases_validity_and_merges(  # type: ignore[no-untyped-def]
    make_brain, other_database_url
) -> None:
    src = await make_brain()
    await _two_oskars(src)
    await src.upsert_entity("Person", "Jessica Moreno", {"aliases": ["Jess"]})
    await src.upsert_entity(
        "Fact", "User's home: Austin", {"subject": "User", "valid_from": "2026-01-20"}
    )
    await src.invalidate(("Fact", "User's home: Austin"), on="2026-08-01", by="x:ex:2")
    done = await src.merge(("Person", "Oskar Lindqvist"), ("Person", "Oscar Lindqvist"))
    await src._run(
        src.store.propose_merge, "Person", "Jon Smith", "John Smith", 0.91, "names nearly alike"
    )
    lines = await src.export_jsonl()

    dst = await make_brain(src.path.parent / "copy", database_url=other_database_url)
    counts = await dst.import_jsonl(lines)
    again = await dst.import_jsonl(lines)  # idempotent
    assert counts["merges"] == 2 and again["merges"] == 0
    assert await dst.export_jsonl() == lines
    assert (await dst.resolve("Jess")).name == "Jessica Moreno"
    home = await dst.get_entity("Fact", "User's home: Austin")
    assert home.attributes["valid_to"] == "2026-08-01"
    merged = [m for m in await dst.merges() if m["status"] == "merged"]
    assert len(merged) == 1
    await dst.unmerge(merged[0]["id"])  # the snapshot came along: undo works in the copy
    assert await _edges(dst, "Oscar Lindqvist") == {("leads", "Falcon"), ("works_on", "Atlas")}
    assert done["keep_name"] == merged[0]["keep_name"]
