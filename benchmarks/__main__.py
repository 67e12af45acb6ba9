"""`python -m benchmarks`: run every suite, print Markdown, rewrite docs/benchmarks.md."""

from __future__ import annotations

import argparse
import logging
import sys
import time
import traceback

from benchmarks import registry, report


def main(argv: list[str] | None = None) -> int:
    suites = registry.discover()
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes (CI smoke, < 2 min)")
    parser.add_argument(
        "--only",
        action="append",
        choices=list(suites),
        metavar="NAME",
        help=f"run only this suite (repeatable): {', '.join(suites)}",
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=list(suites),
        metavar="NAME",
        help="leave this suite out (repeatable)",
    )
    parser.add_argument("--write", action="store_true", help="write docs even with --quick")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)

    chosen = [n for n in (args.only or suites) if n not in args.skip]
    sections: dict[str, str] = {}
    failed = []
    for name in chosen:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        try:
            body = suites[name].load()(args.quick)
        except Exception:  # one broken suite must not hide the others' numbers
            failed.append(name)
            body = f"**Suite failed:**\n\n```\n{traceback.format_exc()}```"
        sections[name] = report.section(
            name, body, report.command_line(), time.perf_counter() - started
        )
        print(sections[name], flush=True)
    write = (args.write or not args.quick) and not args.no_write
    if write:
        path = report.write({n: s for n, s in sections.items() if n not in failed}, list(suites))
        print(f"wrote {path}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
