"""`brain export | import`: the whole brain as JSON Lines, round-trip exact."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import click
from rich.text import Text

from brainbridge.cli.common import App, json_option, open_brain, pass_app, run
from brainbridge.cli.output import emit_json, err
from brainbridge.cli.work import Job, embed_pending, progress_option, run_kept, until
from brainbridge.errors import InvalidInput, NotFound
from brainbridge.store.location import redact_url
from brainbridge.transfer import Imported


@click.command()
@click.argument("file", default="-", metavar="[FILE|-]")
@click.option("--vectors", is_flag=True, help="Include the vectors (large; else re-embedded).")
@pass_app
def export(app: App, file: str, vectors: bool) -> None:
    """Write the whole brain as JSON Lines to FILE (default: stdout): entities, relations,
    merges, sessions, the bridge log, curator runs, directives and the activity log."""

    async def _export() -> int:
        async with open_brain(app.settings, read_only=True) as brain:
            lines = brain.iter_export(vectors)
            if file == "-":
                return await asyncio.to_thread(_write, lines, sys.stdout.buffer)
            target = Path(file)
            tmp = target.with_name(f".{target.name}.partial")
            try:
                with tmp.open("wb") as fh:
                    count = await asyncio.to_thread(_write, lines, fh)
                os.replace(tmp, target)
            except OSError as exc:
                tmp.unlink(missing_ok=True)
                raise InvalidInput(f"cannot write {file}: {exc.strerror or exc}") from exc
            return count

    sys.stdout.flush()
    count = run(_export())
    if file != "-":
        err().print(Text(f"Exported {count} lines to {file}.", style="green"), soft_wrap=True)


def _write(lines: Iterator[str], fh: BinaryIO) -> int:
    # Runs in a worker thread while the brain's own thread is idle, so the
    # connection is never used from two threads at once.
    count = 0
    for line in lines:
        fh.write(line.encode("utf-8") + b"\n")
        count += 1
    fh.flush()
    return count


@dataclass
class _Reader:
    """Lines of a JSONL byte stream, stopping (not raising) at the first invalid UTF-8 line.

    Stopping lets the importer commit everything before the bad line; the caller
    reports it afterwards.
    """

    stream: BinaryIO
    bad_line: int | None = None
    bad_detail: str = ""
    # Set after Ctrl-C: the importer then commits what it has and returns.
    stop: threading.Event = field(default_factory=threading.Event)

    def __iter__(self) -> Iterator[str]:
        for n, raw in enumerate(until(self.stop, self.stream), start=1):
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                self.bad_line = n
                self.bad_detail = f"byte 0x{raw[exc.start]:02x} at column {exc.start + 1}"
                return


@click.command("import")
@click.argument("file", metavar="FILE|-")
@click.option("--no-embed", is_flag=True, help="Leave vectors for a later `brain index`.")
@click.option("--skip-bad", is_flag=True, help="Go on past malformed lines and list them.")
@progress_option
@json_option
@pass_app
def import_cmd(
    app: App, file: str, no_embed: bool, skip_bad: bool, show_progress: bool, as_json: bool
) -> None:
    """Load JSON Lines written by `brain export` (entities merge, relations link, history
    rows already present are left alone: importing twice adds nothing).

    Everything before a bad line is kept; the error names the line. With --skip-bad the
    import goes on and lists the bad lines (exit code 2 if there were any). Ctrl-C keeps
    what was imported; running the same import again finishes it.
    """
    if file != "-" and not Path(file).is_file():
        raise NotFound(f"{file}: no such file")
    total = _count_lines(file)
    job = Job(show_progress, as_json)

    async def _import() -> Imported:
        async with open_brain(app.settings, embedder=not no_embed) as brain:
            with _open_input(file) as stream:
                reader = _Reader(stream)
                with job.step("importing", total, "records") as bar:
                    try:
                        done = await brain.import_all(reader, bar.advance, skip_bad)
                    except asyncio.CancelledError:
                        reader.stop.set()
                        raise
                    except (InvalidInput, NotFound) as exc:
                        raise type(exc)(f"{file}: {exc}") from exc
            if reader.bad_line is not None:
                raise InvalidInput(
                    f"{file}: line {reader.bad_line}: not valid UTF-8 ({reader.bad_detail});"
                    " the lines before it were imported"
                )
            done.counts["embedded"] = await embed_pending(brain, job)
            return done

    def kept() -> str:
        source = "standard input" if file == "-" else file
        if "embedding" not in job.steps:
            of = f" of {total:,}" if total is not None else ""
            return (
                f"kept {job.count('importing'):,}{of} records from {source} (searchable by"
                " words now); re-running the same import is safe (records already there are"
                " skipped) and `brain index` finishes the vectors"
            )
        return (
            f"kept all records from {source} and {job.count('embedding'):,} of"
            f" {job.total('embedding') or 0:,} vectors; `brain index` finishes the vectors"
        )

    done = run_kept(_import(), kept)
    counts = done.counts
    if as_json:
        skipped = [{"line": n, "error": e} for n, e in done.skipped]
        emit_json({**counts, "skipped": skipped})
    else:
        rest = {k: v for k, v in counts.items() if k not in ("entities", "relations", "embedded")}
        also = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in rest.items())
        err().print(
            Text(
                f"Imported {counts.get('entities', 0)} entities and {counts.get('relations', 0)}"
                f" relations from {'stdin' if file == '-' else file}"
                + (f" (and {also})" if also else "")
                + f"; embedded {counts['embedded']}.",
                style="green",
            ),
            soft_wrap=True,
        )
        for n, error in done.skipped:
            err().print(Text(f"skipped line {n}: {error}", style="yellow"), soft_wrap=True)
    if done.skipped:
        raise SystemExit(2)  # bad input, as for any command


def _open_input(file: str) -> BinaryIO:
    if file == "-":
        return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    try:
        return open(file, "rb")  # noqa: SIM115 (closed by the caller's with)
    except OSError as exc:
        raise InvalidInput(f"cannot read {file}: {exc.strerror or exc}") from exc


def _count_lines(file: str) -> int | None:
    """Lines in FILE for the progress bar (None for stdin, where we cannot look ahead)."""
    if file == "-":
        return None
    try:
        with open(file, "rb") as fh:
            lines = sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
    except OSError as exc:
        raise InvalidInput(f"cannot read {file}: {exc.strerror or exc}") from exc
    return max(lines - 1, 0)  # the header line is not counted by the importer


@click.command()
@click.option(
    "--to",
    "target",
    required=True,
    metavar="URL|FOLDER",
    help="A PostgreSQL database (postgresql://…) or a brain folder (its brain.db).",
)
@click.option(
    "--workspace",
    metavar="NAME",
    help="Into this workspace of a team brain (a person's name: their private memory).",
)
@progress_option
@json_option
@pass_app
def migrate(
    app: App, target: str, workspace: str | None, show_progress: bool, as_json: bool
) -> None:
    """Copy everything this brain holds into TARGET, exactly: entities, relations, aliases,
    validity, merges, vectors, sessions, the bridge log, curator runs and directives.

    The copy is compared with the brain, record kind by record kind; a difference exits
    with an error. The brain itself is left as it is. Re-running adds nothing twice.
    Then point your tools at the copy: BRAIN_DATABASE_URL (or `[database] url` in
    config.toml) for a database, BRAIN_HOME for a folder. Into a team brain, --workspace
    puts it in one person's private workspace (run as the brain's owner). Ctrl-C keeps
    what was copied; running the same command again finishes the copy.
    """
    from brainbridge.acting import require_owner
    from brainbridge.brain import Brain
    from brainbridge.store.location import SCHEMES, database_url

    url = target if target.startswith(SCHEMES) else ""
    folder = app.settings.brain_path if url else Path(target).expanduser()
    source_url = database_url(app.settings.brain_path) or ""
    if (url or "") == source_url and (url or folder.resolve() == app.settings.brain_path.resolve()):
        raise InvalidInput("the target is this brain itself")
    require_owner("brain migrate")
    if workspace and not url:
        raise InvalidInput("--workspace needs a PostgreSQL target (a file has one workspace)")
    where = redact_url(url) if url else str(folder)
    job = Job(show_progress, as_json)

    async def _migrate() -> tuple[dict[str, int], dict[str, int]]:
        async with open_brain(app.settings, read_only=True) as source:
            await _refuse_teams(source)
            copy = await Brain.open(
                folder,
                embedder=None,
                background_indexing=False,
                database_url=url,
                user="",
                workspace=workspace or "",
            )
            try:
                lines = await source.export_jsonl(vectors=True)
                stop = threading.Event()
                with job.step("copying", len(lines), "records") as bar:
                    try:
                        await copy.import_all(until(stop, lines), bar.advance)
                    except asyncio.CancelledError:
                        stop.set()  # the copy ends after the current record
                        raise
                wanted = _kinds(lines)
                got = _kinds(await _exported(copy, workspace))
            finally:
                await copy.close()
        return wanted, got

    def kept() -> str:
        of = f" of {job.total('copying'):,}" if "copying" in job.steps else ""
        return (
            f"copied {job.count('copying'):,}{of} records to {where} (this brain is"
            " unchanged); re-running the same command is safe (records already there are"
            " skipped) and finishes the copy"
        )

    wanted, got = run_kept(_migrate(), kept)
    if as_json:
        emit_json({"target": where, "records": got, "matches": wanted == got})
    if wanted != got:
        diff = {k: (wanted.get(k, 0), got.get(k, 0)) for k in wanted.keys() | got.keys()}
        short = ", ".join(f"{k}: {a} here, {b} there" for k, (a, b) in diff.items() if a != b)
        raise InvalidInput(f"the copy in {where} differs from this brain ({short})")
    if not as_json:
        summary = ", ".join(f"{k.replace('_', ' ')} {n:,}" for k, n in sorted(got.items()))
        err().print(
            Text(f"Copied to {where} ({summary}); the copy matches this brain.", style="green")
        )


async def _refuse_teams(source: Any) -> None:
    """A brain with people is not copied: one export would merge their workspaces.

    Raises: InvalidInput for a team brain.
    """
    if source.database_url:
        from brainbridge.store.postgres import people

        if await source._run(people.has_people, source.store.conn):
            raise InvalidInput(
                "this brain has people; brain migrate copies a one-person brain"
                " (workspaces are not carried over)"
            )


async def _exported(copy: Any, workspace: str | None) -> list[str]:
    """The copy's export; with a workspace, that workspace's alone, read as a person who
    may read only it (confined by the server, as everyone is)."""
    from brainbridge.brain import Brain

    if not workspace:
        return await copy.export_jsonl(vectors=True)
    from brainbridge.store.postgres import people

    conn = copy.store.conn
    viewer = await copy._run(people.add_viewer, conn, workspace)
    try:
        view = await Brain.open(
            copy.path,
            embedder=None,
            background_indexing=False,
            database_url=copy.database_url,
            user=viewer,
            workspace=workspace,
        )
        try:
            return await view.export_jsonl(vectors=True)
        finally:
            await view.close()
    finally:
        await copy._run(people.remove_viewer, conn, viewer)


def _kinds(lines: list[str]) -> dict[str, int]:
    """Records per kind in exported lines (the header aside)."""
    counts: dict[str, int] = {}
    for line in lines:
        kind = json.loads(line).get("kind", "")
        if kind != "header":
            counts[kind] = counts.get(kind, 0) + 1
    return counts
