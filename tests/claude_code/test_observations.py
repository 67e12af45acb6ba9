"""The real Claude Code CLI does some coding work: its tool calls become observations.

`claude -p` against the fake Anthropic server, with the hooks as `brain hooks install`
writes them: the model reads a file, runs the tests (they fail), fixes the file and runs
them again (they pass). Once the run has returned and the drainer is done, the brain holds
what was done, folded, linked to the files and the session, and the session's summary
says it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.model import FILE, OBSERVATION, Entity
from claude_code.conftest import Setup
from fakes.llm_server import FakeRequest, reply_text, reply_tool_calls
from fakes.llm_wire import Behaviour
from hooks.conftest import wait_drained

TEST = "python3 -m unittest -q test_calc"
DONE = "Fixed add() in calc.py; the test passes now."
PRIVATE = "zebra-quartz-7741"


def _steps(project: Path) -> list[tuple[str, dict[str, object]]]:
    calc = str(project / "calc.py")
    return [
        ("Read", {"file_path": calc}),
        ("Bash", {"command": TEST, "description": "Run the tests"}),
        ("Edit", {"file_path": calc, "old_string": "a - b", "new_string": "a + b"}),
        ("Bash", {"command": TEST, "description": "Run the tests again"}),
    ]


def _coder(project: Path) -> Callable[[FakeRequest], Behaviour]:
    """The fake model: one tool call per request until the steps are done, then a reply."""
    steps = _steps(project)

    def respond(request: FakeRequest) -> Behaviour:
        if not request.body.get("tools"):  # Claude Code's side requests (titles and such)
            return reply_text("Fix add")
        results = sum(
            1
            for m in request.body["messages"]
            if isinstance(m.get("content"), list)
            for b in m["content"]
            if b.get("type") == "tool_result"
        )
        if results < len(steps):
            return reply_tool_calls([steps[results]])
        return reply_text(DONE)

    return respond


async def _brain_state(brain_path: Path, session_id: str) -> tuple[list[Entity], str, list[str]]:
    async with await Brain.open(brain_path, embedder=None, background_indexing=False) as b:
        found, _ = await b._run(b.store.list_entities, OBSERVATION, f"[{session_id[:8]}:")
        session = await b._run(b.sessions.get, session_id)
        hits = await b.search("calc.py")
        summary = session.summary if session else ""
        return sorted(found, key=lambda e: e.id), summary, [h.entity.type for h in hits]


def test_a_coding_session_leaves_its_observations(setup: Setup) -> None:
    project = setup.project
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (project / "test_calc.py").write_text(
        "import unittest\n\nfrom calc import add\n\n\n"
        "class T(unittest.TestCase):\n    def test_add(self):\n"
        "        self.assertEqual(add(2, 3), 5)\n"
    )
    setup.fake.responder = _coder(project)
    result = setup.claude(
        f"The add test fails; fix calc.py. <private>My bank PIN is {PRIVATE}.</private>",
        "Read",
        "Edit",
        "Bash(python3 -m unittest:*)",
    )
    assert result["result"] == DONE
    assert (project / "calc.py").read_text().endswith("a + b\n")  # the tools really ran

    wait_drained(setup.brain)
    observations, summary, found = asyncio.run(_brain_state(setup.brain, result["session_id"]))
    by_title = {o.attributes["title"]: o.attributes for o in observations}
    assert list(by_title) == ["read calc.py", f"ran {TEST}", "edited calc.py"]
    test_run = by_title[f"ran {TEST}"]
    assert test_run["kind"] == "test" and test_run["outcome"] == "failed → passed"
    assert test_run["error"] == "AssertionError: -1 != 5" and test_run["count"] == 2
    assert by_title["edited calc.py"]["files"] == ["calc.py"]
    assert by_title["edited calc.py"]["project"] == str(project)
    assert f"Work: Edited calc.py; fixed the failing test ({TEST})" in summary
    assert FILE in found and OBSERVATION in found

    # The next session opens with a digest that names the file edited and the fix...
    setup.fake.responder = lambda request: reply_text("Noted.")
    setup.claude("What did we do last time in this project?")
    seen = "\n".join(json.dumps(r.body, ensure_ascii=False) for r in setup.fake.requests)
    digest = seen[seen.rindex("Brain digest") :][:3000]
    assert "calc.py" in digest and "failed → passed" in digest, digest
    # ...and what was marked private is nowhere in the brain folder (db, WAL, spool, logs).
    leaked = [
        str(f.relative_to(setup.brain))
        for f in setup.brain.rglob("*")
        if f.is_file() and PRIVATE.encode() in f.read_bytes()
    ]
    assert leaked == []
