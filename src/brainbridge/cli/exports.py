"""`brain import-chatgpt` and `brain import-claude-ai`, and the session import they share
with `brain import-claude`: each turn stored as the Stop hook stores it, on its own day."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from brainbridge.cli.common import App, guarded, open_brain, pass_app, run

if TYPE_CHECKING:
    from brainbridge.chat_exports import Conversation


def import_sessions(
    app: App, sources: Sequence[Callable[[], Conversation]], label: str
) -> tuple[int, int, int]:
    """Store the turns of each conversation (read when its turn comes) as exchanges of its
    session, dated by when they happened; (stored, already there, forgotten). A turn stored
    before, by this import or by the hooks, is skipped, and so is what `brain forget` forgot.

    Raises: SystemExit with the CLI's exit code on a failure or Ctrl-C.
    """
    from rich.progress import Progress

    from brainbridge.bridge import Bridge
    from brainbridge.forget import forgotten
    from brainbridge.hooks.payload import day_of, turn_key

    async def body() -> tuple[int, int, int]:
        stored = skipped = forgot = 0
        async with open_brain(app.settings) as brain:
            bridge = Bridge(brain)
            gone_sessions, gone_turns = forgotten(brain.files)
            with Progress(transient=True) as bar:
                task = bar.add_task(label, total=len(sources))
                for source in sources:
                    conv = source()
                    session_id = conv.session_id
                    if session_id in gone_sessions:
                        forgot += len(conv.turns)
                        bar.advance(task)
                        continue
                    await brain._run(brain.sessions.ensure, session_id)
                    if conv.title:
                        await brain._run(
                            brain.sessions.set_title_unless_user, session_id, conv.title, "ai"
                        )
                    for turn in conv.turns:
                        # Keyed as the Stop hook keys it: a turn it already stored is
                        # skipped, whatever number it was given.
                        key = turn_key(session_id, turn.prompt, turn.reply, turn.uuid)
                        if key in gone_turns:
                            forgot += 1
                            continue
                        if await brain._run(brain.store.has_turn_key, key):
                            skipped += 1
                            continue
                        n = await brain._run(brain.sessions.next_turn, session_id)
                        obs = await bridge.observe_now(
                            session_id,
                            n,
                            turn.prompt,
                            turn.reply,
                            attributes={"turn_key": key},
                            today=day_of(turn.timestamp),
                        )
                        stored += obs.exchange is not None
                    bar.advance(task)
                    await asyncio.sleep(0)
            await bridge.drain()
        return stored, skipped, forgot

    return guarded(lambda: run(body()))


def _import_export(app: App, path: Path, parse: Callable[[Any], list[Conversation]]) -> None:
    from brainbridge.chat_exports import read_export

    conversations = guarded(lambda: parse(read_export(path)))
    if not conversations:
        click.echo(f"no conversations in {path}", err=True)
        return
    sources = [functools.partial(_same, c) for c in conversations]
    counts = import_sessions(app, sources, "importing conversations")
    click.echo(imported_line(counts, f"{len(conversations)} conversations"))


def imported_line(counts: tuple[int, int, int], sources: str) -> str:
    """What an import did, in one line."""
    stored, skipped, forgot = counts
    gone = f", {forgot} forgotten" if forgot else ""
    return f"{stored} exchanges imported from {sources} ({skipped} already there{gone})"


def _same(conversation: Conversation) -> Conversation:
    return conversation


@click.command("import-chatgpt")
@click.argument("path", type=click.Path(path_type=Path))
@pass_app
def import_chatgpt(app: App, path: Path) -> None:
    """Import a ChatGPT data export (the .zip, or its conversations.json)."""
    from brainbridge.chat_exports import chatgpt_conversations

    _import_export(app, path, chatgpt_conversations)


@click.command("import-claude-ai")
@click.argument("path", type=click.Path(path_type=Path))
@pass_app
def import_claude_ai(app: App, path: Path) -> None:
    """Import a Claude.ai data export (the .zip, or its conversations.json)."""
    from brainbridge.chat_exports import claude_ai_conversations

    _import_export(app, path, claude_ai_conversations)
