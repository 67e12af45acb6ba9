"""Facts over time: invalidate, as_of and superseded from the command line."""

from __future__ import annotations

from cli.runner import BrainCli


def test_cli_invalidate_and_search_superseded(cli: BrainCli) -> None:
    cli.ok("add", "Fact", "Home: Austin", "-d", "The user lives in Austin.")
    said = cli.ok("invalidate", "Home: Austin", "--on", "2026-08-01").out
    assert "no longer holds from 2026-08-01" in said
    assert cli.ok("search", "Austin", "--json").json()["count"] == 0
    found = cli.ok("search", "Austin", "--superseded", "--json").json()
    assert [r["name"] for r in found["results"]] == ["Home: Austin"]
    before = cli.ok("search", "Austin", "--as-of", "2026-07-01", "--json").json()
    assert before["count"] == 1
    bad = cli("search", "Austin", "--as-of", "someday")
    assert bad.code == 2 and "not a date" in bad.err
