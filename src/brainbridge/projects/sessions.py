"""Sessions as members of a project: the `project` attribute of a `Chat_Session`.

The Stop path (each stored turn) and SessionStart record it, so the next session opened
in the same project finds the sessions that came before it there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from brainbridge.model import CHAT_SESSION, Entity

if TYPE_CHECKING:
    from brainbridge.ports import Store

# How many of a project's sessions a digest looks through (for commitments made in them).
SCAN_SESSIONS = 100


def note_project(store: Store, session_id: str, project: str) -> bool:
    """Record that `session_id` ran in `project` (an absolute root); True if it changed.

    The session's node keeps its title and summary (the curator's); only `project` and
    `session_id` are merged in, and nothing is written when both are already there.
    """
    if not session_id or not project:
        return False
    current = store.get_entity(CHAT_SESSION, session_id)
    if current is not None and current.attributes.get("project") == project:
        return False
    store.upsert_entity(
        CHAT_SESSION, session_id, None, {"session_id": session_id, "project": project}
    )
    return True


def project_sessions(store: Store, project: str, limit: int = SCAN_SESSIONS) -> list[Entity]:
    """The newest `limit` session nodes recorded in `project`, newest first."""
    return store.newest_with_attribute(CHAT_SESSION, "project", project, limit)
