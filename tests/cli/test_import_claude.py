"""`brain import-claude`: past Claude Code transcripts back-filled, dated by when they happened."""

from __future__ import annotations

import json
from pathlib import Path

from cli.runner import BrainCli


def _transcript(path: Path, turns: list[tuple[str, str, str]]) -> None:
    rows = []
    for i, (when, prompt, reply) in enumerate(turns):
        rows.append(
            {
                "type": "user",
                "uuid": f"u{i}",
                "timestamp": when,
                "message": {"role": "user", "content": prompt},
            }
        )
        rows.append(
            {
                "type": "assistant",
                "uuid": f"a{i}",
                "timestamp": when,
                "message": {"role": "assistant", "content": [{"type": "text", "text": reply}]},
            }
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", "utf-8")


def test_exchanges_carry_the_transcripts_own_dates(cli: BrainCli, tmp_path: Path) -> None:
    projects = tmp_path / "projects"
    _transcript(
        projects / "-src-app" / "5d1e6f20-aaaa-bbbb-cccc-000000000001.jsonl",
        [
            (
                "2026-03-02T10:04:11.120Z",
                "We moved the deploy window to Thursday evenings.",
                "Noted.",
            ),
            (
                "2026-03-09T09:00:00.000Z",
                "Which day is the deploy window again this week?",
                "Thursday.",
            ),
        ],
    )
    said = cli.ok("import-claude", str(projects)).out
    assert "2 exchanges imported from 1 transcripts" in said
    first = cli.ok("show", "5d1e6f20:ex:1", "--json").json()["entity"]
    second = cli.ok("show", "5d1e6f20:ex:2", "--json").json()["entity"]
    assert first["attributes"]["date"] == "2026-03-02"
    assert second["attributes"]["date"] == "2026-03-09"
    again = cli.ok("import-claude", str(projects)).out
    assert "0 exchanges imported" in again and "2 already there" in again
