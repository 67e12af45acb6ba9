"""`brain directives …` through the real CLI entry point, on a brain in a temp folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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


def test_the_calendar_comes_from_config_toml(tmp_path: Path) -> None:
    from brainbridge.errors import InvalidInput
    from brainbridge.model.directives import directive_config

    config = directive_config(
        {"timezone": "Asia/Tokyo", "sprint_start": "2026-11-16", "sprint_days": 14}
    )
    assert str(config.timezone) == "Asia/Tokyo"
    assert config.calendar.sprint_start.isoformat() == "2026-11-16"
    for bad in ({"timezone": "Mars/Base"}, {"sprint_start": "soon"}, {"sprint_days": 0}):
        with pytest.raises(InvalidInput, match=r"\[directives\]"):
            directive_config(bad)


def test_show_at_follows_a_bounded_rule_in_the_brains_timezone(tmp_path: Path) -> None:
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "config.toml").write_text('[directives]\ntimezone = "Asia/Tokyo"\n')
    common = ["--room", "ops", "--author", "dana", "--brain", str(folder), "--canonical"]
    # Tuesday 2026-11-03, 10:00 in Tokyo.
    r = brain(
        tmp_path,
        "add-message",
        "Until Friday, route all billing questions to Sam.",
        *common,
        "--at",
        "2026-11-03T01:00",
    )
    assert r.exit_code == 0, r.output
    thursday = brain(tmp_path, "show", "--brain", str(folder), "--at", "2026-11-05T12:00")
    assert "route all billing questions to Sam" in thursday.output
    assert "until Fri 2026-11-06" in thursday.output
    # Friday 16:00 UTC is Saturday 01:00 in Tokyo: the rule has ended there.
    late = brain(tmp_path, "show", "--brain", str(folder), "--at", "2026-11-06T16:00")
    assert "#1 expired: ended Fri 2026-11-06" in late.output
    assert "states: scheduled 0, active 0, superseded 0, expired 1" in late.output
