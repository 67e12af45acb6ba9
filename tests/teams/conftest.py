"""Team brains run on PostgreSQL only: each test gets a fresh database on the shared server."""

from __future__ import annotations

import pytest


@pytest.fixture
def backend() -> str:
    return "postgres"
