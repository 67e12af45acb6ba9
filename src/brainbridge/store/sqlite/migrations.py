"""Schema migrations: named functions applied in order, recorded in `_migrations`.

Each feature that stores data owns its migration function (in its own module
under this package) and appends it here; names are never reused or renamed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

from brainbridge.store.sqlite.exchanges import m013_exchange_position, m016_turn_key
from brainbridge.store.sqlite.merges import m015_merges
from brainbridge.store.sqlite.name_keys import m012_name_keys, m014_folded_alias_keys
from brainbridge.store.sqlite.schema_core import m001_core, m002_sessions, m017_vector_parts
from brainbridge.store.sqlite.text_index import m011_exchange_index
from brainbridge.store.sqlite.writes import write_tx

Migration = tuple[str, Callable[[sqlite3.Connection], None]]

MIGRATIONS: list[Migration] = [
    ("001_core", m001_core),
    ("002_sessions", m002_sessions),
    ("010_directives", lambda conn: _m010_directives(conn)),
    ("011_exchange_index", m011_exchange_index),
    ("012_name_keys", m012_name_keys),
    ("013_exchange_position", m013_exchange_position),
    ("014_folded_alias_keys", m014_folded_alias_keys),
    ("015_merges", m015_merges),
    ("016_turn_key", m016_turn_key),
    ("017_vector_parts", m017_vector_parts),
]


def _m010_directives(conn: sqlite3.Connection) -> None:
    # Imported when needed: the directive model compiles patterns every hook would pay for.
    from brainbridge.store.sqlite.directives import m010_directives

    m010_directives(conn)


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply every migration not yet recorded; return the names applied."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    done = {r[0] for r in conn.execute("SELECT name FROM _migrations")}
    if all(name in done for name, _ in MIGRATIONS):
        return []
    applied = []
    with write_tx(conn):
        # Re-read inside the lock: another process may have migrated meanwhile.
        done = {r[0] for r in conn.execute("SELECT name FROM _migrations")}
        for name, fn in MIGRATIONS:
            if name in done:
                continue
            fn(conn)
            conn.execute(
                "INSERT INTO _migrations(name, applied_at) VALUES (?, ?)",
                (name, datetime.now(UTC).isoformat(timespec="seconds")),
            )
            applied.append(name)
    return applied
