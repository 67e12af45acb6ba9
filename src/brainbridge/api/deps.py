"""What every route asks for: the brain and bridge a request acts on, and the small
checks several resources share."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from brainbridge.api.guard import PERSON
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import InvalidInput


def _state(request: Request) -> dict[str, Any]:
    state: dict[str, Any] = request.app.state.brainbridge
    return state


# Each request acts as the brain's owner or as the person whose token it carries
# (a team brain in PostgreSQL; see `api/people.py`).
async def brain(request: Request) -> Brain:
    """The brain this request acts on."""
    state, person = _state(request), request.scope.get(PERSON)
    return (await state["team"].seat(person)).brain if person else state["brain"]


async def bridge(request: Request) -> Bridge:
    """The bridge this request acts through."""
    state, person = _state(request), request.scope.get(PERSON)
    return (await state["team"].seat(person)).bridge if person else state["bridge"]


async def next_exchange(b: Brain, session_id: str, wanted: int | None = None) -> int:
    """The next exchange number of a session, taken in the database."""
    # Taken before observing starts in the background: turns sent in quick succession,
    # here or by hooks running without the server, never share one.
    return await b._run(b.sessions.next_turn, session_id, wanted)


def check_types(b: Brain, names: list[str]) -> None:
    """Raises: InvalidInput naming the unknown entity types and the known ones."""
    unknown = [n for n in names if n not in b.types]
    if unknown:
        raise InvalidInput(
            f"unknown entity type {', '.join(map(repr, unknown))};"
            f" known types: {', '.join(sorted(b.types))}"
        )


def ref(ref: Any) -> Any:
    """An entity reference from a request ("Type:Name", a name, or {type, name})."""
    if isinstance(ref, str):
        if ":" in ref:
            etype, name = ref.split(":", 1)
            if etype and etype[0].isupper() and " " not in etype:
                return (etype, name)
        return ref
    return (ref.type, ref.name) if ref.type else ref.name
