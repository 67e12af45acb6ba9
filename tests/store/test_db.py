"""Opening the database: WAL, migrations, waiting on and reporting locks."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from brainbridge.errors import StoreBusy
from brainbridge.store.sqlite import db
from brainbridge.store.sqlite.db import connect
from brainbridge.store.sqlite.migrations import MIGRATIONS, migrate

BrainFactory = Callable[..., Awaitable[Brain]]

pytestmark = pytest.mark.sqlite_only  # the file's WAL, locks and migrations


def _migrations(path: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT name, applied_at FROM _migrations ORDER BY name").fetchall()


def test_connect_turns_on_wal_and_records_every_migration(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "brain.db"
    conn = connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    finally:
        conn.close()
    assert [name for name, _ in _migrations(path)] == [name for name, _ in MIGRATIONS]


def test_reopening_applies_no_migration_twice(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    connect(path).close()
    first = _migrations(path)
    conn = connect(path)
    try:
        assert migrate(conn) == []
    finally:
        conn.close()
    assert _migrations(path) == first


def test_readonly_connection_cannot_write(tmp_path: Path) -> None:
    path = tmp_path / "brain.db"
    connect(path).close()
    conn = connect(path, readonly=True)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("INSERT INTO sessions(id, created_at, updated_at) VALUES ('s', '', '')")
    finally:
        conn.close()


def _hold_write_lock(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, timeout=0)
    conn.execute("BEGIN IMMEDIATE")
    return conn


async def test_writer_waits_for_a_held_lock_then_succeeds(make_brain: BrainFactory) -> None:
    brain = await make_brain(embedder=None)
    locker = _hold_write_lock(brain.path / "brain.db")
    try:
        write = asyncio.create_task(brain.upsert_entity("Person", "Patient Writer"))
        await asyncio.sleep(0.3)
        assert not write.done(), "the write went through while another connection held the lock"
        locker.execute("COMMIT")
        ent = await write
    finally:
        locker.close()
    assert ent.name == "Patient Writer"
    assert await brain.get_entity("Person", "Patient Writer") is not None


async def test_lock_outliving_the_busy_timeout_raises_store_busy(
    make_brain: BrainFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 50)
    brain = await make_brain(embedder=None)
    locker = _hold_write_lock(brain.path / "brain.db")
    try:
        with pytest.raises(StoreBusy, match="locked"):
            await brain.upsert_entity("Person", "Blocked Writer")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    # The failed attempt left no transaction open: the next write just works.
    await brain.upsert_entity("Person", "Blocked Writer")
    assert await brain.get_entity("Person", "Blocked Writer") is not None


async def test_reads_work_while_another_connection_holds_the_write_lock(
    make_brain: BrainFactory,
) -> None:
    brain = await make_brain(embedder=None)
    await brain.upsert_entity("Project", "Lighthouse", description="harbour beacon restoration")
    locker = _hold_write_lock(brain.path / "brain.db")
    try:
        hits = await brain.search("harbour beacon")
        got = await brain.get_entity("Project", "Lighthouse")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert [h.entity.name for h in hits] == ["Lighthouse"]
    assert got is not None


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_a_read_only_folder_with_a_wal_but_no_shm_still_answers(tmp_path: Path) -> None:
    """A brain copied with its -wal but not its -shm into a folder this user cannot write:
    SQLite cannot create the -shm, so the file is read as immutable instead of failing."""
    import shutil

    writer = connect(tmp_path / "brain.db")
    writer.execute("CREATE TABLE kept(x)")
    writer.execute("INSERT INTO kept VALUES (1)")
    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the table is in the main file
    copy = tmp_path / "ro"
    copy.mkdir()
    for name in ("brain.db", "brain.db-wal"):
        shutil.copy(tmp_path / name, copy / name)
    writer.close()
    copy.chmod(0o555)
    try:
        conn = connect(copy / "brain.db")
        assert conn.execute("SELECT x FROM kept").fetchall() == [(1,)]
        conn.close()
    finally:
        copy.chmod(0o755)


def test_a_new_brain_and_its_backup_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    # Found by a new user: brain.db was -rw-r--r-- under the usual umask, while the day's
    # notes beside it were 0600; it holds the same conversations.
    from brainbridge.store.sqlite.backup import backup

    path = tmp_path / "brain" / "brain.db"
    with closing(connect(path)) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS t (x)")
    assert path.stat().st_mode & 0o777 == 0o600
    for extra in (path.with_name("brain.db-wal"), path.with_name("brain.db-shm")):
        if extra.exists():
            assert extra.stat().st_mode & 0o077 == 0, extra
    copy = tmp_path / "copy.db"
    backup(path, copy)
    assert copy.stat().st_mode & 0o777 == 0o600
