"""The MCP suite runs on both backends: `brain mcp` finds the test's database as a user's
would, through BRAIN_DATABASE_URL."""

import pytest
from tests.pg import backend, database_env  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def _database_in_env(database_env: None) -> None:  # noqa: F811
    """Every MCP test on its backend's database."""
