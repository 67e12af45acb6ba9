"""The Brain facade: opening, searching, recall, vectors, export/import and the schema."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import ExitStack, closing, contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.pg import BACKENDS, backend  # noqa: F401  (this module runs on both backends)

from brainbridge.brain import Brain
from brainbridge.errors import BrainError, InvalidInput, SchemaError
from brainbridge.model import Hit
from brainbridge.search import SearchRequest
from brainbridge.search.parts import vector_model

BrainFactory = Callable[..., Awaitable[Brain]]

PEOPLE_AND_PROJECTS = [
    (
        "Person",
        "Kevin Lee",
        "Runs the spring founder cohort",
        {"role": "program director", "organization": "Acme Ventures"},
    ),
    (
        "Project",
        "Spring Cohort",
        "Twelve startups in a ten week accelerator programme",
        {"status": "active"},
    ),
    ("Project", "litellm-config-drift", "Proxy settings diverged between staging and prod", {}),
    ("Person", "Priya Raman", "Site reliability engineer", {}),
    ("Person", "Maria Gonzalez", "Pastry chef who bakes sourdough every morning", {}),
    ("Topic", "Volcanoes", "volcanic eruptions", {}),
    (
        "Document",
        "Quarterly plan",
        "Targets for the next quarter",
        {"body": "hire two engineers and ship the mobile app"},
    ),
    (
        "Chat_Exchange",
        "abcd1234:ex:1",
        "User: how is the cohort going | AI: Kevin says it is on track",
        {"session_id": "abcd1234-session", "exchange_number": 1},
    ),
]


async def _fill(brain: Brain) -> None:
    for etype, name, description, attrs in PEOPLE_AND_PROJECTS:
        await brain.upsert_entity(etype, name, attrs, description=description)
    await brain.relate("Kevin Lee", "runs", "Spring Cohort")
    await brain.relate("Priya Raman", "owns", "litellm-config-drift")
    await brain.wait_for_vectors(30)


def _names(hits: list[Hit]) -> list[str]:
    return [h.entity.name for h in hits]


@pytest.fixture(scope="module", params=BACKENDS)
def filled(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Brain]:
    """A small brain shared by the read-only search tests of this module, per backend."""
    with ExitStack() as stack:
        url = None
        if request.param == "postgres":
            url = stack.enter_context(request.getfixturevalue("pg_server").fresh_database())

        async def _open() -> Brain:
            folder = tmp_path_factory.mktemp("filled") / "brain"
            b = await Brain.open(folder, embedder="hashing", database_url=url)
            await _fill(b)
            return b

        brain = asyncio.run(_open())
        yield brain
        asyncio.run(brain.close())


# -- opening ------------------------------------------------------------------


async def test_open_creates_the_brain_folder(tmp_path: Path) -> None:
    folder = tmp_path / "nested" / "brain"
    async with await Brain.open(folder, embedder=None) as brain:
        assert brain.path == folder
        assert "Chat_Exchange" in brain.types
    assert (folder / "brain.db").is_file()
    assert (folder / "entity_types.yaml").read_text("utf-8").startswith("#")
    assert (folder / "Daily" / ".activity").is_dir()
    with closing(sqlite3.connect(folder / "brain.db")) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_open_accepts_the_database_file_path(tmp_path: Path) -> None:
    async with await Brain.open(tmp_path / "home" / "brain.db", embedder=None) as brain:
        assert brain.path == tmp_path / "home"
    assert (tmp_path / "home" / "brain.db").is_file()


async def test_reopening_keeps_data_and_the_users_files(tmp_path: Path) -> None:
    folder = tmp_path / "brain"
    async with await Brain.open(folder, embedder=None) as brain:
        await brain.upsert_entity("Person", "Ada", description="first programmer")
    types_file = folder / "entity_types.yaml"
    edited = types_file.read_text("utf-8") + "\nRecipe:\n  attributes: {}\n"
    types_file.write_text(edited, "utf-8")
    async with await Brain.open(folder, embedder=None) as brain:
        assert (await brain.get_entity("Person", "Ada")).description == "first programmer"
    assert types_file.read_text("utf-8") == edited


async def test_two_brains_on_one_folder_see_each_others_writes(
    make_brain: BrainFactory,
) -> None:
    first = await make_brain()
    second = await make_brain()
    await first.upsert_entity("Person", "Ada", description="analytical engine notes")
    await second.upsert_entity("Person", "Grace", description="compiler pioneer")
    await second.relate("Grace", "admires", "Ada")
    assert await first.get_entity("Person", "Grace") is not None
    assert _names(await second.search("analytical engine"))[0] == "Ada"
    assert len((await first.subgraph("Ada")).edges) == 1


async def test_unknown_embedder_name_is_invalid(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="embedder"):
        await Brain.open(tmp_path / "brain", embedder="word2vec")


# -- search -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Kevin Lee", "Kevin Lee"),  # name
        ("accelerator programme", "Spring Cohort"),  # description
        ("program director", "Kevin Lee"),  # text attribute
        ("mobile app", "Quarterly plan"),  # text attribute
        ("config drift", "litellm-config-drift"),  # hyphenated name by its parts
        ("litellm", "litellm-config-drift"),
        ("sourdough", "Maria Gonzalez"),
    ],
)
async def test_search_finds_by_name_description_and_text_attributes(
    filled: Brain, query: str, expected: str
) -> None:
    hits = await filled.search(query)
    assert hits, f"{query!r} found nothing"
    assert hits[0].entity.name == expected


async def test_hits_carry_the_entity_score_and_retrievers(filled: Brain) -> None:
    hits = await filled.search("spring cohort accelerator", 10)
    assert hits[0].entity.name == "Spring Cohort"
    assert hits[0].entity.attributes == {"status": "active"}
    assert "bm25" in hits[0].retrievers
    assert all(h.retrievers and set(h.retrievers) <= {"bm25", "vector", "graph"} for h in hits)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0


async def test_type_filters(filled: Brain) -> None:
    everything = _names(await filled.search("cohort", 10))
    assert {"Spring Cohort", "Kevin Lee", "abcd1234:ex:1"} <= set(everything)
    only = await filled.search("cohort", 10, entity_types=["Project"])
    assert _names(only) == ["Spring Cohort"]
    without = await filled.search("cohort", 10, exclude_types=["Chat_Exchange", "Person"])
    assert _names(without) == ["Spring Cohort"]
    assert await filled.search("cohort", 10, entity_types=["Decision"]) == []


async def test_num_results_caps_the_hits(filled: Brain) -> None:
    assert len(await filled.search("cohort", 1)) == 1
    assert await filled.search("cohort", 0) == []


@pytest.mark.parametrize("query", ["", "   ", "\n\t", "?!", "***", '""'])
async def test_empty_or_wordless_query_finds_nothing(filled: Brain, query: str) -> None:
    assert await filled.search(query) == []


@pytest.mark.parametrize(
    "query", ["xyzzy plugh", "qwertyuiop asdfghjkl", "zebra crossing umbrella", "the of and"]
)
async def test_unrelated_queries_return_nothing(filled: Brain, query: str) -> None:
    assert await filled.search(query, 10) == []


SEARCH_SYNTAX = ['"', "AND", "OR", "NOT", "NEAR(", "*", ":", "^", "-", "(", ")", "\x00", "cohort"]


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    query=st.lists(
        st.one_of(
            st.sampled_from(SEARCH_SYNTAX),
            st.text(st.characters(exclude_categories=()), max_size=10),
            st.just(" "),
        ),
        max_size=10,
    ).map("".join)
)
def test_any_text_is_a_valid_query(filled: Brain, query: str) -> None:
    hits = asyncio.run(filled.search(query, 5))
    assert len(hits) <= 5
    recalled = asyncio.run(filled.recall(query))
    assert recalled["count"] == len(recalled["results"])


async def test_vector_only_match_is_found_by_the_hashing_embedder(filled: Brain) -> None:
    # "volcanology" shares no word or stem with "Volcanoes: volcanic eruptions", only
    # character trigrams, which the hashing embedder sees.
    hits = await filled.search("volcanology")
    assert _names(hits) == ["Volcanoes"]
    assert hits[0].retrievers == ("vector",)


async def test_graph_expansion_without_vectors(make_brain: BrainFactory) -> None:
    brain = await make_brain(embedder=None)
    await _fill(brain)
    hits = await brain.search("config drift", 10)
    assert _names(hits)[0] == "litellm-config-drift"
    priya = [h for h in hits if h.entity.name == "Priya Raman"]
    assert priya and priya[0].retrievers == ("graph",)


async def test_graph_expansion_with_vectors(filled: Brain) -> None:
    hits = await filled.search("config drift", 10)
    assert _names(hits)[0] == "litellm-config-drift"
    assert ("Priya Raman", ("graph",)) in [(h.entity.name, h.retrievers) for h in hits]


async def test_graph_expansion_respects_type_filters(make_brain: BrainFactory) -> None:
    brain = await make_brain(embedder=None)
    await _fill(brain)
    assert "Priya Raman" not in _names(
        await brain.search("config drift", 10, exclude_types=["Person"])
    )
    assert _names(await brain.search("config drift", 10, entity_types=["Person"])) == []


async def test_camel_case_and_snake_case_names_found_by_their_parts(brain: Brain) -> None:
    await brain.upsert_entity("Project", "GraphStore", description="keeps nodes")
    await brain.upsert_entity("Project", "event_bus_v2", description="moves messages")
    assert _names(await brain.search("graph store")) == ["GraphStore"]
    assert _names(await brain.search("event bus")) == ["event_bus_v2"]


@contextmanager
def _embedding_calls(brain: Brain) -> Iterator[list[list[str]]]:
    """The texts of each call to the brain's embedder while inside."""
    embedded: list[list[str]] = []
    embed = brain.embedder.embed  # type: ignore[union-attr]

    def counting(texts: Sequence[str]) -> np.ndarray:
        embedded.append(list(texts))
        return embed(texts)

    brain.embedder.embed = counting  # type: ignore[union-attr, method-assign]
    try:
        yield embedded
    finally:
        del brain.embedder.embed  # type: ignore[union-attr]


async def test_search_many_matches_single_searches_and_embeds_each_query_once(
    filled: Brain,
) -> None:
    requests = [
        SearchRequest("the spring cohort accelerator", 3),
        SearchRequest("the spring cohort accelerator", 3, entity_types=["Person"]),
        SearchRequest("bakes sourdough", 2, exclude_types=["Project"]),
        SearchRequest("   ", 3),
        SearchRequest("bakes sourdough", 0),
    ]
    with _embedding_calls(filled) as embedded:
        batched = await filled.search_many(requests)
        # The same text searched again (an agent's retry, a repeated name) is not embedded
        # again.
        singles = [
            await filled.search(r.query, r.num_results, r.entity_types, r.exclude_types)
            for r in requests
        ]
    assert [_names(h) for h in batched] == [_names(h) for h in singles]
    assert _names(batched[0])[0] == "Spring Cohort" and _names(batched[2]) == ["Maria Gonzalez"]
    assert batched[3] == batched[4] == []
    assert embedded == [["the spring cohort accelerator", "bakes sourdough"]]


async def test_queries_prepared_before_a_search_are_embedded_once_ahead_of_it(
    filled: Brain,
) -> None:
    # The bridge starts embedding a likely search's queries while its judge decides.
    with _embedding_calls(filled) as embedded:
        await filled._run(filled.prepare_search, ["who bakes sourdough?", "a query searched later"])
        prepared = await filled.search("who bakes sourdough?", 2, exclude_types=["Project"])
        await filled.search("a query searched later", 2)
    assert _names(prepared) == ["Maria Gonzalez"]
    assert embedded == [["who bakes sourdough?", "a query searched later"]]


async def test_an_entity_the_query_names_clears_the_floor(make_brain: BrainFactory) -> None:
    brain = await make_brain(embedder=None)
    await brain.upsert_entity("Person", "Priya", {}, description="The user's manager")
    await brain.upsert_entity("Document", "Q2 roadmap", {}, description="Quarterly plan, done")
    query = "help me draft the quarterly roadmap Priya asked for last week"

    assert "Priya" in _names(await brain.search(query, 5))


async def test_search_finds_by_alias_and_tag(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Robert Tables", {"aliases": ["Bobby"]})
    await brain.upsert_entity("Document", "Planning notes", {"tags": ["okr"]})
    assert _names(await brain.search("Bobby")) == ["Robert Tables"]
    assert _names(await brain.search("okr")) == ["Planning notes"]


async def test_search_without_an_embedder_uses_bm25(make_brain: BrainFactory) -> None:
    brain = await make_brain(embedder=None)
    await _fill(brain)
    hits = await brain.search("sourdough")
    assert _names(hits) == ["Maria Gonzalez"] and hits[0].retrievers == ("bm25",)
    stats = await brain.stats()
    assert (stats["embedder"], stats["vectors"], stats["pending_vectors"]) == ("none", 0, None)
    assert await brain.wait_for_vectors(1) is True
    assert await brain.index_vectors() == 0


async def test_recall_shape(filled: Brain) -> None:
    out = await filled.recall("spring cohort", 3)
    assert set(out) == {"query", "results", "count"}
    assert out["query"] == "spring cohort"
    assert out["count"] == len(out["results"]) >= 1
    first = out["results"][0]
    assert first["name"] == "Spring Cohort" and first["type"] == "Project"
    assert {"description", "attributes", "score", "retrievers"} <= set(first)
    json.dumps(out)  # an agent gets it as JSON
    assert await filled.recall("   ") == {"query": "   ", "results": [], "count": 0}


# -- vectors ------------------------------------------------------------------


async def test_vectors_catch_up_after_writes(brain: Brain) -> None:
    await brain.upsert_many(
        [("Topic", f"topic {i}", f"notes on subject {i}", None) for i in range(150)]
    )
    assert await brain.wait_for_vectors(30)
    stats = await brain.stats()
    assert stats["pending_vectors"] == 0 and stats["vectors"] == 150


async def test_editing_description_replaces_the_vector(make_brain: BrainFactory) -> None:
    brain = await make_brain(background_indexing=False)
    await brain.upsert_entity("Topic", "Volcanoes", description="volcanic eruptions")
    await brain.upsert_entity("Topic", "Garden", description="tomatoes and basil")
    assert (await brain.stats())["pending_vectors"] == 2
    assert await brain.index_vectors() == 2
    assert "vector" in (await brain.search("volcanology"))[0].retrievers

    await brain.upsert_entity("Topic", "Volcanoes", description="glacier retreat measurements")
    assert (await brain.stats())["pending_vectors"] == 1
    # While the new vector is pending the old one must not answer for the new text.
    assert await brain.search("volcanology") == []
    assert await brain.index_vectors() == 1
    assert await brain.search("volcanology") == []
    hits = await brain.search("glacier retreat")
    assert _names(hits) == ["Volcanoes"] and hits[0].retrievers == ("bm25", "vector")
    assert (await brain.stats())["vectors"] == 2


async def test_the_background_indexer_embeds_new_and_edited_entities(brain: Brain) -> None:
    await brain.upsert_many([("Topic", f"topic {i}", f"subject {i}", None) for i in range(5)])
    assert await brain.wait_for_vectors(30)
    # An edit leaves an old id without a vector, behind the indexer's last pass...
    await brain.upsert_entity("Topic", "topic 0", description="glacier retreat measurements")
    await brain.upsert_entity("Topic", "topic 9", description="a newer subject")
    assert await brain.wait_for_vectors(30)  # ...which an explicit wait walks again
    stats = await brain.stats()
    assert (stats["pending_vectors"], stats["vectors"]) == (0, 6)
    assert "vector" in (await brain.search("glacier retreat"))[0].retrievers


async def test_an_edit_gets_its_vector_back_without_anyone_waiting(
    brain: Brain, monkeypatch: pytest.MonkeyPatch
) -> None:
    from brainbridge.search import indexer

    monkeypatch.setattr(indexer, "FULL_PASS_SECONDS", 0.3)
    await brain.upsert_entity("Topic", "Volcanoes", description="volcanic eruptions")
    assert await brain.wait_for_vectors(30)
    await brain.upsert_entity("Topic", "Volcanoes", description="glacier retreat measurements")
    for _ in range(100):  # no wait_for_vectors: only the indexer's own timer can do it
        if (await brain.stats())["pending_vectors"] == 0:
            break
        await asyncio.sleep(0.1)
    assert (await brain.stats())["pending_vectors"] == 0


async def test_pending_vectors_walk_the_table_by_id(make_brain: BrainFactory) -> None:
    brain = await make_brain(background_indexing=False)
    ents = [await brain.upsert_entity("Topic", f"t{i}", description=f"d{i}") for i in range(4)]
    ids = [e.id for e in ents]
    pending = await brain._run(brain.store.pending_vectors, 2, vector_model(brain.embedder), ids[1])
    assert [eid for eid, _ in pending] == ids[2:4]


async def test_attribute_only_edit_keeps_the_vector_fresh(make_brain: BrainFactory) -> None:
    brain = await make_brain(background_indexing=False)
    await brain.upsert_entity("Project", "Atlas", description="map the campus")
    await brain.index_vectors()
    await brain.upsert_entity("Project", "Atlas", {"repo": "git@example:atlas"})
    await brain.index_vectors()
    assert (await brain.stats())["pending_vectors"] == 0


# -- export / import ----------------------------------------------------------


async def _rich(brain: Brain) -> None:
    await _fill(brain)
    await brain.upsert_entity(
        "Topic",
        "東京 🗼",
        {"nested": {"a": [1, 2.5, None, True]}, "tags": ["ü", "ß"]},
        description='quotes " and \\ backslashes\nand newlines',
    )
    await brain.relate("Kevin Lee", "visited", "東京 🗼", {"year": 2024, "notes": "🍣"})
    await brain.relate("Kevin Lee", "runs", "Spring Cohort", {"since": "2023"})


async def test_export_import_round_trip_is_exact(make_brain: BrainFactory, tmp_path: Path) -> None:
    source = await make_brain(tmp_path / "source")
    await _rich(source)
    exported = await source.export_jsonl()
    assert json.loads(exported[0])["kind"] == "header"
    assert sum(json.loads(x)["kind"] == "entity" for x in exported) == 9
    assert sum(json.loads(x)["kind"] == "relation" for x in exported) == 3

    target = await make_brain(tmp_path / "target")
    counts = await target.import_jsonl(exported)
    assert counts == {"entities": 9, "relations": 3, "merges": 0}
    assert await target.export_jsonl() == exported
    # Searchable by BM25 at once, vectors follow.
    assert _names(await target.search("sourdough"))[0] == "Maria Gonzalez"
    assert await target.wait_for_vectors(30)
    assert (await target.stats())["pending_vectors"] == 0


async def test_importing_twice_changes_nothing(make_brain: BrainFactory) -> None:
    brain = await make_brain()
    await _rich(brain)
    exported = await brain.export_jsonl()
    await brain.import_jsonl(exported)
    assert await brain.export_jsonl() == exported


async def test_iter_export_matches_export(make_brain: BrainFactory) -> None:
    brain = await make_brain()
    await _rich(brain)
    assert list(await asyncio.to_thread(lambda: list(brain.iter_export()))) == (
        await brain.export_jsonl()
    )


GOOD = [
    '{"kind": "header", "format": "brainbridge-jsonl/1"}',
    '{"kind": "entity", "type": "Person", "name": "Kept One"}',
    "",
    '{"kind": "entity", "type": "Person", "name": "Kept Two", "description": "second"}',
]


@pytest.mark.parametrize(
    ("bad_line", "complaint"),
    [
        ("{not json", "JSON"),
        ('{"kind": "entity", "type": "Spaceship", "name": "Enterprise"}', "Spaceship"),
        ('{"kind": "entity", "name": "No Type"}', "type"),
        ('{"kind": "gizmo"}', "gizmo"),
        ('["a", "list"]', "kind"),
        (
            '{"kind": "entity", "type": "Decision", "name": "D", "attributes": {"decided_on": 5}}',
            "decided_on",
        ),
        ('{"kind": "relation", "src": {"type": "Person"}, "type": "x", "dst": {}}', "name"),
    ],
)
async def test_bad_import_line_is_named_and_earlier_lines_are_kept(
    make_brain: BrainFactory, bad_line: str, complaint: str
) -> None:
    brain = await make_brain(embedder=None)
    with pytest.raises(InvalidInput, match="line 5") as err:
        await brain.import_jsonl([*GOOD, bad_line, GOOD[1]])
    assert complaint in str(err.value)
    assert await brain.get_entity("Person", "Kept One") is not None
    assert (await brain.get_entity("Person", "Kept Two")).description == "second"


@pytest.mark.parametrize(
    "bad_line",
    [
        '{"kind": "entity", "type": "Person", "name": ""}',
        '{"kind": "entity", "type": "Person", "name": 123}',
        '{"kind": "entity", "type": "Person", "name": "X", "attributes": "oops"}',
        '{"kind": "relation", "src": {"type": "Person", "name": "Kept One"}, "type": "knows",'
        ' "dst": {"type": "Person", "name": "Nobody"}}',
    ],
)
async def test_bad_entity_values_in_import_are_named_too(
    make_brain: BrainFactory, bad_line: str
) -> None:
    brain = await make_brain(embedder=None)
    with pytest.raises(InvalidInput, match="line 5"):
        await brain.import_jsonl([*GOOD, bad_line])
    assert await brain.get_entity("Person", "Kept Two") is not None


async def test_import_error_is_a_brain_error_for_adapters(make_brain: BrainFactory) -> None:
    brain = await make_brain(embedder=None)
    with pytest.raises(BrainError):
        await brain.import_jsonl(["{"])


# -- schema -------------------------------------------------------------------


async def test_sync_schema_makes_a_new_type_usable(brain: Brain) -> None:
    with pytest.raises(SchemaError, match="Recipe"):
        await brain.upsert_entity("Recipe", "Pancakes")
    types_file = brain.path / "entity_types.yaml"
    types_file.write_text(
        types_file.read_text("utf-8")
        + "Recipe:\n  description: Something to cook.\n  attributes:\n    servings: integer\n",
        "utf-8",
    )
    types = await brain.sync_schema()
    assert "Recipe" in types and "Recipe" in brain.types
    ent = await brain.upsert_entity("Recipe", "Pancakes", {"servings": 4})
    assert ent.attributes == {"servings": 4}
    with pytest.raises(SchemaError, match="servings"):
        await brain.upsert_entity("Recipe", "Waffles", {"servings": "four"})


async def test_broken_schema_file_keeps_the_old_schema(brain: Brain) -> None:
    types_file = brain.path / "entity_types.yaml"
    types_file.write_text("Person: [this is not: valid", "utf-8")
    with pytest.raises(SchemaError, match="entity_types.yaml"):
        await brain.sync_schema()
    await brain.upsert_entity("Project", "Still works", {"status": "active"})
    with pytest.raises(SchemaError, match="status"):
        await brain.upsert_entity("Project", "Still checked", {"status": "someday"})


async def test_schema_from_sync_survives_reopening(tmp_path: Path) -> None:
    folder = tmp_path / "brain"
    async with await Brain.open(folder, embedder=None) as brain:
        types_file = folder / "entity_types.yaml"
        types_file.write_text(types_file.read_text("utf-8") + "Recipe: {}\n", "utf-8")
        await brain.sync_schema()
    async with await Brain.open(folder, embedder=None) as again:
        await again.upsert_entity("Recipe", "Pancakes")


async def test_edited_schema_file_applies_on_next_open(tmp_path: Path) -> None:
    folder = tmp_path / "brain"
    async with await Brain.open(folder, embedder=None):
        pass
    types_file = folder / "entity_types.yaml"
    types_file.write_text(types_file.read_text("utf-8") + "Recipe: {}\n", "utf-8")
    async with await Brain.open(folder, embedder=None) as brain:
        await brain.upsert_entity("Recipe", "Pancakes")


# -- MiniLM -------------------------------------------------------------------


async def test_minilm_finds_a_paraphrase(minilm_brain: Brain) -> None:
    await minilm_brain.upsert_entity(
        "Commitment", "Dentist appointment", description="Checkup with Dr. Lee on Friday"
    )
    await minilm_brain.upsert_entity("Topic", "Volcanoes", description="lava and eruptions")
    assert await minilm_brain.wait_for_vectors(60)
    hits = await minilm_brain.search("tooth doctor visit")
    assert _names(hits) == ["Dentist appointment"]
    assert hits[0].retrievers == ("vector",)
    assert await minilm_brain.search("xyzzy plugh") == []


async def test_minilm_search_with_invalid_utf8_does_not_crash(minilm_brain: Brain) -> None:
    await minilm_brain.upsert_entity("Topic", "Volcanoes", description="lava and eruptions")
    assert await minilm_brain.wait_for_vectors(60)
    bad = b"\xff\xfe".decode("utf-8", "surrogateescape")
    await minilm_brain.search(f"lava{bad}")
