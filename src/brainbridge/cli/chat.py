"""`brain enrich` (what the bridge would inject for a message) and `brain chat` (a terminal
chat through the configured LLM with the bridge around every turn)."""

from __future__ import annotations

import asyncio
import sys
import threading
import uuid
from dataclasses import replace
from typing import TYPE_CHECKING

import click
from rich.text import Text

from brainbridge.cli.common import (
    EXIT_INVALID,
    App,
    guarded,
    json_option,
    open_brain,
    pass_app,
    read_text_arg,
    run,
)
from brainbridge.cli.output import emit_json, err, out, write_utf8
from brainbridge.errors import LLMError
from brainbridge.model import Judgment

if TYPE_CHECKING:
    from brainbridge.brain import Brain
    from brainbridge.bridge import Bridge, Enrichment
    from brainbridge.curator.config import CuratorConfig
    from brainbridge.ports import LLM
    from brainbridge.settings import Settings

CHAT_SYSTEM = (
    "You are a helpful, concise assistant. When a Brain Context section follows, it holds"
    " facts from the user's own knowledge graph and past conversations: use them where they"
    " help, as background, without reciting them."
)
REPLY_TIMEOUT = 120.0
# Earlier turns sent with each request; older ones live on in the brain, not the prompt.
HISTORY_MESSAGES = 20
# At exit, how long to wait for background writes before giving up on them.
DRAIN_TIMEOUT = 30.0
QUIT = ("/quit", "/exit", "/q")


def no_llm_help(settings: Settings) -> str:
    """How to configure an LLM, for a person who has none yet."""
    return (
        "brain chat needs an LLM, and none is configured.\n"
        "Set one up with environment variables:\n"
        "  export BRAIN_LLM_PROVIDER=anthropic   # or openai, or ollama\n"
        "  export ANTHROPIC_API_KEY=...          # or OPENAI_API_KEY, or BRAIN_LLM_API_KEY\n"
        "  export BRAIN_LLM_MODEL=...            # optional for anthropic and openai\n"
        "  export BRAIN_LLM_BASE_URL=...         # Ollama, vLLM or another compatible server\n"
        f"or in {settings.config_file}:\n"
        "  [llm]\n"
        '  provider = "anthropic"\n'
        '  model = "claude-haiku-4-5"\n'
        "API keys are read from the environment only."
    )


# -- brain enrich ---------------------------------------------------------------------


@click.command()
@click.argument("message")
@click.option(
    "--session",
    "session_id",
    metavar="ID",
    help="Judge MESSAGE as the next turn of this session: its summary resolves vague"
    " references, what its last turn loaded is not loaded again, and the turn is recorded"
    " in its context log.",
)
@click.option(
    "--budget",
    type=click.IntRange(1, 100_000),
    metavar="N",
    help="Token budget of the block. Default: [bridge] budget_tokens, else 1500.",
)
@click.option("--local", is_flag=True, help="Use the local judge even if an LLM is configured.")
@json_option
@pass_app
def enrich(
    app: App, message: str, session_id: str | None, budget: int | None, local: bool, as_json: bool
) -> None:
    """Show what the bridge would inject before MESSAGE: judgment, reasons, queries, block.

    MESSAGE may be '-' to read it from standard input.
    """
    message = read_text_arg(message, "the message")
    settings = app.settings

    async def _enrich() -> Enrichment:
        llm = None if local else settings.make_llm()
        try:
            async with open_brain(settings, embedder=True) as brain:
                bridge = settings.make_bridge(brain, llm, budget_tokens=budget)
                result = await bridge.enrich(message, session_id)
                await bridge.drain()
                return result
        finally:
            if llm is not None:
                await llm.aclose()

    result = run(_enrich())
    if as_json:
        emit_json(result.to_dict())
        return
    print_enrichment(result)


def print_enrichment(result: Enrichment) -> None:
    """Judgment, reasons and queries as labelled lines, then the block exactly as injected."""
    console = out()
    head = Text("judgment: ", style="dim")
    head.append(result.judgment.value, style="bold")
    head.append(f"  ({result.source})", style="dim")
    console.print(head, soft_wrap=True)
    for label, values in (("reasons", result.reasons), ("queries", result.queries)):
        if values:
            line = Text(f"{label}:  ", style="dim")
            shown = [f'"{v}"' for v in values] if label == "queries" else list(values)
            line.append("; ".join(shown))
            console.print(line, soft_wrap=True)
    if result.block:
        console.print()
        write_utf8(result.block + "\n")
    else:
        console.print(Text("nothing would be injected", style="dim"))


# -- brain chat -----------------------------------------------------------------------


@click.command()
@click.option(
    "--session",
    "session_id",
    metavar="ID",
    help="Continue this session (default: a new one). Its id is shown when the chat starts.",
)
@pass_app
def chat(app: App, session_id: str | None) -> None:
    """Chat with the configured LLM, with your brain loaded around every turn.

    Under each reply a dim line says how many brain contexts were loaded. Type /ctx to see
    the last turn's queries and items, /quit (or end the input) to leave.
    """
    from brainbridge.cli.doctor import llm_problems

    settings = guarded(lambda: app.settings)
    problems = llm_problems(settings)
    if problems:
        if (settings.llm_provider or "").lower() in ("", "none", "off"):
            click.echo(no_llm_help(settings), err=True)
        else:
            click.echo("brain chat cannot reach its LLM yet; every step missing:", err=True)
            for what, fix in problems:
                click.echo(f"  - {what}\n    → {fix}", err=True)
        raise SystemExit(EXIT_INVALID)
    llm = guarded(lambda: settings.make_llm(capped=False))  # answers the user: not capped
    if llm is None:
        click.echo(no_llm_help(settings), err=True)
        raise SystemExit(EXIT_INVALID)
    curator = guarded(settings.curator_config)
    run(_chat(settings, llm, session_id or uuid.uuid4().hex, curator))


async def _chat(
    settings: Settings, llm: LLM, session_id: str, curator: CuratorConfig | None = None
) -> None:
    from brainbridge.brain import Brain
    from brainbridge.curator.wiring import attach_curator

    try:
        brain = await Brain.open(settings.brain_path, embedder=settings.embedder)
    except BaseException:
        await llm.aclose()
        raise
    bridge = settings.make_bridge(brain, llm)
    try:
        # As in `brain serve` and the hooks: titles, summaries and the daily log as you go.
        await attach_curator(brain, bridge, llm, curator)
        session = await brain._run(brain.sessions.ensure, session_id)
        interactive = sys.stdin.isatty()
        _dim(
            f"brain chat · session {session_id} · {getattr(llm, 'name', 'llm')}"
            + (" · /ctx shows loaded context, /quit leaves" if interactive else "")
        )
        await _turns(brain, bridge, llm, session.message_count, session_id, interactive)
    finally:
        try:
            await asyncio.wait_for(bridge.drain(), DRAIN_TIMEOUT)
        except TimeoutError:
            err().print(Text("brain: some background writes did not finish", style="yellow"))
        await llm.aclose()
        await brain.close()


async def _turns(
    brain: Brain, bridge: Bridge, llm: LLM, done: int, session_id: str, interactive: bool
) -> None:
    history: list[dict[str, str]] = []
    last: Enrichment | None = None
    turn = done
    lines = _Lines("you › " if interactive else "")
    while True:
        line = await lines.next()
        if line is None or line.strip().lower() in QUIT:
            return
        message = line.strip()
        if not message:
            continue
        if message.lower() == "/ctx":
            _show_context(last)
            continue
        turn += 1
        session = await brain._run(brain.sessions.get, session_id)
        if session is not None and session.message_count < turn - 1:
            # observe of the previous turn may still be running; number this turn anyway.
            session = replace(session, message_count=turn - 1)
        last = await bridge.enrich(message, session)
        system = f"{CHAT_SYSTEM}\n\n{last.block}" if last.block else CHAT_SYSTEM
        history.append({"role": "user", "content": message})
        try:
            reply = await llm.complete_text(
                system, history[-HISTORY_MESSAGES:], timeout=REPLY_TIMEOUT
            )
        except LLMError as exc:
            history.pop()
            turn -= 1
            err().print(Text(f"brain: {exc}", style="red"))
            continue
        history.append({"role": "assistant", "content": reply})
        write_utf8(reply.rstrip() + "\n")
        status = _status_line(last)
        if status:
            _dim(status)
        bridge.observe(session_id, turn, message, reply)


def _status_line(result: Enrichment) -> str:
    """The subtle line under a reply: loaded contexts, a step back, or nothing."""
    if result.judgment is Judgment.STEP_BACK:
        return "🧠 step back: you are querying your brain directly"
    n = len(result.loaded)
    if result.judgment is Judgment.ENRICH and n:
        return f"🧠 {n} brain context{'s' * (n != 1)} loaded"
    return ""


def _show_context(result: Enrichment | None) -> None:
    if result is None:
        _dim("no turn yet")
        return
    print_enrichment(result)


def _dim(text: str) -> None:
    out().print(Text(text, style="dim"), soft_wrap=True)


class _Lines:
    """Input lines, read on a daemon thread one at a time when asked for.

    Not `asyncio.to_thread`: `asyncio.run` waits for its threads at exit, so Ctrl-C at the
    prompt would hang until Enter. With a prompt, `input()` gives line editing.
    """

    def __init__(self, prompt: str) -> None:
        self._prompt = prompt
        self._loop = asyncio.get_running_loop()
        self._wanted = threading.Event()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        threading.Thread(target=self._pump, name="brain-chat-input", daemon=True).start()

    async def next(self) -> str | None:
        """The next line, or None at end of input."""
        self._wanted.set()
        return await self._queue.get()

    def _pump(self) -> None:
        while True:
            self._wanted.wait()
            self._wanted.clear()
            try:
                line: str | None = input(self._prompt) if self._prompt else sys.stdin.readline()
            except EOFError:
                line = None
            if line == "" and not self._prompt:
                line = None
            try:
                self._loop.call_soon_threadsafe(self._queue.put_nowait, line)
            except RuntimeError:  # the chat ended while a line was being typed
                return
            if line is None:
                return


__all__ = ["chat", "enrich"]
