"""The embedded default store: one SQLite file per brain, WAL mode."""

from __future__ import annotations

from brainbridge.lazy import lazy_exports

# Loaded on first use: importing `store.sqlite.db` (or any module here) runs this file,
# which must not pull in the whole store.
_EXPORTS = {
    "SqliteStore": "brainbridge.store.sqlite.store",
    "connect": "brainbridge.store.sqlite.db",
}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS)
