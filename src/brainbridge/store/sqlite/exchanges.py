"""Chat exchanges by what they are: a session and a position in it, not a name pattern."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

EXCHANGE_TYPE = "Chat_Exchange"
_SESSION = "json_extract(attributes, '$.session_id')"
_NUMBER = "json_extract(attributes, '$.exchange_number')"


def m013_exchange_position(conn: sqlite3.Connection) -> None:
    conn.execute(
        f"CREATE INDEX entities_exchange_position ON entities({_SESSION}, {_NUMBER})"
        f" WHERE type = '{EXCHANGE_TYPE}'"
    )


def positions(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, tuple[str, int]]:
    """{exchange id: (session id, exchange number)} for the exchanges among `ids`."""
    out: dict[int, tuple[str, int]] = {}
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        rows = conn.execute(
            f"SELECT id, {_SESSION}, {_NUMBER} FROM entities"
            f" WHERE type = '{EXCHANGE_TYPE}' AND id IN ({','.join('?' * len(chunk))})",
            chunk,
        )
        out.update(
            (r[0], (str(r[1]), int(r[2]))) for r in rows if r[1] is not None and r[2] is not None
        )
    return out


def at_positions(
    conn: sqlite3.Connection, wanted: Iterable[tuple[str, int]]
) -> dict[tuple[str, int], int]:
    """{(session id, exchange number): exchange id} for the positions that hold one.

    One indexed point lookup per position (~20 us each): a join against a VALUES list
    reads the same index for a few positions, but past a few dozen SQLite's planner
    scans every exchange instead (65 ms for 120 positions at 40k exchanges).
    """
    sql = (
        f"SELECT id FROM entities WHERE type = '{EXCHANGE_TYPE}'"
        f" AND {_SESSION} = ? AND {_NUMBER} = ? ORDER BY id LIMIT 1"
    )
    out: dict[tuple[str, int], int] = {}
    for session, number in dict.fromkeys(wanted):
        row = conn.execute(sql, (session, number)).fetchone()
        if row is not None:
            out[(session, number)] = row[0]
    return out


_KEY = "json_extract(attributes, '$.turn_key')"


def m016_turn_key(conn: sqlite3.Connection) -> None:
    conn.execute(
        f"CREATE INDEX entities_exchange_turn_key ON entities({_KEY}) WHERE type = '{EXCHANGE_TYPE}'"
    )


def has_turn_key(conn: sqlite3.Connection, key: str) -> bool:
    """Whether an exchange with this turn key is stored (hooks: the same turn once)."""
    row = conn.execute(
        f"SELECT 1 FROM entities WHERE type = '{EXCHANGE_TYPE}' AND {_KEY} = ? LIMIT 1", (key,)
    ).fetchone()
    return row is not None
