"""The few SQL fragments in which SQLite and PostgreSQL differ; everything else the
store says is the same statement on both (see `store/postgres/conn.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Dialect:
    name: str
    # Attributes of a chat exchange (indexed expressions: written exactly as indexed).
    session: str
    number: str
    turn_key: str
    # `{attr} = ?` on any attribute, with `attribute_param(key)` as the first parameter.
    attribute: str
    # Case-insensitive equality with a name, and a name range in code-point order.
    name_nocase: str
    name_range: str
    like: str  # LIKE ignoring case (SQLite's LIKE already does, for ASCII)
    greatest: str  # the larger of two values
    same: str  # equality where NULL equals NULL
    # Workspaces (PostgreSQL; a file is one workspace): `mine` confines a WHERE to the
    # workspace being written, `mine_key` leads an ORDER BY with its rows, and `scoped`
    # completes a conflict target whose uniqueness is per workspace.
    mine: str = ""
    mine_key: str = ""
    scoped: str = ""

    def attribute_param(self, key: str) -> str:
        return f"$.{key}" if self.name == "sqlite" else key


SQLITE = Dialect(
    name="sqlite",
    session="json_extract(attributes, '$.session_id')",
    number="json_extract(attributes, '$.exchange_number')",
    turn_key="json_extract(attributes, '$.turn_key')",
    attribute="json_extract(attributes, ?)",
    name_nocase="name = ? COLLATE NOCASE",
    name_range="name >= ? AND name < ?",
    like="LIKE",
    greatest="MAX",
    same="IS",
)

POSTGRES = Dialect(
    name="postgres",
    session="(attributes->>'session_id')",
    number="((attributes->>'exchange_number')::bigint)",
    turn_key="(attributes->>'turn_key')",
    attribute="(attributes->>?)",
    name_nocase="lower(name) = lower(?)",
    name_range='name COLLATE "C" >= ? AND name COLLATE "C" < ?',
    like="ILIKE",
    greatest="GREATEST",
    same="IS NOT DISTINCT FROM",
    mine=" AND workspace = brain_workspace()",
    mine_key="workspace <> brain_workspace(), ",
    scoped=", workspace",
)


def dialect_of(conn: Any) -> Dialect:
    """The dialect of a connection: a PostgreSQL one says so, sqlite3's does not."""
    return POSTGRES if getattr(conn, "dialect", "") == "postgres" else SQLITE
