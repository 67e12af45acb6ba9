"""The curator: tends a session's title, summary and the daily activity log in the background.

Runs after exchanges on a cadence (the bridge's `after_observe` hook, see `wiring`) or on
demand. One run
makes one LLM call offering the tools, or plans the same tool calls locally when there is
no LLM or it fails. Runs for one session never overlap, in this process or any other, and
triggers that arrive during a run are folded into one follow-up run.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from brainbridge.curator.config import CuratorConfig
from brainbridge.curator.files import SessionGuard, add_to_day, day_record_file, read_day
from brainbridge.curator.local import plan_locally
from brainbridge.curator.prompts import PROMPT_VERSION, SYSTEM, user_prompt
from brainbridge.curator.text import Exchange, clip
from brainbridge.curator.tools import Toolbox
from brainbridge.errors import LLMError, NotFound
from brainbridge.llm import ToolCall
from brainbridge.model import Entity, Session
from brainbridge.ports import LLM

if TYPE_CHECKING:
    from brainbridge.brain import Brain

log = logging.getLogger(__name__)

MANUAL = "manual"
COALESCED = "coalesced"
WORK_OBSERVATIONS = 60  # the newest observations of a session its summary reads


@dataclass(frozen=True)
class CuratorRun:
    """What one run did: its tool calls, what changed, and what went wrong, if anything."""

    session_id: str
    trigger: str
    run_id: int | None = None
    tool_calls: tuple[dict[str, Any], ...] = ()
    actions: tuple[str, ...] = ()
    error: str | None = None
    decided_by: str = "local"  # llm | local | llm+local
    title: str = ""
    summary: str = ""

    @property
    def changes(self) -> str:
        """ "Updated title · Logged", or "No changes"."""
        return " · ".join(self.actions) or "No changes"

    def to_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "trigger": self.trigger,
            "run_id": self.run_id,
            "tool_calls": list(self.tool_calls),
            "actions": list(self.actions),
            "changes": self.changes,
            "error": self.error,
            "decided_by": self.decided_by,
            "title": self.title,
            "summary": self.summary,
        }


def _local_now() -> datetime:
    return datetime.now().astimezone()


class Curator:
    """Tends sessions of one brain. Register `after_observe` with the bridge."""

    def __init__(
        self,
        brain: Brain,
        llm: LLM | None = None,
        config: CuratorConfig | None = None,
        now: Callable[[], datetime] = _local_now,
    ) -> None:
        self.brain = brain
        self.llm = llm
        self.config = config or CuratorConfig()
        self._now = now
        self._tasks: set[asyncio.Task[Any]] = set()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    # -- triggers -------------------------------------------------------------

    async def after_observe(self, session_id: str, exchange_number: int) -> None:
        """The bridge's after-observe hook: run if the cadence says so; never raises.

        The bridge calls it from its background observe task, so the chat never waits,
        and `bridge.drain()` waits for the run like for the rest of observe. A run already
        in progress for the session takes the trigger over and this returns at once.
        """
        if self.config.is_due(exchange_number):
            await self.run(session_id, f"exchange {exchange_number}")

    def schedule(self, session_id: str, trigger: str = "scheduled") -> asyncio.Task[Any]:
        """Run in the background, outside any bridge; `drain()` waits for it."""
        task = asyncio.ensure_future(self.run(session_id, trigger))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def curate(self, session_id: str) -> CuratorRun:
        """Run now regardless of cadence, after any run in progress for the session.

        Raises: NotFound if the session does not exist.
        """
        session = await self.brain._run(self.brain.sessions.get, session_id, 0)
        if session is None:
            raise NotFound(f"no session {session_id!r}")
        run = await self.run(session_id, MANUAL, wait=True)
        assert run is not None
        return run

    async def run(self, session_id: str, trigger: str, wait: bool = False) -> CuratorRun | None:
        """One run, never overlapping another for the session; never raises.

        Without `wait`, a run already in progress (here or in another process) takes this
        trigger over and None is returned; with it, this waits its turn.
        """
        try:
            return await self._serialised(session_id, trigger, wait)
        except Exception as exc:
            log.exception("curator failed for session %s", session_id)
            return CuratorRun(session_id, trigger, error=f"{type(exc).__name__}: {exc}")

    async def drain(self) -> None:
        """Wait for every scheduled run (call before closing the brain)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def history(self, session_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """The session's latest runs, newest first: when, trigger, tool calls, actions, error."""
        return await self.brain._run(self.brain.sessions.curator_runs, session_id, limit)

    # -- serialisation ----------------------------------------------------------

    async def _serialised(self, session_id: str, trigger: str, wait: bool) -> CuratorRun | None:
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        guard = SessionGuard(self.brain.files, session_id)
        if lock.locked() and not wait:
            guard.mark_pending()
            log.debug("curator: run in progress for %s; trigger %r coalesced", session_id, trigger)
            return None
        async with lock:
            if wait:
                if not await _acquire(guard, self.config.lock_timeout):
                    return CuratorRun(
                        session_id,
                        trigger,
                        error=f"another process kept curating for {self.config.lock_timeout:g} s",
                    )
            else:
                guard.mark_pending()
                if not guard.try_acquire():
                    log.debug(
                        "curator: %s is being curated elsewhere; trigger handed over", session_id
                    )
                    return None
            result: CuratorRun | None = None
            while True:
                try:
                    while True:
                        guard.take_pending()  # this run covers every trigger until now
                        result = await self._run_once(session_id, trigger)
                        if not guard.has_pending():
                            break
                        trigger = COALESCED
                finally:
                    guard.release()
                # A trigger may have marked between the last look and the release.
                if not (guard.has_pending() and guard.try_acquire()):
                    return result
                trigger = COALESCED

    # -- one run --------------------------------------------------------------

    async def _put_nodes(
        self,
        session: Session,
        box: Toolbox,
        rows: Sequence[Entity],
        now: datetime,
        day_runs: list[dict[str, Any]],
    ) -> None:
        """The session and the day as entities (`nodes`); never fails the run."""
        from brainbridge.curator.nodes import put_session_nodes

        try:
            await self.brain._run(
                put_session_nodes,
                self.brain.store,
                session.id,
                box.title,
                box.summary,
                session.message_count,
                rows,
                now.date(),
                day_runs,
            )
            self.brain._written()
        except Exception:
            log.exception("curator: could not keep the nodes of session %s", session.id)

    async def _run_once(self, session_id: str, trigger: str) -> CuratorRun:
        brain, sessions = self.brain, self.brain.sessions
        run_id: int | None = None
        box: Toolbox | None = None
        error: str | None = None
        decided_by = "local"
        try:
            run_id = await brain._run(sessions.start_curator_run, session_id, trigger)
            session = await brain._run(sessions.get, session_id, 0)
            if session is None:
                raise NotFound(f"no session {session_id!r}")
            rows = await brain._run(
                sessions.session_exchanges, session_id, self.config.summary_exchanges
            )
            exchanges = [_exchange(e) for e in rows]
            now = self._now()
            day_file = day_record_file(brain.files, now.date())
            day_runs = await asyncio.to_thread(read_day, day_file)
            mine = [r for r in day_runs if r.get("session_id") == session_id]
            logged = [r for r in mine if r.get("activity")]
            box = Toolbox(
                brain, session, self._now, brain.files, logged[-1]["activity"] if logged else ""
            )
            llm_calls: list[ToolCall] | None = None
            if self.llm is not None and exchanges:
                try:
                    llm_calls = await self._ask_llm(session, exchanges, day_runs, box)
                except (LLMError, TimeoutError) as exc:
                    log.warning(
                        "curator LLM failed for %s; using the local curator: %s", session_id, exc
                    )
                    error = f"LLM failed, the local curator ran instead: {exc}"
            if llm_calls is not None:
                decided_by = "llm"
                await box.execute_all(llm_calls, "llm", self.config.max_tool_calls)
            # The local curator does the whole job without an LLM, and fills what it left out.
            if llm_calls is None or not box.title or not box.summary:
                state = Session(session_id, box.title, box.title_source, box.summary)
                through = max((int(r.get("through") or 0) for r in logged), default=None)
                local = await asyncio.to_thread(
                    plan_locally,
                    state,
                    exchanges,
                    through,
                    self.config,
                    trigger == MANUAL,
                    llm_calls is not None,
                    await self._work(session_id),
                )
                if local and decided_by == "llm":
                    decided_by = "llm+local"
                await box.execute_all(local, "local", self.config.max_tool_calls)
            entry = {
                "time": now.isoformat(timespec="seconds"),
                "session_id": session_id,
                "trigger": trigger,
                "title": box.title,
                "summary": clip(box.summary, 300),
                "actions": box.actions,
                "activity": box.activity,
                "through": exchanges[-1].number if exchanges else 0,
                "by": decided_by,
            }
            await asyncio.to_thread(add_to_day, day_file, entry)
            await self._put_nodes(session, box, rows, now, [*day_runs, entry])
        except Exception as exc:
            log.exception("curator run failed for session %s", session_id)
            error = f"{type(exc).__name__}: {exc}"
        records = box.records if box else []
        actions = box.actions if box else []
        if run_id is not None:
            try:
                await brain._run(sessions.finish_curator_run, run_id, records, actions, error)
            except Exception:
                log.exception("could not record curator run %s", run_id)
        return CuratorRun(
            session_id,
            trigger,
            run_id,
            tuple(records),
            tuple(actions),
            error,
            decided_by,
            box.title if box else "",
            box.summary if box else "",
        )

    async def _work(self, session_id: str) -> str:
        """What the agent did in the session, from its observations ("" if none)."""
        from brainbridge.observations.record import recent_observations
        from brainbridge.observations.summary import work_summary

        try:
            found, _ = await self.brain._run(
                recent_observations, self.brain.store, session_id, WORK_OBSERVATIONS
            )
        except Exception:
            log.exception("curator: could not read the observations of %s", session_id)
            return ""
        return work_summary(found)

    async def _ask_llm(
        self,
        session: Session,
        exchanges: Sequence[Exchange],
        day_runs: list[dict[str, Any]],
        box: Toolbox,
    ) -> list[ToolCall]:
        assert self.llm is not None
        prompt = user_prompt(
            session, exchanges, day_runs, list(self.brain.types), self.config.prompt_exchanges
        )
        timeout = self.config.llm_timeout
        log.debug("curator %s asks %s", PROMPT_VERSION, self.llm.name)
        # The provider enforces `timeout`; the outer bound guards against one that does not.
        return await asyncio.wait_for(
            self.llm.call_tools(
                SYSTEM, [{"role": "user", "content": prompt}], box.offered(), timeout=timeout
            ),
            timeout + 5,
        )


async def _acquire(guard: SessionGuard, timeout: float) -> bool:
    """Wait for the session lock without a thread, so a cancelled wait never takes it later."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not guard.try_acquire():
        if asyncio.get_running_loop().time() >= deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def _exchange(entity: Entity) -> Exchange:
    attrs = entity.attributes
    try:
        number = int(attrs.get("exchange_number") or 0)
    except (TypeError, ValueError):
        number = 0
    return Exchange(
        number, str(attrs.get("user_message") or ""), str(attrs.get("ai_response") or "")
    )
