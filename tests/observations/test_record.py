"""Tool events stored as observations in a real brain: folded per file or task, linked to
the session and the project's files, found by search, summed up for the curator."""

from __future__ import annotations

from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.model import CHAT_SESSION, FILE, OBSERVATION, Entity
from brainbridge.observations.calls import ToolEvent, tool_event
from brainbridge.observations.record import observe_events, recent_observations
from brainbridge.observations.summary import work_summary
from observations import payloads as p

TEST = "pytest tests/test_auth.py -q"


def _events(project: Path) -> list[ToolEvent]:
    calls = [
        p.read(project, "api/auth.py"),
        p.edit(project, "api/auth.py", "a - b", "a + b"),
        p.read(project, "api/auth.py"),  # checking the edit: folds into it
        p.edit(project, "api/auth.py", "a + b", "a + b + 0"),
        p.bash_failed(project, TEST, p.PYTEST_FAILED),
        p.edit(project, "api/tokens.py", "'tok-'", "'tok-' + user"),
        p.bash(project, TEST, "2 passed"),  # the same run again: folds into the failure
        p.bash(project, "ls"),  # noise
    ]
    return [e for c in calls if (e := tool_event(c)) is not None]


async def _observations(brain: Brain) -> list[Entity]:
    found, _ = await brain._run(recent_observations, brain.store, p.SESSION, 50)
    return sorted(found, key=lambda e: e.id)


async def test_a_coding_session_folds_into_a_few_observations(brain: Brain, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    for event in _events(project):
        await observe_events(brain, [event])
    obs = await _observations(brain)
    assert [o.description for o in obs] == [
        "read api/auth.py: 1 line",
        "edited api/auth.py: +1 −1 lines (3 calls)",
        f"ran {TEST}: failed → passed (2 calls); error was: FAILED tests/test_auth.py::test_token"
        " - AssertionError: assert 'tok-' == 'tok-ana'",
        "edited api/tokens.py: +1 −1 lines",
    ]
    test_run = obs[2].attributes
    assert test_run["kind"] == "test" and test_run["exit_code"] == 0
    assert test_run["session_id"] == p.SESSION and test_run["project"] == str(project)
    assert test_run["files"] == ["tests/test_auth.py"] and test_run["count"] == 2
    assert work_summary(obs) == (
        f"Edited api/auth.py, api/tokens.py; fixed the failing test ({TEST})"
    )


async def test_observations_link_to_files_and_the_session_and_are_found(
    brain: Brain, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    await observe_events(brain, _events(project))
    auth = await brain.get_entity(FILE, "api/auth.py")
    assert auth is not None and auth.attributes["project"] == str(project)
    graph = await brain.subgraph((FILE, "api/auth.py"), hops=1)
    touched = {r.src_name for r in graph.edges if r.type == "touched"}
    assert len(touched) == 2 and all("api/auth.py" in name for name in touched)
    session = await brain.get_entity(CHAT_SESSION, p.SESSION)
    assert session is not None and session.attributes["project"] == str(project)

    hits = await brain.search("auth.py")
    assert {h.entity.type for h in hits[:3]} >= {OBSERVATION, FILE}
    hits = await brain.search("failing token test")
    assert hits and hits[0].entity.attributes.get("kind") == "test"


async def test_a_replayed_call_is_stored_once(brain: Brain, tmp_path: Path) -> None:
    events = _events(tmp_path / "proj")
    await observe_events(brain, events)
    before = [(o.name, o.attributes["count"]) for o in await _observations(brain)]
    assert await observe_events(brain, events) == []  # a drainer replaying its spool file
    assert [(o.name, o.attributes["count"]) for o in await _observations(brain)] == before


async def test_sessions_and_projects_do_not_fold_together(brain: Brain, tmp_path: Path) -> None:
    one = tool_event(p.edit(tmp_path / "a", "main.py", "x", "y"))
    other_project = tool_event(p.edit(tmp_path / "b", "main.py", "x", "y"))
    other_session = tool_event(p.edit(tmp_path / "a", "main.py", "y", "z", session="s-2"))
    assert one and other_project and other_session
    written = [await observe_events(brain, [e]) for e in (one, other_project, other_session)]
    assert len({w[0].name for w in written}) == 3
