"""`python -m brainbridge.hooks [-v] KIND`: what the installed hooks run.

It starts faster than `brain hook KIND` (no command-line framework, no settings), which
matters on the path every prompt waits on. It always exits 0.
"""

from __future__ import annotations

import logging
import sys

from brainbridge.hooks.runner import EVENTS, main

USAGE = f"usage: python -m brainbridge.hooks [-v] {{{','.join(EVENTS)}}}"


class _OneLine(logging.Formatter):
    """The message without the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        return " ".join(record.getMessage().split())


def run(argv: list[str]) -> int:
    """Handle one hook event; a wrong call is reported on stderr, never as a failing exit."""
    verbose = sum(a.count("v") for a in argv if a.startswith("-") and set(a[1:]) == {"v"})
    kinds = [a for a in argv if not a.startswith("-")]
    if kinds == ["drain"]:  # started by a Stop hook, detached: store what it spooled
        from brainbridge.hooks.drain import main as drain
        from brainbridge.hooks.runner import brain_home

        return drain(brain_home())
    if len(kinds) != 1 or kinds[0] not in EVENTS:
        print(USAGE, file=sys.stderr)
        return 0
    if not verbose:
        # Warnings and failures as one line each on stderr; their tracebacks go to
        # hooks.log only (runner._log_failure), never to the stderr Claude Code shows.
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.WARNING)
        handler.setFormatter(_OneLine())
        logging.getLogger("brainbridge").addHandler(handler)
    else:
        logging.basicConfig(
            level=logging.DEBUG if verbose > 1 else logging.INFO,
            format="%(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )
    return main(kinds[0])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
