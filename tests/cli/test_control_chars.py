"""Names with terminal escapes or bidi overrides are stored clean and never printed raw (#31)."""

from __future__ import annotations

import re

from cli.runner import BrainCli

# ESC, BEL, CR and C1 controls, bidi overrides and isolates, zero-width characters.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def test_add_stores_a_name_without_control_or_bidi_characters(cli: BrainCli) -> None:
    name = "Eve\x1b[31m Ortiz\u202e\u200b\x07\nAdmin"
    assert cli.ok("add", "Person", name, "--json").json()["name"] == "Eve Ortiz Admin"
    assert cli.ok("show", "Eve Ortiz Admin", "--json").json()["entity"]["name"] == "Eve Ortiz Admin"
    # The same name typed again finds the entity it made.
    assert cli.ok("show", name, "--json").json()["entity"]["name"] == "Eve Ortiz Admin"


def test_show_and_search_print_no_raw_control_characters(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Mallory\u202egnp.exe", "-d", "Sets \x1b[2J\x1b]0;pwned\x07 traps.")
    shown = cli.ok("show", "Mallorygnp.exe")
    assert "Mallorygnp.exe" in shown.out and not RAW.search(shown.out), ascii(shown.out)
    assert "\\x1b[2J" in shown.out  # the stored escape, shown for what it is
    found = cli.ok("search", "traps")
    assert "Mallorygnp.exe" in found.out and not RAW.search(found.out), ascii(found.out)
