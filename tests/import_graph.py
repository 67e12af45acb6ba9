"""The import graph of `src/brainbridge`, and the circles in it.

Run it to list every circle: `python tests/import_graph.py`. Edges are what Python
executes: module-level and function-level imports (not those under `TYPE_CHECKING`),
and the package `__init__` files an import runs on the way to its module.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
ROOT = "brainbridge"


def modules(src: Path = SRC) -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {}
    for path in sorted((src / ROOT).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def graph(src: Path = SRC, type_checking: bool = False) -> dict[str, dict[str, int]]:
    """Module -> {imported module: line of the first import}; with `type_checking`, the
    imports only a type checker follows count too."""
    known = modules(src)
    edges: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        out: dict[str, int] = {}
        tree = ast.parse(path.read_text("utf-8"))
        for target, line in _imports(tree, name, is_package, known, type_checking):
            for hit in _executed(target, known):
                # A module's own packages are already running when it runs: an edge to
                # one counts only when the import asks that package for a name.
                if hit == name or (name.startswith(hit + ".") and hit != target):
                    continue
                out.setdefault(hit, line)
        edges[name] = out
    return edges


def _imports(
    tree: ast.Module, name: str, is_package: bool, known: dict[str, Path], type_checking: bool
) -> Iterator[tuple[str, int]]:
    skip = set() if type_checking else _under_type_checking(tree)
    base = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                mod = ".".join(
                    base[: len(base) - node.level + 1] + ([node.module] if node.module else [])
                )
            else:
                mod = node.module or ""
            for alias in node.names:
                # `from pkg import mod` imports a module; `from mod import name` takes a
                # name from a module that must have finished.
                sub = f"{mod}.{alias.name}"
                yield (sub if sub in known else mod), node.lineno


def _under_type_checking(tree: ast.Module) -> set[int]:
    return {id(n) for block in ast.walk(tree) if _type_checking(block) for n in ast.walk(block)}


def _type_checking(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _executed(target: str, known: dict[str, Path]) -> Iterator[str]:
    """The package modules running `import target` executes: the target and its parents."""
    parts = target.split(".")
    for i in range(1, len(parts) + 1):
        mod = ".".join(parts[:i])
        if mod in known:
            yield mod


def circles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def loop_through(edges: dict[str, dict[str, int]], start: str, within: set[str]) -> list[str]:
    """One shortest circle from `start` back to itself inside a component."""
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges.get(v, {})):
            if w == start:
                return paths[v] + [start]
            if w in within and w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    return []


def describe(edges: dict[str, dict[str, int]], comp: list[str]) -> str:
    """A component as one line of its modules and one circle through it, with lines."""
    loop = loop_through(edges, comp[0], set(comp))
    steps = " -> ".join(f"{a} (line {edges[a][b]})" for a, b in zip(loop, loop[1:], strict=False))
    return f"{len(comp)} modules: {', '.join(comp)}\n    e.g. {steps} -> {loop[-1]}"


if __name__ == "__main__":
    # `--static`: also the circles only a type checker sees (imports under TYPE_CHECKING).
    g = graph(type_checking="--static" in sys.argv)
    found = circles(g)
    for comp in found:
        print(describe(g, comp))
    print(f"{len(found)} circle(s)")
    sys.exit(1 if found else 0)
