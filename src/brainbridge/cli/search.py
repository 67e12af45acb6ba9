"""`brain search | recall`: hybrid retrieval from the command line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
from rich.padding import Padding
from rich.text import Text

from brainbridge.cli.common import (
    App,
    check_types,
    json_option,
    open_brain,
    pass_app,
    read_text_arg,
    run,
)
from brainbridge.cli.output import clip, emit_json, note, out, print_hits, say
from brainbridge.model import Hit

if TYPE_CHECKING:
    from brainbridge.brain import Brain

_QUERY_HELP = "QUERY may be any text; '-' reads it from standard input."


async def catch_up_vectors(brain: Brain) -> None:
    """Say when some entries have no vector yet: the search answers now, from words, the
    graph and the vectors that exist, and never waits to embed the rest."""
    if brain.embedder is None:
        return
    pending = (await brain.stats()).get("pending_vectors") or 0
    if pending:
        note(
            f"{pending} entries have no vector yet (meaning-based matches miss them until"
            " they do); `brain index` embeds them now, `brain serve` in the background."
        )


async def _search(
    app: App,
    query: str,
    limit: int,
    types: tuple[str, ...],
    exclude: tuple[str, ...],
    as_of: str | None = None,
    superseded: bool = False,
) -> list[Hit]:
    async with open_brain(app.settings, embedder=True, read_only=True) as brain:
        check_types(brain, [*types, *exclude])
        await catch_up_vectors(brain)
        return await brain.search(
            query,
            limit,
            list(types) or None,
            list(exclude) or None,
            as_of=as_of,
            superseded=superseded,
        )


as_of_option = click.option(
    "--as-of", "as_of", metavar="YYYY-MM-DD", help="What held on this day (default: now)."
)
superseded_option = click.option(
    "--superseded", is_flag=True, help="Also show facts that were replaced since."
)


@click.command(epilog=_QUERY_HELP)
@click.argument("query")
@click.option(
    "-n",
    "--num-results",
    "limit",
    default=10,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="How many results at most.",
)
@click.option(
    "-t",
    "--type",
    "types",
    multiple=True,
    metavar="TYPE",
    help="Only entities of this type. Repeatable.",
)
@click.option(
    "-x",
    "--exclude-type",
    "exclude",
    multiple=True,
    metavar="TYPE",
    help="Leave out entities of this type. Repeatable.",
)
@as_of_option
@superseded_option
@json_option
@pass_app
def search(
    app: App,
    query: str,
    limit: int,
    types: tuple[str, ...],
    exclude: tuple[str, ...],
    as_of: str | None,
    superseded: bool,
    as_json: bool,
) -> None:
    """Find entities by words and meaning, widened through their relations."""
    query = read_text_arg(query, "the query")
    hits = run(_search(app, query, limit, types, exclude, as_of, superseded))
    if as_json:
        emit_json({"query": query, "results": [h.to_dict() for h in hits], "count": len(hits)})
        return
    print_hits(hits, query)


@click.command(epilog=_QUERY_HELP)
@click.argument("query")
@click.option(
    "-n",
    "--num-results",
    "limit",
    default=5,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="How many results at most.",
)
@as_of_option
@superseded_option
@json_option
@pass_app
def recall(
    app: App, query: str, limit: int, as_of: str | None, superseded: bool, as_json: bool
) -> None:
    """What an agent would be given for QUERY: the best entities and past exchanges."""
    query = read_text_arg(query, "the query")

    async def _recall() -> dict[str, Any]:
        async with open_brain(app.settings, embedder=True, read_only=True) as brain:
            await catch_up_vectors(brain)
            return await brain.recall(query, limit, as_of=as_of, superseded=superseded)

    result = run(_recall())
    if as_json:
        emit_json(result)
        return
    print_recall(result)


def print_recall(result: dict[str, Any]) -> None:
    """Recall results as numbered entries: `Type:Name`, found-by, then the description."""
    query = result["query"]
    if not result["results"]:
        say(Text(f"Nothing recalled for {clip(query, 80)!r}.", style="yellow"))
        return
    head = Text(f"Recall for {clip(query, 80)!r}: ", style="bold")
    say(head.append(f"{result['count']} result{'s' * (result['count'] != 1)}"))
    for i, item in enumerate(result["results"], start=1):
        line = Text(f"{i:>2}. ", style="dim")
        line.append(f"{item['type']}:", style="cyan")
        line.append(item["name"], style="bold")
        line.append(f"  [{' + '.join(item['retrievers'])}, {item['score']:.4f}]", style="magenta")
        say(line)
        shown = Text(clip(item["description"], 300))
        if gone := item.get("no_longer_holds"):
            shown.append(f"\n[{clip(gone, 300)}]", style="yellow")
        out().print(Padding(shown, (0, 0, 0, 4)))
