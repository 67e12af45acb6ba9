"""The block metrics the #32 benchmark reports, on hand-made blocks."""

from __future__ import annotations

import pytest
from benchmarks.block_metrics import item_ends, score_block, summarise

from brainbridge.bridge.block import (
    BlockItem,
    QueryResults,
    estimate_tokens,
    format_block,
    ranked_block,
)
from brainbridge.model import CHAT_EXCHANGE


def _block(lengths: list[int]):
    items = tuple(
        BlockItem(f"s:ex:{i}", CHAT_EXCHANGE, "x" * n, "2026-01-01") for i, n in enumerate(lengths)
    )
    block = format_block([QueryResults("q", items)], 1500)
    assert block is not None
    return block


def test_item_ends_count_from_the_top_of_the_block_in_order():
    block = _block([700, 700, 700])
    ends = item_ends(block.text)
    assert len(ends) == 3 and ends == sorted(ends)
    # The first item's cost includes the header above it; the last ends before the footer.
    first_line_end = block.text.index("\n", block.text.index("- **"))
    assert ends[0] == estimate_tokens(block.text[:first_line_end])
    assert ends[-1] < block.tokens


def test_recall_within_tokens_counts_only_items_read_by_then():
    block = _block([700, 700, 700])
    held = {"s:ex:0": frozenset({"D1"}), "s:ex:2": frozenset({"D2", "D9"})}
    scored = score_block(block.text, block.loaded, held, ["D1", "D2"], category=1)
    ends = item_ends(block.text)
    assert scored.recall(ends[0] - 1) == 0.0
    assert scored.recall(ends[0]) == 0.5
    assert scored.recall(ends[1]) == 0.5
    assert scored.recall(ends[2]) == scored.recall() == 1.0
    assert scored.first_holds and scored.useful == 2


def test_an_empty_block_is_a_miss_everywhere():
    full = score_block(_block([100]).text, ("s:ex:0",), {"s:ex:0": frozenset({"D1"})}, ["D1"])
    empty = score_block(None, (), {}, ["D1"])
    got = summarise([full, empty])
    assert got["recall"] == got["first"] == got["no_evidence"] == 0.5
    assert got["first_nonempty"] == 1.0 and got["precision"] == 1.0
    assert got["items"] == 1.0 and got["tokens"] == full.tokens


def test_a_block_whose_lines_do_not_match_its_names_is_refused():
    with pytest.raises(ValueError):
        score_block(_block([100, 100]).text, ("s:ex:0",), {}, ["D1"])


def test_a_passage_is_one_item_and_each_of_its_exchanges_an_entry_read_in_turn():
    said = [
        BlockItem(f"s:ex:{n}", CHAT_EXCHANGE, "y" * 400, "2026-01-01", exchange=("s", n))
        for n in (5, 4, 9)
    ]
    block = ranked_block(said)
    assert block is not None and block.items == (("s:ex:5", "s:ex:4"), ("s:ex:9",))
    held = {"s:ex:4": frozenset({"D4"})}
    scored = score_block(block.text, block.loaded, held, ["D4"], items=block.items)
    # The first item holds the evidence in its second exchange; the first entry does not.
    assert scored.items == 2 and scored.first_holds and not scored.first_entry
    assert scored.useful == 1
    # Exchange 4 is read after exchange 5 within the line: counted where its text ends.
    ends = scored.ends
    assert ends[0] < ends[1] < ends[2] == item_ends(block.text)[1]
    assert scored.recall(ends[0]) == 0.0 and scored.recall(ends[1]) == 1.0
    got = summarise([scored])
    assert got["first_nonempty"] == 1.0 and got["first_entry_nonempty"] == 0.0


def test_a_stale_value_in_a_passage_counts_even_beside_the_current_one():
    # A passage may join an exchange holding the current value with an older one no
    # change cue retired: the older one is still shown as current.
    from benchmarks.scenarios import Probe, stale_lines

    from brainbridge.model import Judgment

    said = [
        BlockItem(f"s:ex:{n}", CHAT_EXCHANGE, text, "2026-01-01", exchange=("s", n))
        for n, text in ((2, "User: Rent is 2,550 a month now."), (1, "User: Rent is 2,300."))
    ]
    block = ranked_block(said)
    assert block is not None and len(block.items) == 1
    probe = Probe("rent", "How much is the rent?", Judgment.ENRICH, ("2,550",), (("2,300",),))
    assert stale_lines(block.text, probe) == [block.text.splitlines()[2]]
