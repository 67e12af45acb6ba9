"""People of a team brain: what one keeps private never reaches another, through any
door, and a revoked person is shut out at once (the server enforces it: their database
role reaches the brain only through views of their workspaces, `store/postgres/people.py`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import InvalidInput, NotFound
from brainbridge.store.postgres import people

PRIVATE = "Dr. Reyes"
SECRET_WORDS = "therapist appointment Reyes"


async def _team(home: Path, url: str) -> tuple[Brain, Brain, Brain]:
    """The owner (with a shared project), alice (with private things) and bob."""
    owner = await Brain.open(home, embedder="hashing", database_url=url)
    await owner.upsert_entity("Project", "Atlas", description="the campus map, due in May")
    people.add(owner.store.conn, "alice")
    people.add(owner.store.conn, "bob")
    alice = await Brain.open(home, embedder="hashing", database_url=url, user="alice")
    bob = await Brain.open(home, embedder="hashing", database_url=url, user="bob")
    await alice.upsert_entity("Person", PRIVATE, description="my therapist, Tuesdays at 5")
    await alice.upsert_entity(
        "Project", "atlas-web", description="my private rewrite of the Atlas web client"
    )
    bridge = Bridge(alice)
    await bridge.observe_now(
        "alice-1", 1, "My therapist appointment with Dr. Reyes moved to Thursday", "Thursday."
    )
    await bridge.drain()
    for b in (owner, alice, bob):
        assert await b.wait_for_vectors(30)
    return owner, alice, bob


def _names(hits: object) -> set[str]:
    return {h.entity.name for h in hits}  # type: ignore[attr-defined]


async def test_a_persons_private_memory_never_reaches_another(
    tmp_path: Path, database_url: str
) -> None:
    owner, alice, bob = await _team(tmp_path / "brain", database_url)
    try:
        # alice finds her own things and the team's
        assert {PRIVATE, "alice-1:ex:1"} <= _names(await alice.search(SECRET_WORDS))
        assert "Atlas" in _names(await alice.search("campus map"))
        # bob finds the team's, and nothing of alice's by any door
        assert "Atlas" in _names(await bob.search("campus map"))
        assert not _names(await bob.search(SECRET_WORDS))
        assert (await bob.recall(SECRET_WORDS))["count"] == 0
        assert await bob.get_entity("Person", PRIVATE) is None
        enriched = await Bridge(bob).enrich("When is my therapist appointment with Dr. Reyes?")
        assert PRIVATE not in (enriched.block or "") and "Thursday" not in (enriched.block or "")
        project = tmp_path / "atlas-web"
        project.mkdir()
        mine = await alice.brain_context(str(project))
        assert any("atlas-web" in json.dumps(e) for e in mine)
        assert not any("atlas-web" in json.dumps(e) for e in await bob.brain_context(str(project)))
        assert [s.id for s in await bob._run(bob.sessions.recent, 50)] == []
        assert [s.id for s in await alice._run(alice.sessions.recent, 50)] == ["alice-1"]
        exported = "\n".join(await bob.export_jsonl(vectors=True))
        assert "Reyes" not in exported and "alice-1" not in exported and "Atlas" in exported
        assert (await bob.stats())["entities"] == 1
        # the owner administers the brain and sees everyone's rows
        assert PRIVATE in _names(await owner.search(SECRET_WORDS))
    finally:
        for b in (owner, alice, bob):
            await b.close()


async def test_names_are_per_workspace_and_writes_stay_in_the_writers(
    tmp_path: Path, database_url: str
) -> None:
    owner, alice, bob = await _team(tmp_path / "brain", database_url)
    try:
        await alice.upsert_entity("Person", "Sam", description="alice's neighbour")
        await bob.upsert_entity("Person", "Sam", description="bob's brother")
        assert (await alice.get_entity("Person", "Sam")).description == "alice's neighbour"  # type: ignore[union-attr]
        assert (await bob.get_entity("Person", "Sam")).description == "bob's brother"  # type: ignore[union-attr]
        # bob writes about the shared project: into his own workspace, the team's row holds
        await bob.upsert_entity("Project", "Atlas", description="bob's notes on Atlas")
        assert (await bob.get_entity("Project", "Atlas")).description == "bob's notes on Atlas"  # type: ignore[union-attr]
        assert (await alice.get_entity("Project", "Atlas")).description.startswith("the campus")  # type: ignore[union-attr]
        # relating his own entity to the team's is his, and only his
        await bob.relate(("Person", "Sam"), "works_on", ("Project", "Atlas"))
        assert not (await alice.subgraph(("Project", "Atlas"), hops=1)).edges
    finally:
        for b in (owner, alice, bob):
            await b.close()


async def test_read_only_members_and_foreign_workspaces_are_refused(
    tmp_path: Path, database_url: str
) -> None:
    home = tmp_path / "brain"
    owner = await Brain.open(home, embedder="hashing", database_url=database_url)
    try:
        people.add(owner.store.conn, "carol", shared="read")
        people.add(owner.store.conn, "dave", shared="none")
        await owner.upsert_entity("Project", "Atlas", description="the campus map")
        with pytest.raises(InvalidInput, match="may not write"):
            await Brain.open(
                home, embedder=None, database_url=database_url, user="carol", workspace="main"
            )
        with pytest.raises(InvalidInput, match="may not write"):
            await Brain.open(
                home, embedder=None, database_url=database_url, user="carol", workspace="dave"
            )
        carol = await Brain.open(home, embedder=None, database_url=database_url, user="carol")
        try:  # even SQL of its own cannot reach past the views or write what carol only reads
            conn = carol.store.conn
            with pytest.raises(Exception, match="permission denied"):  # noqa: B017
                await carol._run(conn.execute, "SELECT count(*) FROM public.entities")
            with pytest.raises(Exception, match="read-only"):  # noqa: B017
                await carol._run(
                    conn.execute, "UPDATE entities SET description = 'x' WHERE name = 'Atlas'"
                )
            with pytest.raises(Exception, match="read-only"):  # noqa: B017
                await carol._run(conn.execute, "DELETE FROM entities WHERE name = 'Atlas'")
            assert (await carol.get_entity("Project", "Atlas")).description == "the campus map"  # type: ignore[union-attr]
        finally:
            await carol.close()
        dave = await Brain.open(home, embedder=None, database_url=database_url, user="dave")
        try:
            assert await dave.get_entity("Project", "Atlas") is None  # not a member of main
        finally:
            await dave.close()
        with pytest.raises(NotFound):
            await Brain.open(home, embedder=None, database_url=database_url, user="erin")
        with pytest.raises(InvalidInput, match="already"):
            people.add(owner.store.conn, "carol")
        with pytest.raises(InvalidInput, match="user name"):
            people.add(owner.store.conn, "Robert'); DROP TABLE entities;--")
    finally:
        await owner.close()


async def test_a_revoked_person_is_shut_out_at_once(tmp_path: Path, database_url: str) -> None:
    owner, alice, bob = await _team(tmp_path / "brain", database_url)
    try:
        assert PRIVATE in _names(await alice.search(SECRET_WORDS))
        assert people.revoke(owner.store.conn, "alice") is True
        # the brain alice already has open sees nothing more, and writes nothing
        assert not _names(await alice.search(SECRET_WORDS))
        with pytest.raises(Exception):  # noqa: B017 - refused by the server
            await alice.upsert_entity("Person", "Mallory", description="written after revoke")
        with pytest.raises(NotFound):
            await Brain.open(
                tmp_path / "brain", embedder=None, database_url=database_url, user="alice"
            )
        assert people.revoke(owner.store.conn, "alice") is False
        assert PRIVATE in _names(await owner.search(SECRET_WORDS))  # nothing is lost
    finally:
        for b in (owner, alice, bob):
            await b.close()


async def test_shared_workspaces_beyond_main(tmp_path: Path, database_url: str) -> None:
    """A design team shares a workspace of its own: its members read it and, writing
    there, add to it; everyone else never sees it; a member who leaves stops seeing it."""
    home = tmp_path / "brain"
    owner = await Brain.open(home, embedder=None, database_url=database_url)
    try:
        for person in ("alice", "bob", "carol"):
            people.add(owner.store.conn, person)
        people.join(owner.store.conn, "alice", "design")
        people.join(owner.store.conn, "bob", "design", can_write=False)
        with pytest.raises(InvalidInput, match="private"):
            people.join(owner.store.conn, "bob", "carol")
        with pytest.raises(InvalidInput, match="shared workspace"):
            people.add(owner.store.conn, "design")
        opened = dict(embedder=None, database_url=database_url)
        alice = await Brain.open(home, user="alice", workspace="design", **opened)  # type: ignore[arg-type]
        await alice.upsert_entity("Decision", "Use the blue palette", description="for Atlas")
        await alice.close()
        bob = await Brain.open(home, user="bob", **opened)  # type: ignore[arg-type]
        carol = await Brain.open(home, user="carol", **opened)  # type: ignore[arg-type]
        try:
            assert await bob.get_entity("Decision", "Use the blue palette") is not None
            assert await carol.get_entity("Decision", "Use the blue palette") is None
            with pytest.raises(InvalidInput, match="may not write"):
                await Brain.open(home, user="bob", workspace="design", **opened)  # type: ignore[arg-type]
            assert people.leave(owner.store.conn, "bob", "design") is True
            assert await bob.get_entity("Decision", "Use the blue palette") is None
        finally:
            await bob.close()
            await carol.close()
    finally:
        await owner.close()
