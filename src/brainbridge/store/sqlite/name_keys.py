"""The name keys (`brainbridge.naming`) in the brain database: the bridge finds the names
a message mentions with one indexed query, instead of every process holding every name in
memory."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from brainbridge.naming import EXCHANGE_TYPE, FULL, PART, WORD, keys_of


def put(
    conn: sqlite3.Connection,
    eid: int,
    entity_type: str,
    name: str,
    aliases: Sequence[str] = (),
    new: bool = False,
) -> None:
    """Index an entity's name and aliases (inside the caller's transaction), replacing
    what was indexed for it before (nothing, for a `new` entity). An alias is looked up
    like a whole name."""
    rows = dict.fromkeys(keys_of(entity_type, name))
    for alias in aliases:
        if isinstance(alias, str) and alias.strip():
            rows.update(dict.fromkeys(keys_of(entity_type, alias)))
    if not new:
        conn.execute("DELETE FROM name_keys WHERE entity_id = ?", (eid,))
    conn.executemany(
        "INSERT INTO name_keys(key, kind, entity_id, size) VALUES (?, ?, ?, ?)",
        [(key, kind, eid, size) for key, kind, size in rows],
    )


def m014_folded_alias_keys(conn: sqlite3.Connection) -> None:
    """Rebuild the keys: names are now folded (no diacritics) and aliases are keys too."""
    conn.execute("DELETE FROM name_keys")
    rows = conn.execute(
        "SELECT id, type, name, attributes FROM entities WHERE type != ?", (EXCHANGE_TYPE,)
    ).fetchall()
    for eid, etype, name, attrs in rows:
        aliases = json.loads(attrs).get("aliases") or []
        put(conn, eid, etype, name, aliases if isinstance(aliases, list) else [])


def owner_ids(conn: sqlite3.Connection, key: str, kind: int = FULL) -> list[int]:
    """Ids of the entities with this lookup key (a whole name or an alias by default)."""
    rows = conn.execute(
        "SELECT entity_id FROM name_keys WHERE key = ? AND kind = ? ORDER BY entity_id LIMIT 50",
        (key, kind),
    )
    return [r[0] for r in rows]


def owners(
    conn: sqlite3.Connection, keys: Sequence[str], per_key: int
) -> dict[tuple[str, int], list[tuple[str, str, int]]]:
    """{(key, kind): [(type, name, size), ...]} oldest entity first, at most `per_key` each
    (a caller that sees `per_key` owners knows there may be more).

    Whole names are looked up for every key; name parts and words only for one-word keys,
    each with its own LIMIT, so a word in thousands of names costs no more than a rare one.
    """
    out: dict[tuple[str, int], list[tuple[str, str, int]]] = {}
    unique = list(dict.fromkeys(k for k in keys if k))
    words = [(k, kind) for k in unique if " " not in k for kind in (PART, WORD)]
    for start in range(0, len(unique), 500):
        chunk = unique[start : start + 500]
        _collect(
            out,
            conn,
            f"SELECT key, kind, entity_id, size FROM name_keys WHERE kind = {FULL}"
            f" AND key IN ({','.join('?' * len(chunk))})",
            chunk,
        )
    for start in range(0, len(words), 100):
        pairs = words[start : start + 100]
        one = "SELECT * FROM (SELECT key, kind, entity_id, size FROM name_keys"
        one += " WHERE key = ? AND kind = ? ORDER BY entity_id LIMIT ?)"
        params = [p for key, kind in pairs for p in (key, kind, per_key)]
        _collect(out, conn, " UNION ALL ".join([one] * len(pairs)), params)
    return out


def _collect(
    out: dict[tuple[str, int], list[tuple[str, str, int]]],
    conn: sqlite3.Connection,
    keys_sql: str,
    params: Sequence[object],
) -> None:
    rows = conn.execute(
        f"SELECT k.key, k.kind, e.type, e.name, k.size FROM ({keys_sql}) k"
        " JOIN entities e ON e.id = k.entity_id ORDER BY k.entity_id",
        params,
    )
    for key, kind, etype, name, size in rows:
        out.setdefault((key, kind), []).append((etype, name, size))


def m012_name_keys(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE name_keys (key TEXT NOT NULL, kind INTEGER NOT NULL,"
        " entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,"
        " size INTEGER NOT NULL DEFAULT 0)"
    )
    conn.execute("CREATE INDEX name_keys_key ON name_keys(key, kind, entity_id)")
    conn.execute("CREATE INDEX name_keys_entity ON name_keys(entity_id)")
    rows = conn.execute("SELECT id, type, name FROM entities WHERE type != ?", (EXCHANGE_TYPE,))
    for eid, etype, name in rows.fetchall():
        put(conn, eid, etype, name)
