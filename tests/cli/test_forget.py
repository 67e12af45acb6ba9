"""`brain forget`: lists what goes, asks (or needs --yes), deletes, and leaves no trace of
the content in the brain folder: not in the database file, its log, or the audit line."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from cli.runner import BrainCli

SESSION = "7c0ffee0-1111-4222-8333-944445555666"
KEPT = "0ddba11a-1111-4222-8333-944445555666"
WORDS = (b"quarkplinth", b"zorvex", b"tbilisi")


async def _seed(home: Path) -> None:
    async with await Brain.open(home, embedder="hashing") as brain:
        bridge = Bridge(brain)
        turns = [
            (SESSION, "We decided to host the quarkplinth offsite in Tbilisi next spring."),
            (SESSION, "The quarkplinth caterer wants a deposit of zorvex tokens upfront."),
            (KEPT, "Please book the meeting room for Monday morning."),
        ]
        for n, (session, prompt) in enumerate(turns, 1):
            await bridge.observe_now(session, n, prompt, "Noted.", today=date(2026, 3, 2))
        await bridge.drain()
        await brain.index_vectors()


def _traces(home: Path) -> list[str]:
    """Files in the brain folder holding any of the distinctive words, in any case."""
    out = []
    for path in home.rglob("*"):
        if path.is_file():
            data = path.read_bytes().lower()
            out += [f"{path.name}: {w.decode()}" for w in WORDS if w in data]
    return out


async def test_forget_a_session_leaves_no_trace_in_the_brain_folder(cli: BrainCli) -> None:
    await _seed(cli.home)
    assert _traces(cli.home)  # the words are there to begin with

    listed = cli.ok("forget", "session:7c0ffee0", "--dry-run").out  # a prefix will do
    assert "Chat_Exchange:7c0ffee0:ex:1" in listed and "Decision:" in listed
    refused = cli("forget", f"session:{SESSION}")  # no terminal, no --yes
    assert refused.code == 2 and "--yes" in refused.err
    assert cli.ok("show", "7c0ffee0:ex:1")

    said = cli.ok("forget", f"session:{SESSION}", "--yes").out
    assert said.startswith("Forgot 3 entities")  # 2 exchanges and the decision
    assert cli("show", "7c0ffee0:ex:1").code == 3
    assert cli.ok("search", "quarkplinth zorvex", "--json").json()["count"] == 0
    assert cli.ok("show", "0ddba11a:ex:3")  # the other session stays
    assert _traces(cli.home) == []

    audit = json.loads((cli.home / "forgotten.jsonl").read_text("utf-8").splitlines()[-1])
    assert audit["item"] == {"type": "Chat_Session", "id": SESSION}
    assert audit["via"] == "cli" and audit["counts"]["Chat_Exchange"] == 2


async def test_forget_one_exchange_as_json(cli: BrainCli) -> None:
    await _seed(cli.home)
    done = cli.ok("forget", "7c0ffee0:ex:2", "--yes", "--json").json()
    assert done["done"] and done["item"]["type"] == "Chat_Exchange"
    assert [e["name"] for e in done["entities"]] == ["7c0ffee0:ex:2"]
    assert cli("show", "7c0ffee0:ex:2").code == 3
    assert cli.ok("show", "7c0ffee0:ex:1")


def test_forget_what_is_not_there_exits_3(cli: BrainCli) -> None:
    cli.ok("init")
    missing = cli("forget", "session:nope", "--yes")
    assert missing.code == 3 and "no session" in missing.err
    assert cli("forget", "Person:Nobody Atall", "--yes").code == 3
    assert cli("--brain", str(cli.home.parent / "none"), "forget", "x", "--yes").code == 3


def _at_a_terminal(cli: BrainCli, answer: str, *args: str) -> tuple[int, str]:
    """`brain` with a terminal as its standard input, answering `answer` to its question."""
    import os
    import subprocess

    from cli.runner import COMMAND

    leader, follower = os.openpty()
    try:
        proc = subprocess.Popen(
            [*COMMAND, *args],
            stdin=follower,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=cli.env,
        )
        os.write(leader, answer.encode() + b"\n")
        out, err = proc.communicate(timeout=120)
    finally:
        os.close(leader)
        os.close(follower)
    return proc.returncode, out.decode() + err.decode()


async def test_at_a_terminal_forget_asks_first(cli: BrainCli) -> None:
    await _seed(cli.home)
    code, said = _at_a_terminal(cli, "n", "forget", "7c0ffee0:ex:1")
    assert code == 1 and "Forget all of this?" in said and "nothing forgotten" in said
    assert "Chat_Exchange:7c0ffee0:ex:1" in said and "Decision:" in said  # listed first
    assert cli.ok("show", "7c0ffee0:ex:1")
    code, said = _at_a_terminal(cli, "y", "forget", "7c0ffee0:ex:1")
    assert code == 0 and "Forgot 2 entities" in said, said
    assert cli("show", "7c0ffee0:ex:1").code == 3
