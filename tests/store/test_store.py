"""Entities, relations, deletion and graph walks on a real brain file."""

from __future__ import annotations

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import AlreadyStored, InvalidInput, NotFound, SchemaError
from brainbridge.store.sqlite.store import MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS

# -- upsert -------------------------------------------------------------------


async def test_upsert_creates_and_get_returns_it(brain: Brain) -> None:
    made = await brain.upsert_entity(
        "Person", "Ada Lovelace", {"role": "analyst"}, description="wrote the first program"
    )
    got = await brain.get_entity("Person", "Ada Lovelace")
    assert got == made
    assert (got.type, got.name, got.description) == (
        "Person",
        "Ada Lovelace",
        "wrote the first program",
    )
    assert got.attributes == {"role": "analyst"}
    assert got.created_at == got.updated_at != ""


async def test_upsert_merges_attributes_key_by_key(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Grace", {"role": "admiral", "email": "g@navy.mil"})
    merged = await brain.upsert_entity("Person", "Grace", {"organization": "Navy", "email": None})
    assert merged.attributes == {"role": "admiral", "organization": "Navy"}
    assert (await brain.get_entity("Person", "Grace")).attributes == merged.attributes


async def test_upsert_updates_description_and_keeps_created_at(brain: Brain) -> None:
    first = await brain.upsert_entity("Project", "Atlas", description="map the office")
    second = await brain.upsert_entity("Project", "Atlas", description="map the whole campus")
    assert second.id == first.id
    assert second.description == "map the whole campus"
    assert second.created_at == first.created_at
    assert second.updated_at > first.updated_at


async def test_upsert_without_description_keeps_the_old_one(brain: Brain) -> None:
    await brain.upsert_entity("Project", "Atlas", description="map the office")
    later = await brain.upsert_entity("Project", "Atlas", {"repo": "git@x:atlas"})
    assert later.description == "map the office"


async def test_description_given_as_attribute_becomes_the_description(brain: Brain) -> None:
    ent = await brain.upsert_entity("Topic", "Tides", {"description": "the moon pulls the sea"})
    assert ent.description == "the moon pulls the sea"
    assert "description" not in ent.attributes


async def test_type_and_name_are_unique_together(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Mercury", description="a messenger")
    await brain.upsert_entity("Person", "Mercury", description="the messenger god")
    await brain.upsert_entity("Project", "Mercury", description="a space programme")
    stats = await brain.stats()
    assert stats["entities_by_type"] == {"Person": 1, "Project": 1}
    assert (await brain.get_entity("Project", "Mercury")).description == "a space programme"


async def test_unknown_type_is_a_schema_error_naming_the_known_types(brain: Brain) -> None:
    with pytest.raises(SchemaError, match="Spaceship") as err:
        await brain.upsert_entity("Spaceship", "Enterprise")
    assert "Person" in str(err.value) and "Project" in str(err.value)
    assert (await brain.stats())["entities"] == 0


@pytest.mark.parametrize(
    ("entity_type", "attributes", "attribute"),
    [
        ("Decision", {"decided_on": "next tuesday"}, "decided_on"),
        ("Decision", {"decided_on": 20240101}, "decided_on"),
        ("Chat_Exchange", {"exchange_number": "3"}, "exchange_number"),
        ("Chat_Exchange", {"exchange_number": True}, "exchange_number"),
        ("Project", {"status": "someday"}, "status"),
        ("Person", {"aliases": "Bob"}, "aliases"),
    ],
)
async def test_badly_typed_attribute_is_a_schema_error(
    brain: Brain, entity_type: str, attributes: dict[str, object], attribute: str
) -> None:
    with pytest.raises(SchemaError, match=attribute):
        await brain.upsert_entity(entity_type, "Thing", attributes)
    assert await brain.get_entity(entity_type, "Thing") is None


@pytest.mark.parametrize("name", ["", "   ", "x" * (MAX_NAME_CHARS + 1), "y" * 600])
async def test_empty_or_overlong_name_is_invalid(brain: Brain, name: str) -> None:
    with pytest.raises(InvalidInput, match="name"):
        await brain.upsert_entity("Topic", name)
    assert (await brain.stats())["entities"] == 0


async def test_name_is_trimmed(brain: Brain) -> None:
    ent = await brain.upsert_entity("Person", "  Alan Turing \n")
    assert ent.name == "Alan Turing"
    assert await brain.get_entity("Person", "Alan Turing") == ent


async def test_name_at_the_limit_is_accepted(brain: Brain) -> None:
    name = "n" * MAX_NAME_CHARS
    await brain.upsert_entity("Topic", name)
    assert await brain.get_entity("Topic", name) is not None


async def test_five_megabyte_description_is_truncated_and_searchable(brain: Brain) -> None:
    pasted = "zanzibarian " + "lorem ipsum dolor sit amet " * 200_000
    assert len(pasted) > 5_000_000
    ent = await brain.upsert_entity("Document", "Huge paste", description=pasted)
    assert len(ent.description) == MAX_DESCRIPTION_CHARS
    assert pasted.startswith(ent.description)
    assert (await brain.get_entity("Document", "Huge paste")).description == ent.description
    # A long document is searched by passage too: the paste or a passage of it, nothing else.
    found = [h.entity.name for h in await brain.search("zanzibarian")]
    assert "Huge paste" in found and all(n.startswith("Huge paste") for n in found)


async def test_emoji_and_cjk_round_trip(brain: Brain) -> None:
    name = "東京タワー 🗼"
    await brain.upsert_entity(
        "Topic", name, {"note": "夜景がきれい ✨", "tags": ["🎌", "観光"]}, description="Ünïcödé 🚀"
    )
    got = await brain.get_entity("Topic", name)
    assert got.name == name
    assert got.description == "Ünïcödé 🚀"
    assert got.attributes == {"note": "夜景がきれい ✨", "tags": ["🎌", "観光"]}
    assert name in [h.entity.name for h in await brain.search("東京タワー")]


BAD = b"\xff\xfe".decode("utf-8", "surrogateescape")


async def test_invalid_utf8_in_name_and_description_is_stored_cleaned(brain: Brain) -> None:
    ent = await brain.upsert_entity(
        "Topic", f"log{BAD}file", description=f"from a binary{BAD}paste"
    )
    assert "\udcff" not in ent.name + ent.description
    assert await brain.get_entity("Topic", ent.name) == ent
    assert ent.name in [h.entity.name for h in await brain.search("binary paste")]


async def test_invalid_utf8_in_attribute_values_does_not_crash(brain: Brain) -> None:
    ent = await brain.upsert_entity("Topic", "Binary paste", {"body": f"raw{BAD}bytes"})
    assert "\udcff" not in ent.attributes["body"]
    assert await brain.get_entity("Topic", "Binary paste") == ent


async def test_invalid_utf8_in_lookups_does_not_crash(brain: Brain) -> None:
    await brain.upsert_entity("Topic", f"log{BAD}file")
    assert await brain.get_entity("Topic", f"log{BAD}file") is not None
    assert await brain.delete_entity("Topic", f"other{BAD}") is False
    with pytest.raises(NotFound):
        await brain.relate(f"missing{BAD}", "mentions", ("Topic", "x"))


# -- delete -------------------------------------------------------------------


def _text_rows(brain: Brain, eid: int) -> list[tuple[object, ...]]:
    """The full-text index rows of one entity, on either backend."""
    postgres = brain.database_url is not None
    sql = (
        "SELECT entity_id FROM texts WHERE entity_id = ?"
        if postgres
        else "SELECT rowid FROM entities_fts WHERE rowid = ?"
    )
    return list(brain.store.conn.execute(sql, (eid,)).fetchall())  # type: ignore[attr-defined]


async def test_delete_removes_entity_relations_index_row_and_vector(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Quinn", description="keeper of the obsidian archive")
    await brain.upsert_entity("Project", "Archive")
    await brain.upsert_entity("Project", "Museum")
    await brain.relate("Quinn", "runs", "Archive")
    await brain.relate("Museum", "employs", "Quinn")
    await brain.relate("Museum", "owns", "Archive")
    assert await brain.wait_for_vectors(30)
    quinn = await brain.get_entity("Person", "Quinn")
    assert [h.entity.name for h in await brain.search("obsidian archive keeper")][0] == "Quinn"

    assert await brain.delete_entity("Person", "Quinn") is True

    assert await brain.get_entity("Person", "Quinn") is None
    stats = await brain.stats()
    assert stats["relations"] == 1
    assert stats["vectors"] == stats["entities"] == 2
    assert "Quinn" not in [h.entity.name for h in await brain.search("obsidian keeper")]
    assert _text_rows(brain, quinn.id) == []
    sub = await brain.subgraph("Museum")
    assert [(e.src_name, e.dst_name) for e in sub.edges] == [("Museum", "Archive")]


async def test_delete_missing_entity_returns_false(brain: Brain) -> None:
    assert await brain.delete_entity("Person", "Nobody") is False


async def test_recreated_entity_after_delete_is_fresh(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Phoenix", {"role": "old"}, description="first life")
    await brain.delete_entity("Person", "Phoenix")
    again = await brain.upsert_entity("Person", "Phoenix", description="second life")
    assert again.attributes == {}
    assert [h.entity.description for h in await brain.search("phoenix")] == ["second life"]


# -- relations ----------------------------------------------------------------


async def _people_and_project(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Kevin Lee")
    await brain.upsert_entity("Project", "Spring Cohort")


async def test_relate_by_type_and_name(brain: Brain) -> None:
    await _people_and_project(brain)
    rel = await brain.relate(("Person", "Kevin Lee"), "runs", ("Project", "Spring Cohort"))
    assert (rel.src_type, rel.src_name, rel.type, rel.dst_type, rel.dst_name) == (
        "Person",
        "Kevin Lee",
        "runs",
        "Project",
        "Spring Cohort",
    )
    assert (await brain.stats())["relations"] == 1


async def test_relate_by_entity_and_by_unique_name(brain: Brain) -> None:
    await _people_and_project(brain)
    kevin = await brain.get_entity("Person", "Kevin Lee")
    await brain.relate(kevin, "runs", "spring cohort")  # names match case-insensitively
    sub = await brain.subgraph(kevin, hops=1)
    assert [(e.src_name, e.type, e.dst_name) for e in sub.edges] == [
        ("Kevin Lee", "runs", "Spring Cohort")
    ]


async def test_relate_ambiguous_name_is_invalid_and_lists_the_candidates(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Mercury")
    await brain.upsert_entity("Project", "Mercury")
    await brain.upsert_entity("Topic", "Space")
    with pytest.raises(InvalidInput, match="ambiguous") as err:
        await brain.relate("Mercury", "about", "Space")
    assert "Person:Mercury" in str(err.value) and "Project:Mercury" in str(err.value)
    await brain.relate(("Project", "Mercury"), "about", "Space")
    assert (await brain.stats())["relations"] == 1


@pytest.mark.parametrize("missing_end", ["src", "dst"])
async def test_relate_missing_end_is_not_found(brain: Brain, missing_end: str) -> None:
    await brain.upsert_entity("Person", "Kevin Lee")
    ends = {"src": ("Person", "Kevin Lee"), "dst": ("Person", "Kevin Lee")}
    ends[missing_end] = ("Project", "Nowhere")
    with pytest.raises(NotFound, match="Nowhere"):
        await brain.relate(ends["src"], "runs", ends["dst"])
    with pytest.raises(NotFound, match="Ghost"):
        await brain.relate("Ghost", "runs", "Kevin Lee")
    assert (await brain.stats())["relations"] == 0


async def test_relate_is_idempotent_and_merges_attributes(brain: Brain) -> None:
    await _people_and_project(brain)
    first = await brain.relate("Kevin Lee", "runs", "Spring Cohort", {"since": "2023"})
    again = await brain.relate("Kevin Lee", "runs", "Spring Cohort", {"role": "lead"})
    assert again.attributes == {"since": "2023", "role": "lead"}
    assert again.created_at == first.created_at
    sub = await brain.subgraph("Kevin Lee", hops=1)
    assert len(sub.edges) == 1
    assert sub.edges[0].attributes == {"since": "2023", "role": "lead"}


async def test_empty_relation_type_is_invalid(brain: Brain) -> None:
    await _people_and_project(brain)
    with pytest.raises(InvalidInput, match="relation type"):
        await brain.relate("Kevin Lee", "  ", "Spring Cohort")


# -- subgraph -----------------------------------------------------------------


async def _chain(brain: Brain) -> None:
    # A -> B <- C -> D, plus a detached E: walks ignore direction, stop at `hops`.
    for name in "ABCDE":
        await brain.upsert_entity("Topic", f"node {name}")
    await brain.relate("node A", "links", "node B")
    await brain.relate("node C", "links", "node B")
    await brain.relate("node C", "links", "node D")


async def test_subgraph_one_hop(brain: Brain) -> None:
    await _chain(brain)
    sub = await brain.subgraph("node B", hops=1)
    assert sub.nodes[0].name == "node B"
    assert {n.name for n in sub.nodes} == {"node A", "node B", "node C"}
    assert {(e.src_name, e.dst_name) for e in sub.edges} == {
        ("node A", "node B"),
        ("node C", "node B"),
    }


async def test_subgraph_two_hops(brain: Brain) -> None:
    await _chain(brain)
    sub = await brain.subgraph(("Topic", "node A"), hops=2)
    assert [n.name for n in sub.nodes][:2] == ["node A", "node B"]
    assert {n.name for n in sub.nodes} == {"node A", "node B", "node C"}
    assert len(sub.edges) == 2
    far = await brain.subgraph("node A", hops=3)
    assert {n.name for n in far.nodes} == {"node A", "node B", "node C", "node D"}
    assert len(far.edges) == 3


async def test_subgraph_of_missing_entity_is_not_found(brain: Brain) -> None:
    with pytest.raises(NotFound):
        await brain.subgraph("nobody")


async def test_one_turn_is_stored_once_whichever_process_comes_second(brain: Brain) -> None:
    """A Stop the server accepted and the hook also spooled reaches the brain twice, under
    two exchange numbers: the second is refused inside its write, so one copy stays."""
    bridge = Bridge(brain)
    key = {"turn_key": "s1/0123abcd"}
    said = ("We agreed the Orion release ships on Friday", "Noted: Orion ships Friday.")
    first = await bridge.observe_now("s1", 1, *said, attributes=key)
    again = await bridge.observe_now("s1", 2, *said, attributes=key)
    await bridge.drain()

    assert first.exchange is not None and again.exchange is None and again.skipped
    assert again.error is None
    exchanges, total = await brain._run(brain.store.list_entities, "Chat_Exchange")
    assert total == 1 and exchanges[0].attributes["turn_key"] == "s1/0123abcd"
    with pytest.raises(AlreadyStored):
        await brain.upsert_entity("Chat_Exchange", "s1:ex:9", {**key, "session_id": "s1"})


# -- vectors stay true to their entity's text ---------------------------------


async def test_a_vector_made_from_text_that_changed_meanwhile_is_not_stored(
    tmp_path: object, database_url: str | None
) -> None:
    """The embedder reads entities, embeds them, then stores the vectors. Meanwhile one
    entity's description changed, and the newest one was deleted and its id given to a
    new entity (SQLite reuses the largest rowid). Neither may get the old text's vector:
    that put an Oscar's vector on "Atlas" and ranked the project below a chat about it."""
    from pathlib import Path

    b = await Brain.open(Path(str(tmp_path)) / "b", embedder=None, database_url=database_url)
    try:
        await b.upsert_entity("Person", "Ada", description="wrote the first program")
        await b.upsert_entity("Person", "Oscar Lindqvist", description="infra team")
        read = await b._run(b.store.pending_vectors, 10, "m")
        await b.upsert_entity("Person", "Ada", description="analyst, wrote the first program")
        await b.delete_entity("Person", "Oscar Lindqvist")
        atlas = await b.upsert_entity("Project", "Atlas", description="the campus map")
        blob = b"\x00\x00\x80\x3f" * 4
        changed = await b._run(
            b.store.put_vectors, "m", [(eid, blob) for eid, _ in read], dict(read)
        )
        ada = await b.get_entity("Person", "Ada")
        assert ada is not None and ada.id in changed
        if database_url is None:  # the file gave Oscar's id to Atlas
            assert atlas.id in dict(read) and atlas.id in changed
        assert await b._run(b.store.count_pending_vectors, "m") == 2  # Ada and Atlas wait
        fresh = await b._run(b.store.pending_vectors, 10, "m")
        assert (
            await b._run(b.store.put_vectors, "m", [(e, blob) for e, _ in fresh], dict(fresh)) == []
        )
        assert await b._run(b.store.count_pending_vectors, "m") == 0
    finally:
        await b.close()
