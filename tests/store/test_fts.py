"""User text to FTS5: any text is a valid query, operators are matched as words."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brainbridge.store.sqlite.fts import fts_match_expression
from brainbridge.store.sqlite.store import SqliteStore
from brainbridge.words import query_terms

FTS_SYNTAX = ['"', "AND", "OR", "NOT", "NEAR(", "NEAR", "*", ":", "^", "-", "(", ")", "+", "{", "}"]
# Every code point, lone surrogates and NUL included.
ANY_CHAR = st.characters(exclude_categories=())
ANY_TEXT = st.lists(
    st.one_of(st.sampled_from(FTS_SYNTAX), st.text(ANY_CHAR, max_size=12), st.just(" ")),
    max_size=12,
).map("".join)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqliteStore]:
    s = SqliteStore.open(tmp_path_factory.mktemp("fts") / "brain.db")
    for name, description in [
        ("AND gate", "a logic gate: NOT the same as OR"),
        ("NEAR field", "antenna near-field measurements"),
        ("litellm-config-drift", "the proxy settings diverged from the repo"),
        ("GraphStore", "stores nodes and edges"),
        ("C++ tips", "templates, *pointers* and ^carets^"),
    ]:
        s.upsert_entity("Topic", name, description, {})
    yield s
    s.close()


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=ANY_TEXT)
def test_any_text_is_a_valid_bm25_query(store: SqliteStore, text: str) -> None:
    hits = store.bm25(text, 10)
    assert all(isinstance(eid, int) for eid, _ in hits)
    assert store.bm25(text, 10, entity_types=["Topic"], exclude_types=["Person"]) == hits


@given(text=ANY_TEXT)
def test_match_expression_quotes_every_term(text: str) -> None:
    expr = fts_match_expression(text)
    if expr is None:
        assert query_terms(text, keep_stopwords=True) == []
        return
    for part in expr.split(" OR "):
        assert part.startswith('"') and part.endswith('"') and '"' not in part[1:-1]


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("AND", "AND gate"),
        ('NOT "same"', "AND gate"),
        ("NEAR(field", "NEAR field"),
        ("config drift", "litellm-config-drift"),
        ("litellm", "litellm-config-drift"),
        ("graph store", "GraphStore"),
        ("*pointers*", "C++ tips"),
        ("^carets", "C++ tips"),
    ],
)
def test_operators_are_matched_as_words_and_identifiers_by_their_parts(
    store: SqliteStore, query: str, name: str
) -> None:
    ids = [eid for eid, _ in store.bm25(query, 5)]
    assert ids, f"{query!r} found nothing"
    assert store.get_entities(ids[:1])[ids[0]].name == name


def test_stopwords_are_dropped_unless_nothing_else_is_left() -> None:
    assert query_terms("what is the status of the Atlas project") == ["status", "atlas", "project"]
    assert fts_match_expression("what is it") == '"what" OR "is" OR "it"'
    assert fts_match_expression("  ?! ") is None


def test_match_expression_runs_on_a_real_fts_table() -> None:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
        conn.execute("INSERT INTO t VALUES ('near or far, and not here')")
        expr = fts_match_expression('NEAR(or, "and") NOT*')
        assert conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (expr,)).fetchone() == (1,)
    finally:
        conn.close()
