"""When the curator runs: the cadence through the bridge's hook, and the manual trigger."""

from __future__ import annotations

import pytest

from brainbridge.bridge.bridge import Bridge
from brainbridge.curator import Curator, CuratorConfig, attach_curator, curator_config
from brainbridge.errors import InvalidInput, NotFound

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
    bridge = Bridge(brain)
    curator = await attach_curator(brain, bridge)
    assert await attach_curator(brain, bridge) is curator  # attaching twice changes nothing
    turns = (MIGRATION_CHAT * 2)[:12]
    for n, (user, ai) in enumerate(turns, start=1):
        await bridge.observe_now("s-cadence", n, user, ai)

    runs = await curator.history("s-cadence")
    assert [r["trigger"] for r in reversed(runs)] == [
        "exchange 1",
        "exchange 3",
        "exchange 5",
        "exchange 10",
    ]
    assert all(r["error"] is None and r["finished_at"] for r in runs)


async def test_the_chat_never_waits_for_the_curator(brain, gated_llm: GatedLLM) -> None:
    bridge = Bridge(brain)
    await attach_curator(brain, bridge, gated_llm)

    bridge.observe("s-1", 1, *MIGRATION_CHAT[0])  # what the chat adapter does after a reply
    await gated_llm.entered.wait()

    # The curator waits on its model while the next message is judged and answered.
    enrichment = await bridge.enrich("What were the main risks of the Postgres migration?", "s-1")
    assert enrichment.source != "error"
    assert gated_llm.in_flight == 1
    session = await brain._run(brain.sessions.get, "s-1")
    assert session.title == ""
    gated_llm.release.set()
    await bridge.drain()  # covers the curator run, so adapters can close the brain after it
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


def test_config_from_the_curator_section_of_config_toml() -> None:
    config = curator_config({"first": [1, 2], "every": 5, "llm_timeout": 8})
    assert (config.first, config.every, config.llm_timeout) == ((1, 2), 5, 8.0)
    assert curator_config({}) == CuratorConfig()


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"evry": 5}, "unknown setting"),
        ({"every": "often"}, "cannot use 'often'"),
        ({"every": -1}, "must not be negative"),
        ({"first": [0, 3]}, "must not be negative"),
        ({"first": 3}, "cannot use 3"),
    ],
)
def test_bad_curator_settings_name_the_key(section, message) -> None:
    with pytest.raises(InvalidInput, match=message):
        curator_config(section)
