"""A module of this project as it stood at an earlier commit, loaded from git: the
"before" column of a benchmark, run beside today's code in the same process. (A whole
earlier library measured in its own process beside this tree's: `previous.py`.)"""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Modules that moved since: old code imports them by their old names.
MOVED = {"brainbridge.directives.model": "brainbridge.model.directives"}


def module_at(commit: str, path: str, name: str) -> types.ModuleType | None:
    """`path` (e.g. "src/brainbridge/redact.py") at `commit` as module `name`; None outside
    a git clone."""
    try:
        source = subprocess.run(
            ["git", "show", f"{commit}:{path}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for old, new in MOVED.items():
        source = source.replace(old, new)
    module = types.ModuleType(name)
    sys.modules[name] = module  # dataclasses look their module up
    exec(compile(source, f"{Path(path).name}@{commit}", "exec"), module.__dict__)
    return module
