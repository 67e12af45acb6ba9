"""brainbridge: ambient, local-first memory for AI agents."""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # `typing` costs ~10 ms; `brain mcp` and the hooks start without it
if TYPE_CHECKING:
    from typing import Any

# Loaded on first use: hook processes start cold on every prompt and need none of it.
_EXPORTS = {
    "BrainError": "brainbridge.errors",
    "InvalidInput": "brainbridge.errors",
    "NotFound": "brainbridge.errors",
    "SchemaError": "brainbridge.errors",
    "Entity": "brainbridge.model",
    "Hit": "brainbridge.model",
    "Judgment": "brainbridge.model",
    "Relation": "brainbridge.model",
    "Session": "brainbridge.model",
    "Subgraph": "brainbridge.model",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'brainbridge' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
