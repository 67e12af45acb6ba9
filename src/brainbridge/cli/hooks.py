"""`brain hook KIND` (what Claude Code runs) and `brain hooks install|uninstall`."""

from __future__ import annotations

import sys

import click

from brainbridge.cli.common import App, Group, guarded, pass_app


@click.command()
@click.argument(
    "kind", type=click.Choice(["session-start", "prompt", "stop", "tool", "pre-compact"])
)
@pass_app
def hook(app: App, kind: str) -> None:
    """Handle one Claude Code hook event from stdin. Always exits 0."""
    from brainbridge.hooks.__main__ import brain_folder
    from brainbridge.hooks.runner import run

    # Without --brain the runner reads $BRAIN_HOME, without loading settings.
    home = brain_folder(app.brain_option) if app.brain_option else None
    sys.exit(run(kind, home, click.get_current_context().find_root().params.get("verbose", 0)))


@click.group(cls=Group)
def hooks() -> None:
    """Install or remove the Claude Code hooks."""


def _scope(project: bool, user: bool) -> str:
    return "user" if user and not project else "project"


@hooks.command()
@click.option("--project", is_flag=True, help="This project's .claude/settings.json (default).")
@click.option("--user", is_flag=True, help="Your ~/.claude/settings.json.")
@click.option(
    "--portable",
    is_flag=True,
    help="Write `brain hook KIND` (found on PATH, brain from $BRAIN_HOME or ~/.brain) instead"
    " of this interpreter and brain folder: for project settings that are committed.",
)
@pass_app
def install(app: App, project: bool, user: bool, portable: bool) -> None:
    """Add the SessionStart, UserPromptSubmit, Stop, PostToolUse(Failure) and PreCompact
    hooks, keeping any others.

    The command written names this Python and this brain folder (`--brain` or
    $BRAIN_HOME), so Claude Code uses this brain whatever environment it starts in.
    """
    from brainbridge.hooks.install import hook_command, mcp_add_command
    from brainbridge.hooks.install import install as do_install

    home = None if portable else guarded(lambda: app.settings.brain_path).resolve()
    command = hook_command(home, portable)
    path = guarded(lambda: do_install(_scope(project, user), command=command))
    click.echo(f"brain hooks installed in {path}")
    if home is not None:
        click.echo(f"  they use the brain at {home}")
    click.echo(f"  for the brain's MCP tools: {mcp_add_command(_scope(project, user), home)}")
    click.echo("  check the whole setup with: brain doctor")


@hooks.command()
@click.option("--project", is_flag=True, help="This project's .claude/settings.json (default).")
@click.option("--user", is_flag=True, help="Your ~/.claude/settings.json.")
def uninstall(project: bool, user: bool) -> None:
    """Remove only brainbridge's hooks."""
    from brainbridge.hooks.install import uninstall as do_uninstall

    path = guarded(lambda: do_uninstall(_scope(project, user)))
    click.echo(f"brain hooks removed from {path}")
