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
    """Write the figures. Under pytest-xdist each worker writes PATH.<worker> and the
    controller, which finishes after them, gathers those into PATH."""
    option = session.config.getoption("--soak-report", default=None)
    if not option:
        return
    path = Path(option)
    worker = getattr(session.config, "workerinput", {}).get("workerid")
    if worker:
        if _REPORT:
            part = path.with_name(f"{path.name}.{worker}")
            part.write_text(json.dumps([f.row() for f in _REPORT]))
        return
    rows = [f.row() for f in _REPORT]
    for part in sorted(path.parent.glob(f"{path.name}.gw*")):
        rows += json.loads(part.read_text())
        part.unlink()
    if rows:
        path.write_text(json.dumps(rows, indent=1) + "\n")
