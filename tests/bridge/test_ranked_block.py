"""The block is one ranked list: most likely to help first, cut where items stop earning
their tokens, current before superseded, and a last line saying what was left out."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.cli.demo import MESSAGES
from brainbridge.cli.sample import load_sample
from brainbridge.model import Judgment

# The sample's board-meeting session: the demo's sync question has little to learn there.
BOARD_SESSION = "3f9c2a71:"
_ITEM = re.compile(r"^- \*\*(.+?)\*\* \((knowledge, \w+|conversation history, \d{4}-\d\d-\d\d)\): ")


@pytest.fixture(params=[None, "hashing"], ids=["no-vectors", "vectors"])
async def demo(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Brain]:
    """The bundled demo brain as `brain demo` loads it (the CLI's tests embed with hashing)."""
    brain = await Brain.open(tmp_path / "demo", embedder=request.param, background_indexing=False)
    await load_sample(brain)
    await brain.index_vectors()
    yield brain
    await brain.close()


async def test_the_demo_block_leaves_out_the_unrelated_board_session(demo: Brain) -> None:
    bridge = Bridge(demo)
    result = await bridge.enrich(MESSAGES[0], "brain-demo")
    await bridge.drain()

    assert result.judgment is Judgment.ENRICH and result.block
    # Nothing of the board meeting, not even the exchange whose reply recalled the sync
    # bug (the user asked there whether to mention the slipped beta).
    assert not [n for n in result.loaded if n.startswith(BOARD_SESSION)], result.block
    # Each item says where it comes from: knowledge, or a past conversation and its date.
    lines = [ln for ln in result.block.splitlines() if ln.startswith("- ")]
    assert len(lines) == len(result.loaded)
    assert all(_ITEM.match(ln) for ln in lines), result.block


async def test_the_last_line_says_what_was_left_out_and_how_to_fetch_it(demo: Brain) -> None:
    bridge = Bridge(demo)
    result = await bridge.enrich(MESSAGES[0], "brain-demo")
    await bridge.drain()

    assert result.block is not None
    considered = len(result.ranked)
    left = considered - len(result.loaded)
    assert left > 0, "the sample holds more matches than the block needs"
    last = result.block.splitlines()[-1]
    assert last == (
        f"_{left} more match{'es' * (left != 1)} left out: use the `search` tool or"
        f' `brain recall "{result.queries[0]}"`._'
    )
