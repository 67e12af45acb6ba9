"""`brain init | add | relate | show | delete`: writing and reading single entities."""

from __future__ import annotations

import click
from rich.text import Text

from brainbridge.cli.common import (
    App,
    json_option,
    open_brain,
    parse_attrs,
    pass_app,
    read_text_arg,
    resolve,
    run,
)
from brainbridge.cli.output import emit_json, entity_table, note, out, ref, say, subgraph_tables
from brainbridge.errors import NotFound
from brainbridge.model import Entity, Relation, Subgraph


@click.command("init")
@click.option(
    "--database-url",
    metavar="URL",
    help="Keep the brain in this PostgreSQL database (postgresql://user@host/db).",
)
@json_option
@pass_app
def init_cmd(app: App, as_json: bool, database_url: str | None) -> None:
    """Create the brain folder (database, entity_types.yaml, config.toml) if missing.

    With --database-url the brain's data lives in that PostgreSQL database (created
    tables and all on first use); the folder keeps its config, types and daily log.
    """
    from brainbridge.home import init_home
    from brainbridge.store.location import remember_url

    path = app.settings.brain_path
    made = init_home(path)
    if database_url:
        remember_url(path, database_url)

    async def _open() -> dict[str, int]:
        async with open_brain(app.settings) as brain:
            stats = await brain.stats()
        return {"entities": stats["entities"], "relations": stats["relations"]}

    counts = run(_open())
    if as_json:
        emit_json({"path": str(path), "created": [str(p) for p in made], **counts})
        return
    verb = "Created" if made else "Found"
    say(Text(f"{verb} brain at {path} ({counts['entities']} entities)."))
    for made_path in made:
        say(Text(f"  + {made_path}", style="green"))
    say(Text(f"Edit {path / 'entity_types.yaml'} to add types, then `brain types --sync`."))


@click.command()
@click.argument("entity_type", metavar="TYPE")
@click.argument("name")
@click.option("-d", "--description", help="What it is, in a sentence or two ('-' reads stdin).")
@click.option(
    "-a",
    "--attr",
    "attrs",
    multiple=True,
    metavar="KEY=VALUE",
    help='An attribute; VALUE is JSON if it parses (42, true, ["a"]), else text. Repeatable.',
)
@json_option
@pass_app
def add(
    app: App,
    entity_type: str,
    name: str,
    description: str | None,
    attrs: tuple[str, ...],
    as_json: bool,
) -> None:
    """Create or update an entity; attributes merge into what is stored.

    Search finds it by its words at once; its vector (search by meaning) is made by
    `brain index`, or by a running `brain serve`.
    """
    attributes = parse_attrs(attrs)
    if description is not None:
        description = read_text_arg(description, "the description")

    async def _add() -> tuple[bool, Entity]:
        async with open_brain(app.settings) as brain:
            existed = await brain.get_entity(entity_type, name.strip()) is not None
            entity = await brain.upsert_entity(entity_type, name, attributes, description)
        return existed, entity

    existed, entity = run(_add())
    if description is not None and "[REDACTED:" in entity.description:
        note("a secret in the description was stored as [REDACTED:…]")
    elif description is not None and len(entity.description) < len(description):
        note(f"description was cut to {len(entity.description)} characters")
    if as_json:
        emit_json(entity.to_dict())
        return
    line = Text("Updated " if existed else "Added ", style="green")
    say(line.append_text(ref(entity)))


@click.command()
@click.argument("src")
@click.argument("relation_type", metavar="REL")
@click.argument("dst")
@click.option("-a", "--attr", "attrs", multiple=True, metavar="KEY=VALUE", help="Repeatable.")
@json_option
@pass_app
def relate(
    app: App, src: str, relation_type: str, dst: str, attrs: tuple[str, ...], as_json: bool
) -> None:
    """Link SRC to DST with relation REL (SRC/DST as Type:Name or a unique name)."""
    attributes = parse_attrs(attrs)

    async def _relate() -> Relation:
        async with open_brain(app.settings) as brain:
            a, b = await resolve(brain, src), await resolve(brain, dst)
            return await brain.relate(a, relation_type, b, attributes or None)

    rel = run(_relate())
    if as_json:
        emit_json(rel.to_dict())
        return
    text = Text("Related ", style="green")
    text.append(f"{rel.src_type}:{rel.src_name}", style="bold")
    text.append(f" —{rel.type}→ ", style="magenta")
    text.append(f"{rel.dst_type}:{rel.dst_name}", style="bold")
    say(text)


@click.command()
@click.argument("entity_ref", metavar="TYPE:NAME|NAME")
@click.option(
    "--hops",
    default=1,
    show_default=True,
    type=click.IntRange(0, 5),
    help="How many relations away to look.",
)
@json_option
@pass_app
def show(app: App, entity_ref: str, hops: int, as_json: bool) -> None:
    """Show an entity, its attributes and its neighbourhood in the graph."""

    async def _show() -> tuple[Entity, Subgraph]:
        async with open_brain(app.settings, read_only=True) as brain:
            try:
                entity = await resolve(brain, entity_ref)
            except NotFound:
                # "brain show kevin" with one Kevin known, "helen park" for "Dr. Helen
                # Park": the one name like it, said so (reading only; nothing acts on it).
                near = await brain._run(brain.store.similar_names, entity_ref)
                if len(near) != 1:
                    raise
                entity = await resolve(brain, near[0])
                note(f"showing {entity.name!r}, the one name like {entity_ref!r}")
            return entity, await brain.subgraph(entity, hops=hops)

    entity, graph = run(_show())
    if as_json:
        emit_json({"entity": entity.to_dict(), "hops": hops, **graph.to_dict()})
        return
    out().print(entity_table(entity))
    for table in subgraph_tables(entity, graph):
        out().print(table)


@click.command()
@click.argument("entity_ref", metavar="TYPE:NAME|NAME")
@json_option
@pass_app
def delete(app: App, entity_ref: str, as_json: bool) -> None:
    """Delete an entity with its relations and index entries."""

    async def _delete() -> tuple[Entity, int]:
        async with open_brain(app.settings) as brain:
            entity = await resolve(brain, entity_ref)
            key = (entity.type, entity.name)
            graph = await brain.subgraph(entity, hops=1)
            edges = sum(
                key in ((e.src_type, e.src_name), (e.dst_type, e.dst_name)) for e in graph.edges
            )
            await brain.delete_entity(entity.type, entity.name)
            return entity, edges

    entity, edges = run(_delete())
    if as_json:
        emit_json({"deleted": entity.to_dict(), "relations_removed": edges})
        return
    text = Text("Deleted ", style="green").append_text(ref(entity))
    say(text.append(f" and {edges} relation{'s' * (edges != 1)}"))


@click.command()
@click.argument("entity_ref", metavar="TYPE:NAME|NAME")
@click.option(
    "--on", "on", metavar="YYYY-MM-DD", help="The day it stopped holding (default today)."
)
@json_option
@pass_app
def invalidate(app: App, entity_ref: str, on: str | None, as_json: bool) -> None:
    """Mark a fact as no longer true; it is kept, with the day it ended."""

    async def _invalidate() -> Entity:
        async with open_brain(app.settings) as brain:
            return await brain.invalidate(await resolve(brain, entity_ref), on)

    entity = run(_invalidate())
    if as_json:
        emit_json(entity.to_dict())
        return
    text = ref(entity).append(f" no longer holds from {entity.attributes['valid_to']}.")
    say(text)
