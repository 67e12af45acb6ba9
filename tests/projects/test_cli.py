"""`brain context` through the real console script."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from cli.runner import COMMAND, BrainCli, clean_env
from projects.graph_brain import DRIFT, GRAPHSTORE, fill

ROOT = "/home/me/src/litellm"


@pytest.fixture
async def cli(tmp_path: Path) -> BrainCli:
    home = tmp_path / "home"
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        await fill(brain)
    return BrainCli(
        home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing", TMPDIR=str(tmp_path))
    )


def test_context_json_lists_entries_with_slug_path_and_excerpt(cli: BrainCli) -> None:
    entries = cli.ok("context", ROOT, "--json").json()

    assert entries[0]["title"] == "LiteLLM"
    assert DRIFT[1] in [e["title"] for e in entries]
    for e in entries:
        assert {"slug", "title", "doc_path", "excerpt", "type", "score"} <= e.keys()


def test_context_files_boost_and_limit(cli: BrainCli) -> None:
    entries = cli.ok(
        "context", ROOT, "--file", "internal/graphstore/pg.go", "--limit", "2", "--json"
    ).json()

    assert [e["title"] for e in entries] == [GRAPHSTORE[1], "LiteLLM"]


def test_context_text_is_one_line_per_entry(cli: BrainCli) -> None:
    out = cli.ok("context", ROOT, "--limit", "3").out.splitlines()

    assert out[0] == f"Brain context for {ROOT}:"
    assert len(out) == 4 and out[1].startswith("- LiteLLM (Project): LiteLLM is the LLM gateway")


def test_context_of_an_unknown_project_says_so(cli: BrainCli, tmp_path: Path) -> None:
    project = tmp_path / "quantum-teapot"
    project.mkdir()

    result = cli.ok("context", str(project))
    assert result.out.strip() == f"The brain has nothing on the project at {project}."
    assert cli.ok("context", str(project), "--json").json() == []


def test_context_defaults_to_the_current_folder(cli: BrainCli, tmp_path: Path) -> None:
    project = tmp_path / "src" / "litellm"
    project.mkdir(parents=True)

    proc = subprocess.run(
        [*COMMAND, "context", "--json"], cwd=project, env=cli.env, capture_output=True, text=True
    )

    assert proc.returncode == 0, proc.stderr
    entries = json.loads(proc.stdout)
    assert entries and entries[0]["title"] == "LiteLLM"
