"""docs/benchmarks.md: machine, date, command, then one section per suite.

Each suite's section sits between markers, so `--only NAME` replaces that section
and keeps the others as they were (each section says when and how it was made).
"""

from __future__ import annotations

import os
import platform
import re
import sqlite3
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
NOTES = Path(__file__).resolve().parent / "notes.md"
TITLE = "# Benchmarks"
SUMMARY = "targets"  # the "#34 targets" section, rebuilt from the suites' figure tables
SECTION = re.compile(r"<!-- suite:(\S+) -->.*?<!-- /suite:\1 -->", re.S)
FIGURES = re.compile(r"<!-- figures:(\S+) -->.*?<!-- /figures:\1 -->", re.S)


def machine() -> str:
    """One line describing where the numbers come from."""
    try:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "n/a"
    try:
        ort = metadata.version("onnxruntime")
    except metadata.PackageNotFoundError:
        ort = "not installed"
    return (
        f"{os.cpu_count()} cores, {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        f"NumPy {metadata.version('numpy')}, onnxruntime {ort}; load average {load}"
    )


def section(name: str, body: str, command: str, seconds: float) -> str:
    """One suite's results with the provenance a reader needs to trust them."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"<!-- suite:{name} -->\n## {name}\n\n"
        f"_{stamp} · `{command}` · {seconds:.0f} s · {machine()}_\n\n"
        f"{body.strip()}\n<!-- /suite:{name} -->\n"
    )


def write(
    sections: dict[str, str],
    order: list[str],
    figures: dict[str, str] | None = None,
    doc: Path | None = None,
) -> Path:
    """Replace the given suites' sections in docs/benchmarks.md, keeping the rest; put
    each of `figures` (a suite's previous-main table) into its suite's section in place
    of the one there; rebuild the "#34 targets" summary from every section's table."""
    doc = doc or DOC
    old = doc.read_text("utf-8") if doc.exists() else ""
    kept = {m.group(1): m.group(0) + "\n" for m in SECTION.finditer(old)}
    kept.update(sections)
    for name, table in (figures or {}).items():
        kept[name] = with_figures(kept.get(name) or section(name, "", command_line(), 0), table)
    summary = targets_summary(kept)
    if summary:
        kept[SUMMARY] = summary
    order = [SUMMARY, *order]
    names = [n for n in order if n in kept] + [n for n in kept if n not in order]
    intro = NOTES.read_text("utf-8").strip() if NOTES.exists() else TITLE
    parts = [intro, "", "# Results", ""] + [kept[n] for n in names]
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text("\n".join(parts).rstrip() + "\n", "utf-8")
    return doc


def with_figures(suite_section: str, table: str) -> str:
    """`suite_section` with its previous-main table replaced by `table` (or added)."""
    if FIGURES.search(suite_section):
        return FIGURES.sub(lambda _: table.strip(), suite_section, count=1)
    end = suite_section.rfind("<!-- /suite:")
    return suite_section[:end].rstrip() + "\n\n" + table.strip() + "\n" + suite_section[end:]


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def targets_summary(sections: dict[str, str]) -> str:
    """The "#34 targets" section: every figure table's rows, by suite, with where each
    previous main came from; "" when no section holds a table."""
    rows, notes = [], []
    for name, text in sections.items():
        if name == SUMMARY:
            continue
        for match in FIGURES.finditer(text):
            for line in match.group(0).splitlines():
                if line.startswith("| ") and not line.startswith("| figure"):
                    figure, target, before, now, met = (_cells(line) + [""] * 5)[:5]
                    rows.append(f"| {name} | {figure} | {target} | {before} | {now} | {met} |")
                elif line.startswith("_"):
                    notes.append(f"- {name}: {line.strip('_ ')}")
    if not rows:
        return ""
    body = [
        "Each figure of issue #34 beside its target and the previous main, from the last",
        "run of its suite (the suite's section below has the table, when and how it ran).",
        "`met?` is this tree's.",
        "",
        "| suite | figure | target | previous main | this tree | met? |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        *notes,
    ]
    return (
        f"<!-- suite:{SUMMARY} -->\n## #34 targets\n\n"
        + "\n".join(body)
        + f"\n<!-- /suite:{SUMMARY} -->\n"
    )


def command_line() -> str:
    """The command as the user typed it, runnable from the repository root."""
    args = " ".join(sys.argv[1:])
    return f"python -m benchmarks{' ' + args if args else ''}"
