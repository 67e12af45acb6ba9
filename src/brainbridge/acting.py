"""Who a process acts as on a team brain: BRAIN_USER (a person) and BRAIN_WORKSPACE (the
workspace they write to). Standard library only: the hooks read it on their fast path."""

from __future__ import annotations

import os
from collections.abc import Mapping

from brainbridge.errors import InvalidInput

USER_ENV = "BRAIN_USER"  # act as this person of a PostgreSQL brain
WORKSPACE_ENV = "BRAIN_WORKSPACE"  # and write to this workspace of theirs


def acting(env: Mapping[str, str] | None = None) -> tuple[str | None, str | None]:
    """(person, workspace) named by BRAIN_USER and BRAIN_WORKSPACE, each None if unset."""
    env = os.environ if env is None else env
    user = env.get(USER_ENV, "").strip() or None
    workspace = env.get(WORKSPACE_ENV, "").strip() or None
    return user, workspace


def require_owner(command: str) -> None:
    """Refuse to run `command` (an owner's job) while acting as a person.

    Raises: InvalidInput when BRAIN_USER is set.
    """
    if acting()[0]:
        raise InvalidInput(f"{command} runs as the brain's owner: unset {USER_ENV}")
