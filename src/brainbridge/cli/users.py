"""`brain users add | list | revoke`: the people of a PostgreSQL brain and their tokens
(see `store/postgres/people.py`). Run as the brain's owner."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.text import Text

from brainbridge.cli.common import App, Group, guarded, json_option, pass_app
from brainbridge.cli.output import emit_json, say
from brainbridge.errors import InvalidInput

T = TypeVar("T")


def _as_owner(app: App, fn: Callable[[Any], T]) -> T:
    """Run `fn(connection)` on the brain's database as its owner.

    Raises: InvalidInput for a brain file, or when BRAIN_USER asks to act as a person.
    """
    from brainbridge.acting import require_owner
    from brainbridge.store.location import database_url, open_store

    url = database_url(app.settings.brain_path)
    if not url:
        raise InvalidInput(
            "people need a PostgreSQL brain; this one is a file with one user"
            " (brain init --database-url URL, or brain migrate --to URL)"
        )
    require_owner("brain users")
    store = open_store(app.settings.brain_path, url)
    try:
        return fn(store.conn)
    finally:
        store.close()


@click.group("users", cls=Group)
def users() -> None:
    """The people of a team brain (PostgreSQL): each has a private workspace and a token."""


@users.command("add")
@click.argument("name")
@click.option(
    "--shared",
    type=click.Choice(["write", "read", "none"]),
    default="write",
    show_default=True,
    help="Their access to the shared workspace, main.",
)
@json_option
@pass_app
def add(app: App, name: str, shared: str, as_json: bool) -> None:
    """Add NAME and print their token (shown this once; `brain serve` takes it)."""
    from brainbridge.store.postgres import people

    token = guarded(lambda: _as_owner(app, lambda conn: people.add(conn, name, shared)))
    if as_json:
        emit_json({"name": name.strip().lower(), "token": token, "shared": shared})
        return
    say(Text(f"Added {name.strip().lower()}. Their token (shown once, keep it secret):", "green"))
    click.echo(token)


@users.command("list")
@json_option
@pass_app
def list_cmd(app: App, as_json: bool) -> None:
    """Everyone, their workspaces (w: may write, r: read only) and whether revoked."""
    from brainbridge.store.postgres import people

    found = guarded(lambda: _as_owner(app, people.people))
    if as_json:
        emit_json([p.to_dict() for p in found])
        return
    if not found:
        say("No users yet: brain users add NAME")
    for p in found:
        spaces = ", ".join(f"{w} ({'w' if can else 'r'})" for w, can in p.workspaces.items())
        state = f"revoked {p.revoked_at[:10]}" if p.revoked_at else "active"
        click.echo(f"{p.name}\t{state}\t{spaces}")


@users.command("revoke")
@click.argument("name")
@pass_app
def revoke(app: App, name: str) -> None:
    """Revoke NAME's token and access at once (their rows stay, for the owner)."""
    from brainbridge.store.postgres import people

    changed = guarded(lambda: _as_owner(app, lambda conn: people.revoke(conn, name)))
    say(Text(f"Revoked {name}." if changed else f"{name} was revoked already.", "green"))


@users.command("join")
@click.argument("name")
@click.argument("workspace")
@click.option("--read-only", is_flag=True, help="Read it, never write it.")
@pass_app
def join(app: App, name: str, workspace: str, read_only: bool) -> None:
    """Make NAME a member of the shared WORKSPACE (made by its first member); they write
    to it with BRAIN_WORKSPACE=WORKSPACE. Again with or without --read-only to change."""
    from brainbridge.store.postgres import people

    guarded(lambda: _as_owner(app, lambda conn: people.join(conn, name, workspace, not read_only)))
    access = "reads" if read_only else "reads and writes"
    say(Text(f"{name} {access} {workspace}.", "green"))


@users.command("leave")
@click.argument("name")
@click.argument("workspace")
@pass_app
def leave(app: App, name: str, workspace: str) -> None:
    """Take NAME out of the shared WORKSPACE (what is in it stays)."""
    from brainbridge.store.postgres import people

    left = guarded(lambda: _as_owner(app, lambda conn: people.leave(conn, name, workspace)))
    say(Text(f"{name} left {workspace}." if left else f"{name} was not in {workspace}.", "green"))
