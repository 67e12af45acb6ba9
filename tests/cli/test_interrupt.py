"""Long commands say where they are, and Ctrl-C says what was kept and how to go on.

Real `brain` processes on generated data, interrupted with SIGINT once their own progress
line shows they are part-way; the counts they report are checked against the brain, and
running the same command again finishes the work without doubling anything.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import signal
import subprocess
from pathlib import Path

import pytest

from brainbridge.cli.common import run
from cli.runner import COMMAND, BrainCli

PROGRESS = re.compile(r"^brain: [a-z ]+: ([\d,]+) ")


def _interrupt(cli: BrainCli, *args: str) -> tuple[int, list[str], str]:
    """Run `brain ARGS --progress`, send Ctrl-C after its first progress line with some work
    done; return the exit code, the stderr lines before the signal, and the rest."""
    proc = subprocess.Popen(
        [*COMMAND, *args, "--progress"],
        env=cli.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    before = []
    for line in proc.stderr:
        before.append(line)
        match = PROGRESS.match(line)
        if match and int(match.group(1).replace(",", "")) > 0:
            break
    proc.send_signal(signal.SIGINT)
    _, rest = proc.communicate(timeout=300)
    assert "Traceback" not in "".join(before) + rest, rest
    return proc.returncode, before, rest


def _said(rest: str) -> str:
    """The one line that says what Ctrl-C kept."""
    lines = [line for line in rest.splitlines() if line.startswith("brain: interrupted")]
    assert len(lines) == 1, rest
    return lines[0]


def _number(pattern: str, text: str) -> int:
    match = re.search(pattern, text)
    assert match, text
    return int(match.group(1).replace(",", ""))


def _transcripts(root: Path, files: int, turns: int) -> None:
    for t in range(files):
        rows = []
        for i in range(turns):
            rows += [
                {
                    "type": "user",
                    "uuid": f"u{t}-{i}",
                    "timestamp": "2026-03-02T10:04:11.120Z",
                    "message": {
                        "role": "user",
                        "content": f"Turn {i} of session {t}: the Falcon {t} release moves"
                        f" to Thursday and Maria Lopez {i} signs it off.",
                    },
                },
                {
                    "type": "assistant",
                    "uuid": f"a{t}-{i}",
                    "timestamp": "2026-03-02T10:04:12.120Z",
                    "message": {
                        "role": "assistant",
                        "content": [{"type": "text", "text": f"Noted: Falcon {t} on Thursday."}],
                    },
                },
            ]
        path = root / "-src-app" / f"5d1e6f20-aaaa-bbbb-cccc-{t:012d}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", "utf-8")


def _export(file: Path, entities: int) -> None:
    rows = [json.dumps({"kind": "header", "format": "brainbridge-jsonl/2"})]
    rows += [
        json.dumps(
            {"kind": "entity", "type": "Topic", "name": f"topic {i}", "description": "t" * 40}
        )
        for i in range(entities)
    ]
    file.write_text("\n".join(rows) + "\n", "utf-8")


def test_ctrl_c_during_import_claude_keeps_whole_turns_and_a_rerun_finishes(
    cli: BrainCli, tmp_path: Path
) -> None:
    projects = tmp_path / "projects"
    _transcripts(projects, files=20, turns=10)

    code, before, rest = _interrupt(cli, "import-claude", str(projects))

    assert code == 130
    assert "of 20 transcripts" in before[-1]
    said = _said(rest)
    kept = _number(r"kept ([\d,]+) exchanges", said)
    assert "re-running `brain import-claude" in said and "is safe" in said
    assert "`brain index` finishes the vectors" in said
    # What it says it kept is what the brain holds: no turn half stored, none uncounted.
    assert cli.ok("stats", "--json").json()["exchanges"] == kept
    assert 0 < kept < 200

    again = cli.ok("import-claude", str(projects)).out
    assert f"{200 - kept} exchanges imported from 20 transcripts ({kept} already there)" in again
    assert cli.ok("stats", "--json").json()["exchanges"] == 200


def test_ctrl_c_during_import_keeps_what_was_committed(cli: BrainCli, tmp_path: Path) -> None:
    file = tmp_path / "export.jsonl"
    _export(file, 20_000)

    code, _, rest = _interrupt(cli, "import", str(file), "--no-embed")

    assert code == 130
    said = _said(rest)
    kept = _number(r"kept ([\d,]+) of 20,000 records", said)
    assert "re-running the same import is safe" in said
    assert "`brain index` finishes the vectors" in said
    assert cli.ok("stats", "--json").json()["entities"] == kept < 20_000

    cli.ok("import", str(file), "--no-embed")
    stats = cli.ok("stats", "--json").json()
    assert stats["entities"] == 20_000 and stats["pending_vectors"] == 20_000


def test_ctrl_c_during_index_keeps_the_vectors_made(cli: BrainCli, tmp_path: Path) -> None:
    file = tmp_path / "export.jsonl"
    _export(file, 20_000)
    cli.ok("import", str(file), "--no-embed")

    code, before, rest = _interrupt(cli, "index")

    assert code == 130
    assert re.match(r"brain: embedding: [\d,]+ of 20,000 vectors", before[-1])
    said = _said(rest)
    kept = _number(r"kept ([\d,]+) of 20,000 vectors", said)
    assert "re-running `brain index` is safe" in said
    stats = cli.ok("stats", "--json").json()
    assert stats["vectors"] == kept and stats["pending_vectors"] == 20_000 - kept


def test_ctrl_c_during_import_notes_and_a_rerun_finishes_the_notes(
    cli: BrainCli, tmp_path: Path
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    for i in range(5000):
        (vault / f"note {i}.md").write_text(
            f"# Note {i}\n\nFalcon {i} links to [[note {i + 1}]].\n"
        )

    code, _, rest = _interrupt(cli, "import-notes", str(vault))

    assert code == 130
    said = _said(rest)
    assert "re-running `brain import-notes" in said and "is safe" in said
    assert "`brain index` finishes the vectors" in said
    if "kept every note" not in said:  # stopped while writing, not while embedding
        written = _number(r"kept ([\d,]+) of 5,000 new or changed notes", said)
        again = json.loads(cli.ok("import-notes", str(vault), "--json").out)
        # The notes written before Ctrl-C are finished (linked), the rest added.
        assert len(again["updated"]) == written and len(again["added"]) == 5000 - written
    else:
        cli.ok("import-notes", str(vault))
    final = json.loads(cli.ok("import-notes", str(vault), "--json").out)
    assert final["unchanged"] == 5000


def test_ctrl_c_during_migrate_and_a_rerun_completes_the_copy(
    cli: BrainCli, tmp_path: Path
) -> None:
    file = tmp_path / "export.jsonl"
    _export(file, 20_000)
    cli.ok("import", str(file), "--no-embed")
    target = tmp_path / "copy"

    code, _, rest = _interrupt(cli, "migrate", "--to", str(target))

    assert code == 130
    said = _said(rest)
    # Stopped before the last record: the total counts more than the 20,000 entities.
    total = _number(r"copied [\d,]+ of ([\d,]+) records", said)
    assert _number(r"copied ([\d,]+) of [\d,]+ records", said) < total
    assert f"to {target} (this brain is unchanged)" in said
    assert "re-running the same command is safe" in said
    assert cli.ok("stats", "--json").json()["entities"] == 20_000

    cli.ok("migrate", "--to", str(target))
    copy = cli.ok("--brain", str(target), "stats", "--json").json()
    assert copy["entities"] == 20_000


def test_progress_lines_only_on_request_when_stderr_is_not_a_terminal(
    cli: BrainCli, tmp_path: Path
) -> None:
    file = tmp_path / "export.jsonl"
    _export(file, 3)
    quiet = cli.ok("import", str(file), "--no-embed", "--json")
    assert "importing" not in quiet.err and json.loads(quiet.out)["entities"] == 3
    shown = cli.ok("import", str(file), "--no-embed", "--json", "--progress")
    assert "brain: importing: 3 of 3 records (100 %)" in shown.err.splitlines()
    assert json.loads(shown.out)["entities"] == 3  # stdout stays the JSON alone


def test_a_cancel_racing_a_worker_result_prints_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Ctrl-C can cancel the future a command awaits while the loop copies a worker
    thread's result into it (asyncio's `_set_state` callback): CI printed that
    InvalidStateError's traceback above "interrupted: kept ...". Other errors in callbacks
    are still reported."""

    async def body() -> None:
        loop = asyncio.get_running_loop()
        waited = loop.create_future()
        waited.cancel()

        def _set_state() -> None:  # as asyncio's own: the future was cancelled meanwhile
            waited.set_result(None)

        def broken() -> None:
            raise ValueError("a real bug")

        loop.call_soon(_set_state)
        loop.call_soon(broken)
        await asyncio.sleep(0.01)

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        run(body())
    reported = [r.getMessage() for r in caplog.records]
    assert not any("_set_state" in m for m in reported), reported
    assert any("broken" in m for m in reported), reported
