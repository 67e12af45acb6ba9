"""`python -m brainbridge.hooks drain`: store the turns Stop hooks spooled (see `spool`)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from brainbridge.hooks.observe import store_record
from brainbridge.hooks.spool import claim, drainer_lock, read_records, waiting
from brainbridge.hooks.work import store_turn

if TYPE_CHECKING:
    from brainbridge.brain import Brain
    from brainbridge.bridge import Bridge
    from brainbridge.ports import LLM
    from brainbridge.settings import Settings

log = logging.getLogger(__name__)
# A drainer that finds turns spooled while it was finishing goes round again this often.
ROUNDS = 3


async def store_spooled(home: Path) -> int:
    """Store every spooled turn not stored yet; how many were stored. One drainer at a time:
    another one running returns 0 at once. Raises: whatever opening the brain raises."""
    from brainbridge.brain import Brain
    from brainbridge.hooks.runner import _make_llm, hook_settings

    with drainer_lock(home) as mine:
        if not mine or not waiting(home):
            return 0
        settings = hook_settings(home, "stop")
        llm = _make_llm(settings, home, "stop")
        brain = await Brain.open(home, embedder=None, background_indexing=False)
        stored = 0
        try:
            bridge = settings.make_bridge(brain, llm)
            await _attach_curator(brain, bridge, llm, settings)
            while files := claim(home):
                for path in files:
                    done, count = await _store_file(brain, bridge, path)
                    stored += count
                    if not done:  # left for the next drainer to replay
                        return stored
                    path.unlink(missing_ok=True)
            await bridge.drain()
        finally:
            await brain.close()
            if llm is not None:
                await llm.aclose()
        return stored


async def _store_file(brain: Brain, bridge: Bridge, path: Path) -> tuple[bool, int]:
    stored = 0
    for rec in read_records(path):
        if rec.get("type"):  # a tool call or a compaction mark (hooks/observe.py)
            await store_record(brain, bridge, rec)
            continue
        obs = await store_turn(brain, bridge, rec)
        if obs is not None and obs.error:
            log.warning("spooled turn %s not stored yet: %s", rec["key"], obs.error)
            return False, stored
        stored += obs is not None and obs.exchange is not None
    return True, stored


async def _attach_curator(
    brain: Brain, bridge: Bridge, llm: LLM | None, settings: Settings
) -> None:
    """The curator, as in `brain serve`; a [curator] setting it cannot use is noted once."""
    from brainbridge.curator.wiring import attach_curator
    from brainbridge.hooks.runner import _note, _problem

    try:
        config = settings.curator_config()
    except Exception as exc:
        _note(settings.brain_path, "stop", f"{_problem(exc)}; the curator used its defaults")
        config = None
    await attach_curator(brain, bridge, llm, config)


def main(home: Path) -> int:
    """Drain until the spool is empty (a few rounds for turns spooled meanwhile); exit 0."""
    from brainbridge.hooks.runner import _log_failure, _traceback

    for _ in range(ROUNDS):
        try:
            asyncio.run(store_spooled(home))
        except Exception:
            log.exception("brain spool drain failed")
            _log_failure(home, "drain", _traceback())
            return 0
        if not waiting(home):
            break
    return 0
