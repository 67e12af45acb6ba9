"""The embedded default store: one SQLite file per brain, WAL mode."""

from brainbridge.store.sqlite.db import connect
from brainbridge.store.sqlite.store import SqliteStore

__all__ = ["SqliteStore", "connect"]
