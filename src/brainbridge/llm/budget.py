"""Caps on the LLM calls a brain makes by itself (judge, fact extraction, merges, curator):
at most `per_hour` in any hour and `per_day` in any 24 hours, counted in one small SQLite
file in the brain folder, so hooks, drainers, `brain serve` and the MCP server share them.

Over a cap, `CappedLLM` raises `LLMCapped` (an LLMError) before any request is sent, and
every caller's usual fallback runs: the local judge, extractor and curator. Never an error
for the user, never a bill past the cap.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brainbridge.errors import LLMError

if TYPE_CHECKING:
    from brainbridge.llm.base import ToolCall, ToolSpec
    from brainbridge.ports import LLM

log = logging.getLogger(__name__)

CALLS_FILE = "llm_calls.db"
DEFAULT_PER_HOUR = 200
DEFAULT_PER_DAY = 2000
HOUR, DAY = 3600.0, 86400.0


class LLMCapped(LLMError):
    """The hourly or daily cap on background LLM calls is reached."""


@dataclass(frozen=True)
class CallBudget:
    """The caps and the file counting calls against them."""

    file: Path
    per_hour: int = DEFAULT_PER_HOUR
    per_day: int = DEFAULT_PER_DAY

    def take(self, now: float | None = None) -> str | None:
        """Count one call if the caps allow it: None, else which cap stopped it (the
        refusal is counted too, for `brain stats`). A counter that cannot be read or
        written lets the call through (logged): the caps must never break a hook."""
        now = time.time() if now is None else now
        try:
            with closing(self._connect()) as conn, conn:
                conn.execute("BEGIN IMMEDIATE")
                conn.execute("DELETE FROM calls WHERE at < ?", (now - 2 * DAY,))
                hour, day = _counts(conn, now)
                refused = None
                if day >= self.per_day:
                    refused = f"the daily cap of {self.per_day} LLM calls is reached"
                elif hour >= self.per_hour:
                    refused = f"the hourly cap of {self.per_hour} LLM calls is reached"
                conn.execute("INSERT INTO calls (at, sent) VALUES (?, ?)", (now, refused is None))
                return refused
        except sqlite3.Error as exc:
            log.warning("cannot count LLM calls in %s (%s); the call goes ahead", self.file, exc)
            return None

    def usage(self, now: float | None = None) -> dict[str, int]:
        """Calls sent in the last hour and 24 hours, calls refused in 24 hours, the caps."""
        now = time.time() if now is None else now
        out = {"max_per_hour": self.per_hour, "max_per_day": self.per_day}
        if not self.file.exists():
            return {"last_hour": 0, "last_24h": 0, "capped_24h": 0, **out}
        try:
            with closing(self._connect()) as conn:
                hour, day = _counts(conn, now)
                (capped,) = conn.execute(
                    "SELECT COUNT(*) FROM calls WHERE sent = 0 AND at >= ?", (now - DAY,)
                ).fetchone()
        except sqlite3.Error as exc:
            log.warning("cannot read the LLM call counts in %s: %s", self.file, exc)
            hour = day = capped = 0
        return {"last_hour": hour, "last_24h": day, "capped_24h": capped, **out}

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.file, timeout=5, isolation_level=None)
        conn.execute("CREATE TABLE IF NOT EXISTS calls (at REAL NOT NULL, sent INTEGER NOT NULL)")
        conn.execute("CREATE INDEX IF NOT EXISTS calls_at ON calls (at)")
        return conn


def _counts(conn: sqlite3.Connection, now: float) -> tuple[int, int]:
    hour, day = conn.execute(
        "SELECT COALESCE(SUM(at >= ?), 0), COUNT(*) FROM calls WHERE sent = 1 AND at >= ?",
        (now - HOUR, now - DAY),
    ).fetchone()
    return int(hour), int(day)


def call_budget(brain: Path, table: Any) -> CallBudget:
    """The budget of the brain at `brain` from its `[llm]` table; a missing or unusable
    value takes its default (0 means no background LLM call at all)."""

    def cap(key: str, default: int) -> int:
        value = table.get(key) if hasattr(table, "get") else None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            if value is not None:
                log.warning(
                    "[llm] %s = %r is not a whole number >= 0; using %d", key, value, default
                )
            return default
        return value

    return CallBudget(
        brain / CALLS_FILE,
        cap("max_calls_per_hour", DEFAULT_PER_HOUR),
        cap("max_calls_per_day", DEFAULT_PER_DAY),
    )


class CappedLLM:
    """An LLM whose every call first takes one from a `CallBudget`."""

    def __init__(self, inner: LLM, budget: CallBudget) -> None:
        self.inner = inner
        self.budget = budget
        self.name = inner.name

    async def _take(self) -> None:
        refused = await asyncio.to_thread(self.budget.take)
        if refused:
            raise LLMCapped(f"{refused}; the local path runs instead")

    async def complete_json(
        self, system: str, user: str, *, schema: dict[str, Any] | None = None, timeout: float
    ) -> dict[str, Any]:
        await self._take()
        return await self.inner.complete_json(system, user, schema=schema, timeout=timeout)

    async def complete_text(
        self, system: str, messages: list[dict[str, str]], *, timeout: float
    ) -> str:
        await self._take()
        return await self.inner.complete_text(system, messages, timeout=timeout)

    async def call_tools(
        self,
        system: str,
        messages: list[dict[str, str]],
        tools: Sequence[ToolSpec],
        *,
        timeout: float,
        require: bool = False,
    ) -> list[ToolCall]:
        await self._take()
        return await self.inner.call_tools(
            system, messages, tools, timeout=timeout, require=require
        )

    async def aclose(self) -> None:
        await self.inner.aclose()
