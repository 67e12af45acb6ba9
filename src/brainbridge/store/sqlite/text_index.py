"""The full-text index: two FTS5 tables and BM25 ranking whose cost stays bounded.

Knowledge lives in `entities_fts`, chat episodes (`Chat_Exchange`) in `exchanges_fts`
(rowid = entities.id in both). The split lets the bridge rank facts and history
separately without paying for the other's postings.

FTS5 scores every row its MATCH selects (about 1 µs each), so an OR of common words on a
big brain costs tens of milliseconds. `rank` therefore scores at most a bounded number of
rows per table:

- when the query's terms occur in at most `EXACT_ROWS` rows together, every match is
  scored: exact BM25, which is every query on a brain of a few thousand entities;
- otherwise the candidates are (a) every row holding the query's rarest terms, as many of
  them as fit in `RARE_ROWS`, scored exactly on the whole query; (b) coordination
  levels: the `WINDOW_ROWS` newest rows holding all the terms, then all but the
  commonest, and so on, until `limit` candidates are found, each scored on its level's
  terms (a lower bound); (c) if still short, the newest rows holding any term. Only rows
  with nothing but common words, older than the windows, are never candidates.

`benchmarks/bench_store.py` measures the agreement with exact BM25.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence

from brainbridge.store.sqlite.fts import MAX_TERMS, match_terms
from brainbridge.words import query_terms

EXCHANGE_TYPE = "Chat_Exchange"
KNOWLEDGE = "entities_fts"
HISTORY = "exchanges_fts"
TABLES = (KNOWLEDGE, HISTORY)
COLUMNS = "name, description, body"
# Column weights: a name hit counts triple, so a query naming an entity finds it first.
_BM25 = "bm25({table}, 3.0, 1.0, 0.6)"

EXACT_ROWS = 1000
RARE_ROWS = 600
WINDOW_ROWS = 600
# Up to this many rows, a term in half of them or more still weighs (see _weigh_common).
SMALL_TABLE = 2000
FTS5_IDF_FLOOR = 1e-6  # what FTS5's bm25() gives a term in half the rows or more
# A term's frequency part, with the column weights (3, 1, 0.6) and k1 = 1.2, stays below this.
MAX_TF_PART = 12.0
# Document frequencies from this up are cached, as they drift slowly; smaller ones only
# until the next write (a rare term's count is cheap and must see new rows at once).
CACHED_DF = 500


def write_stamp(conn: sqlite3.Connection) -> tuple[int, int]:
    """Moves with every write to the database: this connection's changes, and SQLite's
    count of commits by other connections (PRAGMA data_version)."""
    return (conn.total_changes, conn.execute("PRAGMA data_version").fetchone()[0])


def table_for(entity_type: str) -> str:
    return HISTORY if entity_type == EXCHANGE_TYPE else KNOWLEDGE


def create_tables(conn: sqlite3.Connection, tables: Sequence[str] = TABLES) -> None:
    for table in tables:
        conn.execute(
            f"CREATE VIRTUAL TABLE {table} USING fts5({COLUMNS},"
            " tokenize = 'porter unicode61 remove_diacritics 2')"
        )


class TextIndex:
    """Writes and BM25 reads of the FTS5 tables. Use from the store's thread."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._df_cache: dict[tuple[str, str], int] = {}
        self._small: dict[tuple[str, str], int] = {}
        self._stamp: tuple[int, int] = (-1, -1)
        self._row_counts: dict[str, int] = {}  # per table, kept like `_small`

    # -- writes (inside the caller's transaction) ----------------------------

    def put(self, eid: int, entity_type: str, name: str, description: str, body: str) -> None:
        self.conn.execute(
            f"INSERT INTO {table_for(entity_type)}(rowid, {COLUMNS}) VALUES (?, ?, ?, ?)",
            (eid, name, description, body),
        )

    def remove(self, eid: int, entity_type: str) -> None:
        self.conn.execute(f"DELETE FROM {table_for(entity_type)} WHERE rowid = ?", (eid,))

    # -- reads ----------------------------------------------------------------

    def doc_freq(self, terms: Sequence[str], tables: Sequence[str] = TABLES) -> dict[str, int]:
        """Number of rows (over `tables`) whose text holds each term."""
        # Small counts are kept only while nothing was written (here or by another process).
        stamp = write_stamp(self.conn)
        if stamp != self._stamp:
            self._small.clear()
            self._row_counts.clear()
            self._stamp = stamp
        out = dict.fromkeys(terms, 0)
        for table in tables:
            for term in terms:
                out[term] += self._df(table, term)
        return out

    def _df(self, table: str, term: str) -> int:
        key = (table, term)
        hit = self._df_cache.get(key, self._small.get(key))
        if hit is not None:
            return hit
        count = self.conn.execute(
            f"SELECT COUNT(*) FROM {table} WHERE {table} MATCH ?", (f'"{term}"',)
        ).fetchone()[0]
        cache = self._df_cache if count >= CACHED_DF else self._small
        if len(cache) > 50_000:
            cache.clear()
        cache[key] = count
        return count

    def rank(
        self,
        query: str,
        limit: int,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> list[tuple[int, float]]:
        """(entity id, BM25 score) for free text, best first; higher is better."""
        terms = (query_terms(query) or query_terms(query, keep_stopwords=True))[:MAX_TERMS]
        if not terms or limit <= 0:
            return []
        hits: list[tuple[int, float]] = []
        for table, types, excluded in _plan(entity_types, exclude_types):
            hits += self._rank_table(table, terms, limit, types, excluded)
        hits.sort(key=lambda h: (-h[1], h[0]))
        return hits[:limit]

    def _rank_table(
        self,
        table: str,
        terms: list[str],
        limit: int,
        types: Sequence[str],
        excluded: Sequence[str],
    ) -> list[tuple[int, float]]:
        df = self.doc_freq(terms, (table,))
        present = sorted((t for t in terms if df[t]), key=lambda t: df[t])
        if not present:
            return []
        where, params = _type_filter(types, excluded)
        full = match_terms(present)
        rows = self._rows(table)
        common = [t for t in present if 2 * df[t] >= rows] if rows <= SMALL_TABLE else []
        if sum(df[t] for t in present) <= EXACT_ROWS:
            hits = self._scored(table, full, where, params, None if common else limit)
            return self._weigh_common(table, hits, common, df, rows)[:limit]
        rare: list[str] = []
        for term in present:
            if sum(df[t] for t in rare) + df[term] > RARE_ROWS:
                break
            rare.append(term)
        found = self._rare_exact(table, rare, full, where, params, limit) if rare else {}
        # Coordination levels: rows holding all terms, then all but the commonest, ...
        for n in range(len(present), max(len(rare), 1), -1):
            level = " AND ".join(f'"{t}"' for t in present[:n])
            for eid, score in self._newest(table, level, where, params, limit):
                found[eid] = max(found.get(eid, 0.0), score)
            if len(found) >= limit:
                break
        if len(found) < limit:
            for eid, score in self._newest(table, full, where, params, limit):
                found[eid] = max(found.get(eid, 0.0), score)
        return self._weigh_common(table, list(found.items()), common, df, rows)[:limit]

    def _rows(self, table: str) -> int:
        """Rows in `table`, counted once until the next write: read after `doc_freq`,
        which clears the count when the stamp moved."""
        if table not in self._row_counts:
            count = self.conn.execute(f"SELECT COUNT(*) FROM {table}_docsize").fetchone()[0]
            self._row_counts[table] = count
        return self._row_counts[table]

    def _weigh_common(
        self,
        table: str,
        hits: list[tuple[int, float]],
        common: list[str],
        df: dict[str, int],
        rows: int,
    ) -> list[tuple[int, float]]:
        """`hits`, best first, with the weight FTS5 denies a term in half the rows or more.

        FTS5 floors such a term's IDF at 1e-6 (fts5_aux.c): in a young brain the project
        the user speaks of in most exchanges would count for nothing, and a row holding
        only it would rank with rows matching nothing. Here it weighs as BM25's usual
        log(1 + (N - n + 0.5) / (n + 0.5)), times its term-frequency part as FTS5 scored
        it (the term's own score over the floor: column weights and length kept).
        """
        scores = dict(hits)
        if not common or not scores:
            return sorted(scores.items(), key=lambda h: (-h[1], h[0]))
        bm25 = _BM25.format(table=table)
        ids = list(scores)
        marks = ",".join("?" * len(ids))
        for term in common:
            idf = math.log(1 + (rows - df[term] + 0.5) / (df[term] + 0.5))
            # Only the rows found are scored on the term (as many as found, at most).
            holding = self.conn.execute(
                f"SELECT rowid, -{bm25} FROM {table} WHERE {table} MATCH ?"
                f" AND rowid IN ({marks}) LIMIT ?",
                (f'"{term}"', *ids, len(ids)),
            )
            for eid, floored in holding:
                scores[eid] += idf * min(floored / FTS5_IDF_FLOOR, MAX_TF_PART)
        return sorted(scores.items(), key=lambda h: (-h[1], h[0]))

    def _rare_exact(
        self,
        table: str,
        rare: list[str],
        full: str,
        where: str,
        params: tuple[str, ...],
        limit: int,
    ) -> dict[int, float]:
        """The best `limit` rows holding a rare term, scored exactly on the whole query.

        `(rare) AND (full)` selects just those rows but counts the rare phrases twice, so
        their share, scored alone on the same rows, is taken off again (in SQL: only the
        best rows come back to Python).
        """
        bm25 = _BM25.format(table=table)
        scored = f"SELECT rowid AS id, -{bm25} AS s FROM {table} WHERE {table} MATCH ?"
        join = f" JOIN entities e ON e.id = b.id AND {where}" if where else ""
        rows = self.conn.execute(
            f"SELECT b.id, b.s - COALESCE(p.s, 0) AS score FROM ({scored}) b"
            f" LEFT JOIN ({scored}) p ON p.id = b.id{join} ORDER BY score DESC LIMIT ?",
            (f"({match_terms(rare)}) AND ({full})", match_terms(rare), *params, limit),
        ).fetchall()
        return {r[0]: r[1] for r in rows}

    def _scored(
        self, table: str, match: str, where: str, params: tuple[str, ...], limit: int | None
    ) -> list[tuple[int, float]]:
        """Rows matching `match`, scored; the best `limit` of them, or all (limit None)."""
        bm25 = _BM25.format(table=table)
        join = f" JOIN entities e ON e.id = f.rowid AND {where}" if where else ""
        order = f" ORDER BY {bm25} LIMIT ?" if limit is not None else ""
        rows = self.conn.execute(
            f"SELECT f.rowid, -{bm25} FROM {table} f{join} WHERE {table} MATCH ?{order}",
            (*params, match, *([limit] if limit is not None else [])),
        ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def _newest(
        self, table: str, match: str, where: str, params: tuple[str, ...], limit: int
    ) -> list[tuple[int, float]]:
        """The best `limit` of the WINDOW_ROWS newest matches (the window is taken before
        the type filter, so its cost is bounded whatever the filter keeps)."""
        bm25 = _BM25.format(table=table)
        window = (
            f"SELECT rowid AS id, -{bm25} AS score FROM {table} WHERE {table} MATCH ?"
            " ORDER BY rowid DESC LIMIT ?"
        )
        join = f" JOIN entities e ON e.id = w.id AND {where}" if where else ""
        rows = self.conn.execute(
            f"SELECT w.id, w.score FROM ({window}) w{join} ORDER BY w.score DESC LIMIT ?",
            (match, WINDOW_ROWS, *params, limit),
        ).fetchall()
        return [(r[0], r[1]) for r in rows]


def _plan(
    entity_types: Sequence[str] | None, exclude_types: Sequence[str] | None
) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """Which tables a type filter needs: (table, types to keep, types to drop) each."""
    keep = tuple(entity_types or ())
    drop = tuple(exclude_types or ())
    plan: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    if (not keep or EXCHANGE_TYPE in keep) and EXCHANGE_TYPE not in drop:
        plan.append((HISTORY, (), ()))  # one type only: no filter needed
    knowledge = tuple(t for t in keep if t != EXCHANGE_TYPE)
    if not keep or knowledge:
        plan.append((KNOWLEDGE, knowledge, tuple(t for t in drop if t != EXCHANGE_TYPE)))
    return plan


def _type_filter(types: Sequence[str], excluded: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    clauses: list[str] = []
    params: list[str] = []
    if types:
        clauses.append(f"e.type IN ({','.join('?' * len(types))})")
        params.extend(types)
    if excluded:
        clauses.append(f"e.type NOT IN ({','.join('?' * len(excluded))})")
        params.extend(excluded)
    return " AND ".join(clauses), tuple(params)


def m011_exchange_index(conn: sqlite3.Connection) -> None:
    """Move Chat_Exchange rows out of `entities_fts` into their own `exchanges_fts`.

    Rebuilding the knowledge table from its remaining rows is faster than deleting the
    exchanges from it one posting list at a time.
    """
    create_tables(conn, (HISTORY, "knowledge_fts_new"))
    for target, op in ((HISTORY, "="), ("knowledge_fts_new", "!=")):
        conn.execute(
            f"INSERT INTO {target}(rowid, {COLUMNS}) SELECT f.rowid, f.name, f.description,"
            f" f.body FROM {KNOWLEDGE} f JOIN entities e ON e.id = f.rowid WHERE e.type {op} ?",
            (EXCHANGE_TYPE,),
        )
    conn.execute(f"DROP TABLE {KNOWLEDGE}")
    conn.execute(f"ALTER TABLE knowledge_fts_new RENAME TO {KNOWLEDGE}")
