"""`brain directives …`: record admin messages, show the guidance an autonomous run gets."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from brainbridge.cli.common import (
    App,
    Group,
    guarded,
    json_option,
    no_brain,
    pass_app,
    read_text_arg,
)
from brainbridge.errors import InvalidInput
from brainbridge.home import brain_home

if TYPE_CHECKING:
    from brainbridge.directives.bridge import DirectiveBridge

T = TypeVar("T")
DB_FILE = "brain.db"

brain_option = click.option(
    "--brain",
    "brain_path",
    metavar="PATH",
    default=None,
    help="Brain folder (default: the global --brain, else $BRAIN_HOME, else ~/.brain).",
)


def parse_time(value: str | None, what: str) -> datetime | None:
    """An ISO 8601 time (UTC when it names no zone), or None.

    Raises: InvalidInput for text that is no ISO time.
    """
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise InvalidInput(f"{what} {value!r} is not an ISO time like 2026-11-21T09:30") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def db_path(app: App, brain_path: str | None) -> Path:
    """`<brain>/brain.db` for the brain chosen by the options or the environment."""
    folder = Path(brain_path or app.brain_option or brain_home(app.env)).expanduser()
    return folder if folder.suffix == ".db" else folder / DB_FILE


@contextmanager
def open_bridge(
    app: App, brain_path: str | None, read_only: bool = False
) -> Iterator[DirectiveBridge]:
    """A directive bridge on the brain database, closed afterwards; `read_only` on a brain
    that does not exist yet says so and creates nothing.

    Raises: NotFound for `read_only` where there is no brain; BrainError if the database
    cannot be opened.
    """
    from brainbridge.directives.bridge import DirectiveBridge
    from brainbridge.embed import load_embedder
    from brainbridge.store.location import database_url, open_store
    from brainbridge.store.sqlite.db import connect
    from brainbridge.store.sqlite.directives import SqliteDirectiveStore

    settings = app.settings_for(brain_path) if brain_path else app.settings
    config = settings.directive_config()
    path = db_path(app, brain_path)
    url = database_url(path.parent)
    if url:
        conn = open_store(path.parent, url).conn
    else:
        if read_only and not path.is_file():
            raise no_brain(path.parent)
        conn = connect(path)
    try:
        yield DirectiveBridge(
            SqliteDirectiveStore(conn), config, embedder=lambda: load_embedder(settings.embedder)
        )
    finally:
        conn.close()


def _run(
    app: App,
    brain_path: str | None,
    body: Callable[[DirectiveBridge], T],
    read_only: bool = False,
) -> T:
    def call() -> T:
        with open_bridge(app, brain_path, read_only) as bridge:
            return body(bridge)

    return guarded(call)


@click.group("directives", cls=Group)
def directives() -> None:
    """An admin's standing guidance, carried into autonomous runs."""


@directives.command("add-message")
@click.argument("text")
@click.option("--room", required=True, help="Room (conversation) id.")
@click.option("--author", required=True, help="Who wrote the message.")
@click.option(
    "--owner/--not-owner", default=True, show_default=True, help="Is the author the owner?"
)
@click.option("--canonical", is_flag=True, help="Mark the room as the canonical admin room.")
@click.option(
    "--kind",
    type=click.Choice(["admin", "dm", "group"]),
    default="admin",
    show_default=True,
    help="What kind of room it is.",
)
@click.option("--at", "at_text", metavar="TIME", help="When it was said (ISO 8601; default now).")
@brain_option
@json_option
@pass_app
def add_message_cmd(
    app: App,
    text: str,
    room: str,
    author: str,
    owner: bool,
    canonical: bool,
    kind: str,
    at_text: str | None,
    brain_path: str | None,
    as_json: bool,
) -> None:
    """Record one chat message (TEXT, or - for standard input) and show how it was classified."""
    from brainbridge.cli.output import emit_json

    def body(bridge: DirectiveBridge) -> None:
        at = parse_time(at_text, "--at") or datetime.now(UTC)
        message = bridge.add_message(
            room,
            author,
            read_text_arg(text, "message"),
            at=at,
            author_is_owner=owner,
            canonical=canonical,
            room_kind=kind,
        )
        label = message.classification
        if as_json:
            emit_json(
                {
                    "id": message.id,
                    "category": label.category.value,
                    "priority": label.priority,
                    "reason": label.reason,
                }
            )
        else:
            click.echo(f"#{message.id} {label.category.value}: {label.reason}")

    _run(app, brain_path, body)


@directives.command("show")
@click.option("--at", "at_text", metavar="TIME", help="Build as of this time (default now).")
@click.option("--directives-chars", type=int, help="Budget for directives (default 700).")
@click.option("--identity-chars", type=int, help="Budget for people and trust (default 300).")
@click.option("--continuity-chars", type=int, help="Budget for continuity (default 200).")
@brain_option
@json_option
@pass_app
def show_cmd(
    app: App,
    at_text: str | None,
    directives_chars: int | None,
    identity_chars: int | None,
    continuity_chars: int | None,
    brain_path: str | None,
    as_json: bool,
) -> None:
    """Print the guidance an autonomous run would receive now, and the build's stats."""
    from dataclasses import replace

    from brainbridge.cli.output import emit_json
    from brainbridge.model.directives import Budget

    def body(bridge: DirectiveBridge) -> None:
        sizes = {
            k: v
            for k, v in (
                ("directives", directives_chars),
                ("identity", identity_chars),
                ("continuity", continuity_chars),
            )
            if v is not None
        }
        budget = replace(Budget(), **sizes) if sizes else None
        ctx = bridge.build(parse_time(at_text, "--at"), budget=budget)
        if as_json:
            emit_json(ctx.to_dict())
            return
        click.echo(ctx.text or "(no standing guidance)")
        click.echo("")
        s = ctx.stats
        click.echo(f"source: {s.source} — {s.source_reason}")
        click.echo(f"length: {s.summary_chars}/{s.budget_chars} chars")
        click.echo(
            f"messages: {s.messages_read} read, {s.included} included, {s.excluded} excluded"
        )
        if s.excluded_by_reason:
            click.echo(
                "excluded: " + ", ".join(f"{k} {v}" for k, v in s.excluded_by_reason.items())
            )
        click.echo("states: " + ", ".join(f"{k} {v}" for k, v in s.states.items()))
        click.echo(f"conflicts: {s.conflicts}; stale rate: {s.stale_rate:.0%}")
        if s.truncated:
            click.echo("truncated: " + ", ".join(f"{k} {v}" for k, v in s.truncated.items()))

    _run(app, brain_path, body, read_only=True)


@directives.command("list")
@click.option("--at", "at_text", metavar="TIME", help="As of this time (default now).")
@click.option("--all", "show_all", is_flag=True, help="Also list excluded messages and why.")
@brain_option
@json_option
@pass_app
def list_cmd(
    app: App, at_text: str | None, show_all: bool, brain_path: str | None, as_json: bool
) -> None:
    """List directives and claims with their state (and, with --all, every decision)."""
    from brainbridge.cli.output import clip, emit_json

    def body(bridge: DirectiveBridge) -> None:
        ctx = bridge.build(parse_time(at_text, "--at"))
        if as_json:
            data = ctx.to_dict()
            if show_all:
                data["decisions"] = [
                    {"id": d.message_id, "included": d.included, "code": d.code, "reason": d.reason}
                    for d in ctx.decisions
                ]
            emit_json({k: data[k] for k in ("source", "items", "decisions") if k in data})
            return
        for item in ctx.items:
            unclear = item.conflict if item.conflict and not item.replaces else ""
            note = "".join(f" — {n}" for n in (item.note, unclear and f"CONFLICT: {unclear}") if n)
            click.echo(
                f"#{item.id} {item.state.value:<10} {item.category.value:<9}"
                f" {clip(item.message.text, 70)}{note}"
            )
        if show_all:
            for d in ctx.decisions:
                if not d.included and d.code not in ("superseded", "expired", "completed"):
                    click.echo(f"#{d.message_id} excluded   {d.code:<9} {d.reason}")
        if not ctx.items and not show_all:
            click.echo("(no directives)")

    _run(app, brain_path, body, read_only=True)


@directives.command("complete")
@click.argument("directive_id", type=int)
@click.option("--note", default="", help="Why or how it was completed.")
@brain_option
@pass_app
def complete_cmd(app: App, directive_id: int, note: str, brain_path: str | None) -> None:
    """Mark directive DIRECTIVE_ID completed: it leaves the guidance and shows as done."""

    def body(bridge: DirectiveBridge) -> None:
        message = bridge.complete(directive_id, note=note)
        click.echo(f"#{message.id} completed")

    _run(app, brain_path, body)


@directives.command("canonical")
@click.argument("room")
@click.option("--unset", is_flag=True, help="Remove the canonical mark instead.")
@brain_option
@pass_app
def canonical_cmd(app: App, room: str, unset: bool, brain_path: str | None) -> None:
    """Mark ROOM as the canonical admin room (the first choice of source)."""

    def body(bridge: DirectiveBridge) -> None:
        bridge.set_canonical(room, not unset)
        click.echo(f"{room} is {'no longer' if unset else 'now'} the canonical admin room")

    _run(app, brain_path, body)
