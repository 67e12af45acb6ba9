"""The SQLite store: entities, relations, full-text search, graph walks, vectors, types."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brainbridge import naming
from brainbridge.errors import AlreadyStored, InvalidInput, NotFound
from brainbridge.model import CHAT_EXCHANGE, EPISODES, Entity, EntityRow, Relation
from brainbridge.redact import redact, redact_value
from brainbridge.sanitise import clean_name
from brainbridge.store.dialect import dialect_of
from brainbridge.store.sqlite import exchanges, merges, name_keys, records
from brainbridge.store.sqlite.db import connect
from brainbridge.store.sqlite.text_index import EXCHANGE_TYPE, HISTORY, TextIndex, write_stamp
from brainbridge.store.sqlite.writes import now_iso, write_tx

MAX_NAME_CHARS = 500
MAX_DESCRIPTION_CHARS = 20_000
# Texts indexed per attribute: enough for search, bounded so a 5 MB paste stays cheap.
MAX_BODY_CHARS = 20_000


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """`text` without lone surrogates (invalid UTF-8 decoded leniently), which SQLite
    rejects, or NUL characters, which PostgreSQL text cannot hold: each becomes U+FFFD."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)


_clean = clean_text


def clean_attributes(attributes: dict[str, Any]) -> dict[str, Any]:
    """Valid text with every secret redacted: no way into the brain (CLI, MCP, HTTP,
    imports, the bridge) stores a key or password someone pasted. Bookkeeping values (ids,
    hashes, paths, dates) go through the same redactor: one without a key shape comes back
    exactly as written, so lookups by it still work; one holding a key loses the key."""
    return {clean_text(str(k)): redact_value(_clean_value(v)) for k, v in attributes.items()}


def _clean_value(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list | tuple):
        return [_clean_value(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(str(k)): _clean_value(v) for k, v in value.items()}
    return value


def stored_name(name: str) -> str:
    """An entity name as it is stored and looked up: valid text, trimmed, secrets redacted
    (the same redactor, so a lookup by the name as typed finds what was stored)."""
    return str(redact_value(clean_name(name)))


# Bookkeeping attributes: paths and ids would make every note of a vault under
# ~/src/litellm match "litellm", and hashes only add noise to the index.
NOT_INDEXED = frozenset(
    {
        "vault",
        "doc_path",
        "rel_path",
        "content_hash",
        "session_id",
        "slug",
        "source_exchange",
        "superseded_by",
        "valid_from",
        "valid_to",
        "date",
        "turn_key",
    }
)


def cleaned(
    name: str, description: str | None, attributes: dict[str, Any] | None
) -> tuple[str, str | None, dict[str, Any] | None]:
    """An entity's name, description and attributes as they are stored: valid text,
    secrets redacted, bounded.

    Raises: InvalidInput for an empty or overlong name.
    """
    name = stored_name(name)
    attributes = clean_attributes(attributes) if attributes else attributes
    attributes = _clean_aliases(attributes) if attributes else attributes
    if not name:
        raise InvalidInput("entity name must not be empty")
    if len(name) > MAX_NAME_CHARS:
        raise InvalidInput(f"entity name is longer than {MAX_NAME_CHARS} characters")
    if description is not None:
        description = redact(_clean(description))[:MAX_DESCRIPTION_CHARS]
    return name, description, attributes


def _body(attributes: dict[str, Any]) -> str:
    parts = []
    for key, value in attributes.items():
        if key in NOT_INDEXED:
            continue
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, list):
            parts.extend(v for v in value if isinstance(v, str))
    return _clean(" ".join(parts))[:MAX_BODY_CHARS]


def _row_entity(row: sqlite3.Row) -> Entity:
    return Entity(
        id=row["id"],
        type=row["type"],
        name=row["name"],
        description=row["description"],
        attributes=json.loads(row["attributes"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


class SqliteStore:
    """All reads and writes of one brain database. Not thread-safe: use from one thread."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None = None) -> None:
        self.conn = conn
        self.path = path
        self.sql = dialect_of(conn)
        self.text = self._text_index()

    def _text_index(self) -> TextIndex:
        return TextIndex(self.conn)

    @classmethod
    def open(cls, path: str | Path) -> SqliteStore:
        """Open or create the database file at `path`."""
        return cls(connect(path), Path(path))

    def close(self) -> None:
        self.conn.close()

    @property
    def read_only(self) -> bool:
        """True when the database was opened for reading only (a read-only disk or folder)."""
        return bool(self.conn.execute("PRAGMA query_only").fetchone()[0])

    def changes(self) -> int:
        """Rows changed through this connection so far (a cheap cache key for search)."""
        return self.conn.total_changes

    def export_records(self) -> Iterator[dict[str, Any]]:
        """Every history row as a record, parents before children (`records`)."""
        return records.export_records(self.conn)

    def restore_record(self, record: dict[str, Any]) -> bool:
        """Write one exported history record back; False when it was there already."""
        return records.restore_record(self.conn, record)

    # -- entities -----------------------------------------------------------

    def upsert_entity(
        self,
        entity_type: str,
        name: str,
        description: str | None = None,
        attributes: dict[str, Any] | None = None,
    ) -> Entity:
        """Insert or merge one entity (attributes merge key by key; None deletes a key)."""
        with write_tx(self.conn):
            return self._upsert(entity_type, name, description, attributes, now_iso())

    def upsert_many(self, rows: Iterable[EntityRow]) -> list[Entity]:
        """Upsert many entities in one transaction (bulk import)."""
        with write_tx(self.conn):
            return self._upsert_rows(list(rows), now_iso())

    def upsert_with_parts(
        self,
        rows: Iterable[EntityRow],
        parts: Sequence[tuple[str, Sequence[str], Sequence[EntityRow]]],
    ) -> list[Entity]:
        """Upsert `rows` and, in the same transaction, make the entities of each part type
        whose names start with one of its prefixes exactly its rows (the others deleted).

        A document and its passages are written together or not at all.
        """
        ts = now_iso()
        with write_tx(self.conn):
            out = self._upsert_rows(list(rows), ts)
            for part_type, prefixes, part_rows in parts:
                keep = {stored_name(n) for _, n, _, _ in part_rows}
                for prefix in prefixes:
                    stale = [
                        r["id"]
                        for r in self.conn.execute(
                            f"SELECT id, name FROM entities WHERE type = ?"
                            f" AND {self.sql.name_range}{self.sql.mine}",
                            (part_type, prefix, prefix + "\U0010ffff"),
                        )
                        if r["name"] not in keep
                    ]
                    for eid in stale:
                        self.text.remove(eid, part_type)
                        self.conn.execute("DELETE FROM entities WHERE id = ?", (eid,))
            self._upsert_rows([r for _, _, part_rows in parts for r in part_rows], ts)
            return out

    def _upsert_rows(self, rows: list[EntityRow], ts: str) -> list[Entity]:
        # Which names exist, in one query: a new one skips its own lookup (on a server,
        # a round trip per row). A name met again in the batch is looked up as usual.
        new = self._absent([(t, stored_name(n)) for t, n, _, _ in rows])
        out = []
        for t, n, d, a in rows:
            key = (t, stored_name(n))
            out.append(self._upsert(t, n, d, a, ts, is_new=key in new))
            new.discard(key)
        return out

    def _absent(self, keys: list[tuple[str, str]]) -> set[tuple[str, str]]:
        """The (type, name) pairs among `keys` that no entity has."""
        present: set[tuple[str, str]] = set()
        for chunk in _chunks(list(dict.fromkeys(keys)), 400):
            where = " OR ".join(["(type = ? AND name = ?)"] * len(chunk))
            rows = self.conn.execute(
                f"SELECT type, name FROM entities WHERE ({where}){self.sql.mine}",
                [p for k in chunk for p in k],
            )
            present.update((r[0], r[1]) for r in rows)
        return set(keys) - present

    def _upsert(
        self,
        entity_type: str,
        name: str,
        description: str | None,
        attributes: dict[str, Any] | None,
        ts: str,
        created_at: str | None = None,
        is_new: bool = False,
    ) -> Entity:
        name, description, attributes = cleaned(name, description, attributes)
        row = (
            None
            if is_new
            else self.conn.execute(
                f"SELECT * FROM entities WHERE type = ? AND name = ?{self.sql.mine}",
                (entity_type, name),
            ).fetchone()
        )
        if row is None:
            attrs = {k: v for k, v in (attributes or {}).items() if v is not None}
            key = attrs.get("turn_key") if entity_type == exchanges.EXCHANGE_TYPE else None
            if isinstance(key, str) and exchanges.has_turn_key(self.conn, key):
                # Checked inside the write transaction, which writers take one at a time:
                # two processes storing the same turn (a Stop the server accepted and the
                # hook spooled too) cannot both add it.
                raise AlreadyStored(f"the turn {key} is stored already")
            cur = self.conn.execute(
                "INSERT INTO entities(type, name, description, attributes, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (entity_type, name, description or "", _dumps(attrs), created_at or ts, ts),
            )
            eid = int(cur.fetchone()[0])
            name_keys.put(self.conn, eid, entity_type, name, _aliases(attrs), new=True)
            created = created_at or ts
            desc = description or ""
        else:
            eid = row["id"]
            attrs = json.loads(row["attributes"])
            for key, value in (attributes or {}).items():
                if value is None:
                    attrs.pop(key, None)
                else:
                    attrs[key] = value
            desc = row["description"] if description is None else description
            created = row["created_at"]
            old_attrs = json.loads(row["attributes"])
            if desc == row["description"] and attrs == old_attrs:
                return _row_entity(row)
            self.conn.execute(
                "UPDATE entities SET description = ?, attributes = ?, updated_at = ? WHERE id = ?",
                (desc, _dumps(attrs), ts, eid),
            )
            if _aliases(attrs) != _aliases(old_attrs):
                name_keys.put(self.conn, eid, entity_type, name, _aliases(attrs))
            if desc == row["description"] and _body(attrs) == _body(old_attrs):
                # Bookkeeping only (validity, sources): the indexed text and its vector hold.
                return Entity(eid, entity_type, name, desc, attrs, created, ts)
            self.text.remove(eid, entity_type)
            # The text changed, so its vector is stale; the embedder will catch up.
            self.conn.execute("DELETE FROM vectors WHERE entity_id = ?", (eid,))
        self.text.put(eid, entity_type, _fts_name(name), desc, _body(attrs))
        return Entity(eid, entity_type, name, desc, attrs, created, ts)

    def restore_many(self, rows: Sequence[dict[str, Any]]) -> None:
        """Write exported entities back exactly, timestamps included, in one transaction."""
        with write_tx(self.conn):
            for data in rows:
                ent = self._upsert(
                    data["type"],
                    data["name"],
                    data.get("description", ""),
                    data.get("attributes") or {},
                    data.get("updated_at") or now_iso(),
                    created_at=data.get("created_at"),
                )
                self.conn.execute(
                    "UPDATE entities SET created_at = ?, updated_at = ? WHERE id = ?",
                    (
                        data.get("created_at") or ent.created_at,
                        data.get("updated_at") or ent.updated_at,
                        ent.id,
                    ),
                )

    def list_entities(
        self, entity_type: str | None, contains: str = "", limit: int = 50, offset: int = 0
    ) -> tuple[list[Entity], int]:
        """A page of entities (of one type, or all), newest first, whose name or description
        holds `contains` (case-insensitive); and how many match in all."""
        where, params = [], []
        if entity_type:
            where.append("type = ?")
            params.append(clean_text(entity_type))
        if contains:
            like = (
                "%" + contains.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            )
            like_ = self.sql.like
            where.append(f"(name {like_} ? ESCAPE '\\' OR description {like_} ? ESCAPE '\\')")
            params += [like, like]
        sql_where = (" WHERE " + " AND ".join(where)) if where else ""
        total = self.conn.execute(f"SELECT count(*) FROM entities{sql_where}", params).fetchone()[0]
        rows = self.conn.execute(
            f"SELECT * FROM entities{sql_where} ORDER BY id DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        ).fetchall()
        return [_row_entity(r) for r in rows], total

    def entities_named(self, names: Sequence[str]) -> dict[str, Entity]:
        """{name: entity} for names of any type (the bridge log keeps names only); where two
        types share a name, the one not a Chat_Exchange."""
        found: dict[str, Entity] = {}
        for chunk in _chunks(sorted(set(names)), 500):
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT * FROM entities WHERE name IN ({marks})"
                f" ORDER BY type = ?, {self.sql.mine_key}id",
                [*chunk, EXCHANGE_TYPE],
            ).fetchall()
            for r in rows:
                found.setdefault(r["name"], _row_entity(r))
        return found

    def get_entity(self, entity_type: str, name: str) -> Entity | None:
        """The entity with this type and name, or None."""
        row = self.conn.execute(
            f"SELECT * FROM entities WHERE type = ? AND name = ? ORDER BY {self.sql.mine_key}id",
            (clean_text(entity_type), stored_name(name)),
        ).fetchone()
        return _row_entity(row) if row else None

    def heads(self, ids: Sequence[int]) -> dict[int, tuple[str, str]]:
        """{id: (type, name)} without reading descriptions or attributes."""
        out: dict[int, tuple[str, str]] = {}
        for chunk in _chunks(list(ids), 500):
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT id, type, name FROM entities WHERE id IN ({marks})"
            out.update((r[0], (r[1], r[2])) for r in self.conn.execute(sql, chunk))
        return out

    def ids_named(self, entity_type: str, names: Sequence[str]) -> dict[str, int]:
        """{name: id} of the entities of one type with these names (absent ones left out)."""
        out: dict[str, int] = {}
        for chunk in _chunks(list(dict.fromkeys(names)), 500):
            marks = ",".join("?" * len(chunk))
            sql = (
                f"SELECT name, id FROM entities WHERE type = ? AND name IN ({marks})"
                # The caller's own row is read last. `id + 0`: ordered by the bare rowid,
                # SQLite walked every row of the type in id order rather than sort the few
                # the (type, name) index finds (130 ms at 200k exchanges).
                f" ORDER BY {self.sql.mine_key}id + 0 DESC"
            )
            out.update((r[0], r[1]) for r in self.conn.execute(sql, (entity_type, *chunk)))
        return out

    def exchange_positions(self, ids: Sequence[int]) -> dict[int, tuple[str, int]]:
        """{exchange id: (session id, exchange number)} for the exchanges among `ids`."""
        return exchanges.positions(self.conn, ids)

    def exchanges_at(self, positions: Iterable[tuple[str, int]]) -> dict[tuple[str, int], int]:
        """{(session id, exchange number): id} of the exchanges at these positions."""
        return exchanges.at_positions(self.conn, positions)

    def names_with_prefix(self, entity_type: str, prefix: str, limit: int = 100) -> list[Entity]:
        """Entities of one type whose name starts with `prefix` (an index range scan)."""
        rows = self.conn.execute(
            f"SELECT * FROM entities WHERE type = ? AND {self.sql.name_range}"
            " ORDER BY name LIMIT ?",
            (entity_type, prefix, prefix + "\U0010ffff", limit),
        ).fetchall()
        return [_row_entity(r) for r in rows]

    def described_with_prefix(
        self, entity_type: str, prefix: str, limit: int = 100
    ) -> list[Entity]:
        """Entities of one type whose description starts with `prefix`, newest first (a
        pass over that type's rows, with no count and no case folding)."""
        rows = self.conn.execute(
            "SELECT * FROM entities WHERE type = ? AND substr(description, 1, ?) = ?"
            " ORDER BY id DESC LIMIT ?",
            (entity_type, len(prefix), prefix, limit),
        ).fetchall()
        return [_row_entity(r) for r in rows]

    def change_stamp(self) -> object | None:
        """This connection's writes and SQLite's count of other connections' commits."""
        return write_stamp(self.conn)

    def has_turn_key(self, key: str) -> bool:
        """Whether an exchange with this turn key (see hooks/spool.py) is stored."""
        return exchanges.has_turn_key(self.conn, key)

    def find_by_name(self, name: str) -> list[Entity]:
        """Entities of any type whose name matches case-insensitively; failing that, those
        whose name or an alias matches with case, spacing and diacritics ignored."""
        rows = self.conn.execute(
            f"SELECT * FROM entities WHERE {self.sql.name_nocase} ORDER BY id",
            (stored_name(name),),
        ).fetchall()
        if rows:
            return [_row_entity(r) for r in rows]
        ids = name_keys.owner_ids(self.conn, naming.norm(clean_text(name)))
        return [e for e in self.get_entities(ids).values()]

    # -- merges (see `merges`) -------------------------------------------------

    def propose_merge(
        self, entity_type: str, keep: str, other: str, score: float, reason: str
    ) -> int | None:
        return merges.propose(self, entity_type, keep, other, score, reason)

    def merges(self, status: str | None = None, limit: int = 200) -> list[dict[str, Any]]:
        return merges.listing(self, status, limit)

    def merge(
        self, entity_type: str, keep: str, other: str, merge_id: int | None = None
    ) -> dict[str, Any]:
        return merges.merge(self, entity_type, keep, other, merge_id)

    def accept_merge(self, merge_id: int) -> dict[str, Any]:
        row = merges.get(self, merge_id)
        return merges.merge(self, row["entity_type"], row["keep_name"], row["other_name"], merge_id)

    def reject_merge(self, merge_id: int) -> dict[str, Any]:
        return merges.reject(self, merge_id)

    def unmerge(self, merge_id: int) -> dict[str, Any]:
        return merges.unmerge(self, merge_id)

    def export_merges(self) -> list[dict[str, Any]]:
        return merges.export_rows(self)

    def restore_merge(self, row: dict[str, Any]) -> int:
        return merges.restore(self, row)

    def similar_names(self, name: str, limit: int = 3) -> list[str]:
        """Names that share a word with `name` ("Kevin" -> "Kevin Lee"), for "did you mean"."""
        ids: list[int] = []
        for word in naming.norm(clean_text(name)).split():
            for kind in (naming.PART, naming.WORD, naming.FULL):
                ids += name_keys.owner_ids(self.conn, word, kind)
        names = [e.name for e in self.get_entities(list(dict.fromkeys(ids))).values()]
        return names[:limit]

    def name_key_owners(self, key: str, kind: int) -> list[int]:
        """Ids of entities with this name key (see `name_keys`)."""
        return name_keys.owner_ids(self.conn, key, kind)

    def entities_with_attribute(self, key: str, value: str) -> list[Entity]:
        """Entities whose attribute `key` equals `value` (a scan: for imports, not the chat path)."""
        rows = self.conn.execute(
            f"SELECT * FROM entities WHERE {self.sql.attribute} = ? ORDER BY id",
            (self.sql.attribute_param(key), value),
        ).fetchall()
        return [_row_entity(r) for r in rows]

    def newest_with_attribute(
        self, entity_type: str, key: str, value: str, limit: int = 100
    ) -> list[Entity]:
        """The newest `limit` entities of a type whose attribute `key` equals `value` (the
        type index narrows the scan and only matches are read: the SessionStart digest)."""
        rows = self.conn.execute(
            f"SELECT * FROM entities WHERE type = ? AND {self.sql.attribute} = ?"
            " ORDER BY id DESC LIMIT ?",
            (clean_text(entity_type), self.sql.attribute_param(key), value, limit),
        ).fetchall()
        return [_row_entity(r) for r in rows]

    def newest(self, entity_type: str, limit: int = 100) -> list[Entity]:
        """The newest `limit` entities of a type, newest first (read by the type index)."""
        rows = self.conn.execute(
            "SELECT * FROM entities WHERE type = ? ORDER BY id DESC LIMIT ?",
            (clean_text(entity_type), limit),
        ).fetchall()
        return [_row_entity(r) for r in rows]

    def get_entities(self, ids: Sequence[int]) -> dict[int, Entity]:
        """Entities by id (missing ids are simply absent)."""
        out: dict[int, Entity] = {}
        for chunk in _chunks(list(ids), 500):
            marks = ",".join("?" * len(chunk))
            for row in self.conn.execute(f"SELECT * FROM entities WHERE id IN ({marks})", chunk):
                out[row["id"]] = _row_entity(row)
        return out

    def delete_entity(self, entity_type: str, name: str) -> bool:
        """Delete an entity with its relations, index rows and vector; False if absent."""
        with write_tx(self.conn):
            row = self.conn.execute(
                "SELECT id, type FROM entities WHERE type = ? AND name = ?"
                f" ORDER BY {self.sql.mine_key}id",
                (clean_text(entity_type), stored_name(name)),
            ).fetchone()
            if row is None:
                return False
            self.text.remove(row["id"], row["type"])
            self.conn.execute("DELETE FROM entities WHERE id = ?", (row["id"],))
        return True

    def iter_entities(self, batch: int = 1000) -> Iterator[Entity]:
        """Every entity in id order."""
        last = 0
        while True:
            rows = self.conn.execute(
                "SELECT * FROM entities WHERE id > ? ORDER BY id LIMIT ?", (last, batch)
            ).fetchall()
            if not rows:
                return
            for row in rows:
                yield _row_entity(row)
            last = rows[-1]["id"]

    def name_owners(
        self, keys: Sequence[str], per_key: int
    ) -> dict[tuple[str, int], list[tuple[str, str, int]]]:
        """Entities whose name has these lookup keys (see `name_keys`), for the bridge."""
        return name_keys.owners(self.conn, keys, per_key)

    # -- relations ------------------------------------------------------------

    def relate(
        self,
        src: tuple[str, str],
        relation_type: str,
        dst: tuple[str, str],
        attributes: dict[str, Any] | None = None,
        created_at: str | None = None,
    ) -> Relation:
        """Link two existing entities (idempotent; attributes merge).

        Raises: NotFound if either end does not exist; InvalidInput for an empty type.
        """
        relation_type = relation_type.strip()
        if not relation_type:
            raise InvalidInput("relation type must not be empty")
        with write_tx(self.conn):
            ids = []
            for etype, ename in (src, dst):
                row = self.conn.execute(
                    "SELECT id FROM entities WHERE type = ? AND name = ?"
                    f" ORDER BY {self.sql.mine_key}id",
                    (clean_text(etype), stored_name(ename)),
                ).fetchone()
                if row is None:
                    raise NotFound(f"no {etype} named {ename!r}")
                ids.append(row["id"])
            ts = created_at or now_iso()
            existing = self.conn.execute(
                "SELECT attributes, created_at FROM relations"
                f" WHERE src_id = ? AND type = ? AND dst_id = ?{self.sql.mine}",
                (ids[0], relation_type, ids[1]),
            ).fetchone()
            attrs = json.loads(existing["attributes"]) if existing else {}
            attrs.update(attributes or {})
            if existing:
                ts = existing["created_at"]
                self.conn.execute(
                    "UPDATE relations SET attributes = ?"
                    f" WHERE src_id = ? AND type = ? AND dst_id = ?{self.sql.mine}",
                    (_dumps(attrs), ids[0], relation_type, ids[1]),
                )
            else:
                self.conn.execute(
                    "INSERT INTO relations(src_id, type, dst_id, attributes, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (ids[0], relation_type, ids[1], _dumps(attrs), ts),
                )
        return Relation(src[0], src[1], relation_type, dst[0], dst[1], attrs, ts)

    def unrelate(
        self, src: tuple[str, str], relation_type: str, dst: tuple[str, str] | None = None
    ) -> int:
        """Delete the `relation_type` relations from `src` (to `dst` only, when given).

        Returns how many were deleted; a missing entity simply has none.
        """
        ends = [src] if dst is None else [src, dst]
        with write_tx(self.conn):
            ids = []
            for etype, ename in ends:
                row = self.conn.execute(
                    "SELECT id FROM entities WHERE type = ? AND name = ?"
                    f" ORDER BY {self.sql.mine_key}id",
                    (clean_text(etype), stored_name(ename)),
                ).fetchone()
                if row is None:
                    return 0
                ids.append(row["id"])
            sql = "DELETE FROM relations WHERE src_id = ? AND type = ?"
            params: tuple[Any, ...] = (ids[0], relation_type)
            if dst is not None:
                sql += " AND dst_id = ?"
                params += (ids[1],)
            return self.conn.execute(sql, params).rowcount

    def iter_relations(self) -> Iterator[Relation]:
        """Every relation, oldest first."""
        yield from self._relations("1 = 1", ())

    def relations_among(self, ids: Sequence[int]) -> list[Relation]:
        """Relations whose both ends are in `ids`."""
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return list(
            self._relations(f"r.src_id IN ({marks}) AND r.dst_id IN ({marks})", (*ids, *ids))
        )

    def _relations(self, where: str, params: tuple[Any, ...]) -> Iterator[Relation]:
        sql = (
            "SELECT s.type AS st, s.name AS sn, r.type AS rt, d.type AS dt, d.name AS dn,"
            " r.attributes AS attrs, r.created_at AS ts FROM relations r"
            " JOIN entities s ON s.id = r.src_id JOIN entities d ON d.id = r.dst_id"
            f" WHERE {where} ORDER BY r.id"
        )
        for row in self.conn.execute(sql, params):
            yield Relation(
                row["st"],
                row["sn"],
                row["rt"],
                row["dt"],
                row["dn"],
                json.loads(row["attrs"]),
                row["ts"],
            )

    def neighbors(self, seed_ids: Sequence[int], hops: int = 2, limit: int = 500) -> dict[int, int]:
        """Entities within `hops` relations of the seeds (either direction): {id: distance}."""
        if not seed_ids or hops < 1:
            return {i: 0 for i in seed_ids}
        marks = ",".join("?" * len(seed_ids))
        sql = f"""
            WITH RECURSIVE walk(id, depth) AS (
                SELECT id, 0 FROM entities WHERE id IN ({marks})
                UNION
                SELECT CASE WHEN r.src_id = w.id THEN r.dst_id ELSE r.src_id END, w.depth + 1
                FROM walk w JOIN relations r ON r.src_id = w.id OR r.dst_id = w.id
                WHERE w.depth < ?
            )
            SELECT id, MIN(depth) AS d FROM walk GROUP BY id ORDER BY d LIMIT ?
        """
        rows = self.conn.execute(sql, (*seed_ids, hops, limit)).fetchall()
        return {r[0]: r[1] for r in rows}

    def degree(self, ids: Sequence[int]) -> dict[int, int]:
        """Number of relations touching each entity."""
        out = {i: 0 for i in ids}
        for chunk in _chunks(list(ids), 400):
            marks = ",".join("?" * len(chunk))
            for col in ("src_id", "dst_id"):
                for row in self.conn.execute(
                    f"SELECT {col}, COUNT(*) FROM relations WHERE {col} IN ({marks}) GROUP BY {col}",
                    chunk,
                ):
                    out[row[0]] += row[1]
        return out

    # -- full-text ------------------------------------------------------------

    def bm25(
        self,
        query: str,
        limit: int = 20,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> list[tuple[int, float]]:
        """BM25 matches for free text as (entity id, score), best first; higher is better.

        On a big brain, a query made only of common words is ranked over a bounded set of
        candidates (see `text_index`)."""
        return self.text.rank(query, limit, entity_types, exclude_types)

    def doc_freq(self, terms: Sequence[str]) -> dict[str, int]:
        """Number of entities whose text contains each term."""
        return self.text.doc_freq(terms)

    def history_freq(self, terms: Sequence[str]) -> dict[str, int]:
        """Number of chat exchanges whose text contains each term."""
        return self.text.doc_freq(terms, (HISTORY,))

    def count_entities(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM entities").fetchone()[0]

    # -- vectors --------------------------------------------------------------

    def pending_vectors(
        self, limit: int = 256, model: str | None = None, after: int = 0
    ) -> list[tuple[int, str]]:
        """Entities with an id above `after` and no current vector (from `model`, when
        given), oldest first, with the text to embed."""
        join = "LEFT JOIN vectors v ON v.entity_id = e.id" + (" AND v.model = ?" if model else "")
        rows = self.conn.execute(
            f"SELECT e.id, e.type, e.name, e.description FROM entities e {join}"
            " WHERE v.entity_id IS NULL AND e.id > ? ORDER BY e.id LIMIT ?",
            (*((model,) if model else ()), after, limit),
        ).fetchall()
        return [(r[0], embed_text(r[1], r[2], r[3])) for r in rows]

    def max_entity_id(self) -> int:
        return self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM entities").fetchone()[0]

    def count_pending_vectors(self, model: str | None = None) -> int:
        """How many entities lack a vector (from `model`, when given)."""
        join = "LEFT JOIN vectors v ON v.entity_id = e.id" + (" AND v.model = ?" if model else "")
        return self.conn.execute(
            f"SELECT COUNT(*) FROM entities e {join} WHERE v.entity_id IS NULL",
            (model,) if model else (),
        ).fetchone()[0]

    def put_vectors(
        self,
        model: str,
        items: Sequence[tuple[int, bytes]],
        texts: Mapping[int, str] | None = None,
        parts: Mapping[int, bytes] | None = None,
    ) -> list[int]:
        """Store vectors for entities that still exist; with `texts` (what each vector
        was made from), only where the entity's text is still that; `parts`: the vectors
        of an entity's sentences (search/parts.py), one blob each. Returns the ids left
        out for a changed text (to embed again)."""
        parts = parts or {}
        with write_tx(self.conn):
            items, changed = self._still_current(items, texts)
            seq = self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM vectors").fetchone()[0]
            for i, (eid, blob) in enumerate(items, start=1):
                self._put_vector(eid, model, seq + i, blob, parts.get(eid))
        return changed

    def _put_vector(self, eid: int, model: str, seq: int, blob: bytes, parts: bytes | None) -> None:
        """One vector row, inside `put_vectors`'s transaction, if its entity exists."""
        self.conn.execute(
            "INSERT INTO vectors(entity_id, model, seq, vector, parts)"
            " SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM entities WHERE id = ?)"
            " ON CONFLICT(entity_id) DO UPDATE SET model = excluded.model,"
            " seq = excluded.seq, vector = excluded.vector, parts = excluded.parts",
            (eid, model, seq, blob, parts, eid),
        )

    def _still_current(
        self, items: Sequence[tuple[int, bytes]], texts: Mapping[int, str] | None
    ) -> tuple[Sequence[tuple[int, bytes]], list[int]]:
        """The items whose entity still has the text its vector was made from. Between
        reading an entity and storing its vector, its description may change (the write
        dropped the old vector) or, in the file, a deleted newest entity's id may be given
        to a new one: a vector stored then would describe another text for good."""
        if texts is None:
            return items, []
        current = self.heads_text([eid for eid, _ in items])
        kept = [(eid, blob) for eid, blob in items if current.get(eid) == texts.get(eid)]
        changed = [eid for eid, _ in items if eid in current and current[eid] != texts.get(eid)]
        return kept, changed

    def heads_text(self, ids: Sequence[int]) -> dict[int, str]:
        """{id: the text its vector is made from} for these entities."""
        out: dict[int, str] = {}
        for chunk in _chunks(list(ids), 500):
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT id, type, name, description FROM entities WHERE id IN ({marks})", chunk
            )
            out.update((r[0], embed_text(r[1], r[2], r[3])) for r in rows)
        return out

    def vectors_since(
        self, model: str, seq: int, limit: int = 50_000
    ) -> list[tuple[int, int, bytes, str, bytes | None]]:
        """(entity id, seq, vector blob, entity type, its sentences' vectors or None)
        written after `seq`, oldest first."""
        rows = self.conn.execute(
            "SELECT v.entity_id, v.seq, v.vector, e.type, v.parts FROM vectors v"
            " JOIN entities e ON e.id = v.entity_id"
            " WHERE v.model = ? AND v.seq > ? ORDER BY v.seq LIMIT ?",
            (model, seq, limit),
        ).fetchall()
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def reindex_text(self, batch: int = 2000) -> int:
        """Put every entity into the (emptied) full-text index again; return how many."""
        last, done = 0, 0
        while True:
            with write_tx(self.conn):
                rows = self.conn.execute(
                    "SELECT id, type, name, description, attributes FROM entities"
                    " WHERE id > ? ORDER BY id LIMIT ?",
                    (last, batch),
                ).fetchall()
                for r in rows:
                    attrs = json.loads(r[4] or "{}")
                    self.text.put(r[0], r[1], _fts_name(r[2]), r[3], _body(attrs))
            if not rows:
                return done
            done += len(rows)
            last = rows[-1][0]

    def iter_vectors(
        self, batch: int = 1000
    ) -> Iterator[tuple[tuple[str, str], str, bytes, bytes | None]]:
        """((type, name), model, vector blob, sentence vectors or None) of every stored
        vector, in entity order."""
        last = 0
        while True:
            rows = self.conn.execute(
                "SELECT v.entity_id, e.type, e.name, v.model, v.vector, v.parts FROM vectors v"
                " JOIN entities e ON e.id = v.entity_id WHERE v.entity_id > ?"
                " ORDER BY v.entity_id LIMIT ?",
                (last, batch),
            ).fetchall()
            if not rows:
                return
            for r in rows:
                yield (r[1], r[2]), r[3], bytes(r[4]), None if r[5] is None else bytes(r[5])
            last = rows[-1][0]

    def vector_count(self) -> int:
        """Vectors of every model. Unfiltered, SQLite counts the small `seq` index
        (1.4 ms at 300k rows); `WHERE model = ?` reads every vector (180 ms)."""
        return self.conn.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]

    # -- entity types ---------------------------------------------------------

    def put_types(self, types: dict[str, dict[str, Any]]) -> None:
        """Replace the stored entity-type specs with `types` ({name: spec})."""
        with write_tx(self.conn):
            self.conn.execute("DELETE FROM entity_types")
            for name, spec in types.items():
                self.conn.execute(
                    "INSERT INTO entity_types(name, description, spec) VALUES (?, ?, ?)",
                    (name, spec.get("description", ""), _dumps(spec)),
                )

    def get_types(self) -> dict[str, dict[str, Any]]:
        rows = self.conn.execute("SELECT name, spec FROM entity_types ORDER BY name").fetchall()
        return {r[0]: json.loads(r[1]) for r in rows}

    # -- stats ----------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        """The one set of counts every door shows (stats, doctor, /stats, the web page):
        entities (all, by type, and how many are knowledge rather than conversation
        records), exchanges, sessions, relations, vectors, and the size on disk with the
        write-ahead log."""
        by_type = {
            r[0]: r[1]
            for r in self.conn.execute(
                "SELECT type, COUNT(*) FROM entities GROUP BY type ORDER BY type"
            )
        }
        return {
            **entity_counts(by_type),
            "relations": self.conn.execute("SELECT COUNT(*) FROM relations").fetchone()[0],
            "vectors": self.conn.execute("SELECT COUNT(*) FROM vectors").fetchone()[0],
            "sessions": self.conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0],
            "bytes": _size_with_wal(self.path),
        }


def entity_counts(by_type: dict[str, int]) -> dict[str, Any]:
    """Entities in all, as knowledge (not conversation records) and as exchanges, by type."""
    return {
        "entities": sum(by_type.values()),
        "knowledge": sum(n for t, n in by_type.items() if t not in EPISODES),
        "exchanges": by_type.get(CHAT_EXCHANGE, 0),
        "entities_by_type": by_type,
    }


def counts_line(stats: dict[str, Any]) -> str:
    """The counts as one phrase, the same wherever they are shown."""
    sessions = stats.get("sessions", 0)
    return (
        f"{stats['entities']} entities ({stats['knowledge']} knowledge,"
        f" {stats['exchanges']} exchanges), {sessions} session{'s' * (sessions != 1)}"
    )


def _size_with_wal(path: Path | None) -> int:
    """The database file's size with its -wal and -shm beside it (what the disk holds)."""
    if path is None:
        return 0
    return sum(
        f.stat().st_size
        for f in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"))
        if f.exists()
    )


def _clean_aliases(attrs: dict[str, Any]) -> dict[str, Any]:
    """Aliases are names: stored as `stored_name` stores a name."""
    value = attrs.get("aliases")
    if not isinstance(value, list):
        return attrs
    names = [stored_name(a) if isinstance(a, str) else a for a in value]
    return {**attrs, "aliases": [a for a in names if a != ""]}


def _aliases(attrs: dict[str, Any]) -> list[str]:
    value = attrs.get("aliases")
    return [a for a in value if isinstance(a, str)] if isinstance(value, list) else []


def embed_text(entity_type: str, name: str, description: str) -> str:
    """The text a vector represents: what a person reads in a search result."""
    return f"{name} ({entity_type}): {description}"[:2000]


def _fts_name(name: str) -> str:
    # Split identifiers so "litellm-config-drift" and "GraphStore" match their words.
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"[_\-./:]+", " ", spaced)
    return name if spaced == name else f"{name} {spaced}"


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str)


if TYPE_CHECKING:
    from brainbridge.ports import Store

    def _is_a_store(store: SqliteStore) -> Store:  # mypy holds the backend to the port
        return store
