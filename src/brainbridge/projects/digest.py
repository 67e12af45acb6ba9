"""The project digest SessionStart injects: an index of what happened here, by id.

For the project opened: the last sessions here (title, when, one line), what the agent
did lately (failures first, with their error line, and what fixed them), open
commitments and recent decisions, the files most worked on, and the project's notes
that matter. Each line carries the id `brain_get` opens in full and what opening it
costs in tokens (progressive disclosure: the index is small, the detail is one call
away). The whole stays within `DIGEST_TOKENS`; every stored string goes through the one
sanitiser before it is injected (the store redacted them on the way in).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from brainbridge.model import (
    CHAT_EXCHANGE,
    EPISODES,
    PASSAGE,
    Entity,
    Session,
)
from brainbridge.projects.context import brain_context
from brainbridge.projects.sessions import project_sessions
from brainbridge.sanitise import inline
from brainbridge.words import estimate_tokens

if TYPE_CHECKING:
    from brainbridge.ports import Sessions, Store

OBSERVATION = "Observation"
FILE = "File"
DECISION, COMMITMENT = "Decision", "Commitment"
DIGEST_TOKENS = 800
# How many lines each section may take at most; the token budget cuts first.
MAX_SESSIONS, MAX_WORK, MAX_FACTS, MAX_FILES, MAX_NOTES = 5, 6, 5, 6, 4
SCAN_OBSERVATIONS = 200
SCAN_FACTS = 300
LINE_CHARS = 170
# What an edit says about where work happens, against a read or a search.
KIND_WEIGHT = {"edit": 3.0, "test": 2.0, "command": 1.5, "read": 1.0, "search": 0.5}
OPEN_STATUSES = {"", "open"}


@dataclass(frozen=True)
class DigestLine:
    """One indexed item: the entity id that opens it, its line, what opening it costs."""

    id: int
    text: str
    cost: int

    def render(self) -> str:
        return f"- #{self.id} {self.text} (~{self.cost} tok)"


def _clean(text: str, limit: int = LINE_CHARS) -> str:
    # The store redacted every string on its way in (one door); compiling the redactor
    # again here would cost the cold SessionStart path ~20 ms for nothing.
    return inline(text, limit, opens_line=True)


def _day(stamp: str) -> str:
    return stamp[:10] if len(stamp) >= 10 else stamp


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    for stop in (". ", "! ", "? "):
        head, sep, _ = text.partition(stop)
        if sep and len(head) >= 20:
            return head + stop.strip()
    return text


def _body_cost(ent: Entity) -> int:
    body = ent.attributes.get("body")
    size = len(ent.name) + len(ent.description) + (len(body) if isinstance(body, str) else 0)
    return max(1, estimate_tokens(" " * size))


def _obs_cost(ent: Entity) -> int:
    return max(1, estimate_tokens(f"{ent.name} {ent.description} {ent.attributes}"))


# -- gathering ---------------------------------------------------------------


@dataclass(frozen=True)
class _SessionInfo:
    node: Entity
    session: Session | None
    exchanges: tuple[Entity, ...]

    @property
    def when(self) -> str:
        return (self.session.updated_at if self.session else "") or self.node.updated_at


def _sessions_here(
    store: Store, sessions: Sessions, project: str, exclude: str
) -> tuple[list[_SessionInfo], set[str]]:
    """The sessions to show, newest first, and the id prefixes of every session here.

    Nodes are touched when a session starts and at each curator run, so their own order
    finds the candidates; only those are read from the sessions table.
    """
    nodes = [n for n in project_sessions(store, project) if _sid(n) != exclude]
    prefixes = {_sid(n)[:8] for n in nodes}
    nodes.sort(key=lambda n: (n.updated_at, n.id), reverse=True)
    out: list[_SessionInfo] = []
    for node in nodes[: MAX_SESSIONS * 3]:
        session = sessions.get(_sid(node), 0)
        if session is None or (session.message_count == 0 and not session.title):
            continue  # opened, nothing said: nothing to come back to
        out.append(_SessionInfo(node, session, ()))
    out.sort(key=lambda s: s.when, reverse=True)
    shown = [
        _SessionInfo(s.node, s.session, tuple(sessions.session_exchanges(_sid(s.node), 60)))
        for s in out[:MAX_SESSIONS]
    ]
    return shown, prefixes


def _sid(node: Entity) -> str:
    return str(node.attributes.get("session_id") or node.name)


def _observations_here(store: Store, project: str) -> list[Entity]:
    mine = store.newest_with_attribute(OBSERVATION, "project", project, SCAN_OBSERVATIONS)
    mine.sort(key=lambda e: (str(e.attributes.get("at") or e.updated_at), e.id), reverse=True)
    return mine


def _facts_here(store: Store, prefixes: set[str]) -> list[Entity]:
    out: list[Entity] = []
    for etype in (COMMITMENT, DECISION):
        found, _ = store.list_entities(etype, limit=SCAN_FACTS)
        for e in found:
            a = e.attributes
            source = str(a.get("source_exchange") or "")
            if source.split(":ex:", 1)[0] not in prefixes or a.get("valid_to"):
                continue
            if etype == COMMITMENT and str(a.get("status") or "").lower() not in OPEN_STATUSES:
                continue
            out.append(e)
    out.sort(key=lambda e: (e.updated_at, e.id), reverse=True)
    return out


# -- lines ---------------------------------------------------------------------


def _last_sentence(text: str) -> str:
    text = " ".join(text.split()).rstrip()
    cut = max(text.rfind(". ", 0, len(text) - 2), text.rfind("; ", 0, len(text) - 2))
    return text[cut + 2 :] if cut >= 0 and len(text) - cut > 25 else text


def _session_line(info: _SessionInfo) -> DigestLine:
    """Title and day, then where the session ended: the last ask and the reply's last
    sentence (what was left, most often), else the curator's summary."""
    s, exchanges = info.session, info.exchanges
    title = (s.title if s else "") or str(info.node.attributes.get("title") or "")
    last = exchanges[-1].attributes if exchanges else {}
    last_prompt = str(last.get("user_message") or "")
    last_reply = str(last.get("ai_response") or "")
    if not title:
        first = exchanges[0].attributes if exchanges else {}
        title = _clean(str(first.get("user_message") or ""), 60) or "untitled session"
    parts = [f'{_day(info.when)} "{_clean(title, 70)}"']
    if len(exchanges) > 1 and last_prompt:
        parts.append("last: " + _clean(last_prompt, 80))
    if last_reply:
        parts.append("ended: " + _clean(_last_sentence(last_reply), 120))
    elif s and s.summary:
        parts.append(_clean(_first_sentence(s.summary), 110))
    size = sum(len(e.description) for e in exchanges) or len(info.node.description)
    cost = max(1, estimate_tokens(" " * size))
    text = parts[0] + (" — " + "; ".join(parts[1:]) if parts[1:] else "")
    return DigestLine(info.node.id, text, cost)


def _failed(ent: Entity) -> bool:
    """Whether the call (its last run, when several were folded into it) failed."""
    a = ent.attributes
    states = a.get("states")
    if isinstance(states, list) and states and isinstance(states[-1], str):
        return states[-1] == "failed"
    code = a.get("exit_code")
    return bool(a.get("error")) or (isinstance(code, int) and code not in (0,))


def _work_lines(observations: Sequence[Entity], top: int) -> list[DigestLine]:
    """The `top` tool calls to show: unfixed failures first, then the rest newest first;
    reads and searches are left out (files show where reading went). A failure that a
    later run of the same command fixed says so. Only the chosen ones are rendered."""
    later_ok: dict[str, int] = {}
    for ent in reversed(observations):  # oldest first, to see what came after a failure
        cmd = ent.attributes.get("command")
        if isinstance(cmd, str) and cmd and not _failed(ent):
            later_ok[cmd] = ent.id
    chosen: list[tuple[int, Entity, bool]] = []
    seen: set[str] = set()
    for ent in observations:  # newest first
        a = ent.attributes
        if a.get("kind") in ("read", "search", "web") or ent.name in seen:
            continue
        seen.add(ent.name)
        cmd = a.get("command")
        failed = _failed(ent)
        fixed = failed and isinstance(cmd, str) and later_ok.get(cmd, ent.id) != ent.id
        # Unfixed failures first: they are what the next session most likely returns to.
        chosen.append((0 if failed and not fixed else 1, ent, fixed))
    chosen.sort(key=lambda c: c[0])
    out = []
    for _, ent, fixed in chosen[:top]:
        a = ent.attributes
        failed = _failed(ent)
        detail = str(a.get("error") or "") if failed else str(a.get("outcome") or ent.description)
        if not failed and a.get("error") and "→" in detail:
            # "failed → passed": what failed on the way is what the next session may need.
            detail += f" (was: {a['error']})"
        # No day: the sessions above carry theirs, and each day costs 4 tokens a line.
        text = _clean(ent.name, 90) + (": " + _clean(detail, 110) if detail else "")
        out.append(DigestLine(ent.id, text + (" → later passed" if fixed else ""), _obs_cost(ent)))
    return out


def _file_lines(
    store: Store, observations: Sequence[Entity], top: int
) -> tuple[list[str], list[DigestLine]]:
    """The `top` files most worked on (edits count most, recent work more), with lines."""
    score: dict[str, float] = {}
    last: dict[str, Entity] = {}
    kinds: dict[str, Counter[str]] = {}
    for rank, ent in enumerate(observations):  # newest first
        a = ent.attributes
        kind = str(a.get("kind") or "other")
        raw_files = a.get("files")
        raw_count = a.get("count")
        count = raw_count if isinstance(raw_count, int) else 1
        for f in raw_files if isinstance(raw_files, list) else []:
            if not isinstance(f, str) or not f:
                continue
            recency = 1.0 / (1.0 + rank / 20)
            score[f] = score.get(f, 0.0) + KIND_WEIGHT.get(kind, 0.5) * recency * max(
                1, min(count, 5)
            )
            kinds.setdefault(f, Counter())[kind] += 1
            last.setdefault(f, ent)
    ranked = sorted(score, key=lambda f: -score[f])[:top]
    ids = store.ids_named(FILE, ranked) if ranked else {}
    out = []
    for f in ranked:
        done = ", ".join(f"{k} {n}×" for k, n in kinds[f].most_common(3))
        text = f"{_clean(f, 90)} ({done})"
        outcome = str(last[f].attributes.get("outcome") or "")
        if outcome:
            text += ": " + _clean(outcome, 70)
        eid = ids.get(f, last[f].id)
        out.append(DigestLine(eid, text, 20 * sum(kinds[f].values())))
    return ranked, out


def _fact_line(ent: Entity) -> DigestLine:
    a = ent.attributes
    when = str(a.get("due") or a.get("decided_on") or a.get("valid_from") or "")
    label = "commitment" if ent.type == COMMITMENT else "decision"
    text = f"{label}: {_clean(ent.name, 90)}"
    if ent.description and ent.description.strip() != ent.name.strip():
        text += " — " + _clean(ent.description, 90)
    if when:
        text += f" ({'due ' if a.get('due') else ''}{_day(when)})"
    return DigestLine(ent.id, text, _body_cost(ent))


_NOT_NOTES = frozenset({*EPISODES, PASSAGE, CHAT_EXCHANGE, OBSERVATION, FILE, DECISION, COMMITMENT})


def _note_lines(store: Store, project: str, files: Sequence[str]) -> list[DigestLine]:
    entries = brain_context(store, project, files, limit=MAX_NOTES * 3)
    names = [e.title for e in entries if e.type not in _NOT_NOTES]
    if not names:
        return []
    owners = store.entities_named(names)
    out = []
    for e in entries:
        ent = owners.get(e.title)
        if e.type in _NOT_NOTES or ent is None or ent.type != e.type:
            continue
        where = f" [{_clean(e.doc_path, 60)}]" if e.doc_path else ""
        text = f"{_clean(e.title, 70)} ({_clean(e.type, 20)}){where}: {_clean(e.excerpt, 100)}"
        out.append(DigestLine(ent.id, text, _body_cost(ent)))
    return out[:MAX_NOTES]


# -- the digest ----------------------------------------------------------------


@dataclass(frozen=True)
class Digest:
    project: str
    sections: tuple[tuple[str, tuple[DigestLine, ...]], ...]

    def is_empty(self) -> bool:
        return not any(lines for _, lines in self.sections)

    def text(self, budget: int = DIGEST_TOKENS) -> str:
        """The digest as injected: a header, then each section's best lines that fit.

        Filled breadth first (every section's first line, then every second line, ...),
        so a small budget still covers sessions, work, commitments, files and notes.
        """
        name = PurePath(self.project).name or self.project
        head = [
            f"## Brain digest: {_clean(name, 60)} ({_clean(self.project, 120)})",
            "Open any item with brain_get(id); a session's steps with brain_timeline(id).",
        ]
        used = estimate_tokens("\n".join(head))
        kept: list[list[str]] = [[] for _ in self.sections]
        depth = max((len(lines) for _, lines in self.sections), default=0)
        for rank in range(depth):
            for i, (title, lines) in enumerate(self.sections):
                if rank >= len(lines):
                    continue
                rendered = lines[rank].render()
                cost = estimate_tokens(rendered) + 1
                if not kept[i]:
                    cost += estimate_tokens(f"### {title}") + 1
                if used + cost > budget:
                    continue
                used += cost
                kept[i].append(rendered)
        out = list(head)
        for (title, _), shown in zip(self.sections, kept, strict=True):
            if shown:
                out += [f"### {title}", *shown]
        return "\n".join(out) if len(out) > len(head) else ""


def project_digest(
    store: Store, sessions: Sessions, project: str, exclude_session: str = ""
) -> Digest:
    """What happened in `project` (an absolute root), as indexed lines, best first."""
    infos, prefixes = _sessions_here(store, sessions, project, exclude_session)
    observations = _observations_here(store, project)
    facts = _facts_here(store, prefixes) if prefixes else []
    paths, files = _file_lines(store, observations, MAX_FILES)
    notes = _note_lines(store, project, [str(PurePath(project) / p) for p in paths[:3]])
    return Digest(
        project,
        (
            ("Last sessions here", tuple(_session_line(i) for i in infos)),
            ("Recent work", tuple(_work_lines(observations, MAX_WORK))),
            ("Open commitments and decisions", tuple(_fact_line(f) for f in facts[:MAX_FACTS])),
            ("Files most worked on", tuple(files)),
            ("Notes", tuple(notes)),
        ),
    )


def digest_dict(digest: Digest) -> dict[str, Any]:
    """The digest as JSON for the HTTP API."""
    return {
        "project": digest.project,
        "sections": [
            {"title": t, "items": [{"id": d.id, "text": d.text, "cost": d.cost} for d in lines]}
            for t, lines in digest.sections
        ],
        "text": digest.text(),
    }
