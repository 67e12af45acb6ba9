"""`brain curate | curator-log | sessions`: the curator from the command line.

Also bundled as the group `brain curator run | log | sessions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
from rich.table import Table
from rich.text import Text

from brainbridge.cli.common import App, Group, json_option, open_brain, pass_app, run
from brainbridge.cli.output import clip, emit_json, narrow, note, out, record
from brainbridge.errors import InvalidInput, NotFound

if TYPE_CHECKING:
    from brainbridge.brain import Brain

_SESSION_HELP = "SESSION is a session id or an unambiguous start of one."


async def resolve_session(brain: Brain, ref: str) -> str:
    """The id of the session `ref` names exactly or by a unique prefix.

    Raises: NotFound; InvalidInput if the prefix fits several sessions.
    """
    sessions = brain.sessions
    if await brain._run(sessions.get, ref, 0) is not None:
        return ref
    ids = await brain._run(sessions.session_ids_with_prefix, ref, 6)
    if not ids:
        raise NotFound(f"no session {ref!r}; `brain sessions` lists them")
    if len(ids) > 1:
        raise InvalidInput(f"{ref!r} starts several sessions ({', '.join(ids[:5])}); give more")
    return ids[0]


@click.command("curate", epilog=_SESSION_HELP)
@click.argument("session")
@click.option("--local", "local_only", is_flag=True, help="Do not use the configured LLM.")
@json_option
@pass_app
def curate(app: App, session: str, local_only: bool, as_json: bool) -> None:
    """Run the curator on SESSION now: title, summary and the daily activity log."""
    from brainbridge.curator import Curator

    settings = app.settings
    config = settings.curator_config()

    async def _curate() -> dict[str, Any]:
        llm = None if local_only else settings.make_llm()
        try:
            async with open_brain(settings) as brain:
                sid = await resolve_session(brain, session)
                result = await Curator(brain, llm, config).curate(sid)
                return result.to_dict()
        finally:
            if llm is not None:
                await llm.aclose()

    result = run(_curate())
    if as_json:
        emit_json(result)
        return
    out().print(Text(result["changes"], style="bold green" if result["actions"] else "dim"))
    if result["title"]:
        out().print(Text.assemble(("title    ", "dim"), result["title"]))
    if result["summary"]:
        out().print(Text.assemble(("summary  ", "dim"), clip(result["summary"], 300)))
    if result["error"]:
        note(f"note: {result['error']}")


@click.command("curator-log", epilog=_SESSION_HELP)
@click.argument("session")
@click.option(
    "-n",
    "--limit",
    default=20,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="How many runs, newest first.",
)
@json_option
@pass_app
def curator_log(app: App, session: str, limit: int, as_json: bool) -> None:
    """Show what the curator did to SESSION: when, why, which tool calls, what changed."""

    async def _log() -> tuple[str, list[dict[str, Any]]]:
        async with open_brain(app.settings, read_only=True) as brain:
            sid = await resolve_session(brain, session)
            return sid, await brain._run(brain.sessions.curator_runs, sid, limit)

    sid, runs = run(_log())
    if as_json:
        emit_json({"session_id": sid, "runs": runs})
        return
    if not runs:
        out().print(Text(f"The curator has not run on {sid} yet.", style="yellow"))
        return
    out().print(Text(f"curator runs of {sid}, newest first", style="bold"))
    for r in runs:
        line = Text(f"{r['started_at'][:19].replace('T', ' ')}  ", style="dim")
        line.append(f"{r['trigger']:<12} ")
        line.append(" · ".join(r["actions"]) or "No changes", style="green" if r["actions"] else "")
        out().print(line)
        if r["error"]:
            out().print(Text(f"    {clip(r['error'], 200)}", style="yellow"))
        elif r["finished_at"] is None:
            out().print(Text("    (running, or interrupted)", style="yellow"))
        for call in r["tool_calls"]:
            out().print(Text(f"    {_call_line(call)}"))


def _call_line(call: dict[str, Any]) -> str:
    args = ", ".join(f"{k}={clip(str(v), 60)!r}" for k, v in (call.get("arguments") or {}).items())
    by = f" [{call['by']}]" if call.get("by") else ""
    return f"{call.get('name')}({args}) → {call.get('result', '')}{by}"


@click.command("sessions")
@click.option(
    "-n",
    "--limit",
    default=50,
    show_default=True,
    type=click.IntRange(1, 10000),
    help="How many sessions, most recently active first.",
)
@json_option
@pass_app
def sessions(app: App, limit: int, as_json: bool) -> None:
    """List chat sessions with their titles, sizes and summaries."""

    async def _list() -> list[dict[str, Any]]:
        async with open_brain(app.settings, read_only=True) as brain:
            found = await brain._run(brain.sessions.recent, limit)
        rows = []
        for s in found:
            row = s.to_dict()
            row.pop("bridge_context_log", None)
            rows.append(row)
        return rows

    rows = run(_list())
    if as_json:
        emit_json(rows)
        return
    if not rows:
        out().print(Text("No sessions yet.", style="yellow"))
        return
    if narrow():
        for row in rows:
            head = Text(row["title"] or "untitled", style="bold")
            if row["title_source"] == "user":
                head.append(" (yours)", style="dim")
            turns = row["message_count"]
            head.append(
                f"  {turns} turn{'' if turns == 1 else 's'}, updated"
                f" {row['updated_at'][:16].replace('T', ' ')}",
                style="dim",
            )
            out().print(
                record(head, Text(row["id"], style="cyan"), Text(clip(row["summary"] or "", 160)))
            )
        return
    table = Table(title="sessions", title_justify="left")
    table.add_column("id", no_wrap=True, style="cyan")
    table.add_column("title", overflow="fold", min_width=16)
    table.add_column("turns", justify="right")
    table.add_column("updated", no_wrap=True, style="dim")
    table.add_column("summary", overflow="fold", ratio=1)
    for row in rows:
        title = Text(row["title"] or "—")
        if row["title_source"] == "user":
            title.append(" (yours)", style="dim")
        table.add_row(
            row["id"],
            title,
            str(row["message_count"]),
            row["updated_at"][:16].replace("T", " "),
            Text(clip(row["summary"], 160)),
        )
    out().print(table)


@click.group("curator", cls=Group)
def curator() -> None:
    """The curator: session titles, summaries and the daily activity log."""


curator.add_command(curate, "run")
curator.add_command(curator_log, "log")
curator.add_command(sessions, "sessions")
