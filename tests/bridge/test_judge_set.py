"""The local judge on the labelled set (benchmarks/data/judge_set.yaml), over a real brain.

Thresholds: measured when the set was last tuned at 0.99 dev, 0.88 held-out and 0.94
fresh (a split written after the other two had been read). The floors sit about two standard errors below (n ~ 67 per split, SE ~ 0.04):
losing four or five held-out messages to a rule change fails this test, one does not.
"""

from __future__ import annotations

from collections import Counter

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.model import Judgment, Session
from bridge.judge_set import Item, load

DEV_FLOOR = 0.90
HELDOUT_FLOOR = 0.80
# 36 messages written after dev and heldout had been read (0.94 when first scored).
FRESH_FLOOR = 0.80


async def _judge_all(brain: Brain) -> list[tuple[Item, Judgment]]:
    _, items = load()
    bridge = Bridge(brain)
    out = []
    for i, item in enumerate(items):
        result = await bridge.enrich(item.text, Session(f"judge-{i}", summary=item.summary))
        assert result.source in ("local", "short_circuit"), result.reasons
        out.append((item, result.judgment))
    await bridge.drain()
    return out


def _accuracy(rows: list[tuple[Item, Judgment]], split: str) -> float:
    chosen = [(item.label, got) for item, got in rows if item.split == split]
    return sum(label == got for label, got in chosen) / len(chosen)


def test_the_set_is_big_balanced_and_split() -> None:
    _, items = load()
    labels = Counter(i.label for i in items)
    assert len(items) >= 120
    assert labels[Judgment.ENRICH] >= 40 and labels[Judgment.STEP_BACK] >= 25
    assert labels[Judgment.PASS_THROUGH] >= 45
    assert {i.split for i in items} == {"dev", "heldout", "fresh"}
    assert len({i.text for i in items}) == len(items), "duplicate messages"
    for label in Judgment:
        splits = Counter(i.split for i in items if i.label is label)
        assert abs(splits["dev"] - splits["heldout"]) <= 2, (label, splits)
        assert splits["fresh"] >= 8, (label, splits)


async def test_local_judge_accuracy_on_every_split(life: Brain) -> None:
    rows = await _judge_all(life)
    misses = [
        f"{item.split} {item.label}->{got}: {item.text}" for item, got in rows if got != item.label
    ]
    assert _accuracy(rows, "dev") >= DEV_FLOOR, "\n".join(misses)
    assert _accuracy(rows, "heldout") >= HELDOUT_FLOOR, "\n".join(misses)
    assert _accuracy(rows, "fresh") >= FRESH_FLOOR, "\n".join(misses)


async def test_explicit_brain_requests_are_never_taken_for_small_talk(life: Brain) -> None:
    """The costly confusions: loading context into small talk, or answering a request to
    search the brain with ordinary chat."""
    rows = await _judge_all(life)
    small_talk_stepped_back = [
        i.text for i, got in rows if i.label is Judgment.PASS_THROUGH and got is Judgment.STEP_BACK
    ]
    assert small_talk_stepped_back == []
    step_back = [(i, got) for i, got in rows if i.label is Judgment.STEP_BACK]
    recall = sum(got is Judgment.STEP_BACK for _, got in step_back) / len(step_back)
    assert recall >= 0.8
