"""The previous main beside this tree, in the same run (#34).

A comparison (`benchmarks/targets.py`) names a measurement and the figures read from its
samples. `compare` runs that measurement in two processes: one on this tree's library
(`src/`), one on the library of an earlier commit (its `src/` taken with `git archive`
into a temporary folder). Both run this tree's benchmark code on the same data and
caches, so the two columns differ only in the code measured. The setups run one after
the other; the timed rounds alternate between the processes (previous, this, this,
previous, ...) so that load from elsewhere on a shared machine falls on both.

Which commit is the previous main (`--against`, default `auto`): the newest tag `stop-*`
reachable from HEAD (other than HEAD itself); failing that, the last commit before the
newest stop on HEAD's first-parent history, a stop being a pause of six hours or more
between two commits (the end of the previous working session). `--against REF` takes any
commit; `--against none` leaves the column out. Outside a git clone the column says n/a.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STOP_GAP_S = 6 * 3600
Samples = dict[str, list[float]]


class PreviousError(Exception):
    """The --against ref names no commit of this clone."""


@dataclass(frozen=True)
class Ref:
    """The commit measured as the previous main, and how it was chosen."""

    commit: str
    how: str

    @property
    def short(self) -> str:
        return self.commit[:7]


@dataclass(frozen=True)
class Figure:
    """One #34 figure: its label, its target in words, and how to read it from a side's
    samples as (shown value, met or None when there is no target)."""

    label: str
    target: str
    read: Callable[[Samples], tuple[str, bool | None]]


@dataclass(frozen=True)
class Comparison:
    """A suite's figures and the measurement (`module:Class`, see `benchmarks/side.py`)
    they are read from; `rounds` timed rounds at full size, `quick_rounds` with --quick;
    `previous_quick`: the previous main at the quick sizes unless asked otherwise (for a
    measurement too slow to run twice at full size)."""

    suite: str
    title: str
    measure: str
    figures: tuple[Figure, ...]
    rounds: int = 2
    quick_rounds: int = 2
    previous_quick: bool = False


@dataclass
class SideResult:
    """What one process measured: its samples, the library it loaded, or its error."""

    label: str
    quick: bool
    samples: Samples = field(default_factory=dict)
    library: str = ""
    error: str = ""


@dataclass
class Result:
    comparison: Comparison
    ref: Ref | None
    this: SideResult
    previous: SideResult | None
    why_none: str = ""


def _git(root: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, timeout=60, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def in_clone(root: Path = ROOT) -> bool:
    """Whether `root` is inside a git work tree with at least one commit."""
    return _git(root, "rev-parse", "--verify", "HEAD^{commit}") is not None


def resolve(against: str | None, root: Path = ROOT) -> Ref | None:
    """The commit `--against` names ("auto"/None: the previous stop; "none": no column);
    None outside a git clone or when HEAD has no earlier stop.

    Raises:
        PreviousError: an explicit ref that names no commit here.
    """
    if against == "none" or not in_clone(root):
        return None
    if against and against != "auto":
        commit = _git(root, "rev-parse", "--verify", "--quiet", f"{against}^{{commit}}")
        if not commit:
            raise PreviousError(f"--against {against}: no such commit in {root}")
        return Ref(commit, f"--against {against}")
    return previous_stop(root)


def previous_stop(root: Path = ROOT) -> Ref | None:
    """The newest `stop-*` tag before HEAD, else the last commit before the newest pause
    of STOP_GAP_S or more on HEAD's first-parent history."""
    head = _git(root, "rev-parse", "HEAD")
    tags = _git(root, "tag", "--list", "stop-*", "--merged", "HEAD", "--sort=-creatordate")
    for tag in (tags or "").split():
        commit = _git(root, "rev-parse", f"{tag}^{{commit}}")
        if commit and commit != head:
            return Ref(commit, f"tag {tag}")
    log = _git(root, "log", "--first-parent", "--format=%H %ct", "-n", "5000", "HEAD") or ""
    rows = [(sha, int(ct)) for sha, ct in (line.split() for line in log.splitlines())]
    for (_, newer), (sha, older) in zip(rows, rows[1:], strict=False):
        if newer - older >= STOP_GAP_S:
            when = datetime.fromtimestamp(older, UTC).strftime("%Y-%m-%d %H:%M UTC")
            hours = (newer - older) / 3600
            return Ref(sha, f"last commit before a {hours:.0f} h pause, {when}")
    return None


@contextmanager
def tree_at(commit: str, root: Path = ROOT) -> Iterator[Path]:
    """`src/` of `commit` in a temporary folder (removed afterwards), from `git archive`.

    Raises:
        PreviousError: git could not export the commit.
    """
    try:
        archive = subprocess.run(
            ["git", "archive", "--format=tar", commit, "src"],
            cwd=root,
            capture_output=True,
            check=True,
            timeout=120,
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise PreviousError(f"git archive {commit[:7]} src failed: {exc}") from exc
    with tempfile.TemporaryDirectory(prefix=f"bench-prev-{commit[:7]}-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        yield Path(tmp)


class Process:
    """One side's measurement process, driven line by line over its stdin and stdout."""

    def __init__(self, src: Path, measure: str, workdir: Path, quick: bool) -> None:
        # This tree's benchmarks (ROOT) after the side's library, so `brainbridge` is the
        # side's; anything already on PYTHONPATH comes last.
        path = [
            str(src),
            str(ROOT),
            *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep)),
        ]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        workdir.mkdir(parents=True, exist_ok=True)
        size = "quick" if quick else "full"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.side", measure, str(workdir), size],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )

    def ask(self, command: str) -> dict[str, object]:
        """Send one command; its answer, or an error when the process has died."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except OSError:
            pass
        line = self.proc.stdout.readline()
        if not line:
            return {"error": f"the measurement process exited ({self.proc.wait()})"}
        answer: dict[str, object] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.poll() is None:
            self.ask("close")
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


def _take(side: SideResult, answer: dict[str, object]) -> bool:
    if "error" in answer:
        side.error = str(answer["error"])
        return False
    for key, values in dict(answer.get("samples") or {}).items():  # type: ignore[call-overload]
        side.samples.setdefault(key, []).extend(values)
    side.library = str(answer.get("library") or side.library)
    return True


def compare(
    comparison: Comparison,
    *,
    quick: bool,
    ref: Ref | None,
    root: Path = ROOT,
    previous_quick: bool | None = None,
    why_none: str = "",
) -> Result:
    """Measure `comparison` on this tree (`root`/src) and, when `ref` is given, on that
    commit's src, interleaving their rounds; the previous side at quick sizes when
    `previous_quick`."""
    prev_quick = quick if previous_quick is None else previous_quick
    this = SideResult("this tree", quick)
    previous = SideResult(f"previous main ({ref.short})", prev_quick) if ref else None
    rounds = comparison.quick_rounds if quick else comparison.rounds
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-sides-")))
        sides: list[tuple[SideResult, Process]] = []
        if ref and previous:
            try:
                src = stack.enter_context(tree_at(ref.commit, root)) / "src"
                proc = Process(src, comparison.measure, work / "previous", prev_quick)
                stack.callback(proc.close)
                sides.append((previous, proc))
            except PreviousError as exc:
                previous.error = str(exc)
        proc = Process(root / "src", comparison.measure, work / "this", quick)
        stack.callback(proc.close)
        sides.append((this, proc))
        live = []
        for side, proc in sides:  # setups one at a time: they time ingest
            _progress(comparison, side, "setup")
            if _take(side, proc.ask("setup")):
                live.append((side, proc))
        for i in range(rounds):
            for side, proc in live if i % 2 == 0 else live[::-1]:
                if not side.error:
                    _progress(comparison, side, f"round {i + 1}/{rounds}")
                    _take(side, proc.ask(f"round {i} {rounds}"))
    return Result(comparison, ref, this, previous, why_none)


def _progress(comparison: Comparison, side: SideResult, what: str) -> None:
    print(f"  {comparison.suite}: {side.label} {what}", file=sys.stderr, flush=True)


def _cell(side: SideResult | None, figure: Figure, why_none: str) -> tuple[str, bool | None]:
    if side is None:
        return f"n/a ({why_none})" if why_none else "n/a", None
    if side.error:
        last = side.error.strip().splitlines()[-1] if side.error.strip() else "error"
        return f"failed: `{last[:120]}`", None
    try:
        return figure.read(side.samples)
    except (KeyError, ValueError, ZeroDivisionError, IndexError):
        return "n/a (not measured)", None


def _mark(met: bool | None) -> str:
    return {True: "met", False: "**missed**", None: "—"}[met]


def table(result: Result) -> str:
    """The comparison as Markdown: figure | target | previous main | this tree | met?,
    between markers the "#34 targets" summary reads back."""
    c, prev, this = result.comparison, result.previous, result.this
    prev_head = prev.label if prev else "previous main"
    if prev and prev.quick:
        prev_head += ", quick sizes"
    this_head = "this tree" + (", quick sizes" if this.quick else "")
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"<!-- figures:{c.suite} -->",
        f"### {c.title}: previous main beside this tree",
        "",
        f"| figure | target | {prev_head} | {this_head} | met? |",
        "|---|---|---|---|---|",
    ]
    for figure in c.figures:
        before, was = _cell(prev, figure, result.why_none)
        now, met = _cell(this, figure, "")
        if was is not None:
            before += f" ({'met' if was else 'missed'})"
        lines.append(f"| {figure.label} | {figure.target} | {before} | {now} | {_mark(met)} |")
    rounds = c.quick_rounds if this.quick else c.rounds
    lines += ["", _provenance(result, rounds, stamp), f"<!-- /figures:{c.suite} -->"]
    return "\n".join(lines)


def _provenance(result: Result, rounds: int, stamp: str) -> str:
    if result.ref and result.previous:
        where = f"Previous main: `{result.ref.short}` ({result.ref.how}), its `src/` run"
        where += " with this tree's benchmark code and data"
        if result.previous.quick and not result.this.quick:
            where += ", at the quick sizes (--against-sizes same for this tree's)"
        where += f"; {rounds} timed rounds, alternating between the two processes."
    else:
        where = f"No previous main ({result.why_none or 'none'}); {rounds} timed rounds."
    return f"_{where} {stamp}._"


def why_no_ref(against: str | None, root: Path = ROOT) -> str:
    """Why there is no previous-main column, in the words the table shows."""
    if against == "none":
        return "--against none"
    if not in_clone(root):
        return "not a git clone"
    return "no earlier stop found"
