"""`brain search | recall | index`: results, filters, pending vectors, any query text."""

from __future__ import annotations

import asyncio
import json

import pytest

from cli.runner import BrainCli
from test_facts_over_time import _lead_changed


@pytest.fixture
def filled(cli: BrainCli) -> BrainCli:
    rows = [
        ("Person", "Ada Lovelace", "Mathematician who wrote the first computer program."),
        ("Person", "Charles Babbage", "Designed the analytical engine, a mechanical computer."),
        ("Project", "Analytical Engine", "A general-purpose mechanical computer, never finished."),
        ("Document", "Notes on the Engine", "Ada's notes with the Bernoulli number program."),
    ]
    lines = [json.dumps({"kind": "header", "format": "brainbridge-jsonl/1"})]
    lines += [
        json.dumps({"kind": "entity", "type": t, "name": n, "description": d, "attributes": {}})
        for t, n, d in rows
    ]
    cli.ok("import", "-", input="\n".join(lines) + "\n")
    cli.ok("relate", "Charles Babbage", "designed", "Analytical Engine")
    return cli


def test_search_shows_people_a_table_with_retrievers(filled: BrainCli) -> None:
    result = filled.ok("search", "analytical engine")
    assert "Analytical Engine" in result.out and "Charles Babbage" in result.out
    assert "bm25" in result.out and "vector" in result.out
    assert "\x1b[" not in result.out


def test_search_json_carries_entity_score_and_retrievers(filled: BrainCli) -> None:
    data = filled.ok("search", "analytical engine", "--json").json()
    assert data["query"] == "analytical engine"
    assert data["count"] == len(data["results"]) > 0
    top = data["results"][0]
    assert (top["type"], top["name"]) == ("Project", "Analytical Engine")
    assert {"description", "attributes", "score", "retrievers"} <= top.keys()
    assert "bm25" in top["retrievers"]


def test_search_limits_and_type_filters(filled: BrainCli) -> None:
    one = filled.ok("search", "computer program engine", "-n", "1", "--json").json()
    assert one["count"] == 1
    people = filled.ok("search", "computer", "--type", "Person", "--json").json()
    assert people["results"] and {r["type"] for r in people["results"]} == {"Person"}
    others = filled.ok("search", "computer", "-x", "Person", "-x", "Document", "--json").json()
    assert others["results"] and {r["type"] for r in others["results"]} == {"Project"}


def test_unknown_type_filter_names_the_known_types(filled: BrainCli) -> None:
    result = filled("search", "computer", "--type", "Persn")
    assert result.code == 2
    assert "'Persn'" in result.err and "Person" in result.err and "Project" in result.err


def test_nothing_relevant_says_so(filled: BrainCli) -> None:
    result = filled.ok("search", "zebra migration patterns")
    assert "No results" in result.out
    assert filled.ok("search", "zebra migration patterns", "--json").json()["count"] == 0


def test_recall_for_people_and_machines(filled: BrainCli) -> None:
    human = filled.ok("recall", "who wrote the first program")
    assert "Ada Lovelace" in human.out and "bm25" in human.out
    data = filled.ok("recall", "who wrote the first program", "-n", "2", "--json").json()
    assert set(data) == {"query", "results", "count"}
    assert 0 < data["count"] <= 2
    assert data["results"][0]["name"] == "Ada Lovelace"


@pytest.mark.parametrize(
    "query",
    ['"', "AND", "OR OR NOT", "*", ":", "a:b", 'NEAR("x" "y")', "^start", "(((", "Ada AND*"],
)
def test_fts_syntax_in_a_query_never_fails(filled: BrainCli, query: str) -> None:
    assert isinstance(filled.ok("search", query, "--json").json()["results"], list)


def test_fts_syntax_in_recall_and_stdin(filled: BrainCli) -> None:
    filled.ok("recall", 'Lovelace" OR "x* : -')
    data = filled.ok("search", "-", "--json", input='"Ada" AND ( NEAR').json()
    assert data["query"] == '"Ada" AND ( NEAR'


def test_a_5_mb_query_from_stdin(filled: BrainCli) -> None:
    query = "Lovelace " + "lorem ipsum dolor " * 300_000
    assert len(query) > 5_000_000
    data = filled.ok("search", "-", "--json", input=query).json()
    assert isinstance(data["results"], list)
    filled.ok("recall", "-", input=query)


def test_many_pending_vectors_get_a_hint_not_a_long_wait(cli: BrainCli) -> None:
    lines = [
        json.dumps({"kind": "entity", "type": "Topic", "name": f"topic {i}", "description": "x"})
        for i in range(2000)
    ]
    cli.ok("import", "-", "--no-embed", input="\n".join(lines))
    searched = cli.ok("search", "topic 7")
    assert "brain index" in searched.err
    assert cli.ok("stats", "--json").json()["pending_vectors"] == 2000
    indexed = cli.ok("index", "--json").json()
    assert indexed == {"embedder": "hashing", "embedded": 2000}
    assert "brain index" not in cli.ok("search", "topic 7").err


def test_index_without_an_embedder_explains(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Ada")
    result = cli.ok("index", env={"BRAIN_EMBEDDER": "none"})
    assert "No embedder" in result.out
    assert cli.ok("search", "Ada", "--json", env={"BRAIN_EMBEDDER": "none"}).json()["count"] == 1


def test_recall_marks_what_was_replaced_in_part(cli: BrainCli) -> None:
    # `brain recall` is what the block's last line offers: it must say what no longer holds.
    asyncio.run(_lead_changed(cli.home))
    shown = cli.ok("recall", "engineering lead").out
    assert '"the engineering lead is Kwame" superseded on 2026-11-12 by s1:ex:2' in " ".join(
        shown.split()
    ), shown
