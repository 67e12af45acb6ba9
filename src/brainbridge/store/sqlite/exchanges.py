"""Chat exchanges by what they are: a session and a position in it, not a name pattern."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from brainbridge.store.dialect import SQLITE, dialect_of

EXCHANGE_TYPE = "Chat_Exchange"
_SESSION = SQLITE.session
_NUMBER = SQLITE.number


def m013_exchange_position(conn: sqlite3.Connection) -> None:
    conn.execute(
        f"CREATE INDEX entities_exchange_position ON entities({_SESSION}, {_NUMBER})"
        f" WHERE type = '{EXCHANGE_TYPE}'"
    )


def positions(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, tuple[str, int]]:
    """{exchange id: (session id, exchange number)} for the exchanges among `ids`."""
    out: dict[int, tuple[str, int]] = {}
    sql = dialect_of(conn)
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        rows = conn.execute(
            f"SELECT id, {sql.session}, {sql.number} FROM entities"
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
    """{(session id, exchange number): exchange id} for the positions that hold one (the
    first stored, when two share a position).

    One indexed range scan per run of nearby positions in a session: the positions asked
    for sit around matched exchanges (n-2 .. n+2), so a run reads a handful of index
    entries where a point lookup per position cost ~10 us each (2.5 ms per search at
    200k exchanges). A join against a VALUES list reads the same index for a few
    positions, but past a few dozen SQLite's planner scans every exchange instead (65 ms
    for 120 positions at 40k exchanges). PostgreSQL joins them (`postgres/reads.py`).
    """
    dialect = dialect_of(conn)
    sql = (
        f"SELECT {dialect.number}, id FROM entities WHERE type = '{EXCHANGE_TYPE}'"
        f" AND {dialect.session} = ? AND {dialect.number} BETWEEN ? AND ? ORDER BY id"
    )
    numbers: dict[str, set[int]] = {}
    for session, number in wanted:
        numbers.setdefault(session, set()).add(number)
    out: dict[tuple[str, int], int] = {}
    for session, asked in numbers.items():
        for low, high in _runs(sorted(asked)):
            for number, eid in conn.execute(sql, (session, low, high)):
                if number in asked:
                    out.setdefault((session, number), eid)
    return out


# Positions this close together are read in one range: the few between cost less than
# another statement.
_RUN_GAP = 4


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    """Sorted `numbers` as (first, last) ranges, a new one wherever the gap is wide."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and n - runs[-1][1] <= _RUN_GAP:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


_KEY = SQLITE.turn_key


def m016_turn_key(conn: sqlite3.Connection) -> None:
    conn.execute(
        f"CREATE INDEX entities_exchange_turn_key ON entities({_KEY}) WHERE type = '{EXCHANGE_TYPE}'"
    )


def has_turn_key(conn: sqlite3.Connection, key: str) -> bool:
    """Whether an exchange with this turn key is stored (hooks: the same turn once)."""
    row = conn.execute(
        f"SELECT 1 FROM entities WHERE type = '{EXCHANGE_TYPE}'"
        f" AND {dialect_of(conn).turn_key} = ? LIMIT 1",
        (key,),
    ).fetchone()
    return row is not None
