"""Merges of two entities that are one: proposed, accepted, rejected, and undone.

A merge keeps one entity and folds the other into it: the other's relations are
re-pointed, its name (and aliases) become aliases of the kept one, attributes the kept one
lacks are copied over. The folded entity's row is deleted, but its full snapshot stays in
`merges`, so `unmerge` brings it back with its relations, and takes back from the kept
entity exactly what the merge gave it. Nothing is ever lost to a wrong merge.
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from brainbridge.errors import InvalidInput, NotFound
from brainbridge.store.sqlite.writes import now_iso, write_tx

if TYPE_CHECKING:
    from brainbridge.store.sqlite.store import SqliteStore

PENDING, MERGED, REJECTED, UNMERGED = "pending", "merged", "rejected", "unmerged"


def m015_merges(conn: sqlite3.Connection) -> None:
    conn.execute(
        """CREATE TABLE merges (
            id INTEGER PRIMARY KEY,
            entity_type TEXT NOT NULL,
            keep_name TEXT NOT NULL,
            other_name TEXT NOT NULL,
            score REAL NOT NULL DEFAULT 0,
            reason TEXT NOT NULL DEFAULT '',
            status TEXT NOT NULL,
            snapshot TEXT,
            created_at TEXT NOT NULL,
            decided_at TEXT
        )"""
    )
    conn.execute("CREATE INDEX merges_status ON merges(status, id)")
    conn.execute("CREATE INDEX merges_pair ON merges(entity_type, keep_name, other_name)")


def _row(r: sqlite3.Row) -> dict[str, Any]:
    return {k: r[k] for k in r.keys() if k != "snapshot"}  # noqa: SIM118 (sqlite3.Row)


def propose(
    store: SqliteStore, entity_type: str, keep: str, other: str, score: float, reason: str
) -> int | None:
    """Queue a possible merge for review; None if this pair was already proposed or decided."""
    with write_tx(store.conn):
        seen = store.conn.execute(
            "SELECT 1 FROM merges WHERE entity_type = ? AND ((keep_name = ? AND other_name = ?)"
            " OR (keep_name = ? AND other_name = ?))",
            (entity_type, keep, other, other, keep),
        ).fetchone()
        if seen:
            return None
        cur = store.conn.execute(
            "INSERT INTO merges(entity_type, keep_name, other_name, score, reason, status,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (entity_type, keep, other, round(score, 4), reason, PENDING, now_iso()),
        )
        return int(cur.fetchone()[0])


def listing(
    store: SqliteStore, status: str | None = None, limit: int = 200
) -> list[dict[str, Any]]:
    """Merges, newest first; only those with `status` when given."""
    sql = (
        "SELECT * FROM merges"
        + (" WHERE status = ?" if status else "")
        + " ORDER BY id DESC LIMIT ?"
    )
    rows = store.conn.execute(sql, (status, limit) if status else (limit,)).fetchall()
    return [_row(r) for r in rows]


def get(store: SqliteStore, merge_id: int) -> sqlite3.Row:
    row = store.conn.execute("SELECT * FROM merges WHERE id = ?", (merge_id,)).fetchone()
    if row is None:
        raise NotFound(f"no merge #{merge_id}")
    return row


def reject(store: SqliteStore, merge_id: int) -> dict[str, Any]:
    """Mark a pending merge as rejected: the two stay apart and are not proposed again.

    Raises: NotFound; InvalidInput if it is not pending.
    """
    with write_tx(store.conn):
        row = get(store, merge_id)
        if row["status"] != PENDING:
            raise InvalidInput(f"merge #{merge_id} is {row['status']}, not pending")
        store.conn.execute(
            "UPDATE merges SET status = ?, decided_at = ? WHERE id = ?",
            (REJECTED, now_iso(), merge_id),
        )
        return _row(get(store, merge_id))


def merge(
    store: SqliteStore,
    entity_type: str,
    keep: str,
    other: str,
    merge_id: int | None = None,
    reason: str = "by hand",
) -> dict[str, Any]:
    """Fold `other` into `keep` (same type) and record how to undo it.

    Raises: NotFound if either is missing; InvalidInput for the same entity twice or a
    merge that is not pending.
    """
    conn = store.conn
    with write_tx(conn):
        a, b = store.get_entity(entity_type, keep), store.get_entity(entity_type, other)
        if a is None or b is None:
            missing = keep if a is None else other
            raise NotFound(f"no {entity_type} named {missing!r}")
        if a.id == b.id:
            raise InvalidInput("an entity cannot be merged into itself")
        if merge_id is not None and get(store, merge_id)["status"] != PENDING:
            raise InvalidInput(f"merge #{merge_id} is not pending")
        rels = conn.execute(
            "SELECT id, src_id, type, dst_id, attributes, created_at FROM relations"
            " WHERE src_id = ? OR dst_id = ?",
            (b.id, b.id),
        ).fetchall()
        moved, dropped = [], []
        for r in rels:
            src = a.id if r["src_id"] == b.id else r["src_id"]
            dst = a.id if r["dst_id"] == b.id else r["dst_id"]
            other_end = r["dst_id"] if r["src_id"] == b.id else r["src_id"]
            row = {
                "type": r["type"],
                "other": list(store.heads([other_end]).get(other_end, ("", ""))),
                "outgoing": r["src_id"] == b.id,
                "attributes": json.loads(r["attributes"]),
                "created_at": r["created_at"],
            }
            clash = conn.execute(
                "SELECT 1 FROM relations WHERE src_id = ? AND type = ? AND dst_id = ?",
                (src, r["type"], dst),
            ).fetchone()
            if src == dst or clash:
                conn.execute("DELETE FROM relations WHERE id = ?", (r["id"],))
                dropped.append(row)
            else:
                conn.execute(
                    "UPDATE relations SET src_id = ?, dst_id = ? WHERE id = ?", (src, dst, r["id"])
                )
                moved.append(row)
        aliases = list(a.attributes.get("aliases") or [])
        added_aliases = [
            n
            for n in [b.name, *(b.attributes.get("aliases") or [])]
            if isinstance(n, str) and n not in aliases and n != a.name
        ]
        added_keys = [k for k in b.attributes if k not in a.attributes and k != "aliases"]
        attrs: dict[str, Any] = {k: b.attributes[k] for k in added_keys}
        attrs["aliases"] = aliases + added_aliases
        description = None if a.description else b.description
        store._upsert(entity_type, a.name, description, attrs, now_iso())
        store.text.remove(b.id, b.type)
        conn.execute("DELETE FROM entities WHERE id = ?", (b.id,))
        snapshot = {
            "entity": b.to_dict(),
            "moved": moved,
            "dropped": dropped,
            "added_aliases": added_aliases,
            "added_keys": added_keys,
            "description_taken": description is not None,
        }
        ts = now_iso()
        if merge_id is None:
            cur = conn.execute(
                "INSERT INTO merges(entity_type, keep_name, other_name, score, reason, status,"
                " snapshot, created_at, decided_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)"
                " RETURNING id",
                (entity_type, a.name, b.name, reason, MERGED, json.dumps(snapshot), ts, ts),
            )
            merge_id = int(cur.fetchone()[0])
        else:
            conn.execute(
                "UPDATE merges SET keep_name = ?, other_name = ?, status = ?, snapshot = ?,"
                " decided_at = ? WHERE id = ?",
                (a.name, b.name, MERGED, json.dumps(snapshot), ts, merge_id),
            )
        assert merge_id is not None
        return _row(get(store, merge_id))


def unmerge(store: SqliteStore, merge_id: int) -> dict[str, Any]:
    """Undo a merge: the folded entity returns with its relations and the kept one loses
    exactly the aliases, attributes and description the merge gave it.

    Raises: NotFound; InvalidInput if the merge is not in force.
    """
    conn = store.conn
    with write_tx(conn):
        row = get(store, merge_id)
        if row["status"] != MERGED or not row["snapshot"]:
            raise InvalidInput(f"merge #{merge_id} is {row['status']}, not merged")
        snap = json.loads(row["snapshot"])
        etype, keep = row["entity_type"], row["keep_name"]
        a = store.get_entity(etype, keep)
        if a is None:
            raise NotFound(f"no {etype} named {keep!r} (deleted since the merge)")
        old = snap["entity"]
        if store.get_entity(etype, old["name"]) is not None:
            raise InvalidInput(f"a {etype} named {old['name']!r} exists again; rename it first")
        attrs: dict[str, Any] = {
            k: None for k in snap["added_keys"] if a.attributes.get(k) == old["attributes"].get(k)
        }
        kept = [x for x in a.attributes.get("aliases") or [] if x not in snap["added_aliases"]]
        attrs["aliases"] = kept or None
        description = (
            "" if snap["description_taken"] and a.description == old["description"] else None
        )
        store._upsert(etype, a.name, description, attrs, now_iso())
        b = store._upsert(
            etype, old["name"], old["description"], old["attributes"], now_iso(), old["created_at"]
        )
        for rel in snap["moved"]:
            other_id = _id_of(store, rel["other"])
            if other_id is None:
                continue
            a_src, a_dst = (a.id, other_id) if rel["outgoing"] else (other_id, a.id)
            conn.execute(
                "DELETE FROM relations WHERE src_id = ? AND type = ? AND dst_id = ?",
                (a_src, rel["type"], a_dst),
            )
        for rel in snap["moved"] + snap["dropped"]:
            other_id = _id_of(store, rel["other"])
            if other_id is None:
                continue
            src, dst = (b.id, other_id) if rel["outgoing"] else (other_id, b.id)
            conn.execute(
                "INSERT INTO relations(src_id, type, dst_id, attributes, created_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (src, rel["type"], dst, json.dumps(rel["attributes"]), rel["created_at"]),
            )
        conn.execute(
            "UPDATE merges SET status = ?, decided_at = ? WHERE id = ?",
            (UNMERGED, now_iso(), merge_id),
        )
        return _row(get(store, merge_id))


def _id_of(store: SqliteStore, head: list[str]) -> int | None:
    """The id of the (type, name) a snapshot names, if it still exists."""
    etype, name = head
    return store.ids_named(etype, [name]).get(name) if etype and name else None


_FIELDS = (
    "entity_type",
    "keep_name",
    "other_name",
    "score",
    "reason",
    "status",
    "snapshot",
    "created_at",
    "decided_at",
)


def export_rows(store: SqliteStore) -> list[dict[str, Any]]:
    """Every merge, oldest first, as it is stored (the snapshot decoded)."""
    rows = store.conn.execute("SELECT * FROM merges ORDER BY id").fetchall()
    return [
        {k: (json.loads(r[k]) if k == "snapshot" and r[k] else r[k]) for k in _FIELDS} for r in rows
    ]


def restore(store: SqliteStore, row: dict[str, Any]) -> int:
    """Write back an exported merge; 0 if the same one is already there (import is idempotent).

    Raises: InvalidInput for a row that is not a merge.
    """
    if row.get("status") not in (PENDING, MERGED, REJECTED, UNMERGED):
        raise InvalidInput("merge status must be one of pending, merged, rejected, unmerged")
    values = [row.get(k) for k in _FIELDS]
    if not all(isinstance(v, str) for v in values[:3]) or not isinstance(values[7], str):
        raise InvalidInput("merge needs entity_type, keep_name, other_name and created_at")
    snap = row.get("snapshot")
    values[6] = json.dumps(snap) if snap is not None else None
    with write_tx(store.conn):
        seen = store.conn.execute(
            "SELECT 1 FROM merges WHERE entity_type = ? AND keep_name = ? AND other_name = ?"
            " AND created_at = ?",
            (values[0], values[1], values[2], values[7]),
        ).fetchone()
        if seen:
            return 0
        store.conn.execute(
            f"INSERT INTO merges({', '.join(_FIELDS)}) VALUES ({', '.join('?' * len(_FIELDS))})",
            values,
        )
    return 1
