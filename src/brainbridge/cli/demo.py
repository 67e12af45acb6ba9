"""`brain demo`: a sample brain in a fresh folder, a few searches and a recall, then the
bridge judging three messages as it would before each turn of a chat."""

from __future__ import annotations

import shlex
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import click
from rich.text import Text

from brainbridge.cli.common import App, json_option, open_brain, pass_app, run
from brainbridge.cli.output import emit_json, out, print_hits, say
from brainbridge.cli.sample import MARKER, load_sample
from brainbridge.cli.search import print_recall
from brainbridge.errors import InvalidInput

# Chosen to show each retriever at work: words, meaning, and relations.
SEARCHES = (
    "stops lost when two phones synced",
    "what did we promise Acme Freight",
    "money left and monthly spending for the board",
)
RECALL = "When does the Atlas beta launch and why did it move?"
# One of each judgment: leans on what the brain knows, asks for the brain itself, general.
MESSAGES = (
    "Drivers still lose stops after syncing, any new ideas?",
    "Show me what my brain has on Acme Freight",
    "How do I reverse a list in Python?",
)


@click.command()
@click.argument(
    "directory", required=False, metavar="[DIR]", type=click.Path(file_okay=False, path_type=Path)
)
@click.option("--keep", is_flag=True, help="Keep the temporary sample brain to try it further.")
@json_option
@pass_app
def demo(app: App, directory: Path | None, keep: bool, as_json: bool) -> None:
    """Load a small sample brain into DIR and query it. Without DIR it lives in a new
    temporary folder that is removed afterwards (--keep keeps it); a DIR is always kept.

    Works offline: the sample and the embedding model ship inside the package.
    """
    if directory is None:
        folder = Path(tempfile.mkdtemp(prefix="brain-demo-"))
        try:
            _run_demo(app, folder, keep, as_json)
        finally:
            if not keep:
                shutil.rmtree(folder, ignore_errors=True)
    else:
        _run_demo(app, directory, True, as_json)


def _run_demo(app: App, folder: Path, kept: bool, as_json: bool) -> None:
    settings = app.settings_for(str(folder))
    started = time.perf_counter()

    async def _demo() -> dict[str, Any]:
        async with open_brain(settings, embedder=True) as brain:
            present = (await brain.stats())["entities"]
            if present and await brain.get_entity(*MARKER) is None:
                raise InvalidInput(
                    f"{folder} already holds a brain with {present} entities;"
                    " give the demo an empty or new folder"
                )
            counts = await load_sample(brain)
            vectors = await brain.index_vectors()
            searches = [(q, await brain.search(q, 5)) for q in SEARCHES]
            recall = await brain.recall(RECALL, 5)
            bridge = settings.make_bridge(brain, None)  # the local judge: no LLM needed
            judged = [await bridge.enrich(m, "brain-demo") for m in MESSAGES]
            await bridge.drain()
            embedder = brain.embedder.name if brain.embedder else "none"
        return {
            "path": str(folder),
            "kept": kept,
            "loaded": {
                "entities": counts.entities,
                "exchanges": counts.exchanges,
                "relations": counts.relations,
                "vectors": vectors,
            },
            "embedder": embedder,
            "searches": searches,
            "recall": recall,
            "bridge": [
                {"message": m, **{k: e.to_dict()[k] for k in ("judgment", "reasons", "block")}}
                for m, e in zip(MESSAGES, judged, strict=True)
            ],
        }

    result = run(_demo())
    if as_json:
        searches = [
            {"query": q, "results": [h.to_dict() for h in hits]} for q, hits in result["searches"]
        ]
        emit_json({**result, "searches": searches})
        return
    _print(result, time.perf_counter() - started)


def _print(result: dict[str, Any], seconds: float) -> None:
    console = out()
    loaded = result["loaded"]
    where = "" if result["kept"] else " (temporary)"
    say(Text(f"Demo brain at {result['path']}{where}", style="bold green"))
    say(
        Text(
            f"Loaded {loaded['entities']} entities, {loaded['exchanges']} past chat exchanges"
            f" and {loaded['relations']} relations; embedded {loaded['vectors']} vectors"
            f" with {result['embedder']} in {seconds:.1f} s."
        )
    )
    if result["embedder"] == "none":
        say(Text("No embedder: results come from words and the graph only.", style="yellow"))
    for query, hits in result["searches"]:
        console.print()
        print_hits(hits, query, title=f"brain search {query!r}")
    console.print()
    print_recall(result["recall"])
    console.print()
    say(Text("The bridge, before each message of a chat:", style="bold"))
    for turn in result["bridge"]:
        console.print()
        say(Text(f"you › {turn['message']}", style="bold"))
        why = "; ".join(turn["reasons"])
        say(Text(f"  judgment: {turn['judgment']} ({why})", style="cyan"))
        if turn["block"]:
            say(Text("  injected ahead of the message:", style="dim"))
            for line in turn["block"].splitlines():
                say(Text(f"    {line}", style="dim"))
    console.print()
    if not result["kept"]:
        say(Text("The sample brain was removed.", style="dim"))
        say(Text("  brain demo --keep   keeps it, to try your own questions on it"))
        return
    brain_opt = f"--brain {shlex.quote(result['path'])}"
    say(Text("Try your own questions:", style="bold"))
    say(Text(f'  brain {brain_opt} search "who designs the driver app"'))
    say(Text(f'  brain {brain_opt} show "Maya Chen"'))
    say(Text(f'  brain {brain_opt} recall "what is Acme Freight waiting for"'))
    say(Text(f'  brain {brain_opt} enrich "what did we promise Acme Freight again?"'))
