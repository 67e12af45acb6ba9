"""Which suites exist and how to run one.

A suite is a module `benchmarks/bench_<name>.py` with `run(quick: bool = False) -> str`
returning Markdown. Drop in a new module and `python -m benchmarks` runs it; no list
to edit. Modules written to the older `run(report: dict)` + `markdown(result)` shape
(bench_directives.py) are adapted.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# The suites this project is judged on come first; any others follow by name.
FIRST = ("store", "locomo")


@dataclass(frozen=True)
class Suite:
    name: str
    module: str

    def load(self) -> Callable[[bool], str]:
        """The suite's runner as `fn(quick) -> markdown`."""
        mod = importlib.import_module(self.module)
        run = mod.run
        params = inspect.signature(run).parameters
        if "report" in params and hasattr(mod, "markdown"):

            def adapted(quick: bool) -> str:
                report: dict[str, Any] = {}
                run(report)
                return "\n\n".join(mod.markdown(result) for result in report.values())

            return adapted
        if "quick" in params:
            return lambda quick: run(quick=quick)
        return lambda quick: run()


def discover() -> dict[str, Suite]:
    """Every `bench_*.py` beside this file, by suite name, in run order."""
    names = sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))
    ordered = [n for n in FIRST if n in names] + [n for n in names if n not in FIRST]
    return {n: Suite(n, f"benchmarks.bench_{n}") for n in ordered}
