"""The store's batched reads on PostgreSQL, each one statement with its values as arrays.

The file's statements list their values (`id IN (?, ?, ...)`, a VALUES row per position,
a UNION ALL branch per name key), which SQLite plans in microseconds. A server parses
and plans every such statement anew for each count of values, and the driver adapts each
value on its own: an enrich's positions around its matches (about 230 VALUES rows) cost
5 ms for 1.3 of execution, and the name keys of a message (16 branches) 3.2 ms for 2.
Here the values travel as arrays, so each statement has one text, which the driver
prepares once it recurs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from brainbridge.model import Entity
from brainbridge.naming import FULL, PART, WORD
from brainbridge.store.dialect import POSTGRES

EXCHANGE = "Chat_Exchange"


def entities(conn: Any, ids: Sequence[int], read: Any) -> dict[int, Entity]:
    """Entities by id (missing ids are simply absent), each made by `read` from its row."""
    if not ids:
        return {}
    rows = conn.execute("SELECT * FROM entities WHERE id = ANY(?::bigint[])", (list(ids),))
    return {int(row["id"]): read(row) for row in rows}


def exchange_positions(conn: Any, ids: Sequence[int]) -> dict[int, tuple[str, int]]:
    """{exchange id: (session id, exchange number)} for the exchanges among `ids`."""
    if not ids:
        return {}
    rows = conn.execute(
        f"SELECT id, {POSTGRES.session}, {POSTGRES.number} FROM entities"
        f" WHERE type = '{EXCHANGE}' AND id = ANY(?::bigint[])",
        (list(ids),),
    )
    return {
        int(r[0]): (str(r[1]), int(r[2])) for r in rows if r[1] is not None and r[2] is not None
    }


def exchanges_at(conn: Any, wanted: Iterable[tuple[str, int]]) -> dict[tuple[str, int], int]:
    """{(session id, exchange number): exchange id} for the positions that hold one (the
    first stored, when two share a position): the position index probed once a position."""
    wanted = list(dict.fromkeys(wanted))
    if not wanted:
        return {}
    rows = conn.execute(
        "SELECT DISTINCT ON (v.s, v.n) v.s, v.n, e.id"
        " FROM unnest(?::text[], ?::bigint[]) AS v(s, n)"
        f" JOIN entities e ON e.type = '{EXCHANGE}' AND {POSTGRES.session} = v.s"
        f" AND {POSTGRES.number} = v.n ORDER BY v.s, v.n, e.id",
        ([s for s, _ in wanted], [n for _, n in wanted]),
    )
    return {(str(r[0]), int(r[1])): int(r[2]) for r in rows}


def name_owners(
    conn: Any, keys: Sequence[str], per_key: int
) -> dict[tuple[str, int], list[tuple[str, str, int]]]:
    """{(key, kind): [(type, name, size), ...]} oldest entity first: every owner of each
    whole name, and at most `per_key` owners of each name part and word (looked up for
    one-word keys only), as `name_keys.owners` answers it."""
    unique = list(dict.fromkeys(k for k in keys if k))
    asked: list[tuple[str, int, int | None]] = [(k, FULL, None) for k in unique]
    asked += [(k, kind, per_key) for k in unique if " " not in k for kind in (PART, WORD)]
    out: dict[tuple[str, int], list[tuple[str, str, int]]] = {}
    if not asked:
        return out
    rows = conn.execute(
        "SELECT k.key, k.kind, e.type, e.name, k.size"
        " FROM unnest(?::text[], ?::integer[], ?::bigint[]) AS w(key, kind, most)"
        " CROSS JOIN LATERAL (SELECT n.key, n.kind, n.entity_id, n.size FROM name_keys n"
        " WHERE n.key = w.key AND n.kind = w.kind ORDER BY n.entity_id LIMIT w.most) k"
        " JOIN entities e ON e.id = k.entity_id ORDER BY k.entity_id",
        ([a[0] for a in asked], [a[1] for a in asked], [a[2] for a in asked]),
    )
    for key, kind, etype, name, size in rows:
        out.setdefault((key, int(kind)), []).append((etype, name, size))
    return out
