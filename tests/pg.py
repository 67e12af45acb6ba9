"""A real PostgreSQL server for the tests: the embedded one (`store/postgres/embedded.py`),
started once per run; every test gets a database of its own.

A suite or module runs on both backends by importing `backend` (which overrides the
root conftest's sqlite-only one):

    from tests.pg import backend  # noqa: F401  (runs this suite on both backends)

Brains opened by entry points (`brain mcp`, the HTTP app) find the test's database as a
user's would, through BRAIN_DATABASE_URL: fixtures that start them use `database_env`.
"""

from __future__ import annotations

import pytest

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each test of the suite once on the SQLite file and once on PostgreSQL."""
    return str(request.param)


@pytest.fixture
def database_env(database_url: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """BRAIN_DATABASE_URL set to this test's database on the postgres backend."""
    if database_url:
        monkeypatch.setenv("BRAIN_DATABASE_URL", database_url)
