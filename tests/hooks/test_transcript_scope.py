"""A Stop payload's transcript_path is read only where Claude Code writes this user's
transcripts, only if it is a regular file, and only its tail (#31)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from brainbridge.hooks.payload import TRANSCRIPT_TAIL_BYTES, claude_transcripts_root
from brainbridge.hooks.spool import received_turn, turn_record

from .conftest import stop_payload
from .transcript import realistic_transcript

SID = "3c5e8a7e-5b3d-4c8e-a1f0-6d2b7e9c4a10"
SECRET_LINE = "the contents of a private file that is no transcript"


def _foreign(path: Path) -> Path:
    """A file outside Claude Code's folder shaped like a transcript (any suffix works)."""
    row = {"type": "user", "message": {"role": "user", "content": SECRET_LINE}, "uuid": "u1"}
    path.write_text(json.dumps(row) + "\n", "utf-8")
    return path


def test_a_transcript_claude_code_wrote_is_read(tmp_path: Path) -> None:
    transcript = realistic_transcript(tmp_path / "t.jsonl", SID, "What is the Orion plan?", "x")
    record = turn_record(stop_payload("It ships Friday.", transcript, SID))
    assert record is not None and record["prompt"] == "What is the Orion plan?"


@pytest.mark.parametrize("name", ["secret.jsonl", "secret.txt", "id_rsa"])
def test_a_file_outside_claude_codes_folder_is_not_read(tmp_path: Path, name: str) -> None:
    foreign = _foreign(tmp_path / name)
    for path in (str(foreign), os.path.relpath(foreign)):
        record = turn_record(stop_payload("ok", path, SID))
        assert record is not None and SECRET_LINE not in json.dumps(record)


def test_links_and_dot_dot_do_not_escape(tmp_path: Path) -> None:
    foreign = _foreign(tmp_path / "secret.jsonl")
    folder = claude_transcripts_root() / "proj"
    folder.mkdir(parents=True)
    (folder / "link.jsonl").symlink_to(foreign)
    for path in (folder / "link.jsonl", Path(f"{folder}/../../../secret.jsonl")):
        record = turn_record(stop_payload("ok", path, SID))
        assert record is not None and SECRET_LINE not in json.dumps(record)


def test_a_fifo_in_the_folder_does_not_hang_the_hook(tmp_path: Path) -> None:
    folder = claude_transcripts_root() / "proj"
    folder.mkdir(parents=True)
    fifo = folder / "pipe.jsonl"
    os.mkfifo(fifo)
    # In a child process: a hang is a timeout there, not a stuck test run.
    code = (
        "import sys; from brainbridge.hooks.spool import turn_record;"
        f"r = turn_record({{'transcript_path': {str(fifo)!r}, 'last_assistant_message': 'ok'}});"
        "sys.exit(0 if r and r['reply'] == 'ok' else 1)"
    )
    done = subprocess.run([sys.executable, "-c", code], timeout=60, env=os.environ.copy())
    assert done.returncode == 0


def test_only_the_tail_of_a_huge_transcript_is_read(tmp_path: Path) -> None:
    transcript = realistic_transcript(tmp_path / "t.jsonl", SID, "Which venue did we pick?", "x")
    body = transcript.read_bytes()
    filler = json.dumps({"type": "user", "message": {"content": "old " * 200}}) + "\n"
    rows = filler.encode() * (TRANSCRIPT_TAIL_BYTES // len(filler) + 10)
    transcript.write_bytes(rows + body)
    record = turn_record(stop_payload(None, transcript, SID))
    assert record is not None and record["prompt"] == "Which venue did we pick?"


def test_the_server_never_opens_a_path_a_request_names(tmp_path: Path) -> None:
    """/hooks/stop takes the turn the hook read; a bare path in the request is not opened,
    even one inside Claude Code's folder."""
    inside = realistic_transcript(tmp_path / "t.jsonl", SID, "A prompt only the file holds", "x")
    assert received_turn(stop_payload(None, inside, SID)) is None
    sent = received_turn({"turn": {"session_id": SID, "prompt": "Hi there", "reply": "Hello"}})
    assert sent is not None and sent["prompt"] == "Hi there"
    forged = received_turn({"turn": {"prompt": ["not", "text"], "reply": {"a": 1}}})
    assert forged is None
