"""brainbridge: ambient, local-first memory for AI agents."""

from __future__ import annotations

from brainbridge.lazy import lazy_exports

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


__getattr__ = lazy_exports(__name__, _EXPORTS)
