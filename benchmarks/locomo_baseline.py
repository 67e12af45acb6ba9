"""The reference retriever: plain BM25 over single turns, the question as written.

SQLite FTS5 (porter stemming), every turn's text alone in its own row, the
question's words minus stopwords OR-ed together. Nothing of the product is used
but the stopword list, so improvements to search cannot move this line.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence

from benchmarks.locomo_data import Turn
from brainbridge.words import STOPWORDS

_WORD = re.compile(r"\w+")


class TurnBM25:
    """An in-memory FTS5 table of one conversation's turns."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        self.turns = list(turns)
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE t USING fts5(text, tokenize='porter unicode61')")
        self.db.executemany(
            "INSERT INTO t(rowid, text) VALUES (?, ?)", [(i, t.text) for i, t in enumerate(turns)]
        )

    def search(self, question: str, k: int) -> list[tuple[set[str], str]]:
        """Top-k turns as ({dia_id}, text), best first."""
        words = [w for w in _WORD.findall(question.lower()) if w not in STOPWORDS]
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in dict.fromkeys(words))
        rows = self.db.execute(
            "SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?", (match, k)
        ).fetchall()
        return [({self.turns[r[0]].dia_id}, self.turns[r[0]].text) for r in rows]
