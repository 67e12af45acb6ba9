"""The relevance floor counts the words BM25 matched, stemmed as FTS5 stems them."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from brainbridge.search.relevance import Coverage, stem, term_coverage

WORDS = """countries country exercises exercise exercising studies studying studied
    happiness happily relational running runs ran generalization painting paintings
    vacationed vacation camping camped adopting adoption agreed agreement café naïve
    as is us go hiking hikes""".split()


def fts5_terms(words: list[str]) -> dict[str, str]:
    """What SQLite's own `porter unicode61 remove_diacritics 2` tokenizer indexes per word."""
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')"
    )
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")
    out = {}
    for word in words:
        conn.execute("DELETE FROM t")
        conn.execute("INSERT INTO t VALUES (?)", (word,))
        out[word] = conn.execute("SELECT term FROM v").fetchone()[0]
    return out


def test_stems_agree_with_the_full_text_index() -> None:
    expected = fts5_terms(WORDS)
    assert {w: stem(w) for w in WORDS} == expected


def test_inflected_forms_cover_each_other() -> None:
    df = {"countries": 3, "maria": 300}
    text = "Maria: I've been to a few country music festivals abroad."
    assert term_coverage("countries Maria", text, df, 340) > 0.9


@pytest.mark.parametrize(
    ("query", "stored"),
    [
        ("what exercises has John done", "John: I started a new exercise routine at the gym."),
        ("which countries has Maria visited", "Maria: Spain was my favourite country so far."),
    ],
)
async def test_search_keeps_what_bm25_found_through_stemming(
    tmp_path: Path, query: str, stored: str
) -> None:
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    try:
        rows = [
            ("Document", f"filler {i}", f"{query.split()[-2]} talked about the weather {i}", {})
            for i in range(30)
        ]
        await brain.upsert_many([*rows, ("Document", "the one", stored, {})])
        names = [h.entity.name for h in await brain.search(query, num_results=5)]
        assert "the one" in names
    finally:
        await brain.close()


@pytest.mark.parametrize(
    ("name", "named"),
    [
        ("Priya", True),
        ("Priya Raman", False),  # every word of the name, not some
        ("Q3 roadmaps", True),  # inflected as the index stems it
        ("the", False),  # a name of stop words names nothing
    ],
)
def test_a_query_names_an_entity_only_with_all_its_words(name: str, named: bool) -> None:
    coverage = Coverage("help me draft the Q3 roadmap Priya asked for", {}, 100)
    assert coverage.names(name) is named


_SAME_IN_EVERY_PROCESS = """
from brainbridge.bridge.rank import Said
from brainbridge.search.relevance import Coverage
df = {"jon": 40, "group": 7, "perform": 5, "festival": 3, "dancer": 4, "next": 30, "month": 25}
cov = Coverage("When is Jon's group performing at a festival with dancers next month?", df, 200)
text = "Jon: the group of dancers will perform at the festival next month"
print(repr(cov.want), repr(cov.of(text)), sorted(Said(cov).measure(text).items()))
"""


def test_coverage_is_the_same_whatever_the_string_hash_order() -> None:
    """Coverage sums weights over sets of words, whose order follows Python's string hashes,
    different in each process: summed in that order, two processes gave 1.0 and
    0.9999999999999998 for one text, and the block's ranking broke ties differently from
    run to run (two of 383 LoCoMo questions moved). Summed exactly, every order agrees."""
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _SAME_IN_EVERY_PROCESS],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(8)
    }
    assert len(outputs) == 1, outputs
