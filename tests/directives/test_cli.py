"""`brain directives …` through the real CLI entry point, on a brain in a temp folder."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from brainbridge.cli.main import cli


def brain(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(
        cli, ["directives", *args], env=env or {"BRAIN_HOME": str(tmp_path / "home")}
    )


def test_add_show_complete_list(tmp_path: Path) -> None:
    folder = str(tmp_path / "b")
    common = ["--room", "ops", "--author", "dana", "--brain", folder]
    r = brain(
        tmp_path,
        "add-message",
        "Send the weekly report on Mondays.",
        *common,
        "--canonical",
        "--at",
        "2026-11-01T09:00",
    )
    assert r.exit_code == 0, r.output
    assert r.output == "#1 directive: imperative: 'send'\n"
    r = brain(
        tmp_path,
        "add-message",
        "Alice is our accountant.",
        *common,
        "--at",
        "2026-11-01T10:00",
        "--json",
    )
    assert json.loads(r.output)["category"] == "role"

    r = brain(tmp_path, "show", "--brain", folder, "--at", "2026-11-02T00:00")
    assert r.exit_code == 0, r.output
    assert "Send the weekly report on Mondays. [#1]" in r.output
    assert "source: canonical room ops — room ops is marked canonical" in r.output
    assert "messages: 2 read, 2 included, 0 excluded" in r.output

    r = brain(tmp_path, "show", "--brain", folder, "--at", "2026-11-02T00:00", "--json")
    data = json.loads(r.output)
    assert data["stats"]["summary_chars"] == len(data["text"]) <= 1200
    assert [i["state"] for i in data["items"]] == ["active", "active"]

    assert brain(tmp_path, "complete", "1", "--brain", folder).exit_code == 0
    r = brain(tmp_path, "list", "--brain", folder, "--all")
    assert "#1 completed" in r.output


def test_brain_home_from_the_environment(tmp_path: Path) -> None:
    env = {"BRAIN_HOME": str(tmp_path / "env-brain")}
    r = brain(
        tmp_path,
        "add-message",
        "Never deploy on Fridays.",
        "--room",
        "ops",
        "--author",
        "dana",
        env=env,
    )
    assert r.exit_code == 0, r.output
    assert (tmp_path / "env-brain" / "brain.db").exists()


def test_errors_are_messages_with_exit_codes(tmp_path: Path) -> None:
    folder = str(tmp_path / "b")
    r = brain(tmp_path, "complete", "42", "--brain", folder)
    assert r.exit_code == 3 and "no directive #42" in r.output
    r = brain(tmp_path, "show", "--brain", folder, "--at", "yesterday")
    assert r.exit_code == 2 and "not an ISO time" in r.output
    r = brain(tmp_path, "show", "--brain", folder)
    assert r.exit_code == 0 and "(no standing guidance)" in r.output
