"""Terminal output that fits: listings readable at 80 columns, cuts after whole words."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from brainbridge.cli.output import clip
from cli.runner import BrainCli

CHATGPT = Path(__file__).parent.parent / "data" / "exports" / "chatgpt" / "conversations.json"


def test_sessions_fit_80_columns_with_whole_titles(cli: BrainCli) -> None:
    cli.ok("import-chatgpt", str(CHATGPT))

    shown = cli.ok("sessions", env={"COLUMNS": "80"}).out
    rows = cli.ok("sessions", "--json").json()

    lines = shown.splitlines()
    assert all(len(line.rstrip()) <= 80 for line in lines)
    for row in rows:
        assert any(row["id"] in line for line in lines)
        if row["title"]:
            assert any(row["title"] in line for line in lines), shown
    assert len(lines) <= 4 * len(rows)  # a few lines a session, not one word a line


def test_a_cut_ends_after_a_whole_word_with_an_ellipsis() -> None:
    assert clip("alphabet soup is warm today", 12) == "alphabet…"


@given(st.text(alphabet="ab .", max_size=60), st.integers(min_value=2, max_value=40))
def test_a_cut_is_a_prefix_of_whole_words(text: str, limit: int) -> None:
    flat = " ".join(text.split())
    cut = clip(text, limit)
    assert len(cut) <= limit
    if cut != flat:
        kept = cut.removesuffix("…")
        assert cut.endswith("…") and flat.startswith(kept)


def test_show_lists_only_the_entitys_own_relations_as_its_relations(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Maya Chen")
    cli.ok("add", "Organization", "Northwind Labs")
    cli.ok("add", "Project", "Atlas")
    cli.ok("relate", "Maya Chen", "works_at", "Organization:Northwind Labs")
    cli.ok("relate", "Maya Chen", "leads", "Project:Atlas")
    cli.ok("relate", "Organization:Northwind Labs", "builds", "Project:Atlas")

    shown = cli.ok("show", "Maya Chen", env={"COLUMNS": "80"}).out
    own, _, rest = shown.partition("between its neighbours")
    assert "works_at" in own and "leads" in own and "builds" not in own
    assert "builds" in rest
