"""`brain import-notes`, `brain context` and `brain import-claude`."""

from __future__ import annotations

from pathlib import Path

import click

from brainbridge.cli.common import (
    EXIT_NOT_FOUND,
    App,
    fail,
    guarded,
    json_option,
    open_brain,
    pass_app,
    run,
)
from brainbridge.cli.work import Job, embed_pending, progress_option, run_kept


@click.command("import-notes")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--watch", is_flag=True, help="Keep running and re-import on every change.")
@progress_option
@json_option
@pass_app
def import_notes_cmd(
    app: App, folder: Path, watch: bool, show_progress: bool, as_json: bool
) -> None:
    """Index a folder of Markdown notes (frontmatter, [[wikilinks]], links) incrementally.
    Ctrl-C keeps the notes written so far; running it again finishes them."""
    import json

    from brainbridge.vault import ImportReport, import_notes, watch_notes

    job = Job(show_progress, as_json)

    def show(report: ImportReport) -> None:
        if as_json:
            click.echo(json.dumps(report.to_dict()))
            return
        for w in report.warnings:
            click.echo(f"warning: {w}", err=True)
        click.echo(
            f"{len(report.added)} added, {len(report.updated)} updated, {report.unchanged} unchanged,"
            f" {len(report.deleted)} deleted, {len(report.renamed)} renamed, {report.links} links"
            + (f" ({report.unresolved_links} unresolved)" if report.unresolved_links else "")
        )

    async def body() -> None:
        # With the embedder, the notes are searchable by meaning when the import ends:
        # a search afterwards never waits for them.
        async with open_brain(app.settings, embedder=not watch) as brain:
            if watch:
                click.echo(f"watching {folder} (Ctrl-C to stop)", err=True)
                await watch_notes(brain, folder, on_report=show)
                return
            with job.step("writing notes", None, "notes") as meter:
                report = await import_notes(brain, folder, meter.set)
            show(report)
            await embed_pending(brain, job, "embedding notes")

    def kept() -> str:
        again = f"`brain import-notes {folder}`"
        if watch:
            return f"stopped watching {folder}; {again} picks up any change made since"
        if "embedding notes" in job.steps:
            return (
                f"kept every note and {job.count('embedding notes'):,} of"
                f" {job.total('embedding notes') or 0:,} vectors;"
                " `brain index` finishes the vectors"
            )
        written, total = job.count("writing notes"), job.total("writing notes")
        of = f" of {total:,}" if total else ""
        return (
            f"kept {written:,}{of} new or changed notes; re-running {again} is safe"
            " (unchanged notes are skipped) and finishes their links, and `brain index`"
            " finishes the vectors"
        )

    guarded(lambda: run_kept(body(), kept))


@click.command("context")
@click.argument("project_root", default=".", type=click.Path(path_type=Path))
@click.option("--file", "files", multiple=True, help="A file you are working on (repeatable).")
@click.option("--limit", default=10, show_default=True)
@json_option
@pass_app
def context_cmd(
    app: App, project_root: Path, files: tuple[str, ...], limit: int, as_json: bool
) -> None:
    """What the brain knows that matters for a code project."""
    import json

    from brainbridge.mcp.text import context_text

    async def body() -> list[dict]:  # type: ignore[type-arg]
        async with open_brain(app.settings, read_only=True) as brain:
            return await brain.brain_context(str(project_root.resolve()), list(files), limit)

    entries = guarded(lambda: run(body()))
    click.echo(
        json.dumps(entries, ensure_ascii=False)
        if as_json
        else context_text(entries, str(project_root))
    )


@click.command("import-claude")
@click.argument("folder", required=False, type=click.Path(file_okay=False, path_type=Path))
@progress_option
@pass_app
def import_claude(app: App, folder: Path | None, show_progress: bool) -> None:
    """Back-fill the brain from past Claude Code transcripts (~/.claude/projects/*/*.jsonl).
    Ctrl-C keeps the turns stored so far; running it again skips them and goes on."""
    from brainbridge.chat_exports import Conversation
    from brainbridge.cli.exports import import_sessions, imported_line
    from brainbridge.hooks.payload import claude_transcripts_root, transcript_turns

    root = folder or claude_transcripts_root()
    if folder is not None and not folder.is_dir():
        fail(f"transcripts folder {folder} does not exist", EXIT_NOT_FOUND)
    files = sorted(root.glob("*/*.jsonl")) + sorted(root.glob("*.jsonl"))
    if not files:
        click.echo(f"no transcripts under {root}", err=True)
        return

    def transcript(path: Path) -> Conversation:
        return Conversation(path.stem, "", tuple(transcript_turns(path)))

    sources = [lambda p=p: transcript(p) for p in files]
    again = f"brain import-claude{f' {folder}' if folder else ''}"
    counts = import_sessions(
        app, sources, "importing transcripts", "transcripts", again, Job(show_progress)
    )
    click.echo(imported_line(counts, f"{len(files)} transcripts"))
