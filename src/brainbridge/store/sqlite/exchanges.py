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
    """{(session id, exchange number): exchange id} for the positions that hold one."""
    out: dict[tuple[str, int], int] = {}
    pairs = list(dict.fromkeys(wanted))
    for start in range(0, len(pairs), 200):
        chunk = pairs[start : start + 200]
        values = ",".join("(?, ?)" for _ in chunk)
        rows = conn.execute(
            f"WITH w(s, n) AS (VALUES {values}) SELECT w.s, w.n, MIN(e.id) FROM w"
            f" JOIN entities e ON e.type = '{EXCHANGE_TYPE}'"
            f" AND {_SESSION.replace('attributes', 'e.attributes')} = w.s"
            f" AND {_NUMBER.replace('attributes', 'e.attributes')} = w.n GROUP BY w.s, w.n",
            [v for pair in chunk for v in pair],
        )
        out.update(((r[0], r[1]), r[2]) for r in rows)
    return out
