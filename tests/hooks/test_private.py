"""`<private>…</private>` never reaches the brain folder: not the database, its WAL, the
spool, the logs nor an export (issue #33)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from api.served import serve_env
from brainbridge.privacy import strip_private
from cli.runner import COMMAND
from hooks.conftest import fresh_session, prompt_payload, run_hook, stop_payload, wait_drained
from hooks.transcript import realistic_transcript

PHRASE = "zebra-quartz-7741"


def _files_holding(folder: Path, phrase: bytes) -> list[str]:
    return [
        str(p.relative_to(folder))
        for p in folder.rglob("*")
        if p.is_file() and phrase in p.read_bytes()
    ]


def test_a_private_part_of_a_turn_is_nowhere_in_the_brain_folder(
    home: Path, tmp_path: Path
) -> None:
    sid = fresh_session()
    prompt = (
        "Plan the Orion launch review for the spring cohort. "
        f"<private>My locker code is {PHRASE}.</private> Keep it short."
    )
    reply = f"Here is the plan for the Orion launch review. <PRIVATE>{PHRASE}</PRIVATE> Done."
    run_hook("prompt", prompt_payload(prompt, sid), home)
    transcript = realistic_transcript(tmp_path / "t.jsonl", sid, prompt, reply)
    run_hook("stop", stop_payload(reply, transcript, sid), home)
    wait_drained(home)
    # What was said around the private part is kept.
    found = subprocess.run(
        [*COMMAND, "search", "Orion launch review", "--json"],
        capture_output=True,
        env=serve_env(home),
        timeout=120,
    )
    assert found.returncode == 0 and b"Keep it short" in found.stdout, found.stderr
    exported = subprocess.run(
        [*COMMAND, "export"], capture_output=True, env=serve_env(home), timeout=120
    )
    assert exported.returncode == 0, exported.stderr
    assert PHRASE.encode() not in exported.stdout
    assert _files_holding(home, PHRASE.encode()) == []


def test_cli_add_keeps_only_what_is_not_private(home: Path) -> None:
    added = subprocess.run(
        [*COMMAND, "add", "Topic", "Locker", "--description", f"code <private>{PHRASE}</private>"],
        capture_output=True,
        env=serve_env(home),
        timeout=120,
    )
    assert added.returncode == 0, added.stderr
    assert _files_holding(home, PHRASE.encode()) == []


@given(st.text(), st.text(), st.text())
def test_nothing_inside_the_tags_survives_and_everything_outside_does(
    before: str, inside: str, after: str
) -> None:
    clean = [s.replace("<", "(") for s in (before, inside, after)]
    text = f"{clean[0]}<private>{clean[1]}</private>{clean[2]}"
    out = strip_private(text)
    assert out.startswith(clean[0]) and out.endswith(clean[2])
    assert len(out) == len(clean[0]) + len(clean[2]) + 1


def test_nested_unclosed_and_stray_tags() -> None:
    assert strip_private("a <private>x <private>y</private> z</private> b") == "a   b"
    assert strip_private("keep <Private>rest of the message") == "keep  "
    assert strip_private("a </private> b") == "a  b"
