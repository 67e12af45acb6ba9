"""`brain serve` seats each person of a team brain on their first request: a newcomer
being seated holds up nobody else, and a person asking twice at once still gets one brain."""

from __future__ import annotations

import asyncio
from pathlib import Path

from brainbridge.api.people import Team
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.store.postgres import people


async def test_a_newcomer_being_seated_holds_up_nobody_else(
    tmp_path: Path, database_url: str
) -> None:
    owner = await Brain.open(
        tmp_path / "brain", embedder=None, background_indexing=False, database_url=database_url
    )
    for name in ("alice", "bob", "carol"):
        await owner._run(people.add, owner.store.conn, name)  # type: ignore[attr-defined]
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow_for_alice(brain: Brain, bridge: Bridge) -> None:
        # What the server does to each new seat (the curator), held up for alice only.
        if brain.user == "alice":
            entered.set()
            await release.wait()

    team = Team(owner, None, "127.0.0.1", [slow_for_alice])
    try:
        bob = await team.seat("bob")
        alice = [asyncio.create_task(team.seat("alice")) for _ in range(2)]
        await entered.wait()
        # While alice's seat is opening: bob, seated already, and carol, new, are served.
        served = asyncio.gather(team.seat("bob"), team.seat("carol"))
        done, _ = await asyncio.wait({served}, timeout=60)
        assert served in done, "a seated person waited for a newcomer's seat"
        again, carol = served.result()
        assert again is bob and carol.brain.user == "carol"
        assert not any(task.done() for task in alice)
        release.set()
        first, second = await asyncio.gather(*alice)
        assert first is second and first.brain.user == "alice"
    finally:
        release.set()
        await team.close()
        await owner.close()
