"""Chat sessions, the bridge's per-turn log and curator runs."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from brainbridge.errors import NotFound
from brainbridge.model import CHAT_EXCHANGE, Entity, Session
from brainbridge.redact import redact_value
from brainbridge.store.dialect import dialect_of
from brainbridge.store.sqlite.store import _dumps, _row_entity
from brainbridge.store.sqlite.writes import now_iso, write_tx

_FIELDS = {"title", "title_source", "summary", "message_count"}


class SqliteSessions:
    """Session rows in the brain database."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.sql = dialect_of(conn)

    def ensure(self, session_id: str) -> Session:
        """The session with this id, created empty if new."""
        ts = now_iso()
        with write_tx(self.conn):
            self.conn.execute(
                "INSERT INTO sessions(id, created_at, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (session_id, ts, ts),
            )
        session = self.get(session_id)
        assert session is not None
        return session

    def get(self, session_id: str, log_limit: int = 50) -> Session | None:
        """The session with its most recent bridge log entries, or None."""
        row = self.conn.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            return None
        log_rows = self.conn.execute(
            "SELECT entry FROM bridge_log WHERE session_id = ? ORDER BY id DESC LIMIT ?",
            (session_id, log_limit),
        ).fetchall()
        return Session(
            id=row["id"],
            title=row["title"],
            title_source=row["title_source"],
            summary=row["summary"],
            bridge_context_log=tuple(json.loads(r[0]) for r in reversed(log_rows)),
            message_count=row["message_count"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )

    def recent(self, limit: int = 50) -> list[Session]:
        """Most recently updated sessions first (without their logs)."""
        rows = self.conn.execute(
            "SELECT id FROM sessions ORDER BY updated_at DESC LIMIT ?", (limit,)
        ).fetchall()
        return [s for r in rows if (s := self.get(r[0], log_limit=0)) is not None]

    def update(self, session_id: str, **fields: Any) -> Session:
        """Set title, title_source, summary or message_count.

        Raises: NotFound if the session does not exist; ValueError for unknown fields.
        """
        unknown = set(fields) - _FIELDS
        if unknown:
            raise ValueError(f"unknown session fields: {sorted(unknown)}")
        fields = redact_value(fields)  # a title or summary may quote a pasted key
        sets = ", ".join(f"{k} = ?" for k in fields)
        with write_tx(self.conn):
            cur = self.conn.execute(
                f"UPDATE sessions SET {sets}, updated_at = ? WHERE id = ?",
                (*fields.values(), now_iso(), session_id),
            )
            if cur.rowcount == 0:
                raise NotFound(f"no session {session_id!r}")
        session = self.get(session_id)
        assert session is not None
        return session

    def set_title_unless_user(self, session_id: str, title: str, source: str) -> bool:
        """Set an automatic title unless the user already chose one; True if it changed."""
        title = redact_value(title)
        with write_tx(self.conn):
            cur = self.conn.execute(
                "UPDATE sessions SET title = ?, title_source = ?, updated_at = ?"
                " WHERE id = ? AND title_source != 'user' AND title != ?",
                (title, source, now_iso(), session_id, title),
            )
        return cur.rowcount > 0

    def next_turn(self, session_id: str, wanted: int | None = None) -> int:
        """Take the session's next exchange number, or claim `wanted` (creating the
        session if needed); message_count moves up to the number at once.

        Atomic across processes: two Stop hooks of one session finishing together get
        different numbers, so neither overwrites the other's exchange.
        """
        ts = now_iso()
        with write_tx(self.conn):
            self.conn.execute(
                "INSERT INTO sessions(id, created_at, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (session_id, ts, ts),
            )
            rows = self.conn.execute(
                f"UPDATE sessions SET message_count = {self.sql.greatest}(message_count + ?, ?),"
                " updated_at = ? WHERE id = ? RETURNING message_count",
                (0 if wanted else 1, wanted or 0, ts, session_id),
            ).fetchall()  # read to the end: the update is done once its rows are
        return wanted or int(rows[0][0])

    def record_turn(
        self, session_id: str, turn: int, entry: dict[str, Any], count: bool = True
    ) -> None:
        """Add or merge the bridge log entry of one turn; `count` raises message_count to it.

        Enrich and observe of the same turn may run in different processes (hooks), so
        the second writer merges into the first one's entry: lists are unioned. Every
        string in the entry is redacted: queries and reasons quote the prompt.
        """
        entry = redact_value(entry)
        ts = now_iso()
        with write_tx(self.conn):
            self.conn.execute(
                "INSERT INTO sessions(id, created_at, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (session_id, ts, ts),
            )
            row = self.conn.execute(
                "SELECT id, entry FROM bridge_log WHERE session_id = ? AND turn = ?"
                " ORDER BY id DESC LIMIT 1",
                (session_id, turn),
            ).fetchone()
            if row is None:
                self.conn.execute(
                    "INSERT INTO bridge_log(session_id, turn, entry, created_at)"
                    " VALUES (?, ?, ?, ?)",
                    (session_id, turn, _dumps({"turn": turn, **entry}), ts),
                )
            else:
                merged = json.loads(row["entry"])
                for key, value in entry.items():
                    old = merged.get(key)
                    if isinstance(old, list) and isinstance(value, list):
                        merged[key] = old + [v for v in value if v not in old]
                    elif value not in (None, [], ""):
                        merged[key] = value
                self.conn.execute(
                    "UPDATE bridge_log SET entry = ? WHERE id = ?", (_dumps(merged), row["id"])
                )
            if count:
                self.conn.execute(
                    f"UPDATE sessions SET message_count = {self.sql.greatest}(message_count, ?),"
                    " updated_at = ? WHERE id = ?",
                    (turn, ts, session_id),
                )

    def start_curator_run(self, session_id: str, trigger: str) -> int:
        """Record the start of a curator run and return its id."""
        with write_tx(self.conn):
            cur = self.conn.execute(
                "INSERT INTO curator_runs(session_id, trigger, started_at) VALUES (?, ?, ?)"
                " RETURNING id",
                (session_id, trigger, now_iso()),
            )
            return int(cur.fetchone()[0])

    def finish_curator_run(
        self,
        run_id: int,
        tool_calls: list[dict[str, Any]],
        actions: list[str],
        error: str | None = None,
    ) -> None:
        """Record what a curator run called and changed (secrets redacted)."""
        tool_calls, actions, error = redact_value([tool_calls, actions, error])
        with write_tx(self.conn):
            self.conn.execute(
                "UPDATE curator_runs SET finished_at = ?, tool_calls = ?, actions = ?, error = ?"
                " WHERE id = ?",
                (now_iso(), _dumps(tool_calls), _dumps(actions), error, run_id),
            )

    def curator_runs(self, session_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """The latest curator runs of a session, newest first."""
        rows = self.conn.execute(
            "SELECT * FROM curator_runs WHERE session_id = ? ORDER BY id DESC LIMIT ?",
            (session_id, limit),
        ).fetchall()
        return [
            {
                "id": r["id"],
                "trigger": r["trigger"],
                "started_at": r["started_at"],
                "finished_at": r["finished_at"],
                "tool_calls": json.loads(r["tool_calls"]),
                "actions": json.loads(r["actions"]),
                "error": r["error"],
            }
            for r in rows
        ]

    # -- curator reads (issue 4) ---------------------------------------------

    def session_exchanges(self, session_id: str, limit: int = 400) -> list[Entity]:
        """The session's latest `limit` Chat_Exchange entities, in exchange order."""
        # Exchange names are `{id[:8]}:ex:{n}`: a range on the (type, name) index finds them
        # without scanning; the attribute check drops other sessions sharing the prefix.
        prefix, sql = f"{session_id[:8]}:ex:", self.sql
        rows = self.conn.execute(
            f"SELECT * FROM (SELECT *, CAST({sql.number} AS INTEGER) AS n FROM entities"
            f" WHERE type = ? AND {sql.name_range} AND {sql.session} = ?"
            " ORDER BY n DESC LIMIT ?) latest ORDER BY n",
            (CHAT_EXCHANGE, prefix, prefix[:-1] + ";", session_id, limit),
        ).fetchall()
        return [_row_entity(r) for r in rows]

    def session_ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        """Ids of sessions starting with `prefix`, most recently updated first."""
        rows = self.conn.execute(
            "SELECT id FROM sessions WHERE substr(id, 1, ?) = ? ORDER BY updated_at DESC LIMIT ?",
            (len(prefix), prefix, limit),
        ).fetchall()
        return [r[0] for r in rows]


if TYPE_CHECKING:
    from brainbridge.ports import Sessions

    def _is_sessions(sessions: SqliteSessions) -> Sessions:  # mypy holds it to the port
        return sessions
