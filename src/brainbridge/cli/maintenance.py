"""`brain types | stats | index | backup | restore | check`: looking after a brain."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from rich.text import Text

from brainbridge.cli.common import App, fail, json_option, open_brain, pass_app, run
from brainbridge.cli.output import emit_json, out, say, stats_table, types_table
from brainbridge.cli.work import Job, embed_pending, progress_option, run_kept
from brainbridge.errors import BrainError, InvalidInput
from brainbridge.home import DB_FILE
from brainbridge.settings import Settings


@click.command("types")
@click.option("--sync", is_flag=True, help="Re-read entity_types.yaml and apply it first.")
@json_option
@pass_app
def types_cmd(app: App, sync: bool, as_json: bool) -> None:
    """List the entity types and their attributes."""

    async def _types() -> dict[str, dict[str, Any]]:
        async with open_brain(app.settings, read_only=not sync) as brain:
            return await brain.sync_schema() if sync else dict(brain.types)

    types = run(_types())
    if as_json:
        emit_json(types)
        return
    out().print(types_table(types))
    if sync:
        say(Text(f"Applied {app.settings.brain_path / 'entity_types.yaml'}.", style="green"))


@click.command()
@json_option
@pass_app
def stats(app: App, as_json: bool) -> None:
    """Counts of entities per type, relations, vectors and sessions."""

    async def _stats() -> dict[str, Any]:
        # The embedder object is only named here, never loaded: it tells which vectors count.
        async with open_brain(app.settings, embedder=True, read_only=True) as brain:
            return await brain.stats()

    from brainbridge.store.location import database_url, redact_url

    data = run(_stats())
    data.update(_llm_calls(app.settings))
    url = database_url(app.settings.brain_path)
    where = {"database": redact_url(url)} if url else {}
    if as_json:
        emit_json({"path": str(app.settings.brain_path), **where, **data})
        return
    place = where.get("database") or str(app.settings.brain_path)
    if data.get("person"):
        place += f" (as {data['person']})"
    out().print(stats_table(data, place))


def _llm_calls(settings: Settings) -> dict[str, Any]:
    """{"llm_calls": sent and refused background LLM calls and the caps} when an LLM is
    configured or calls were counted; {} otherwise."""
    from brainbridge.llm.budget import CALLS_FILE, call_budget

    if not settings.llm_provider and not (settings.brain_path / CALLS_FILE).exists():
        return {}
    return {"llm_calls": call_budget(settings.brain_path, settings.section("llm")).usage()}


@click.command()
@progress_option
@json_option
@pass_app
def index(app: App, show_progress: bool, as_json: bool) -> None:
    """Embed every entity that has no vector yet (after imports or `brain add`). Ctrl-C
    keeps the vectors made so far; running it again embeds the rest."""
    job = Job(show_progress, as_json)

    async def _index() -> tuple[str, int]:
        async with open_brain(app.settings, embedder=True) as brain:
            if brain.embedder is None:
                return "none", 0
            if brain.read_only:
                raise BrainError(f"{brain.path} is read-only; vectors cannot be stored there")
            return brain.embedder.name, await embed_pending(brain, job)

    def kept() -> str:
        of = f" of {job.total('embedding'):,}" if "embedding" in job.steps else ""
        return (
            f"kept {job.count('embedding'):,}{of} vectors; re-running `brain index` is safe"
            " and finishes the vectors (search finds the rest by words meanwhile)"
        )

    embedder, done = run_kept(_index(), kept)
    if as_json:
        emit_json({"embedder": embedder, "embedded": done})
        return
    if embedder == "none":
        say('No embedder configured (embedder = "none"); search uses words and the graph.')
        return
    say(Text(f"Embedded {done} entit{'y' if done == 1 else 'ies'} with {embedder}."))


@click.command()
@click.argument("target", type=click.Path(path_type=Path))
@pass_app
def backup(app: App, target: Path) -> None:
    """Copy the brain database to TARGET, consistent even while other processes write.

    The Markdown notes and Daily/ files in the brain folder are plain files: copy them
    as they are, or use `brain export` for one portable file.
    """
    from brainbridge.store.sqlite.backup import backup as copy

    _file_only(app, "backup")
    size = copy(app.settings.brain_path / DB_FILE, target)
    say(
        Text(
            f"Backed up {app.settings.brain_path / DB_FILE} to {target} ({size:,} bytes).",
            style="green",
        )
    )


@click.command()
@click.argument("source", type=click.Path(path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask before replacing the brain.")
@pass_app
def restore(app: App, source: Path, yes: bool) -> None:
    """Replace the brain with the backup SOURCE (checked first); the brain as it was is
    kept beside it as brain.db.before-restore."""
    from brainbridge.store.sqlite.backup import restore as put_back

    _file_only(app, "restore")
    db = app.settings.brain_path / DB_FILE
    if db.exists() and not yes:
        if not sys.stdin.isatty():
            fail(f"restore replaces {db}: pass --yes to do it without a terminal to ask", 2)
        click.confirm(f"Replace {db} with {source}?", abort=True, err=True)
    kept = put_back(source, db)
    where = f"; the previous brain is in {kept}" if kept else ""
    say(Text(f"Restored {db} from {source}{where}.", style="green"))


@click.command()
@click.option("--repair", is_flag=True, help="Rebuild the full-text index from the entities.")
@json_option
@pass_app
def check(app: App, repair: bool, as_json: bool) -> None:
    """SQLite's integrity and foreign-key checks and the full-text index against the
    entities; exits 1 when something is wrong (after --repair, when it still is)."""
    from brainbridge.store.sqlite import backup as checks

    _file_only(app, "check")
    db = app.settings.brain_path / DB_FILE
    findings = checks.check(db)
    repaired = False
    if repair and any(not f.ok and f.repairable for f in findings):
        findings, repaired = checks.repair(db), True
    if as_json:
        emit_json({"repaired": repaired, "checks": [f.__dict__ for f in findings]})
    else:
        for f in findings:
            mark = Text("ok    ", style="green") if f.ok else Text("FAILED", style="bold red")
            line = Text.assemble(mark, f" {f.check}", (f"  {f.detail}" if f.detail else "", "dim"))
            out().print(line, soft_wrap=True)
        if repaired:
            say(Text("Rebuilt the full-text index from the entities.", style="green"))
        elif any(not f.ok and f.repairable for f in findings):
            say(Text("Run `brain check --repair` to rebuild the full-text index.", style="yellow"))
    if not all(f.ok for f in findings):
        raise SystemExit(1)


def _file_only(app: App, command: str) -> None:
    """Refuse a command about the brain file when the brain lives in PostgreSQL.

    Raises: InvalidInput saying what to use instead.
    """
    from brainbridge.store.location import database_url, redact_url

    url = database_url(app.settings.brain_path)
    if url:
        raise InvalidInput(
            f"`brain {command}` works on a brain file; this brain is in {redact_url(url)}."
            " Use the server's own tools (pg_dump, amcheck), or `brain export` /"
            " `brain migrate --to FOLDER` for a file copy."
        )
