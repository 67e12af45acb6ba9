"""`brain types | stats | index`: looking after a brain."""

from __future__ import annotations

from typing import Any

import click
from rich.text import Text

from brainbridge.cli.common import App, embed_pending, json_option, open_brain, pass_app, run
from brainbridge.cli.output import emit_json, out, say, stats_table, types_table


@click.command("types")
@click.option("--sync", is_flag=True, help="Re-read entity_types.yaml and apply it first.")
@json_option
@pass_app
def types_cmd(app: App, sync: bool, as_json: bool) -> None:
    """List the entity types and their attributes."""

    async def _types() -> dict[str, dict[str, Any]]:
        async with open_brain(app.settings) as brain:
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
        async with open_brain(app.settings, embedder=True) as brain:
            return await brain.stats()

    data = run(_stats())
    if as_json:
        emit_json({"path": str(app.settings.brain_path), **data})
        return
    out().print(stats_table(data, str(app.settings.brain_path)))


@click.command()
@json_option
@pass_app
def index(app: App, as_json: bool) -> None:
    """Embed every entity that has no vector yet (after imports or `brain add`)."""

    async def _index() -> tuple[str, int]:
        async with open_brain(app.settings, embedder=True) as brain:
            if brain.embedder is None:
                return "none", 0
            return brain.embedder.name, await embed_pending(brain)

    embedder, done = run(_index())
    if as_json:
        emit_json({"embedder": embedder, "embedded": done})
        return
    if embedder == "none":
        say('No embedder configured (embedder = "none"); search uses words and the graph.')
        return
    say(Text(f"Embedded {done} entit{'y' if done == 1 else 'ies'} with {embedder}."))
