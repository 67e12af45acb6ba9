"""The package's import graph has no circles, and the store imports nothing above it.

A circle makes import order matter (a module sees its neighbour half-built) and keeps
the layers from being read, tested or replaced one at a time. `python
tests/import_graph.py` lists every circle with the lines that make it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.import_graph import circles, describe, graph

SCRIPT = Path(__file__).parent / "import_graph.py"
# The facade and what composes it from configuration, and the store under them.
CORE = ("brainbridge.store", "brainbridge.settings", "brainbridge.brain")
# What sits above the store: it may import them, never the reverse.
ABOVE = (
    "brainbridge.settings",
    "brainbridge.brain",
    "brainbridge.bridge",
    "brainbridge.curator",
    "brainbridge.search",
    "brainbridge.embed",
    "brainbridge.llm",
    "brainbridge.api",
    "brainbridge.cli",
    "brainbridge.mcp",
    "brainbridge.hooks",
)


def _in(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_no_circle_through_the_store_settings_or_the_facade() -> None:
    g = graph()
    found = [c for c in circles(g) if any(_in(m, CORE) for m in c)]
    assert not found, "\n".join(describe(g, c) for c in found)


def test_no_circle_anywhere_in_the_package() -> None:
    g = graph()
    found = circles(g)
    assert not found, "\n".join(describe(g, c) for c in found)


def test_the_store_reaches_nothing_above_it() -> None:
    g = graph()
    bad = []
    for start in sorted(m for m in g if _in(m, ("brainbridge.store",))):
        seen, todo, via = {start}, [start], {start: start}
        while todo:
            mod = todo.pop()
            for nxt, line in g[mod].items():
                if nxt in seen:
                    continue
                seen.add(nxt)
                via[nxt] = f"{via[mod]} -> {nxt} (line {line} of {mod})"
                if _in(nxt, ABOVE):
                    bad.append(via[nxt])
                else:
                    todo.append(nxt)
    assert not bad, "\n".join(bad)


def test_the_script_lists_circles_and_fails_on_them(tmp_path: Path) -> None:
    pkg = tmp_path / "src" / "brainbridge"
    (pkg / "a").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a" / "__init__.py").write_text("")
    (pkg / "a" / "one.py").write_text("from brainbridge.a.two import X\n")
    # A function-level import counts (it runs); one under TYPE_CHECKING does not.
    (pkg / "a" / "two.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from brainbridge import three\n"
        "X = 1\ndef f():\n    from brainbridge.a import one\n"
    )
    (pkg / "three.py").write_text("import brainbridge.a.one\n")
    g = graph(tmp_path / "src")
    assert circles(g) == [["brainbridge.a.one", "brainbridge.a.two"]]
    assert "brainbridge.three" not in g["brainbridge.a.two"]
    line = describe(g, circles(g)[0])
    assert "brainbridge.a.one (line 1) -> brainbridge.a.two (line 6)" in line

    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout
    assert run.stdout.strip().endswith("0 circle(s)")
