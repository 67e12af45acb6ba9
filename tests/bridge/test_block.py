"""The "## Brain Context" block: a hard budget, whole items, provenance, facts not commands."""

from __future__ import annotations

import re
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from brainbridge.bridge.block import (
    HEADER,
    BlockItem,
    QueryResults,
    estimate_tokens,
    format_block,
    render_item,
)
from brainbridge.model import CHAT_EXCHANGE

_FOOTER = re.compile(r"^_Context loaded: (\d+) results? from (\d+) quer(?:y|ies)\._$")
_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=400
)
_ITEM = st.builds(
    BlockItem,
    name=st.text(min_size=1, max_size=80),
    type=st.sampled_from(["Person", "Project", "Document", "Decision", CHAT_EXCHANGE]),
    description=st.one_of(
        _TEXT,
        st.text(alphabet="ab #*\n-_", max_size=2000),  # headings and newlines to smuggle
        st.just("sk-ant-api03-" + "Zx9" * 12 + " is the key"),
    ),
    date=st.sampled_from(["", "2026-02-12"]),
)
# Distinct queries, as the bridge makes them; quotes and markdown are fair game.
_QUERY = st.text(alphabet=string.ascii_letters + string.digits + "\"'#*_-", min_size=1, max_size=60)
_RESULTS = st.lists(
    st.builds(QueryResults, query=_QUERY, items=st.lists(_ITEM, max_size=6).map(tuple)),
    max_size=4,
    unique_by=lambda qr: qr.query,
)


def _parse(text: str) -> tuple[list[tuple[str, str]], str]:
    """(query header, item line) pairs and the footer; fails on any line of another kind."""
    lines = text.split("\n")
    assert "\n".join(lines[:2]) + "\n" == HEADER
    items, query = [], None
    for line in lines[2:-1]:
        if line in ("### From your knowledge graph", "### From conversation history"):
            query = None
        elif line.startswith("#### From query: "):
            query = line
        else:
            assert line.startswith("- **"), f"stray line {line!r}"
            assert query is not None, f"item outside any query: {line!r}"
            items.append((query, line))
    return items, lines[-1]


@settings(max_examples=300, deadline=None)
@given(results=_RESULTS, budget=st.integers(min_value=1, max_value=3000))
def test_never_over_budget_and_only_whole_items(results: list[QueryResults], budget: int) -> None:
    block = format_block(results, budget)
    if block is None:
        return
    assert estimate_tokens(block.text) <= budget
    assert block.tokens == estimate_tokens(block.text)
    items, footer = _parse(block.text)
    rendered = {render_item(it).rstrip("\n") for qr in results for it in qr.items}
    for _, line in items:
        assert line in rendered, "an item was cut or altered"
    m = _FOOTER.match(footer)
    assert m and int(m.group(1)) == len(items) == len(block.loaded)
    assert int(m.group(2)) == len({q for q, _ in items})
    total = sum(len(qr.items) for qr in results)
    assert block.dropped == total - len(items)


@settings(max_examples=150, deadline=None)
@given(results=_RESULTS)
def test_a_roomy_budget_keeps_everything_in_query_order(results: list[QueryResults]) -> None:
    block = format_block(results, 1_000_000)
    total = sum(len(qr.items) for qr in results)
    if total == 0:
        assert block is None
        return
    assert block is not None and block.dropped == 0 and len(block.loaded) == total
    knowledge = [it.name for qr in results for it in qr.items if it.type != CHAT_EXCHANGE]
    history = [it.name for qr in results for it in qr.items if it.type == CHAT_EXCHANGE]
    assert list(block.loaded) == knowledge + history


@settings(max_examples=150, deadline=None)
@given(results=_RESULTS, budget=st.integers(min_value=1, max_value=3000))
def test_stored_text_cannot_open_headings_or_leak_keys(
    results: list[QueryResults], budget: int
) -> None:
    block = format_block(results, budget)
    if block is None:
        return
    assert "sk-ant-api03-" not in block.text
    headings = [line for line in block.text.split("\n") if line.startswith("#")]
    assert all(
        h in ("## Brain Context", "### From your knowledge graph", "### From conversation history")
        or h.startswith("#### From query: ")
        for h in headings
    )


def test_history_shows_date_and_knowledge_does_not() -> None:
    block = format_block(
        [
            QueryResults(
                "letter Flock Safety",
                (
                    BlockItem(
                        "Flock Safety Contract Letter", "Document", "Draft letter re: renewal."
                    ),
                    BlockItem("a1b2c3d4:ex:3", CHAT_EXCHANGE, "User: hi | AI: hello", "2026-02-12"),
                ),
            )
        ]
    )
    assert block is not None
    assert block.text == (
        "## Brain Context\n"
        "The following context was retrieved from your knowledge graph based on the current"
        " conversation.\n"
        "### From your knowledge graph\n"
        '#### From query: "letter Flock Safety"\n'
        "- **Flock Safety Contract Letter** (Document): Draft letter re: renewal.\n"
        "### From conversation history\n"
        '#### From query: "letter Flock Safety"\n'
        "- **a1b2c3d4:ex:3** (Chat_Exchange, 2026-02-12): User: hi | AI: hello\n"
        "_Context loaded: 2 results from 1 query._"
    )


def test_a_budget_too_small_for_any_item_gives_no_block() -> None:
    item = BlockItem("Trellis", "Project", "Mobile app for field crews. " * 20)
    assert format_block([QueryResults("Trellis", (item,))], 20) is None
    assert format_block([QueryResults("Trellis", ())], 1500) is None
