"""What an injected block is worth: its items in order, their token cost, and the
evidence they hold (pure functions, no brain).

A block's item lines start with "- **name**" (`bridge.block.render_item`); an item's
cost is where its line ends, counted from the top of the block with
`block.estimate_tokens`, so "recall at 500 tokens" is what a model reading the block
from the top has seen after 500 tokens.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from brainbridge.bridge.block import estimate_tokens

CUTOFFS = (250, 500, 1000, 1500)
ITEM_START = "- **"


def item_ends(text: str) -> list[int]:
    """Tokens from the top of `text` to the end of each item line, in block order."""
    ends, pos = [], 0
    for line in text.splitlines(keepends=True):
        pos += len(line)
        if line.startswith(ITEM_START):
            ends.append(estimate_tokens(text[:pos].rstrip("\n")))
    return ends


@dataclass(frozen=True)
class Scored:
    """One block as scored: tokens, and per item in order its end and what it holds."""

    tokens: int  # 0 when nothing was injected
    ends: tuple[int, ...]
    holds: tuple[frozenset[str], ...]  # the evidence each item holds
    evidence: frozenset[str]
    category: int = 0
    names: tuple[str, ...] = ()  # the items, in block order
    question: str = ""

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready record, for reading misses one by one."""
        return {
            "question": self.question,
            "category": self.category,
            "evidence": sorted(self.evidence),
            "tokens": self.tokens,
            "recall": self.recall(),
            "items": [
                {"name": n, "end": e, "holds": sorted(h)}
                for n, e, h in zip(self.names, self.ends, self.holds, strict=True)
            ],
        }

    @property
    def items(self) -> int:
        return len(self.ends)

    def recall(self, limit: int | None = None) -> float:
        """Share of the evidence held by items that end within `limit` tokens (all if None)."""
        if not self.evidence:
            return 0.0
        got: set[str] = set()
        for end, held in zip(self.ends, self.holds, strict=True):
            if limit is None or end <= limit:
                got |= held
        return len(got & self.evidence) / len(self.evidence)

    @property
    def first_holds(self) -> bool:
        return bool(self.holds) and bool(self.holds[0])

    @property
    def useful(self) -> int:
        return sum(bool(h) for h in self.holds)


def score_block(
    text: str | None,
    loaded: Sequence[str],
    held: dict[str, frozenset[str]] | None,
    evidence: Iterable[str],
    category: int = 0,
    question: str = "",
) -> Scored:
    """Score a block whose items are `loaded` (block order); `held[name]` is the evidence
    an item can hold (missing names hold none).

    Raises:
        ValueError: the block's item lines do not match `loaded`.
    """
    evidence = frozenset(evidence)
    if not text or not loaded:
        return Scored(0, (), (), evidence, category, (), question)
    ends = item_ends(text)
    if len(ends) != len(loaded):
        raise ValueError(f"{len(ends)} item lines in the block, {len(loaded)} names loaded")
    holds = tuple((held or {}).get(name, frozenset()) & evidence for name in loaded)
    return Scored(
        estimate_tokens(text), tuple(ends), holds, evidence, category, tuple(loaded), question
    )


def _mean(xs: Sequence[float]) -> float:
    return statistics.fmean(xs) if xs else 0.0


def summarise(blocks: Sequence[Scored]) -> dict[str, float]:
    """Recall (all and by category), tokens, items, precision, first item, no evidence,
    recall at each cut-off; shares over all blocks unless the name says "non-empty"."""
    shown = [b for b in blocks if b.items]
    items = sum(b.items for b in blocks)
    out = {
        "n": float(len(blocks)),
        "injected": len(shown) / len(blocks) if blocks else 0.0,
        "recall": _mean([b.recall() for b in blocks]),
        "tokens": _mean([b.tokens for b in shown]),
        "items": _mean([b.items for b in shown]),
        "precision": sum(b.useful for b in blocks) / items if items else 0.0,
        "first": _mean([b.first_holds for b in blocks]),
        "first_nonempty": _mean([b.first_holds for b in shown]),
        "no_evidence": _mean([not b.useful for b in blocks]),
    }
    for cat in (1, 2, 3, 4):
        out[f"cat{cat}"] = _mean([b.recall() for b in blocks if b.category == cat])
    for cut in CUTOFFS:
        out[f"at{cut}"] = _mean([b.recall(cut) for b in blocks])
    return out
