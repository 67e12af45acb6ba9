"""`python -m brainbridge.hooks [-v] [--brain=PATH] KIND`: what the installed hooks run.

It starts faster than `brain hook KIND` (no command-line framework, no settings), which
matters on the path every prompt waits on. It always exits 0.
"""

from __future__ import annotations

import sys
from pathlib import Path

from brainbridge.hooks.runner import EVENTS
from brainbridge.hooks.runner import run as run_hook

USAGE = f"usage: python -m brainbridge.hooks [-v] [--brain=PATH] {{{','.join(EVENTS)}}}"


def brain_folder(option: str) -> Path:
    """The brain folder named by `--brain` (a path to its brain.db names its folder)."""
    home = Path(option).expanduser()
    return home.parent if home.suffix == ".db" else home


def run(argv: list[str]) -> int:
    """Handle one hook event; a wrong call is reported on stderr, never as a failing exit."""
    verbose, kinds, brain, rest = 0, [], None, list(argv)
    while rest:
        arg = rest.pop(0)
        if arg.startswith("--brain="):
            brain = arg.removeprefix("--brain=")
        elif arg == "--brain" and rest:
            brain = rest.pop(0)
        elif arg.startswith("-") and set(arg[1:]) == {"v"}:
            verbose += arg.count("v")
        else:  # a kind; an unknown option makes the call wrong, below
            kinds.append(arg)
    home = brain_folder(brain) if brain else None
    if kinds == ["drain"]:  # started by a Stop hook, detached: store what it spooled
        from brainbridge.hooks.drain import main as drain
        from brainbridge.hooks.runner import brain_home

        return drain(home or brain_home())
    if len(kinds) != 1 or kinds[0] not in EVENTS or brain == "":
        print(USAGE, file=sys.stderr)
        return 0
    return run_hook(kinds[0], home, verbose)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
