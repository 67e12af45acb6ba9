"""The owner's store and a person's on one team database, for tests of what each reads."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from brainbridge.store.postgres import people
from brainbridge.store.postgres.store import PostgresStore


@contextmanager
def owner_and_bob(
    database_url: str, rows: Sequence[Any], analyse: bool = False
) -> Iterator[tuple[PostgresStore, PostgresStore]]:
    """The owner's store holding `rows` (`upsert_many` rows; the planner's statistics read
    when `analyse`) and bob's, a person of the shared workspace; both closed after."""
    owner = PostgresStore.open(database_url)
    try:
        people.add(owner.conn, "bob")
        owner.upsert_many(rows)
        if analyse:
            owner.conn.execute("ANALYZE")
        bob = PostgresStore.open(database_url, user="bob", workspace="main")
        try:
            yield owner, bob
        finally:
            bob.close()
    finally:
        owner.close()
