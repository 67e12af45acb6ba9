"""`brain`: the command-line adapter. Commands live in sibling modules, loaded on use.

To add a command, write it in its own module under `brainbridge.cli` and add one
line to `COMMANDS` (or `OPTIONAL_COMMANDS` if the module may not be there yet).
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
from typing import Any

import click

from brainbridge.cli.common import App, Group, guarded

# name → "module:attribute". Modules are imported only when their command runs (or
# for --help), so `brain add` never pays for an MCP server or a web framework.
COMMANDS: dict[str, str] = {
    "init": "brainbridge.cli.entities:init_cmd",
    "demo": "brainbridge.cli.demo:demo",
    "add": "brainbridge.cli.entities:add",
    "relate": "brainbridge.cli.entities:relate",
    "show": "brainbridge.cli.entities:show",
    "delete": "brainbridge.cli.entities:delete",
    "invalidate": "brainbridge.cli.entities:invalidate",
    "merges": "brainbridge.cli.merges:merges",
    "merge": "brainbridge.cli.merges:merge",
    "unmerge": "brainbridge.cli.merges:unmerge",
    "search": "brainbridge.cli.search:search",
    "recall": "brainbridge.cli.search:recall",
    "types": "brainbridge.cli.maintenance:types_cmd",
    "stats": "brainbridge.cli.maintenance:stats",
    "index": "brainbridge.cli.maintenance:index",
    "backup": "brainbridge.cli.maintenance:backup",
    "restore": "brainbridge.cli.maintenance:restore",
    "check": "brainbridge.cli.maintenance:check",
    "export": "brainbridge.cli.transfer:export",
    "import": "brainbridge.cli.transfer:import_cmd",
    "migrate": "brainbridge.cli.transfer:migrate",
    "db": "brainbridge.cli.database:db",
    "users": "brainbridge.cli.users:users",
}
# Commands of features that land separately; a module not written yet is simply not listed.
OPTIONAL_COMMANDS: dict[str, str] = {
    "directives": "brainbridge.cli.directives:directives",
    "enrich": "brainbridge.cli.chat:enrich",
    "chat": "brainbridge.cli.chat:chat",
    "curate": "brainbridge.cli.curator:curate",
    "curator": "brainbridge.cli.curator:curator",
    "curator-log": "brainbridge.cli.curator:curator_log",
    "sessions": "brainbridge.cli.curator:sessions",
    "serve": "brainbridge.cli.serve:serve",
    "mcp": "brainbridge.cli.serve:mcp",
    "hook": "brainbridge.cli.hooks:hook",
    "hooks": "brainbridge.cli.hooks:hooks",
    "doctor": "brainbridge.cli.doctor:doctor",
    "import-notes": "brainbridge.cli.notes:import_notes_cmd",
    "context": "brainbridge.cli.notes:context_cmd",
    "import-claude": "brainbridge.cli.notes:import_claude",
    "forget": "brainbridge.cli.forget:forget",
    "import-chatgpt": "brainbridge.cli.exports:import_chatgpt",
    "import-claude-ai": "brainbridge.cli.exports:import_claude_ai",
}


class LazyGroup(Group):
    """A group whose subcommands are imported from `COMMANDS` when first needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = list(COMMANDS)
        names += [n for n, target in OPTIONAL_COMMANDS.items() if _load(target) is not None]
        return sorted({*names, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        target = COMMANDS.get(cmd_name) or OPTIONAL_COMMANDS.get(cmd_name)
        return _load(target) if target else None


def _load(target: str) -> click.Command | None:
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:  # not written yet; a broken import inside still raises
            return None
        raise
    command = getattr(module, attr, None)
    return command if isinstance(command, click.Command) else None


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--brain",
    "brain_path",
    metavar="PATH",
    help="Brain folder. Default: $BRAIN_HOME, else ~/.brain.",
)
@click.option("-v", "--verbose", count=True, help="Log to stderr (-vv for debug).")
@click.version_option(package_name="brainbridge", prog_name="brain")
@click.pass_context
def cli(ctx: click.Context, brain_path: str | None, verbose: int) -> None:
    """brainbridge: ambient, local-first memory for AI agents.

    Start with `brain demo`, or `brain init` and `brain add Person "Ada Lovelace"`.

    Exit codes: 0 done, 1 failed, 2 invalid input or usage, 3 not found (an entity, a
    file, no brain in the folder), 4 busy (database locked, port taken), 130 interrupted.
    """
    ctx.obj = App(brain_option=brain_path, env=dict(os.environ))
    if verbose:
        logging.basicConfig(
            level=logging.DEBUG if verbose > 1 else logging.INFO,
            format="%(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: run `brain`, exit with its code.

    Raises: SystemExit, always.
    """
    try:
        code = guarded(lambda: _invoke(argv))
    except BrokenPipeError:
        # The reader went away (`brain export | head`); stop quietly like other tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 1
    sys.exit(code)


def _invoke(argv: list[str] | None) -> int:
    try:
        result: Any = cli.main(args=argv, prog_name="brain", standalone_mode=False)
    except click.UsageError as exc:
        click.echo(usage_line(exc), err=True)
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    return result if isinstance(result, int) else 0


def usage_line(exc: click.UsageError) -> str:
    """A usage error as one line: what is wrong, and where the command's help is."""
    path = exc.ctx.command_path if exc.ctx is not None else "brain"
    message = " ".join(exc.format_message().split()).rstrip(".")
    return f"{path}: {message[:1].lower()}{message[1:]} (see '{path} --help')"


if __name__ == "__main__":
    main()
