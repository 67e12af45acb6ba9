"""The review queue from the command line."""

from __future__ import annotations

from cli.runner import BrainCli


def test_merge_list_and_unmerge(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Marta Ruiz", "-d", "Runs finance.")
    cli.ok("add", "Person", "Martha Ruiz")
    done = cli.ok("merge", "Marta Ruiz", "Martha Ruiz", "--json").json()
    assert done["status"] == "merged"
    assert cli.ok("show", "Martha Ruiz", "--json").json()["entity"]["name"] == "Marta Ruiz"
    assert cli.ok("merges", "--all", "--json").json()["count"] == 1
    assert "Nothing waits for review." in cli.ok("merges").out
    assert "unmerged" in cli.ok("unmerge", str(done["id"])).out
    assert cli.ok("show", "Person:Martha Ruiz", "--json").json()["entity"]["name"] == "Martha Ruiz"
    missing = cli("merges", "accept", "99")
    assert missing.code == 3 and "no merge #99" in missing.err
