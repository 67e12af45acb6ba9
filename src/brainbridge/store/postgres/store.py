"""The store on PostgreSQL: the SQLite store's statements on a `PgConnection`, with its
own schema, text index, and the few reads that differ (read-only, size, stats)."""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from brainbridge.model import Entity, EntityRow
from brainbridge.store.postgres import bulk, people, reads
from brainbridge.store.postgres.conn import WRITE_LOCK, PgConnection
from brainbridge.store.postgres.schema import DESCRIPTION_HEAD, migrate
from brainbridge.store.postgres.text_index import PgTextIndex
from brainbridge.store.sqlite.store import SqliteStore, _row_entity, stored_name
from brainbridge.store.sqlite.text_index import _type_filter
from brainbridge.store.sqlite.writes import write_tx

# Below this many entities, `count_entities` counts them (cheap, and a row just written
# counts); from here up it reads the text index's row count.
EXACT_COUNT_BELOW = 20_000


class PostgresStore(SqliteStore):
    """All reads and writes of one brain in a PostgreSQL database. Not thread-safe: one
    thread uses one store (and its one connection)."""

    def __init__(self, conn: PgConnection) -> None:
        super().__init__(conn, None)  # type: ignore[arg-type]
        self.url = conn.url
        # Whether the server has pgvector (migration 002 added the column if it could).
        self.pgvector = (
            conn.execute(
                "SELECT 1 FROM information_schema.columns"
                " WHERE table_name = 'vectors' AND column_name = 'embedding'"
            ).fetchone()
            is not None
        )
        self._hnsw: set[tuple[str, int]] = set()
        self.user: str | None = None  # the person it acts as (None: the owner)
        if self.pgvector:  # once per connection, not per search: a filter cannot starve HNSW
            conn.keep_setting("SET hnsw.iterative_scan = relaxed_order")

    def change_stamp(self) -> object | None:
        """Unknown: other people's writes leave no counter this connection sees cheaply."""
        return None

    @classmethod
    def open(  # a URL, named as the base class's
        cls, path: str | Path, user: str | None = None, workspace: str | None = None
    ) -> PostgresStore:
        """Connect to the database at `url`, creating the schema on first use; as person
        `user` when given, writing to `workspace` (see `people.py`), else as the owner.

        Raises: sqlite3.OperationalError when the server cannot be reached; NotFound for
        an unknown or revoked user; InvalidInput for a workspace they may not write.
        """
        conn = PgConnection.open(str(path))
        try:
            if migrate(conn):
                people.grant(conn)
            if user:
                people.act_as(conn, user, workspace)
            elif workspace:
                conn.keep_setting(f"SET brainbridge.workspace = {_quote(workspace)}")
        except BaseException:
            conn.close()
            raise
        store = cls(conn)
        store.user = user
        return store

    def _upsert_rows(self, rows: list[EntityRow], ts: str) -> list[Entity]:
        # Rows whose name is new are inserted together (`bulk.py`); the others, and a new
        # name met again in the batch, after them and in order, one by one as in the file.
        new = self._absent([(t, stored_name(n)) for t, n, _, _ in rows])
        first: dict[tuple[str, str], int] = {}
        for i, (t, n, _, _) in enumerate(rows):
            key = (t, stored_name(n))
            if key in new and key not in first:
                first[key] = i
        out: list[Entity | None] = [None] * len(rows)
        batch = list(first.values())
        for i, ent in zip(
            batch, bulk.insert_new(self.conn, self.text, [rows[i] for i in batch], ts), strict=True
        ):
            out[i] = ent
        for i, (t, n, d, a) in enumerate(rows):
            if out[i] is None:
                out[i] = self._upsert(t, n, d, a, ts)
        return [e for e in out if e is not None]

    def described_with_prefix(
        self, entity_type: str, prefix: str, limit: int = 100
    ) -> list[Entity]:
        """Entities of one type whose description starts with `prefix`, newest first (a
        range of the description-head index, schema migration 006)."""
        if not prefix or len(prefix) > DESCRIPTION_HEAD:
            return super().described_with_prefix(entity_type, prefix, limit)
        head = f'left(description, {DESCRIPTION_HEAD}) COLLATE "C"'
        rows = self.conn.execute(
            f"SELECT * FROM entities WHERE type = ? AND {head} >= ? AND {head} < ?"
            " AND substr(description, 1, ?) = ? ORDER BY id DESC LIMIT ?",
            (entity_type, prefix, prefix + "\U0010ffff", len(prefix), prefix, limit),
        ).fetchall()
        return [_row_entity(r) for r in rows]

    def _absent(self, keys: list[tuple[str, str]]) -> set[tuple[str, str]]:
        """The (type, name) pairs among `keys` that no entity has, in one statement: the
        file's chunks of 400 OR-ed pairs each took the planner a BitmapOr of 400 index
        scans to plan (a quarter of a batch's time on a server)."""
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return set()
        rows = self.conn.execute(
            "SELECT e.type, e.name FROM unnest(?::text[], ?::text[]) AS u(t, n)"
            f" JOIN entities e ON e.type = u.t AND e.name = u.n WHERE true{self.sql.mine}",
            ([t for t, _ in wanted], [n for _, n in wanted]),
        )
        return set(wanted) - {(r[0], r[1]) for r in rows}

    # -- batched reads, their values as arrays (`reads.py`) ----------------------

    def get_entities(self, ids: Sequence[int]) -> dict[int, Entity]:
        """Entities by id (missing ids are simply absent)."""
        return reads.entities(self.conn, ids, _row_entity)

    def exchange_positions(self, ids: Sequence[int]) -> dict[int, tuple[str, int]]:
        """{exchange id: (session id, exchange number)} for the exchanges among `ids`."""
        return reads.exchange_positions(self.conn, ids)

    def exchanges_at(self, positions: Iterable[tuple[str, int]]) -> dict[tuple[str, int], int]:
        """{(session id, exchange number): id} of the exchanges at these positions."""
        return reads.exchanges_at(self.conn, positions)

    def name_owners(
        self, keys: Sequence[str], per_key: int
    ) -> dict[tuple[str, int], list[tuple[str, str, int]]]:
        """Entities whose name has these lookup keys (see `name_keys`), for the bridge."""
        return reads.name_owners(self.conn, keys, per_key)

    def count_entities(self) -> int:
        """Exact on a small brain; on a big one the rows the text index counted (one per
        entity, kept a few minutes), which is all IDF needs: a count of every entity scans
        the table (70 ms at 300k rows; 200 for a person, whose views filter on an
        expression no index holds) and search asked for it every 5 seconds."""
        rows = cast(PgTextIndex, self.text).rows()
        if rows < EXACT_COUNT_BELOW:
            return int(super().count_entities())
        return rows

    def _text_index(self) -> Any:
        return PgTextIndex(self.conn)

    @property
    def read_only(self) -> bool:
        row = self.conn.execute("SHOW transaction_read_only").fetchone()
        return row[0] == "on"

    def stats(self) -> dict[str, Any]:
        out = super().stats()
        out["bytes"] = self.conn.execute("SELECT pg_database_size(current_database())").fetchone()[
            0
        ]
        return out

    # -- vectors in pgvector (see `search/pgvectors.py`) ----------------------------

    def put_vectors(
        self,
        model: str,
        items: Sequence[tuple[int, bytes]],
        texts: Mapping[int, str] | None = None,
        parts: Mapping[int, bytes] | None = None,
    ) -> list[int]:
        """Store vectors for entities that still exist (and, with `texts`, still have that
        text); with pgvector, as `embedding` too, under an HNSW index of the model's own
        (made on its first vectors). Sentence vectors (`parts`) are kept as blobs."""
        if self.pgvector and items:
            self._ensure_hnsw(model, len(items[0][1]) // 4)
        return super().put_vectors(model, items, texts, parts)

    def _put_vector(self, eid: int, model: str, seq: int, blob: bytes, parts: bytes | None) -> None:
        if not self.pgvector:
            super()._put_vector(eid, model, seq, blob, parts)
            return
        self.conn.execute(
            "INSERT INTO vectors(entity_id, model, seq, vector, embedding, parts)"
            " SELECT ?, ?, ?, ?, ?::vector, ? WHERE EXISTS (SELECT 1 FROM entities WHERE id = ?)"
            " ON CONFLICT(entity_id) DO UPDATE SET model = excluded.model, seq = excluded.seq,"
            " vector = excluded.vector, embedding = excluded.embedding, parts = excluded.parts",
            (eid, model, seq, blob, _literal(blob), parts, eid),
        )

    def vector_parts(self, model: str, ids: Sequence[int]) -> dict[int, bytes]:
        """{entity id: its sentences' vectors} for the listed entities that have them."""
        if not ids:
            return {}
        rows = self.conn.execute(
            "SELECT entity_id, parts FROM vectors"
            " WHERE model = ? AND entity_id = ANY(?) AND parts IS NOT NULL",
            (model, list(ids)),
        ).fetchall()
        return {int(r[0]): bytes(r[1]) for r in rows}

    def _ensure_hnsw(self, model: str, dim: int) -> None:
        if (model, dim) in self._hnsw:
            return
        name = _hnsw_name(model, dim)
        found = self.conn.execute("SELECT to_regclass(?)", (name,)).fetchone()[0]
        if found is None and self.user is None:  # a person's role may not create indexes
            with write_tx(self.conn):  # one process creates it; the others find it there
                # Whatever workspace each writes: the index is the brain's.
                self.conn.execute("SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
                self.conn.execute(
                    f"CREATE INDEX IF NOT EXISTS {name} ON vectors USING hnsw"
                    f" ((embedding::vector({dim})) vector_cosine_ops) WHERE model = {_quote(model)}"
                )
        self._hnsw.add((model, dim))

    def nearest_vectors(
        self,
        model: str,
        query: Sequence[float],
        k: int,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> list[tuple[int, float]]:
        """The k entities whose `model` vectors are nearest `query`: (id, cosine), by the
        model's HNSW index (approximate; iterative scans keep a type filter from starving
        it)."""
        dim = len(query)
        where, params = _types_of(entity_types, exclude_types)
        near = f"v.embedding::vector({dim}) <=> ?::vector({dim})"
        rows = self.conn.execute(
            f"SELECT v.entity_id, 1 - ({near}) AS cosine FROM vectors v"
            f" JOIN entities e ON e.id = v.entity_id WHERE v.model = ?{where}"
            f" ORDER BY {near} LIMIT ?",
            [_literal_of(query), model, *params, _literal_of(query), k],
        ).fetchall()
        return sorted(((int(r[0]), float(r[1])) for r in rows), key=lambda h: -h[1])

    def vector_cosines(
        self, model: str, ids: Sequence[int], query: Sequence[float]
    ) -> dict[int, float]:
        """Cosine of `query` with the `model` vector of each listed entity that has one."""
        if not ids:
            return {}
        rows = self.conn.execute(
            f"SELECT entity_id, 1 - (embedding::vector({len(query)}) <=> ?::vector({len(query)}))"
            " FROM vectors WHERE model = ? AND entity_id = ANY(?)",
            (_literal_of(query), model, list(ids)),
        ).fetchall()
        return {int(r[0]): float(r[1]) for r in rows}

    def vector_mean(
        self,
        model: str,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> tuple[list[float], int]:
        """The mean of the `model` vectors (of these types) and how many there are: a
        query's mean cosine over them is its dot product with the mean."""
        where, params = _types_of(entity_types, exclude_types)
        row = self.conn.execute(
            "SELECT avg(v.embedding)::text, count(*) FROM vectors v"
            f" JOIN entities e ON e.id = v.entity_id WHERE v.model = ?{where}",
            [model, *params],
        ).fetchone()
        if not row or row[0] is None:
            return [], 0
        return [float(x) for x in row[0].strip("[]").split(",")], int(row[1])

    def model_vector_count(self, model: str) -> int:
        return int(
            self.conn.execute("SELECT count(*) FROM vectors WHERE model = ?", (model,)).fetchone()[
                0
            ]
        )


def _types_of(
    entity_types: Sequence[str] | None, exclude_types: Sequence[str] | None
) -> tuple[str, list[str]]:
    """The file's type filter on `e`, as a clause to append after a WHERE."""
    where, params = _type_filter(entity_types or (), exclude_types or ())
    return (f" AND {where}" if where else ""), list(params)


def _literal(blob: bytes) -> str:
    """A float32 blob as pgvector's text form."""
    return _literal_of(array("f", blob))


def _literal_of(values: Sequence[float]) -> str:
    return "[" + ",".join(f"{float(v):.7g}" for v in values) + "]"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _hnsw_name(model: str, dim: int) -> str:
    return "vectors_hnsw_" + re.sub(r"\W", "_", model.lower())[:40] + f"_{dim}"
