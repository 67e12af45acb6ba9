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

Document frequencies are read from `term_rows` (schema migration 008), which the writes
of `texts` keep exact, as FTS5 keeps its doclists: one round trip of index reads for
both halves. A term in fewer than FRESH_BELOW rows is read again at every query (a row
written a moment ago must count; reused for a second within one search while this
connection writes nothing); other counts are kept a minute, as the file caches its large
counts. The row totals and average field lengths are read again every few minutes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from brainbridge.store.sqlite.fts import MAX_TERMS
from brainbridge.store.sqlite.text_index import (
    EXACT_ROWS,
    EXCHANGE_TYPE,
    HISTORY,
    KNOWLEDGE,
    RARE_ROWS,
    WINDOW_ROWS,
    _plan,
    _type_filter,
)
from brainbridge.words import query_terms

# The file's two FTS5 tables, by the `history` flag that stands for them here.
TABLES = (KNOWLEDGE, HISTORY)
CONFIG = "english"
FIELDS = (("name_tsv", 3.0), ("desc_tsv", 1.0), ("body_tsv", 0.6))
K1, B = 1.2, 0.75
CACHE_SECONDS = 300.0
FRESH_BELOW = 20
COUNTS_SECONDS = 60.0
# A row tested in an index walk costs about as much as a match read from a floor's page
# ranges: walking back costs 0.35-0.55 µs a row tested (the half's rows lie in id order,
# so its pages are read in turn), and the walk won from about 0.5 windows x rows
# matches up (8k of 200k chat rows, 5k of 100k knowledge rows); 1 keeps a margin for
# words whose rows are not spread evenly.
WALK_COST = 1.0
# The window is looked for above an id where about this many windows of the word lie.
FLOOR_WINDOWS = 1.5
# A word in up to this many windows of rows has every match read and sorted: reading a
# floor's page ranges tests every row of each page holding a match (about 9 ms in chat
# history whatever the word, 2.5-4 in knowledge), sorting all costs about 3 and 1.4 µs a
# match (crossing at 2,900 and 1,800 matches at 300k rows).
SORT_ALL_WINDOWS = 4
# Exact counts of rare terms are reused within one search (its ranking of each half and
# its relevance floor ask for the same words up to five times), not past a write through
# this connection nor past this many seconds.
RARE_SECONDS = 1.0


class PgTextIndex:
    """Writes and ranked reads of `texts`. Use from the store's thread."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self._averages: dict[int, list[float]] = {}  # history: average length of each field
        self._ids: dict[int, tuple[int, int]] = {}  # history: its lowest and highest id
        self._row_counts: dict[int, int] = {}
        self._shape_at = 0.0
        self._common: dict[tuple[int, str], int] = {}  # estimated counts of common terms
        self._common_at = 0.0
        self._rare: dict[tuple[int, str], int] = {}  # exact counts of rare terms, briefly
        self._rare_at, self._rare_since = -1, 0.0  # (total_changes, when) they were read

    # -- writes (inside the caller's transaction) ----------------------------

    def put(self, eid: int, entity_type: str, name: str, description: str, body: str) -> None:
        """Index a new row, or a row whose old text the store removed first."""
        # Positions stripped: nothing reads them, and without them a vector is a third
        # smaller and each match test cheaper.
        vec = f"strip(to_tsvector('{CONFIG}', ?))"
        self.conn.execute(
            "INSERT INTO texts(entity_id, history, name_tsv, desc_tsv, body_tsv)"
            f" VALUES (?, ?, {vec}, {vec}, {vec})",
            (eid, int(entity_type == EXCHANGE_TYPE), name, description, body),
        )

    def put_many(self, rows: Sequence[tuple[int, str, str, str, str]]) -> None:
        """Index new rows (entity id, type, name, description, body) in one statement."""
        if not rows:
            return
        vec = f"strip(to_tsvector('{CONFIG}', {{}}))"
        self.conn.execute(
            "INSERT INTO texts(entity_id, history, name_tsv, desc_tsv, body_tsv)"
            f" SELECT e, h, {vec.format('n')}, {vec.format('d')}, {vec.format('b')}"
            " FROM unnest(?::bigint[], ?::smallint[], ?::text[], ?::text[], ?::text[])"
            " AS u(e, h, n, d, b)",
            (
                [r[0] for r in rows],
                [int(r[1] == EXCHANGE_TYPE) for r in rows],
                [r[2] for r in rows],
                [r[3] for r in rows],
                [r[4] for r in rows],
            ),
        )

    def remove(self, eid: int, entity_type: str) -> None:
        self.conn.execute("DELETE FROM texts WHERE entity_id = ?", (eid,))

    # -- reads ----------------------------------------------------------------

    def doc_freq(self, terms: Sequence[str], tables: Sequence[str] = TABLES) -> dict[str, int]:
        """Number of rows (in the file's `tables`: knowledge, history) holding each term."""
        out = dict.fromkeys(terms, 0)
        for history in (int(table == HISTORY) for table in tables):
            for term, count in self._counts(history, list(out)).items():
                out[term] += count
        return out

    def _counts(self, history: int, terms: list[str]) -> dict[str, int]:
        """Rows of one half holding each term. Both halves are read together, in one round
        trip of index reads (`term_rows`, schema migration 008). Counts from FRESH_BELOW
        up are kept a minute; a rarer term is read again at every call (reused within a
        second while this connection writes nothing), so a row written a moment ago
        counts."""
        now = time.monotonic()
        if now - self._common_at > COUNTS_SECONDS:
            self._common.clear()
            self._common_at = now
        changes = getattr(self.conn, "total_changes", 0)
        if self._rare_at != changes or now - self._rare_since > RARE_SECONDS:
            self._rare.clear()
            self._rare_at, self._rare_since = changes, now
        out = {t: self._common[(history, t)] for t in terms if (history, t) in self._common}
        out.update((t, self._rare[(history, t)]) for t in terms if (history, t) in self._rare)
        todo = [t for t in terms if t not in out]
        if todo:
            rows = self.conn.execute(
                "SELECT i, knowledge, history FROM brain_term_counts(?::text[])", (todo,)
            )
            found = {int(r[0]) - 1: (int(r[1]), int(r[2])) for r in rows}
            for i, term in enumerate(todo):
                for half, count in enumerate(found.get(i, (0, 0))):
                    cache = self._common if count >= FRESH_BELOW else self._rare
                    cache[(half, term)] = count
                out[term] = found.get(i, (0, 0))[history]
        return out

    def rows(self) -> int:
        """Rows in both halves: the entities indexed, as last counted (kept a while)."""
        return sum(self._rows(history) for history in (0, 1))

    def _rows(self, history: int) -> int:
        """Rows in one half of the index (kept a while: counting scans the half)."""
        self._shape(history)
        return self._row_counts[history]

    def _average_lengths(self, history: int) -> list[float]:
        """The average length of each field in one half of the index (cached a while: it
        drifts slowly, and reading it scans the half)."""
        self._shape(history)
        return self._averages[history]

    def _shape(self, history: int) -> None:
        """Read one half's rows, average field lengths and id range, unless read in the
        last CACHE_SECONDS. In one scan: each person of a team brain keeps their own (they
        see different rows), and 20 of them counting and averaging apart was a fifth of
        the database's time in a team's first turns."""
        if time.monotonic() - self._shape_at > CACHE_SECONDS:
            self._averages.clear()
            self._row_counts.clear()
            self._shape_at = time.monotonic()
        if history not in self._averages:
            lengths = ", ".join(f"avg(length({f}))" for f, _ in FIELDS)
            row = self.conn.execute(
                f"SELECT {lengths}, min(entity_id), max(entity_id), count(*) FROM texts"
                " WHERE history = ?",
                (history,),
            ).fetchone()
            self._averages[history] = [max(float(v or 0), 1.0) for v in row[: len(FIELDS)]]
            self._ids[history] = (int(row[-3] or 0), int(row[-2] or 0))
            self._row_counts[history] = int(row[-1])

    def _floor(self, history: int, count: int) -> int | None:
        """An id of the half above which about FLOOR_WINDOWS windows of a term's `count` rows
        lie, if its rows were spread evenly over the half's ids (as read with the average
        lengths: ids written since only lift the real floor); None when that is all of
        them, or when reading them all costs less than the floor's lossy page ranges (a
        term in at most SORT_ALL_WINDOWS windows of rows). `brain_newest_texts` reads the
        newest below the floor too when the guess falls short."""
        rows = self._rows(history)
        span = FLOOR_WINDOWS * WINDOW_ROWS * rows / max(count, 1)
        low, high = self._ids.get(history, (0, 0))
        if span >= rows or high <= low or count <= SORT_ALL_WINDOWS * WINDOW_ROWS:
            return None
        return high - int(span * (high - low + 1) / rows)

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
        hits: list[tuple[int, float]] = []
        for table, types, excluded in _plan(entity_types, exclude_types):
            hits += self._rank(int(table == HISTORY), terms, limit, types, excluded)
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
        # Float literals: bare ones are `numeric`, whose arithmetic cost most of a
        # candidate's score.
        fields = [
            (
                f"{w * (K1 + 1)}::float8 / (1::float8 + {K1}::float8 * ({1 - B}::float8"
                f" + {B / avg}::float8 * length(t.{f})))",
                f,
            )
            for (f, w), avg in zip(FIELDS, averages, strict=True)
        ]
        # Per term: its fields are tested only on rows whose whole text holds it.
        per_field = " + ".join(
            f"CASE WHEN t.{f} @@ {q} THEN {norm} ELSE 0 END" for norm, f in fields
        )
        one = f"CASE WHEN t.tsv @@ {q} THEN ?::float8 * ({per_field}) ELSE 0 END"
        score = " + ".join([one] * len(present))
        params: list[Any] = []
        for t in present:
            idf = math.log(1 + (total - df[t] + 0.5) / (df[t] + 0.5))
            params += [t, idf, *([t] * len(fields))]
        where, kinds = _type_filter(types, excluded)
        pick, picked = self._candidates(history, present, df, score, params)
        ranked = f"WITH c AS ({pick}) SELECT c.entity_id, c.s FROM c ORDER BY c.s DESC, c.entity_id"
        if where:
            # Each candidate's type is read best first, only until `limit` pass: joined
            # before the sort, every candidate's row was read (about 5 ms for 800).
            ranked = (
                f"SELECT b.entity_id, b.s FROM ({ranked}) b WHERE EXISTS (SELECT 1 FROM"
                f" entities e WHERE e.id = b.entity_id AND {where}) ORDER BY b.s DESC, b.entity_id"
            )
        rows = self.conn.execute(
            f"{ranked} LIMIT ?",
            [*picked, *kinds, limit],
        ).fetchall()
        return [(int(r[0]), float(r[1])) for r in rows]

    def _candidates(
        self,
        history: int,
        present: list[str],
        df: dict[str, int],
        score: str,
        scored: list[Any],
    ) -> tuple[str, list[Any]]:
        """The rows to score, each with its `score` (SQL on `t`, and its parameters), as SQL
        and its parameters: scored as they are read, not read again to be scored. Every
        match when the terms occur in at most EXACT_ROWS rows together (any query on a
        brain of a few thousand entries); else every row holding the rarest terms (as many
        as fit in RARE_ROWS) and the WINDOW_ROWS newest rows holding the next rarest, so a
        query of common words costs about the same on a million rows as on ten thousand
        (as the file bounds it)."""
        q = f"plainto_tsquery('{CONFIG}', ?)"
        match = (
            f"SELECT t.entity_id, {score} AS s FROM texts t WHERE t.history = ? AND t.tsv @@ ({{}})"
        )
        if sum(df[t] for t in present) <= EXACT_ROWS:
            return match.format(" || ".join([q] * len(present))), [*scored, history, *present]
        rare: list[str] = []
        for term in sorted(present, key=lambda t: df[t]):
            if sum(df[t] for t in rare) + df[term] > RARE_ROWS:
                break
            rare.append(term)
        # The newest rows holding the rarest term that did not fit.
        common = next(t for t in sorted(present, key=lambda t: df[t]) if t not in rare)
        # A word that many of the half's rows hold: walked back on the half's own index
        # (schema migration 005), the walk stops at the window, testing WINDOW_ROWS /
        # share rows. A sparser one: `brain_newest_texts` (schema migration 010) reads
        # only its GIN matches above the floor where the window should lie (or all of
        # them, for a word in a few windows of rows), and returns the rows to be scored.
        if _walk_back(df[common], self._rows(history)):
            newest = f"({match.format(q)} ORDER BY t.entity_id DESC LIMIT {WINDOW_ROWS})"
            window = [*scored, history, common]
        else:
            newest = (
                f"SELECT t.entity_id, {score} AS s FROM brain_newest_texts(?::smallint, {q},"
                f" {WINDOW_ROWS}, ?::bigint) AS t(entity_id, name_tsv, desc_tsv, body_tsv, tsv)"
            )
            window = [*scored, history, common, self._floor(history, df[common])]
        if not rare:
            return newest, window
        rare_sql = match.format(" || ".join([q] * len(rare)))
        return f"{rare_sql} UNION {newest}", [*scored, history, *rare, *window]


def _walk_back(count: int, rows: int) -> bool:
    """Whether the newest WINDOW_ROWS of a term held by `count` of a half's `rows` are
    cheaper found by walking the half's id index back (about rows / count rows tested
    per match) than through its GIN matches (`brain_newest_texts`)."""
    return count * count >= WALK_COST * WINDOW_ROWS * max(rows, 1)
