"""Reliability fixtures: the scale (fast in CI, long with --soak) and the figures report."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from reliability.rig import Figures, Rig

_REPORT: list[Figures] = []


@pytest.fixture(scope="session")
def soak(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--soak"))


@pytest.fixture
def rig(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Rig]:
    """A brain folder for one test; its figures go to the report and must end clean."""
    figures = Figures(request.node.name)
    yield Rig(tmp_path / "brain", figures)
    _REPORT.append(figures)
    assert figures.errors == [], "\n".join(figures.errors[:5])
    assert figures.lost == 0


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = session.config.getoption("--soak-report", default=None)
    if path and _REPORT:
        rows = [f.row() for f in _REPORT]
        Path(path).write_text(json.dumps(rows, indent=1) + "\n")
