"""Full-text search on PostgreSQL: `texts` holds each entity's name, description and
attribute text as separate tsvectors, and their union `tsv`, GIN-indexed separately for
knowledge and chat history (the file keeps two FTS5 tables).

PostgreSQL's `ts_rank` has no inverse document frequency and one length normalisation
for the whole text, so a short name and a long description count alike. The ranking
here is BM25F-like instead, computed in SQL over the rows that match any query term:

    score = sum over terms t of idf(t) * sum over fields f of
            w_f * [f holds t] * (k1 + 1) / (1 + k1 * (1 - b + b * len_f / avglen_f))

with the file's field weights (name 3, description 1, attributes 0.6), k1 = 1.2,
b = 0.75, IDF from the same document counts the relevance floor reads, and a term
counted once per field (no term frequency: tsvector positions are not read).
Scores are on their own scale; search fuses them by rank and relative score only.

Document frequencies are kept exact as rows are written (`term_df`: one statement per
write adds or takes one from every lexeme of the text), so reading them is an index
lookup per term, never a count of matches. The average field lengths are read again
every few minutes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from brainbridge.store.sqlite.fts import MAX_TERMS
from brainbridge.store.sqlite.text_index import EXCHANGE_TYPE, HISTORY, KNOWLEDGE
from brainbridge.words import query_terms

# The file's two FTS5 tables, by the `history` flag that stands for them here.
TABLES = (KNOWLEDGE, HISTORY)
CONFIG = "english"
FIELDS = (("name_tsv", 3.0), ("desc_tsv", 1.0), ("body_tsv", 0.6))
K1, B = 1.2, 0.75
CACHE_SECONDS = 300.0


class PgTextIndex:
    """Writes and ranked reads of `texts`. Use from the store's thread."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self._averages: dict[int, list[float]] = {}  # history: average length of each field
        self._shape_at = 0.0

    # -- writes (inside the caller's transaction) ----------------------------

    def put(self, eid: int, entity_type: str, name: str, description: str, body: str) -> None:
        self.remove(eid, entity_type)
        vec = f"to_tsvector('{CONFIG}', ?)"
        history = int(entity_type == EXCHANGE_TYPE)
        self.conn.execute(
            "INSERT INTO texts(entity_id, history, name_tsv, desc_tsv, body_tsv)"
            f" VALUES (?, ?, {vec}, {vec}, {vec})",
            (eid, history, name, description, body),
        )
        self._count_lexemes(eid, +1)

    def remove(self, eid: int, entity_type: str) -> None:
        self._count_lexemes(eid, -1)
        self.conn.execute("DELETE FROM texts WHERE entity_id = ?", (eid,))

    def _count_lexemes(self, eid: int, step: int) -> None:
        """Add `step` to the document frequency of every lexeme of the entity's text (and
        to its half's row count): one statement, whatever the text's length."""
        self.conn.execute(
            "INSERT INTO term_df(history, lexeme, n)"
            " SELECT t.history, x.lexeme, ? FROM texts t,"
            " LATERAL (SELECT unnest(tsvector_to_array(t.tsv)) AS lexeme UNION ALL SELECT '') x"
            " WHERE t.entity_id = ?"
            " ON CONFLICT(history, lexeme) DO UPDATE SET n = term_df.n + excluded.n",
            (step, eid),
        )

    # -- reads ----------------------------------------------------------------

    def doc_freq(self, terms: Sequence[str], tables: Sequence[str] = TABLES) -> dict[str, int]:
        """Number of rows (in the file's `tables`: knowledge, history) holding each term."""
        out = dict.fromkeys(terms, 0)
        for history in (int(table == HISTORY) for table in tables):
            for term, count in self._counts(history, list(out)).items():
                out[term] += count
        return out

    def _counts(self, history: int, terms: list[str]) -> dict[str, int]:
        """Rows of one half holding each term, from `term_df` (a term that is several
        lexemes, such as "e-mail", counts by its rarest)."""
        rows = self.conn.execute(
            f"SELECT q.term, COALESCE(MIN(d.n), 0) FROM unnest(?::text[]) q(term)"
            f" CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('{CONFIG}', q.term))) l(lexeme)"
            " LEFT JOIN term_df d ON d.history = ? AND d.lexeme = l.lexeme GROUP BY q.term",
            (terms, history),
        ).fetchall()
        found = {r[0]: int(r[1]) for r in rows}
        return {t: found.get(t, 0) for t in terms}

    def _rows(self, history: int) -> int:
        row = self.conn.execute(
            "SELECT n FROM term_df WHERE history = ? AND lexeme = ''", (history,)
        ).fetchone()
        return int(row[0]) if row else 0

    def _average_lengths(self, history: int) -> list[float]:
        """The average length of each field in one half of the index (cached a while: it
        drifts slowly, and reading it scans the half)."""
        if time.monotonic() - self._shape_at > CACHE_SECONDS:
            self._averages.clear()
            self._shape_at = time.monotonic()
        if history not in self._averages:
            lengths = ", ".join(f"avg(length({f}))" for f, _ in FIELDS)
            row = self.conn.execute(
                f"SELECT {lengths} FROM texts WHERE history = ?", (history,)
            ).fetchone()
            self._averages[history] = [max(float(v or 0), 1.0) for v in row]
        return self._averages[history]

    def rank(
        self,
        query: str,
        limit: int,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> list[tuple[int, float]]:
        """(entity id, score) for free text, best first; higher is better."""
        terms = (query_terms(query) or query_terms(query, keep_stopwords=True))[:MAX_TERMS]
        if not terms or limit <= 0:
            return []
        keep, drop = tuple(entity_types or ()), tuple(exclude_types or ())
        hits: list[tuple[int, float]] = []
        if (not keep or EXCHANGE_TYPE in keep) and EXCHANGE_TYPE not in drop:
            hits += self._rank(1, terms, limit, (), ())
        knowledge = tuple(t for t in keep if t != EXCHANGE_TYPE)
        if not keep or knowledge:
            hits += self._rank(0, terms, limit, knowledge, drop)
        hits.sort(key=lambda h: (-h[1], h[0]))
        return hits[:limit]

    def _rank(
        self,
        history: int,
        terms: list[str],
        limit: int,
        types: Sequence[str],
        excluded: Sequence[str],
    ) -> list[tuple[int, float]]:
        df = self._counts(history, terms)
        present = [t for t in terms if df[t]]
        if not present:
            return []
        averages = self._average_lengths(history)
        total = max(self._rows(history), max(df.values()))
        q = f"plainto_tsquery('{CONFIG}', ?)"
        fields = [
            (f"{w * (K1 + 1)} / (1 + {K1} * ({1 - B} + {B} * length(t.{f}) / {avg}))", f)
            for (f, w), avg in zip(FIELDS, averages, strict=True)
        ]
        one = " + ".join(f"CASE WHEN t.{f} @@ {q} THEN {norm} ELSE 0 END" for norm, f in fields)
        score = " + ".join(f"? * ({one})" for _ in present)
        params: list[Any] = []
        for t in present:
            idf = math.log(1 + (total - df[t] + 0.5) / (df[t] + 0.5))
            params += [idf, *([t] * len(fields))]
        any_term = " || ".join([q] * len(present))
        where = ""
        if types:
            where += f" AND e.type IN ({','.join('?' * len(types))})"
        if excluded:
            where += f" AND e.type NOT IN ({','.join('?' * len(excluded))})"
        join = " JOIN entities e ON e.id = t.entity_id" if where else ""
        rows = self.conn.execute(
            f"SELECT t.entity_id, {score} AS s FROM texts t{join}"
            f" WHERE t.history = ? AND t.tsv @@ ({any_term}){where}"
            " ORDER BY s DESC, t.entity_id LIMIT ?",
            [*params, history, *present, *types, *excluded, limit],
        ).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]
