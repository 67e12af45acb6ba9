"""When the curator runs: the cadence through the bridge's hook, and the manual trigger."""

from __future__ import annotations

import pytest

from brainbridge.bridge.bridge import Bridge, BridgeConfig
from brainbridge.curator import Curator, CuratorConfig
from brainbridge.errors import NotFound

from .conftest import MIGRATION_CHAT, GatedLLM, seed


def test_default_cadence_is_1_3_5_then_every_10th() -> None:
    due = [n for n in range(1, 46) if CuratorConfig().is_due(n)]
    assert due == [1, 3, 5, 10, 20, 30, 40]


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (CuratorConfig(first=(2,), every=4), [2, 4, 8, 12]),
        (CuratorConfig(first=(1,), every=0), [1]),
        (CuratorConfig(first=(), every=5), [5, 10]),
    ],
)
def test_cadence_is_configurable(config: CuratorConfig, expected: list[int]) -> None:
    assert [n for n in range(0, 13) if config.is_due(n)] == expected


async def test_bridge_observe_triggers_runs_on_the_cadence(brain) -> None:
    curator = Curator(brain)
    bridge = Bridge(brain, config=BridgeConfig(after_observe=[curator.after_observe]))
    turns = (MIGRATION_CHAT * 2)[:12]
    for n, (user, ai) in enumerate(turns, start=1):
        await bridge.observe_now("s-cadence", n, user, ai)
        await curator.drain()  # one run at a time, so none is coalesced

    runs = await curator.history("s-cadence")
    assert [r["trigger"] for r in reversed(runs)] == [
        "exchange 1",
        "exchange 3",
        "exchange 5",
        "exchange 10",
    ]
    assert all(r["error"] is None and r["finished_at"] for r in runs)


async def test_the_hook_returns_before_the_run_finishes(brain, gated_llm: GatedLLM) -> None:
    curator = Curator(brain, gated_llm)
    bridge = Bridge(brain, config=BridgeConfig(after_observe=[curator.after_observe]))

    obs = await bridge.observe_now("s-1", 1, *MIGRATION_CHAT[0])

    # observe is done and its exchange stored while the curator still waits on its model.
    assert obs.exchange is not None and obs.error is None
    await gated_llm.entered.wait()
    assert gated_llm.in_flight == 1
    session = await brain._run(brain.sessions.get, "s-1")
    assert session.title == ""
    gated_llm.release.set()
    await curator.drain()
    session = await brain._run(brain.sessions.get, "s-1")
    assert (session.title, session.title_source) == ("Gated", "ai")


async def test_manual_run_ignores_the_cadence(brain) -> None:
    await seed(brain, "s-1", MIGRATION_CHAT[:2])
    curator = Curator(brain)
    await curator.after_observe("s-1", 2)  # not due: nothing scheduled
    await curator.drain()
    assert await curator.history("s-1") == []

    run = await curator.curate("s-1")

    assert run.trigger == "manual" and run.error is None
    assert run.actions[:2] == ("Updated title", "Updated summary")
    assert [r["trigger"] for r in await curator.history("s-1")] == ["manual"]


async def test_manual_run_of_an_unknown_session_is_not_found(brain) -> None:
    with pytest.raises(NotFound, match="no-such"):
        await Curator(brain).curate("no-such")
