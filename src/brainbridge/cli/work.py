"""Long commands say where they are: a bar on a terminal, or with --progress a line every
few seconds; and on Ctrl-C one line of what was kept and how to go on."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from brainbridge.cli.common import Interrupted, run
from brainbridge.cli.output import err

if TYPE_CHECKING:
    from brainbridge.brain import Brain

T = TypeVar("T")

# A progress line at most this often (the first one as soon as there is progress).
EVERY_SECONDS = 2.0

progress_option = click.option(
    "--progress",
    "show_progress",
    is_flag=True,
    help="Say how far it got on stderr even when that is not a terminal"
    f" (a line every {EVERY_SECONDS:g} s) or with --json.",
)


class Job:
    """One long command: how it shows progress, and each step's count so far (which the
    line after Ctrl-C reads)."""

    def __init__(self, show: bool = False, as_json: bool = False) -> None:
        terminal = err().is_terminal
        self.mode = "bar" if terminal and (show or not as_json) else "lines" if show else "off"
        self.steps: dict[str, Meter] = {}

    def count(self, label: str) -> int:
        """How many items step `label` has done (0 if it has not started)."""
        step = self.steps.get(label)
        return step.done if step else 0

    def total(self, label: str) -> int | None:
        step = self.steps.get(label)
        return step.total if step else None

    @contextmanager
    def step(self, label: str, total: int | None, unit: str) -> Iterator[Meter]:
        """A step of `total` `unit`s (None: not known ahead), shown as the job shows it."""
        meter = Meter(label, total, unit, self.mode)
        self.steps[label] = meter
        with meter.shown():
            yield meter


class Meter:
    """Where one step is; safe to advance from the brain's worker thread."""

    def __init__(self, label: str, total: int | None, unit: str, mode: str) -> None:
        self.label, self.total, self.unit, self.mode = label, total, unit, mode
        self.done = 0
        self._lock = threading.Lock()
        self._last_line = 0.0
        self._printed = -1
        self._bar: Progress | None = None

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self.done += n
        self._show()

    def set(self, done: int, total: int | None) -> None:
        with self._lock:
            self.done, self.total = done, total
        self._show()

    def line(self) -> str:
        """`importing: 1,200 of 30,000 records (4 %)`."""
        if self.total:
            share = f" ({100 * self.done // self.total} %)"
            return f"{self.label}: {self.done:,} of {self.total:,} {self.unit}{share}"
        return f"{self.label}: {self.done:,} {self.unit}"

    @contextmanager
    def shown(self) -> Iterator[None]:
        if self.mode == "bar":
            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=err(),
            )
            self._task = self._bar.add_task(self.label, total=self.total)
            with self._bar:
                yield
            return
        yield
        if self.mode == "lines" and self._printed != self.done:  # where the step ended
            self._print()

    def _show(self) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done, total=self.total)
        elif self.mode == "lines" and self.done:
            now = time.monotonic()
            with self._lock:
                due = now - self._last_line >= EVERY_SECONDS
                if due:
                    self._last_line = now
            if due:
                self._print()

    def _print(self) -> None:
        self._printed = self.done
        click.echo(f"brain: {self.line()}", err=True)


class _Stopped(Exception):
    """Raised inside the brain's worker thread to end a long job after Ctrl-C."""


async def embed_pending(brain: Brain, job: Job | None = None, label: str = "embedding") -> int:
    """Embed every entity still missing a vector, shown as `job` shows progress (its step
    `label` counts them); stops after the current batch on Ctrl-C.

    Raises: InvalidInput if the embedding model cannot be loaded.
    """
    if brain.embedder is None or brain.read_only:
        return 0
    pending = (await brain.stats())["pending_vectors"] or 0
    if not pending:
        return 0
    stop = threading.Event()
    with (job or Job()).step(label, pending, "vectors") as meter:

        def tick(done: int, total: int) -> None:
            # Cancelling the awaiting task leaves the worker running; this ends it
            # after the current batch so closing the brain need not wait for all.
            meter.set(done, total)  # after each batch is stored: the count is what is kept
            if stop.is_set():
                raise _Stopped

        try:
            return await brain.index_vectors(tick)
        except asyncio.CancelledError:
            stop.set()
            raise


def run_kept(coro: Coroutine[Any, Any, T], kept: Callable[[], str]) -> T:
    """Run a command's async body; on Ctrl-C, once the work in hand has stopped and what it
    did is committed, raise Interrupted with `kept()`: what was kept and how to go on.

    Raises: Interrupted.
    """
    try:
        return run(coro)
    except KeyboardInterrupt:
        raise Interrupted(kept()) from None


def until(stop: threading.Event, items: Iterable[T]) -> Iterator[T]:
    """`items` until `stop` is set: a worker thread's loop ends after its current item."""
    for item in items:
        if stop.is_set():
            return
        yield item


async def finished(coro: Coroutine[Any, Any, T]) -> T:
    """Await `coro` to its end even when Ctrl-C cancels the caller, then let the cancel
    through: one item is never left half done (a second Ctrl-C stops at once)."""
    task = asyncio.ensure_future(coro)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await task
        raise
