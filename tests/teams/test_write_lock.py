"""Writers of a team brain queue per workspace: a person's write never waits for another
person's open transaction in another workspace, while two writers of one workspace still
take turns (the store reads before it writes, as on one SQLite file)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from brainbridge.errors import StoreBusy
from brainbridge.store.postgres import people
from brainbridge.store.postgres.store import PostgresStore


def _short_wait(store: PostgresStore) -> PostgresStore:
    store.conn.keep_setting("SET lock_timeout = '1s'")
    return store


def test_people_write_at_once_and_one_workspace_takes_turns(
    tmp_path: Path, database_url: str
) -> None:
    owner = PostgresStore.open(database_url)
    people.add(owner.conn, "alice")
    people.add(owner.conn, "bob")
    alice = PostgresStore.open(database_url, user="alice")
    bob = _short_wait(PostgresStore.open(database_url, user="bob"))
    alice_again = _short_wait(PostgresStore.open(database_url, user="alice"))
    try:
        alice.conn.execute("BEGIN IMMEDIATE")  # alice is mid-write
        # bob writes his own workspace meanwhile, without waiting for her
        bob.upsert_entity("Topic", "kayak", "bob's note")
        assert bob.get_entity("Topic", "kayak") is not None
        # a second writer of alice's workspace waits for her (and here gives up)
        with pytest.raises((StoreBusy, sqlite3.OperationalError)):
            alice_again.upsert_entity("Topic", "garden", "a competing version")
        alice.conn.execute("ROLLBACK")
        alice_again.upsert_entity("Topic", "garden", "the next version")
        found = alice.get_entity("Topic", "garden")
        assert found is not None and found.description == "the next version"
    finally:
        for store in (owner, alice, bob, alice_again):
            store.close()
