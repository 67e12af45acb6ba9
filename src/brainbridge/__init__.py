"""brainbridge: ambient, local-first memory for AI agents."""

from brainbridge.errors import BrainError, InvalidInput, NotFound, SchemaError
from brainbridge.model import Entity, Hit, Judgment, Relation, Session, Subgraph

__all__ = [
    "BrainError",
    "Entity",
    "Hit",
    "InvalidInput",
    "Judgment",
    "NotFound",
    "Relation",
    "SchemaError",
    "Session",
    "Subgraph",
]
