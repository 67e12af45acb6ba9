"""Context for coding agents: what the brain knows about the project at hand."""

from brainbridge.projects.context import ContextEntry, brain_context

__all__ = ["ContextEntry", "brain_context"]
