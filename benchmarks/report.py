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


def write(sections: dict[str, str], order: list[str]) -> Path:
    """Replace the given suites' sections in docs/benchmarks.md, keeping the rest."""
    old = DOC.read_text("utf-8") if DOC.exists() else ""
    kept = {
        m.group(1): m.group(0) + "\n"
        for m in re.finditer(r"<!-- suite:(\S+) -->.*?<!-- /suite:\1 -->", old, re.S)
    }
    kept.update(sections)
    names = [n for n in order if n in kept] + [n for n in kept if n not in order]
    intro = NOTES.read_text("utf-8").strip() if NOTES.exists() else TITLE
    parts = [intro, "", "# Results", ""] + [kept[n] for n in names]
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text("\n".join(parts).rstrip() + "\n", "utf-8")
    return DOC


def command_line() -> str:
    """The command as the user typed it, runnable from the repository root."""
    args = " ".join(sys.argv[1:])
    return f"python -m benchmarks{' ' + args if args else ''}"
