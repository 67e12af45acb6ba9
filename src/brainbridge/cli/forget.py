"""`brain forget`: delete an item and what was derived from it, after showing what goes."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from brainbridge.cli.common import (
    EXIT_ERROR,
    EXIT_INVALID,
    App,
    fail,
    guarded,
    json_option,
    open_brain,
    pass_app,
    run,
    split_ref,
)
from brainbridge.cli.output import emit_json
from brainbridge.model import CHAT_SESSION

if TYPE_CHECKING:
    from brainbridge.forget import Forgetting

SHOWN = 40  # items listed before "and N more"


@click.command()
@click.argument("item", metavar="TYPE:NAME|NAME|session:ID")
@click.option("--yes", is_flag=True, help="Do not ask (needed without a terminal).")
@click.option("--dry-run", is_flag=True, help="Only show what would be forgotten.")
@json_option
@pass_app
def forget(app: App, item: str, yes: bool, dry_run: bool, as_json: bool) -> None:
    """Delete ITEM and what was derived from it (facts extracted from an exchange, a
    session's exchanges and observations, vectors, index rows), after listing it.

    A session is `session:ID` (the first characters of the id will do) or
    `Chat_Session:ID`. An audit line without the content goes to forgotten.jsonl in the
    brain folder.
    """

    async def body() -> Forgetting | None:
        async with open_brain(app.settings, read_only=True) as brain:
            head, sep, tail = item.partition(":")
            ref = split_ref(item, brain.types)
            if sep and head.lower() == "session" and tail:
                # The first characters of an id are enough when they name one session.
                ids = await brain._run(brain.sessions.session_ids_with_prefix, tail, 2)
                ref = (CHAT_SESSION, ids[0] if len(ids) == 1 else tail)
            plan = await brain.forget(ref, preview=True)
            if not as_json:
                _show(plan, to_stderr=not dry_run)
            if dry_run:
                if as_json:
                    emit_json(plan.to_dict())
                return None
            if not yes:
                if not sys.stdin.isatty():
                    fail(
                        "forget deletes for good: pass --yes to do it without a terminal",
                        EXIT_INVALID,
                    )
                if not click.confirm("Forget all of this?", err=True):
                    fail("nothing forgotten", EXIT_ERROR)
            return await brain.forget(ref, preview=False, via="cli")

    done = guarded(lambda: run(body()))
    if done is None:
        return
    if as_json:
        emit_json(done.to_dict())
        return
    c = done.counts
    click.echo(
        f"Forgot {len(done.entities)} entities, {c['relations']} relations,"
        f" {c['vectors']} vectors, {c['sessions']} sessions."
        + ("" if done.scrubbed else " (a reader kept the log from being truncated)")
    )


def _show(plan: Forgetting, to_stderr: bool) -> None:
    """The item and everything that goes with it, one per line."""
    lines = [f"forget {plan.kind} {plan.key} with:"]
    lines += [f"  {ent.type}:{ent.name}" for ent in plan.entities[:SHOWN]]
    if len(plan.entities) > SHOWN:
        lines.append(f"  and {len(plan.entities) - SHOWN} more")
    c = plan.counts
    lines.append(
        f"  ({c['relations']} relations, {c['vectors']} vectors, {c['sessions']} sessions,"
        f" {plan.log_entries} log entries)"
    )
    if plan.journal_days:
        lines.append(f"  and its lines in the journal of {', '.join(plan.journal_days)}")
    click.echo("\n".join(lines), err=to_stderr)
