"""`brain import-chatgpt` and `brain import-claude-ai`, and the session import they share
with `brain import-claude`: each turn stored as the Stop hook stores it, on its own day."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from brainbridge.cli.common import App, guarded, open_brain, pass_app
from brainbridge.cli.work import Job, finished, progress_option, run_kept

if TYPE_CHECKING:
    from brainbridge.chat_exports import Conversation


def import_sessions(
    app: App,
    sources: Sequence[Callable[[], Conversation]],
    label: str,
    unit: str,
    again: str,
    job: Job,
) -> tuple[int, int, int]:
    """Store the turns of each conversation (read when its turn comes) as exchanges of its
    session, dated by when they happened; (stored, already there, forgotten). A turn stored
    before, by this import or by the hooks, is skipped, and so is what `brain forget` forgot.
    `job` shows the progress (a step `label` counting `unit`s); after Ctrl-C the line says
    what was kept and that `again` (the command) is safe to re-run.

    Raises: SystemExit with the CLI's exit code on a failure or Ctrl-C.
    """
    from brainbridge.bridge import Bridge
    from brainbridge.forget import forgotten
    from brainbridge.hooks.payload import day_of, turn_key

    stored = skipped = forgot = 0

    async def store(brain: Any, bridge: Any, session_id: str, turn: Any, key: str) -> None:
        # Counted here, inside the turn's own task: Ctrl-C lets that task finish but cancels
        # its caller, so a count kept by the caller missed the last turn stored.
        nonlocal stored
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

    async def body() -> tuple[int, int, int]:
        nonlocal stored, skipped, forgot
        async with open_brain(app.settings) as brain:
            bridge = Bridge(brain)
            gone_sessions, gone_turns = forgotten(brain.files)
            try:
                with job.step(label, len(sources), unit) as meter:
                    for source in sources:
                        conv = source()
                        session_id = conv.session_id
                        if session_id in gone_sessions:
                            forgot += len(conv.turns)
                            meter.advance()
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
                            # Ctrl-C lets the turn in hand finish: never half stored.
                            await finished(store(brain, bridge, session_id, turn, key))
                        meter.advance()
                        await asyncio.sleep(0)
            finally:
                await bridge.drain()
        return stored, skipped, forgot

    def kept() -> str:
        return (
            f"kept {stored:,} exchanges ({job.count(label):,} of {len(sources):,} {unit}"
            f" done); re-running `{again}` is safe (turns already stored are skipped) and"
            " `brain index` finishes the vectors"
        )

    return guarded(lambda: run_kept(body(), kept))


def _import_export(
    app: App,
    path: Path,
    parse: Callable[[Any], list[Conversation]],
    command: str,
    show_progress: bool,
) -> None:
    from brainbridge.chat_exports import read_export

    conversations = guarded(lambda: parse(read_export(path)))
    if not conversations:
        click.echo(f"no conversations in {path}", err=True)
        return
    sources = [functools.partial(_same, c) for c in conversations]
    again = f"brain {command} {path}"
    job = Job(show_progress)
    counts = import_sessions(app, sources, "importing conversations", "conversations", again, job)
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
@progress_option
@pass_app
def import_chatgpt(app: App, path: Path, show_progress: bool) -> None:
    """Import a ChatGPT data export (the .zip, or its conversations.json)."""
    from brainbridge.chat_exports import chatgpt_conversations

    _import_export(app, path, chatgpt_conversations, "import-chatgpt", show_progress)


@click.command("import-claude-ai")
@click.argument("path", type=click.Path(path_type=Path))
@progress_option
@pass_app
def import_claude_ai(app: App, path: Path, show_progress: bool) -> None:
    """Import a Claude.ai data export (the .zip, or its conversations.json)."""
    from brainbridge.chat_exports import claude_ai_conversations

    _import_export(app, path, claude_ai_conversations, "import-claude-ai", show_progress)
