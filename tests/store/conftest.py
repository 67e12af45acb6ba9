"""The store suite runs on both backends."""

from tests.pg import backend  # noqa: F401  (runs this suite on both backends)
