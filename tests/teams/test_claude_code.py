"""Claude Code headless (`claude -p`, the real CLI against the fake Anthropic server) for
two people of one team brain: each one's turns are stored in their own workspace, and
the context one gets never carries the other's."""

from __future__ import annotations

import json
import time
from pathlib import Path

from brainbridge.brain import Brain
from claude_code.conftest import Setup, _model, install
from cli.runner import BrainCli, clean_env
from fakes.llm_server import FakeLLMServer

SECRET = "My sister Inés is moving to Lisbon in March and I promised to help her pack"


async def _workspaces(brain: Path, url: str) -> list[tuple[str, str]]:
    owner = await Brain.open(brain, embedder=None, background_indexing=False, database_url=url)
    try:
        rows = owner.store.conn.execute(
            "SELECT workspace, description FROM entities WHERE type = 'Chat_Exchange'"
        ).fetchall()
        return [(r[0], r[1]) for r in rows]
    finally:
        await owner.close()


async def test_two_people_in_claude_code_keep_their_turns_apart(
    tmp_path: Path, database_url: str
) -> None:
    user_home = tmp_path / "user"
    user_home.mkdir()
    project = tmp_path / "src" / "litellm"
    project.mkdir(parents=True)
    brain = tmp_path / "brain"
    env = clean_env(HOME=str(user_home), BRAIN_HOME=str(brain), BRAIN_EMBEDDER="hashing")
    cli = BrainCli(brain, env)
    cli.ok("init", "--database-url", database_url)
    cli.ok("add", "Project", "litellm", "-d", "the proxy; its config drifted in staging")
    cli.ok("users", "add", "alice")
    cli.ok("users", "add", "bob")
    install(brain, env, project)
    with FakeLLMServer() as fake:
        fake.responder = _model
        setup = Setup(user_home, brain, project, fake)

        def claude(person: str, prompt: str) -> None:
            setup.extra_env = {"BRAIN_USER": person}
            setup.claude(prompt)

        claude("alice", SECRET)
        for _ in range(600):  # the Stop hook's drainer stores the turn, as alice
            stored = await _workspaces(brain, database_url)
            if stored:
                break
            time.sleep(0.1)
        assert [w for w, _ in stored] == ["alice"], stored
        assert "Inés" in stored[0][1]

        asked = "When is my sister moving to Lisbon, and what did I promise her?"
        claude("alice", asked)
        assert "Lisbon in March" in json.dumps(setup.model_requests()[-1].body)
        claude("bob", asked)
        seen_by_bob = json.dumps(setup.model_requests()[-1].body)
        assert "Inés" not in seen_by_bob and "Lisbon in March" not in seen_by_bob
