"""`brain serve` for a team brain: each request acts as the person whose token it carries.

The guard (`guard.py`) names the person; here each person gets a brain of their own,
opened on first use as their database role (so the server confines it to their
workspaces), with its own bridge and its own MCP server at /mcp. The server's own token,
or no token on a brain without people, acts as the brain's owner, as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from starlette.types import ASGIApp, Receive, Scope, Send

from brainbridge.api.guard import PERSON
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.mcp import build_server


@dataclass
class Seat:
    """One person's brain, bridge and MCP app in this server."""

    brain: Brain
    bridge: Bridge
    mcp: ASGIApp | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class Team:
    """The people of the brain `owner` serves, each seated on first use."""

    def __init__(
        self,
        owner: Brain,
        make_bridge: Callable[[Brain], Bridge] | None,
        host: str,
        on_start: Sequence[Callable[[Brain, Bridge], Awaitable[Any]]] = (),
    ) -> None:
        self.owner = owner
        self.make_bridge = make_bridge
        self.host = host
        self.on_start = list(on_start)  # what the server does to its own (the curator)
        self._seats: dict[str, Seat] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._has_people = False

    async def enabled(self) -> bool:
        """Whether the brain has people (once it has, it always has: they are revoked,
        never removed)."""
        if not self._has_people and self.owner.database_url:
            from brainbridge.store.postgres import people

            self._has_people = await self.owner._run(people.has_people, _conn(self.owner))
        return self._has_people

    async def who(self, token: str) -> str | None:
        from brainbridge.store.postgres import people

        return await self.owner._run(people.person_of_token, _conn(self.owner), token)

    async def seat(self, person: str) -> Seat:
        """The person's seat, opened on their first request. Only that person's requests
        wait while it opens (a connection, their role, the entity types, the curator):
        one lock for all made every seated person wait behind a newcomer."""
        seat = self._seats.get(person)
        if seat is not None:
            return seat
        async with self._opening(person):  # one brain per person, however many ask at once
            seat = self._seats.get(person)
            if seat is None:
                brain = await Brain.open(
                    self.owner.path,
                    embedder=self.owner.embedder,
                    database_url=self.owner.database_url,
                    user=person,
                )
                bridge = self.make_bridge(brain) if self.make_bridge else Bridge(brain)
                for hook in self.on_start:
                    await hook(brain, bridge)
                seat = self._seats[person] = Seat(brain, bridge)
            return seat

    async def mcp_app(self, person: str) -> ASGIApp:
        """The person's MCP app, its session manager running until the server stops."""
        seat = await self.seat(person)
        if seat.mcp is not None:
            return seat.mcp
        async with self._opening(person):
            if seat.mcp is None:
                server = build_server(
                    lambda: _given(seat.brain), make_bridge=lambda _: seat.bridge, own_brain=False
                )
                app = server.streamable_http_app(streamable_http_path="/", host=self.host)
                ready = asyncio.Event()
                seat.task = asyncio.create_task(_run_sessions(server, ready, seat.stop))
                waiting = asyncio.create_task(ready.wait())
                await asyncio.wait({seat.task, waiting}, return_when=asyncio.FIRST_COMPLETED)
                if not ready.is_set():  # the session manager failed to start
                    waiting.cancel()
                    task, seat.task = seat.task, None
                    await task  # raises what stopped it
                seat.mcp = app
            return seat.mcp

    def _opening(self, person: str) -> asyncio.Lock:
        """The lock under which `person`'s brain and MCP app are opened."""
        return self._locks.setdefault(person, asyncio.Lock())

    async def close(self) -> None:
        for seat in self._seats.values():
            seat.stop.set()
            if seat.task is not None:
                await seat.task
            await seat.bridge.drain()
            await seat.brain.close()
        self._seats.clear()


class McpByPerson:
    """/mcp: the owner's MCP app, or the MCP app of the person the request acts as."""

    def __init__(self, owner_app: ASGIApp, team: Callable[[], Team | None]) -> None:
        self.owner_app = owner_app
        self.team = team

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        person = scope.get(PERSON)
        team = self.team()
        if person and team is not None:
            await (await team.mcp_app(person))(scope, receive, send)
            return
        await self.owner_app(scope, receive, send)


def _conn(brain: Brain) -> Any:
    """The owner's database connection (PostgreSQL: where people are kept)."""
    return cast(Any, brain.store).conn


async def _given(brain: Brain) -> Brain:
    return brain


async def _run_sessions(server: Any, ready: asyncio.Event, stop: asyncio.Event) -> None:
    async with server.session_manager.run():
        ready.set()
        await stop.wait()
