"""What every command shares: settings, opening the brain, running async code, exit codes."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from brainbridge.errors import BrainError, InvalidInput, NotFound, StoreBusy
from brainbridge.settings import Settings, check_llm_provider, load_settings

if TYPE_CHECKING:
    from brainbridge.brain import Brain
    from brainbridge.model import Entity

T = TypeVar("T")
log = logging.getLogger(__name__)

EXIT_ERROR, EXIT_INVALID, EXIT_NOT_FOUND, EXIT_BUSY, EXIT_INTERRUPTED = 1, 2, 3, 4, 130


class Interrupted(BrainError):
    """Ctrl-C during long work, with what was kept and how to go on (exit code 130)."""


@dataclass
class App:
    """Per-invocation state: the global options and settings, loaded on first use."""

    brain_option: str | None = None
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    _settings: Settings | None = None

    @property
    def settings(self) -> Settings:
        """Raises: InvalidInput for a bad config.toml or BRAIN_* variable."""
        if self._settings is None:
            settings = load_settings(self.env, self.brain_option)
            check_llm_provider(settings, self.env)
            self._settings = settings
        return self._settings

    def folder(self) -> Path:
        """The brain folder the options and environment name, without reading config.toml."""
        from brainbridge.home import brain_home

        return Path(self.brain_option).expanduser() if self.brain_option else brain_home(self.env)

    def settings_for(self, brain: str) -> Settings:
        """Settings for another brain folder (the demo's), with the same environment."""
        return load_settings(self.env, brain)


class Group(click.Group):
    """A command group that answers a mistyped subcommand with the ones it may mean."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = click.utils.make_str(args[0])
        if self.get_command(ctx, name) is None and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx), n=2, cutoff=0.6)
            hint = f" Did you mean {' or '.join(map(repr, close))}?" if close else ""
            raise click.UsageError(f"No such command {name!r}.{hint}", ctx)
        return super().resolve_command(ctx, args)


pass_app = click.make_pass_decorator(App, ensure=True)

json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print JSON for scripts instead of tables."
)


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one command's async body to completion."""

    async def body() -> T:
        asyncio.get_running_loop().set_exception_handler(quiet_cancel_race)
        return await coro

    return asyncio.run(body())


def quiet_cancel_race(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The loop's exception handler: everything as the default one, except one harmless race.

    On Ctrl-C, `asyncio.run` cancels the command's task from a signal handler, which Python
    runs between two bytecodes of whatever runs then. When that is the callback copying a
    worker thread's result into the future the task awaits, the future is cancelled between
    the callback's check and its `set_result`, and the loop printed "Exception in callback
    ... InvalidStateError" with a traceback above the command's own "interrupted: kept ..."
    line. The result belonged to a cancelled wait: nothing is lost by not printing it.
    """
    exc = context.get("exception")
    if isinstance(exc, asyncio.InvalidStateError) and "_set_state" in repr(context.get("handle")):
        return
    loop.default_exception_handler(context)


@asynccontextmanager
async def open_brain(
    settings: Settings, *, embedder: bool = False, read_only: bool = False
) -> AsyncIterator[Brain]:
    """Open the brain of `settings`, creating the folder if needed; always closed after.

    Without `embedder` no model is loaded, and new entities wait for the next indexing.
    A `read_only` command (search, show, stats…) on a folder that holds no brain says so
    and creates nothing: a mistyped `--brain` is not an empty brain.
    Raises: NotFound for a read-only command where there is no brain; BrainError if the
    brain cannot be opened.
    """
    from brainbridge.brain import Brain  # keeps `brain --help` from importing NumPy
    from brainbridge.home import DB_FILE
    from brainbridge.store.location import database_url

    url = database_url(settings.brain_path)
    if read_only and not url and not (settings.brain_path / DB_FILE).is_file():
        raise no_brain(settings.brain_path)
    brain = await Brain.open(
        settings.brain_path,
        embedder=settings.embedder if embedder else None,
        background_indexing=False,
        database_url=url or "",
    )
    try:
        yield brain
    finally:
        await brain.close()


def no_brain(folder: Path) -> NotFound:
    """What a reading command says where a folder holds no brain."""
    return NotFound(
        f"no brain at {folder}; `brain --brain {folder} init` creates one"
        " (or set BRAIN_HOME to the brain you meant)"
    )


def split_ref(ref: str, known_types: dict[str, Any]) -> tuple[str, str] | str:
    """`Type:Name` as a pair when `Type` is a known type, else the text as a bare name.

    Chat_Exchange names hold colons themselves (`3f9c2a71:ex:4`), so only a known type
    before the first colon makes a prefix.
    """
    head, sep, tail = ref.partition(":")
    if sep and head in known_types and tail:
        return head, tail
    return ref


async def resolve(brain: Brain, ref: str) -> Entity:
    """The entity named by `Type:Name` or a unique name.

    Raises: NotFound; InvalidInput if a bare name is ambiguous.
    """
    parsed = split_ref(ref, brain.types)
    if isinstance(parsed, tuple):
        found = await brain.get_entity(*parsed)
        if found is not None:
            return found
        try:  # a name that itself starts with "Type:"
            return await brain.resolve(ref)
        except NotFound:
            raise NotFound(f"no {parsed[0]} named {parsed[1]!r}") from None
    return await brain.resolve(parsed)


def check_types(brain: Brain, names: tuple[str, ...] | list[str]) -> None:
    """Raises: InvalidInput for a type filter naming no known type."""
    unknown = [n for n in names if n not in brain.types]
    if unknown:
        raise InvalidInput(
            f"unknown entity type {', '.join(map(repr, unknown))};"
            f" known types: {', '.join(sorted(brain.types))}"
        )


def read_text_arg(value: str, what: str) -> str:
    """`value` itself, or standard input when it is `-` (for texts too long for argv).

    Raises: InvalidInput if standard input is not UTF-8.
    """
    if value != "-":
        return value
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(
            f"{what} from standard input is not valid UTF-8 (byte {exc.start})"
        ) from exc


def parse_attrs(pairs: tuple[str, ...]) -> dict[str, Any]:
    """`key=value` pairs as a dict; a value that parses as JSON is taken as JSON.

    Raises: InvalidInput for a pair without `=` or with an empty key.
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InvalidInput(f"--attr {pair!r}: expected key=value")
        try:
            out[key] = json.loads(raw, parse_constant=_not_json)
        except ValueError:
            out[key] = raw
    return out


def _not_json(constant: str) -> Any:
    # NaN and Infinity are Python's extensions, not JSON: keep them as text.
    raise ValueError(constant)


def exit_code(exc: BrainError) -> int:
    """The exit code a script sees for each kind of expected failure."""
    if isinstance(exc, Interrupted):
        return EXIT_INTERRUPTED
    if isinstance(exc, InvalidInput):  # SchemaError included
        return EXIT_INVALID
    if isinstance(exc, NotFound):
        return EXIT_NOT_FOUND
    if isinstance(exc, StoreBusy):
        return EXIT_BUSY
    return EXIT_ERROR


def fail(message: str, code: int) -> None:
    """Print `brain: error: …` on stderr and exit with `code`."""
    first = " ".join(str(message).split()) or "unknown error"
    click.echo(f"brain: error: {first}", err=True)
    raise SystemExit(code)


def require(*modules: str) -> None:
    """Check that optional packages are importable, without importing them.

    Raises: ModuleNotFoundError naming the first one missing (`guarded` turns it into one
    line with the install command).
    """
    import importlib.util

    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise ModuleNotFoundError(f"No module named {module!r}", name=module)


def guarded(fn: Callable[[], T]) -> T:
    """Call `fn`, turning expected failures into a message and an exit code.

    Raises: SystemExit.
    """
    try:
        return fn()
    except Interrupted as exc:
        click.echo(f"brain: interrupted: {' '.join(str(exc).split())}", err=True)
        raise SystemExit(EXIT_INTERRUPTED) from None
    except BrainError as exc:
        fail(str(exc), exit_code(exc))
    except BrokenPipeError:
        raise
    except ModuleNotFoundError as exc:  # an install missing a dependency, not our bug
        log.debug("missing module", exc_info=True)
        fail(
            f"{exc.name} is not installed in {sys.executable};"
            " reinstall brainbridge: python -m pip install brainbridge",
            EXIT_ERROR,
        )
    except OSError as exc:  # a folder we may not write, a disk that is full
        log.debug("OS error", exc_info=True)
        where = f"{exc.filename}: " if exc.filename else ""
        fail(f"{where}{exc.strerror or exc}", EXIT_ERROR)
    except sqlite3.DatabaseError as exc:  # escaped the store: a full disk, a read-only folder
        from brainbridge.store.sqlite.db import describe

        log.debug("database error", exc_info=True)
        fail(describe(exc), EXIT_ERROR)
    except (KeyboardInterrupt, click.Abort):
        click.echo("brain: interrupted", err=True)
        raise SystemExit(EXIT_INTERRUPTED) from None
    raise AssertionError("unreachable")
