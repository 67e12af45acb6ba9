"""Which project a folder belongs to: the git toplevel above it, else the folder itself.

Stdlib only and no subprocess: the SessionStart and Stop hooks call it on their cold path.
"""

from __future__ import annotations

import os
from pathlib import Path

# A folder this many levels deep without a `.git` above it is its own project.
MAX_LEVELS = 40


def project_root(cwd: str) -> str:
    """The absolute, resolved root of the project at `cwd` ("" for no folder).

    The nearest folder at or above `cwd` holding `.git` (a directory, or the file a
    worktree or submodule has), else `cwd` resolved.
    """
    if not cwd or "\x00" in cwd:
        return ""
    try:
        here = Path(cwd).expanduser().resolve()
    except (OSError, RuntimeError, ValueError):
        return os.path.abspath(cwd)
    for level, folder in enumerate((here, *here.parents)):
        if level >= MAX_LEVELS:
            break
        try:
            if (folder / ".git").exists():
                return str(folder)
        except OSError:
            break
    return str(here)
