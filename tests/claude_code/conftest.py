"""The real Claude Code CLI (bundled in the claude-agent-sdk wheel), offline, against the
fake Anthropic server: set up as the README says, with a private HOME."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import claude_agent_sdk
import pytest

from api.seed import seed_folder
from cli.runner import COMMAND, clean_env
from fakes.llm_server import FakeLLMServer, FakeRequest, reply_text, reply_tool_calls
from fakes.llm_wire import Behaviour

CLAUDE = Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude"
REMEMBER = "mcp__brain__remember"
ANSWER = "The proxy config drifted between staging and prod; the notes say how."


@dataclass
class Setup:
    """A machine with a brain, the hooks and the MCP server installed, and a fake model."""

    user_home: Path
    brain: Path
    project: Path
    fake: FakeLLMServer
    extra_env: dict[str, str] = field(default_factory=dict)  # e.g. BRAIN_USER

    def env(self) -> dict[str, str]:
        """Claude Code's environment: no BRAIN_HOME (the installed commands pin it)."""
        env = clean_env(HOME=str(self.user_home))
        env.pop("BRAIN_HOME", None)
        # An installed package has its bytecode compiled; so do the hooks and `brain mcp` here.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        return env | {
            "ANTHROPIC_BASE_URL": self.fake.url,
            "ANTHROPIC_API_KEY": "sk-ant-test",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            # MCP tools are otherwise behind tool search, out of the model's first list.
            "ENABLE_TOOL_SEARCH": "false",
            **self.extra_env,
        }

    def claude(self, prompt: str, *extra: str) -> dict[str, Any]:
        """`claude -p PROMPT --output-format json`; the parsed result."""
        proc = subprocess.run(
            [
                str(CLAUDE),
                "-p",
                prompt,
                "--output-format",
                "json",
                "--allowedTools",
                REMEMBER,
                *extra,
            ],
            cwd=self.project,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert proc.returncode == 0, proc.stderr[-2000:] + proc.stdout[-2000:]
        result = json.loads(proc.stdout)
        assert not result.get("is_error"), result
        return result

    def model_requests(self) -> list[FakeRequest]:
        """The main loop's requests (they offer tools), oldest first."""
        return [r for r in self.fake.requests if r.body.get("tools")]


def _model(request: FakeRequest) -> Behaviour:
    """The fake model: calls `remember` when asked to remember, else answers in words."""
    last = request.body["messages"][-1]
    blocks = last["content"] if isinstance(last["content"], list) else []
    if any(b.get("type") == "tool_result" for b in blocks):
        return reply_text("Done, it is in your brain.")
    if "remember that" in request.user_text.lower() and REMEMBER in request.tool_names:
        return reply_tool_calls(
            [
                (
                    REMEMBER,
                    {
                        "entity_type": "Person",
                        "name": "Ana Souza",
                        "description": "Platform engineer who owns the proxy's Helm chart.",
                    },
                )
            ]
        )
    return reply_text(ANSWER)


def _run(*args: str, env: dict[str, str], cwd: Path) -> str:
    proc = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def install(brain: Path, env: dict[str, str], project: Path) -> None:
    """The README's steps, verbatim but for the brain folder and the embedder: the hooks,
    then `brain mcp` as a user-scope MCP server of Claude Code."""
    out = _run(*COMMAND, "hooks", "install", "--user", env=env, cwd=project)
    assert f"they use the brain at {brain.resolve()}" in out
    brain_cmd = Path(COMMAND[0]) if len(COMMAND) == 1 else None
    mcp = [str(brain_cmd), "mcp"] if brain_cmd else [*COMMAND, "mcp"]
    _run(
        str(CLAUDE),
        "mcp",
        "add",
        "--scope",
        "user",
        "brain",
        "-e",
        f"BRAIN_HOME={brain}",
        "-e",
        "BRAIN_EMBEDDER=hashing",
        "--",
        *mcp,
        env={**env, "PATH": os.environ.get("PATH", "")},
        cwd=project,
    )


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[Setup]:
    user_home = tmp_path / "user"
    user_home.mkdir()
    project = tmp_path / "src" / "litellm"  # the seed brain knows this project
    project.mkdir(parents=True)
    brain = seed_folder(tmp_path / "brain", with_session=False)
    install(brain, clean_env(HOME=str(user_home), BRAIN_HOME=str(brain)), project)
    with FakeLLMServer() as fake:
        fake.responder = _model
        yield Setup(user_home, brain, project, fake)
