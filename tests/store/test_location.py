"""Where a brain's database is, and how its URL is shown."""

from __future__ import annotations

import pytest

from brainbridge.store.location import redact_url

pytestmark = pytest.mark.sqlite_only  # about URLs, not a database


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://brain:s3cret@db.example/brain", "postgresql://brain:***@db.example/brain"),
        ("postgresql://brain@db.example/brain", "postgresql://brain@db.example/brain"),
        # the embedded server's: an empty password has nothing to hide
        ("postgresql://postgres:@/team?host=/tmp/pg", "postgresql://postgres:@/team?host=/tmp/pg"),
        ("postgresql://:pw@host/db", "postgresql://:***@host/db"),
    ],
)
def test_a_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert redact_url(url) == shown
