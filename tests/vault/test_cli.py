"""`brain import-notes` as a user runs it: JSON report, messages, watch mode."""

from __future__ import annotations

import asyncio
import json
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from cli.runner import COMMAND, BrainCli, clean_env
from vault.sample_vault import write_vault

WATCH_BOUND = 60.0  # seconds before a missing update counts as a failure (not a timing test)


@pytest.fixture
def cli(tmp_path: Path) -> BrainCli:
    home = tmp_path / "home"
    return BrainCli(
        home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing", TMPDIR=str(tmp_path))
    )


def test_import_notes_json_reports_each_file(cli: BrainCli, tmp_path: Path) -> None:
    vault = write_vault(tmp_path / "vault")

    first = cli.ok("import-notes", str(vault), "--json").json()
    again = cli.ok("import-notes", str(vault), "--json").json()

    assert set(first) == {
        "added",
        "updated",
        "unchanged",
        "deleted",
        "renamed",
        "links",
        "unresolved_links",
        "warnings",
    }
    assert len(first["added"]) == 11 and "LiteLLM.md" in first["added"]
    assert first["links"] == 10 and first["unresolved_links"] == 1
    assert any(w.startswith("Broken frontmatter.md: ") for w in first["warnings"])
    assert again["added"] == [] and again["unchanged"] == 11
    shown = cli.ok("show", "Project:LiteLLM", "--json").json()
    assert shown["entity"]["attributes"]["slug"] == "litellm"


def test_import_notes_prints_a_summary_and_warnings_on_stderr(
    cli: BrainCli, tmp_path: Path
) -> None:
    vault = write_vault(tmp_path / "vault")

    result = cli.ok("import-notes", str(vault))

    assert result.out.strip() == (
        "11 added, 0 updated, 0 unchanged, 0 deleted, 0 renamed, 10 links (1 unresolved)"
    )
    assert "warning: Broken frontmatter.md: broken frontmatter ignored" in result.err


def test_import_notes_of_a_missing_folder_is_one_line(cli: BrainCli, tmp_path: Path) -> None:
    result = cli("import-notes", str(tmp_path / "nowhere"))

    assert result.code == 3
    assert result.err.strip().startswith("brain: error: notes folder ")
    assert result.err.count("\n") == 1


def _lines(stream) -> tuple[queue.Queue[str], threading.Thread]:
    out: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in stream:
            out.put(line)

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return out, thread


async def _wait_for_entity(brain: Brain, etype: str, name: str) -> bool:
    deadline = time.monotonic() + WATCH_BOUND
    while time.monotonic() < deadline:
        if await brain.get_entity(etype, name) is not None:
            return True
        await asyncio.sleep(0.2)
    return False


async def test_watch_picks_up_a_new_note(cli: BrainCli, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "first.md").write_text("The first note.\n")
    with subprocess.Popen(
        [*COMMAND, "import-notes", str(vault), "--watch", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli.env,
    ) as proc:
        reports, pump = _lines(proc.stdout)
        try:
            await _watch_scenario(cli, vault, reports)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=WATCH_BOUND)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            pump.join(WATCH_BOUND)
        err = proc.stderr.read()
    assert proc.returncode == 130, err  # Ctrl-C ends it cleanly
    assert "Traceback" not in err and "brain: interrupted" in err


async def _watch_scenario(cli: BrainCli, vault: Path, reports: queue.Queue[str]) -> None:
    initial = json.loads(reports.get(timeout=WATCH_BOUND))
    assert initial["added"] == ["first.md"]

    # Written whole and renamed into place, as editors save, so one change is one report.
    (vault / "sub").mkdir()
    draft = vault / "sub" / "Second idea.md.tmp"
    draft.write_text("---\ntype: Topic\n---\nLinks [[first]].\n")
    draft.rename(vault / "sub" / "Second idea.md")

    # The report comes once the pass is done: the note first, its links after it (checked
    # as soon as the note showed up, the link was not always there yet on a busy machine).
    update = json.loads(reports.get(timeout=WATCH_BOUND))
    assert update["added"] == ["sub/Second idea.md"] and update["unchanged"] == 1
    brain = await Brain.open(cli.home, embedder=None, background_indexing=False)
    try:
        assert await _wait_for_entity(brain, "Topic", "Second idea")
        sub = await brain.subgraph(("Topic", "Second idea"), hops=1)
        assert [(r.src_name, r.dst_name) for r in sub.edges] == [("Second idea", "first")]
    finally:
        await brain.close()

    (vault / "first.md").unlink()
    removed = json.loads(reports.get(timeout=WATCH_BOUND))
    assert removed["deleted"] == ["first.md"]
