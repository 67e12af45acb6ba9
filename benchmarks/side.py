"""One side of a comparison in its own process (not a suite; see `previous.py`).

usage: python -m benchmarks.side MODULE:CLASS WORKDIR quick|full
then one command per line on stdin, one JSON answer per line on stdout:
`setup`, `round I N` (the I-th of N timed rounds), `close`. A measurement is a class
`(workdir: Path, quick: bool)` with async `setup()`, `round(i, n)` returning samples
(`{name: [float, ...]}`) and `close()`. Anything else the code prints goes to stderr,
so that stdout carries only the answers.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any


def _measure_class(spec: str) -> Any:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def _library() -> str:
    try:
        import brainbridge
    except ImportError:
        return ""
    return str(Path(brainbridge.__file__).resolve().parent)


def main(spec: str, workdir: str, size: str) -> None:
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # prints and child processes write to stderr from here on

    def answer(body: dict[str, Any]) -> None:
        answers.write(json.dumps(body) + "\n")

    measure: Any = None
    with asyncio.Runner() as runner:
        for line in sys.stdin:
            command = line.split()
            if not command:
                continue
            try:
                if command[0] == "setup":
                    measure = _measure_class(spec)(Path(workdir), size == "quick")
                    samples = runner.run(measure.setup())
                    answer({"samples": samples or {}, "library": _library()})
                elif command[0] == "round":
                    samples = runner.run(measure.round(int(command[1]), int(command[2])))
                    answer({"samples": samples or {}})
                elif command[0] == "close":
                    if measure is not None:
                        runner.run(measure.close())
                    answer({})
                    return
                else:
                    answer({"error": f"unknown command {command[0]!r}"})
            except Exception:  # the parent shows the error in the side's column
                traceback.print_exc()
                answer({"error": traceback.format_exc()})


if __name__ == "__main__":
    main(*sys.argv[1:4])
