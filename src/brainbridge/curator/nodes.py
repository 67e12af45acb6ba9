"""Sessions and days as entities: after each curator run the conversation is a
`Chat_Session` (its title and summary as the description) that its exchanges are `part_of`,
and the day's activity log a `Journal_Entry` that `mentions` the sessions it lists. The
Markdown and JSONL files stay the source; these make them reachable by browsing, search
and the graph."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from brainbridge.model import CHAT_SESSION, JOURNAL_ENTRY, Entity

if TYPE_CHECKING:
    from brainbridge.ports import Store

MAX_JOURNAL_CHARS = 4000


def put_session_nodes(
    store: Store,
    session_id: str,
    title: str,
    summary: str,
    turns: int,
    exchanges: Sequence[Entity],
    day: date,
    day_runs: Sequence[dict[str, Any]],
) -> None:
    """Upsert the session's node and link its exchanges; when the day's runs logged any
    activity, upsert the day's journal entry and link it to the sessions it mentions.

    Raises: BrainError (the caller logs it: nodes never fail a curator run).
    """
    description = ". ".join(p.strip().rstrip(".") for p in (title, summary) if p.strip())
    node = store.upsert_entity(
        CHAT_SESSION,
        session_id,
        (description + ".") if description else "",
        {"session_id": session_id, "title": title, "turns": turns},
    )
    _link_new(store, [(ex, node) for ex in exchanges], "part_of")
    text, latest = journal_text(day_runs)
    if not latest:
        return
    journal = store.upsert_entity(JOURNAL_ENTRY, day.isoformat(), text, {"day": day.isoformat()})
    mentioned = [s for sid in latest if (s := store.get_entity(CHAT_SESSION, sid)) is not None]
    _link_new(store, [(journal, s) for s in mentioned], "mentions")


def _link_new(store: Store, pairs: Sequence[tuple[Entity, Entity]], relation: str) -> None:
    """Relate each (source, target) pair an earlier run did not: relating them all again
    (a session's 400 exchanges, a transaction each) made a long session's runs ever
    slower."""
    ids = sorted({e.id for pair in pairs for e in pair})
    done = {
        ((r.src_type, r.src_name), (r.dst_type, r.dst_name))
        for r in store.relations_among(ids)
        if r.type == relation
    }
    for src, dst in pairs:
        ends = ((src.type, src.name), (dst.type, dst.name))
        if ends not in done:
            store.relate(ends[0], relation, ends[1])


def journal_text(day_runs: Sequence[dict[str, Any]]) -> tuple[str, list[str]]:
    """A day's journal entry from its curator runs, and the sessions it lists."""
    latest: dict[str, dict[str, Any]] = {}
    for run in day_runs:  # oldest first: the last run of each session wins
        if run.get("activity") and run.get("session_id"):
            latest[str(run["session_id"])] = run
    lines = [f"{r.get('title') or sid}: {r['activity']}" for sid, r in latest.items()]
    return "\n".join(lines)[:MAX_JOURNAL_CHARS], list(latest)
