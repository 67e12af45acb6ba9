"""`brain merges`, `brain merge`, `brain unmerge`: the review queue of who is who."""

from __future__ import annotations

from typing import Any

import click
from rich.text import Text

from brainbridge.cli.common import App, Group, json_option, open_brain, pass_app, resolve, run
from brainbridge.cli.output import emit_json, say


def _line(m: dict[str, Any]) -> Text:
    text = Text(f"#{m['id']:<4} ", style="dim")
    text.append(f"{m['status']:<9} ", style="magenta")
    text.append(f"{m['entity_type']}: ", style="cyan")
    text.append(m["keep_name"], style="bold").append(" ← ").append(m["other_name"], style="bold")
    if m["status"] == "pending":
        text.append(f"  ({m['reason']}, {m['score']:.2f})", style="dim")
    return text


def _show(done: dict[str, Any], as_json: bool) -> None:
    if as_json:
        emit_json(done)
    else:
        say(_line(done))


@click.group(invoke_without_command=True, cls=Group)
@click.option(
    "--all", "show_all", is_flag=True, help="Every merge, not only those waiting for review."
)
@json_option
@pass_app
@click.pass_context
def merges(ctx: click.Context, app: App, show_all: bool, as_json: bool) -> None:
    """The review queue: names that may be one entity. `accept ID` / `reject ID` decide."""
    if ctx.invoked_subcommand is not None:
        return

    async def _list() -> list[dict[str, Any]]:
        async with open_brain(app.settings, read_only=True) as brain:
            return await brain.merges(None if show_all else "pending")

    rows = run(_list())
    if as_json:
        emit_json({"merges": rows, "count": len(rows)})
        return
    if not rows:
        say(Text("Nothing waits for review." if not show_all else "No merges yet.", style="dim"))
    for m in rows:
        say(_line(m))


def _decide(accept: bool) -> click.Command:
    verb = "accept" if accept else "reject"

    @click.command(verb)
    @click.argument("merge_id", type=int)
    @json_option
    @pass_app
    def decide(app: App, merge_id: int, as_json: bool) -> None:
        async def _go() -> dict[str, Any]:
            async with open_brain(app.settings) as brain:
                return await brain.decide_merge(merge_id, accept)

        _show(run(_go()), as_json)

    decide.help = (
        "Merge the two: relations move, the name becomes an alias (undo: brain unmerge ID)."
        if accept
        else "Keep the two apart; they are not proposed again."
    )
    return decide


merges.add_command(_decide(True))
merges.add_command(_decide(False))


@click.command()
@click.argument("keep", metavar="KEEP")
@click.argument("other", metavar="OTHER")
@json_option
@pass_app
def merge(app: App, keep: str, other: str, as_json: bool) -> None:
    """Fold OTHER into KEEP (TYPE:NAME or NAME): one entity, both names."""

    async def _go() -> dict[str, Any]:
        async with open_brain(app.settings) as brain:
            return await brain.merge(await resolve(brain, keep), await resolve(brain, other))

    _show(run(_go()), as_json)


@click.command()
@click.argument("merge_id", type=int)
@json_option
@pass_app
def unmerge(app: App, merge_id: int, as_json: bool) -> None:
    """Undo merge ID: both entities as they were, with their relations."""

    async def _go() -> dict[str, Any]:
        async with open_brain(app.settings) as brain:
            return await brain.unmerge(merge_id)

    _show(run(_go()), as_json)
