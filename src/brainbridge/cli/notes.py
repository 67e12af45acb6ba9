"""`brain import-notes`, `brain context` and `brain import-claude`."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

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
from brainbridge.cli.work import Job, embed_pending, finished, progress_option, run_kept


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
    from brainbridge.bridge import Bridge
    from brainbridge.hooks.payload import (
        claude_transcripts_root,
        day_of,
        transcript_turns,
        turn_key,
    )

    root = folder or claude_transcripts_root()
    if folder is not None and not folder.is_dir():
        fail(f"transcripts folder {folder} does not exist", EXIT_NOT_FOUND)
    files = sorted(root.glob("*/*.jsonl")) + sorted(root.glob("*.jsonl"))
    if not files:
        click.echo(f"no transcripts under {root}", err=True)
        return
    job = Job(show_progress)
    stored = skipped = 0

    async def body() -> None:
        nonlocal stored, skipped
        async with open_brain(app.settings) as brain:
            bridge = Bridge(brain)
            try:
                with job.step("importing transcripts", len(files), "transcripts") as meter:
                    for path in files:
                        session_id = path.stem
                        await brain._run(brain.sessions.ensure, session_id)
                        for turn in transcript_turns(path):
                            # Keyed as the Stop hook keys it: a turn it already stored is
                            # skipped, whatever number it was given.
                            key = turn_key(session_id, turn.prompt, turn.reply, turn.uuid)
                            if await brain._run(brain.store.has_turn_key, key):
                                skipped += 1
                                continue
                            # Ctrl-C lets the turn in hand finish: never half stored.
                            stored += await finished(_store(brain, bridge, session_id, turn, key))
                        meter.advance()
                        await asyncio.sleep(0)
            finally:
                await bridge.drain()

    async def _store(brain: Any, bridge: Any, session_id: str, turn: Any, key: str) -> bool:
        n = await brain._run(brain.sessions.next_turn, session_id)
        obs = await bridge.observe_now(
            session_id,
            n,
            turn.prompt,
            turn.reply,
            attributes={"turn_key": key},
            today=day_of(turn.timestamp),
        )
        return obs.exchange is not None

    def kept() -> str:
        again = f"`brain import-claude{f' {folder}' if folder else ''}`"
        return (
            f"kept {stored:,} exchanges ({job.count('importing transcripts'):,} of"
            f" {len(files):,} transcripts done); re-running {again} is safe"
            " (turns already stored are skipped) and `brain index` finishes the vectors"
        )

    guarded(lambda: run_kept(body(), kept))
    click.echo(
        f"{stored} exchanges imported from {len(files)} transcripts ({skipped} already there)"
    )
