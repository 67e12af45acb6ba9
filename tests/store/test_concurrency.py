"""Several processes reading and writing one brain at once: nothing lost, nothing failed."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.store.location import ENV, open_store
from brainbridge.store.postgres.schema import MIGRATIONS as PG_MIGRATIONS
from brainbridge.store.sqlite.migrations import MIGRATIONS

BrainFactory = Callable[..., Awaitable[Brain]]
WRITER = Path(__file__).with_name("writer_process.py")
OPENER = """
import asyncio, sys, time
from pathlib import Path
from brainbridge.brain import Brain
while not Path(sys.argv[2]).exists():
    time.sleep(0.002)
async def main():
    brain = await Brain.open(sys.argv[1], embedder=None)
    await brain.upsert_entity("Person", sys.argv[3])
    await brain.close()
asyncio.run(main())
"""


def _spawn(args: list[str], database_url: str | None) -> subprocess.Popen[str]:
    env = {**os.environ, ENV: database_url} if database_url else None
    return subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def _finish(procs: list[subprocess.Popen[str]]) -> None:
    failures = []
    for p in procs:
        _, err = p.communicate(timeout=120)
        if p.returncode != 0 or err.strip():
            failures.append(f"exit {p.returncode}: {err.strip()[-2000:]}")
    assert failures == []


async def test_four_writer_processes_lose_nothing_while_this_one_reads(
    make_brain: BrainFactory, tmp_path: Path, database_url: str | None
) -> None:
    workers, entities, relations = 4, 300, 100
    reader = await make_brain()
    gate = tmp_path / "go"
    procs = [
        _spawn(
            [str(WRITER), str(reader.path), str(gate), str(w), str(entities), str(relations)],
            database_url,
        )
        for w in range(workers)
    ]
    gate.touch()
    counts: list[int] = []
    try:
        while any(p.poll() is None for p in procs):
            counts.append((await reader.stats())["entities"])
            hits = await reader.search("note written by worker about concurrency", 10)
            assert all(h.entity.type == "Topic" for h in hits)
            if counts[-1]:  # each worker writes "shared" first
                await reader.subgraph(("Topic", "shared"), hops=1)
            await asyncio.sleep(0.01)
    finally:
        _finish(procs)

    assert counts, "the reader never ran while the writers did"
    assert counts == sorted(counts), "a reader saw the entity count go down"
    stats = await reader.stats()
    assert stats["entities"] == workers * entities + 1
    assert stats["relations"] == workers * relations
    assert (await reader.get_entity("Topic", "shared")).attributes == {
        f"seen_by_{w}": True for w in range(workers)
    }
    for w in range(workers):
        for j in (0, entities // 2, entities - 1):
            ent = await reader.get_entity("Topic", f"w{w}-e{j}")
            assert ent is not None and ent.attributes == {"worker": str(w)}
    assert len((await reader.subgraph(("Topic", "shared"), hops=1, limit=10_000)).edges) == (
        workers * relations
    )
    assert await reader.wait_for_vectors(60)
    after = await reader.stats()
    assert after["pending_vectors"] == 0 and after["vectors"] == after["entities"]
    hits = await reader.search("w3-e299", 3)
    assert hits and hits[0].entity.name == "w3-e299"


async def test_processes_creating_the_same_new_brain_at_once_all_succeed(
    tmp_path: Path, database_url: str | None
) -> None:
    folder, gate = tmp_path / "brain", tmp_path / "go"
    people = [f"p{i}" for i in range(4)]
    procs = [_spawn(["-c", OPENER, str(folder), str(gate), name], database_url) for name in people]
    gate.touch()
    _finish(procs)

    brain = await Brain.open(folder, embedder=None, database_url=database_url)
    rows = brain.store.conn.execute("SELECT name FROM _migrations ORDER BY name")  # type: ignore[attr-defined]
    wanted = PG_MIGRATIONS if database_url else MIGRATIONS
    assert [r[0] for r in rows] == [name for name, _ in wanted]
    try:
        for name in people:
            assert await brain.get_entity("Person", name) is not None
        assert "Chat_Exchange" in brain.types and "Person" in brain.types
    finally:
        await brain.close()


TURN_TAKER = """
import sys, time
from pathlib import Path
from brainbridge.store.location import database_url, open_store
from brainbridge.store.sqlite.sessions import SqliteSessions
while not Path(sys.argv[2]).exists():
    time.sleep(0.002)
folder = Path(sys.argv[1])
sessions = SqliteSessions(open_store(folder, database_url(folder)).conn)
print(" ".join(str(sessions.next_turn("shared-session")) for _ in range(25)))
"""


def test_processes_taking_turns_of_one_session_never_get_the_same_number(
    tmp_path: Path, database_url: str | None
) -> None:
    open_store(tmp_path, database_url).close()  # migrated once, before the race
    gate = tmp_path / "go"
    procs = [_spawn(["-c", TURN_TAKER, str(tmp_path), str(gate)], database_url) for _ in range(4)]
    gate.touch()
    outputs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outputs]
    taken = [int(n) for out, _ in outputs for n in out.split()]
    assert sorted(taken) == list(range(1, 101))
