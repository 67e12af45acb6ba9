"""`python -m benchmarks`: run every suite, print Markdown, rewrite docs/benchmarks.md."""

from __future__ import annotations

import argparse
import logging
import sys
import time
import traceback

from benchmarks import previous, registry, report


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
    parser.add_argument(
        "--against",
        default="auto",
        metavar="REF",
        help="the previous main measured beside this tree for the #34 figures: a commit,"
        " 'auto' (the newest stop-* tag, else the last commit before the newest pause of"
        " 6 h on HEAD's first-parent history) or 'none'",
    )
    parser.add_argument(
        "--against-sizes",
        choices=("auto", "quick", "same"),
        default="auto",
        help="the previous main's sizes: 'same' as this tree's, 'quick', or 'auto' (same,"
        " but quick for backends_large's 1M rows); the table says which",
    )
    parser.add_argument(
        "--targets-only",
        action="store_true",
        help="run only the #34 figures of the chosen suites (previous main beside this"
        " tree), not the suites themselves; writes their tables into the suites' sections",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        ref = previous.resolve(args.against)
    except previous.PreviousError as exc:
        parser.error(str(exc))
    why = "" if ref else previous.why_no_ref(args.against)
    print(f"previous main: {f'{ref.short} ({ref.how})' if ref else why}", file=sys.stderr)

    chosen = [n for n in (args.only or suites) if n not in args.skip]
    sections: dict[str, str] = {}
    figures: dict[str, str] = {}
    failed = []
    for name in chosen:
        started = time.perf_counter()
        if not args.targets_only:
            print(f"running {name} ...", file=sys.stderr, flush=True)
            try:
                body = suites[name].load()(args.quick)
            except Exception:  # one broken suite must not hide the others' numbers
                failed.append(name)
                body = f"**Suite failed:**\n\n```\n{traceback.format_exc()}```"
        seconds = time.perf_counter() - started
        table = _figures(name, args.quick, ref, args.against_sizes, why)
        if table:
            figures[name] = table
        if args.targets_only:
            if table:
                print(table, flush=True)
            continue
        body = f"{body.strip()}\n\n{table}" if table else body
        sections[name] = report.section(name, body, report.command_line(), seconds)
        print(sections[name], flush=True)
    write = (args.write or not args.quick) and not args.no_write
    kept_figures = {n: t for n, t in figures.items() if n not in failed}
    if write:
        path = report.write(
            {n: s for n, s in sections.items() if n not in failed}, list(suites), kept_figures
        )
        print(f"wrote {path}", file=sys.stderr)
    summary = report.targets_summary(figures)
    if summary:
        print(summary, flush=True)
    return 1 if failed else 0


def _figures(name: str, quick: bool, ref: previous.Ref | None, sizes: str, why: str) -> str:
    """The suite's #34 figures beside the previous main, as Markdown ("" when it has none)."""
    from benchmarks.targets import COMPARISONS

    comparison = COMPARISONS.get(name)
    if comparison is None:
        return ""
    print(f"#34 figures of {name}: previous main beside this tree ...", file=sys.stderr)
    previous_quick = {
        "quick": True,
        "same": quick,
        "auto": quick or comparison.previous_quick,
    }[sizes]
    try:
        result = previous.compare(
            comparison, quick=quick, ref=ref, previous_quick=previous_quick, why_none=why
        )
    except Exception:  # the suite's own numbers still stand
        failure = f"**#34 figures failed:**\n\n```\n{traceback.format_exc()}```"
        return f"<!-- figures:{name} -->\n{failure}\n<!-- /figures:{name} -->"
    return previous.table(result)


if __name__ == "__main__":
    sys.exit(main())
