"""Fixtures: the real `brain` console script against a brain in `tmp_path`."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.runner import BrainCli, clean_env


@pytest.fixture
def cli(tmp_path: Path) -> BrainCli:
    """`brain` on `tmp_path/home` with the model-free hashing embedder."""
    home = tmp_path / "home"
    return BrainCli(
        home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing", TMPDIR=str(tmp_path))
    )


@pytest.fixture
def other(tmp_path: Path) -> BrainCli:
    """A second, empty brain in the same test."""
    home = tmp_path / "other"
    return BrainCli(home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing"))
