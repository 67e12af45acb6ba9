"""The one error family brainbridge raises; adapters map it to exit codes and statuses."""


class BrainError(Exception):
    """Base for every error brainbridge raises on purpose."""


class InvalidInput(BrainError):
    """The caller passed something we cannot accept (bad name, type, attribute, file)."""


class SchemaError(InvalidInput):
    """An entity type or attribute does not match `entity_types.yaml`."""


class NotFound(BrainError):
    """A named entity, session or file does not exist."""


class AlreadyStored(BrainError):
    """A chat turn with this turn key is in the brain already (another process stored it)."""


class StoreBusy(BrainError):
    """The database stayed locked past the busy timeout."""


class LLMError(BrainError):
    """A configured LLM failed, timed out or answered with something unusable."""


class Forbidden(BrainError):
    """The caller may not do this (a read-only member changing shared knowledge)."""
