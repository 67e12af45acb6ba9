"""Every command of `brain`, subcommands of groups included, keeps the README's contract
for usage errors: exit 2 and one line on stderr that names the problem and where help is
(#35). The list is read from the CLI itself, so a new command is covered when it lands."""

from __future__ import annotations

import click
import pytest

from brainbridge.cli.main import cli as brain_cli
from cli.runner import BrainCli

USAGE = 2


def _paths(
    group: click.Group, ctx: click.Context, prefix: tuple[str, ...] = ()
) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        out.append((*prefix, name))
        if isinstance(command, click.Group):
            out += _paths(command, ctx, (*prefix, name))
    return out


COMMANDS = _paths(brain_cli, click.Context(brain_cli))


def test_the_list_holds_the_commands_people_use() -> None:
    names = {" ".join(p) for p in COMMANDS}
    assert {"search", "add", "forget", "import-chatgpt", "import-claude-ai", "doctor"} <= names
    assert len(COMMANDS) >= 30


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_an_unknown_option_is_a_usage_error_of_one_line(
    cli: BrainCli, path: tuple[str, ...]
) -> None:
    result = cli(*path, "--no-such-option")
    assert result.code == USAGE, (path, result.err)
    assert "no such option" in result.err.lower() and len(result.err.strip().splitlines()) == 1, (
        result.err
    )


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_help_answers_for_every_command(cli: BrainCli, path: tuple[str, ...]) -> None:
    result = cli(*path, "--help")
    assert result.code == 0 and "Usage: brain" in result.out, (path, result.err)
