"""What an injected block is worth: its items in order, their token cost, and the
evidence they hold (pure functions, no brain).

A block's item lines start with "- **name**" (`bridge.block.render_item`); a line is one
entry, or a passage of several exchanges (`bridge.block.render_passage`). An entry's
cost is where its text ends, counted from the top of the block with
`block.estimate_tokens`, so "recall at 500 tokens" is what a model reading the block
from the top has seen after 500 tokens.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from brainbridge.bridge.block import PASSAGE_PART, estimate_tokens

CUTOFFS = (250, 500, 1000, 1500)
ITEM_START = "- **"


def item_ends(text: str) -> list[int]:
    """Tokens from the top of `text` to the end of each item line, in block order."""
    return [ends[-1] for ends in entry_ends(text)]


def entry_ends(text: str) -> list[list[int]]:
    """Per item line, tokens from the top of `text` to the end of each entry in it: one
    entry, or each exchange of a passage (`bridge.block.render_passage`)."""
    out, pos = [], 0
    for line in text.splitlines(keepends=True):
        if line.startswith(ITEM_START):
            cuts = [m.start() for m in PASSAGE_PART.finditer(line)]
            body = line.rstrip("\n")
            out.append([estimate_tokens(text[: pos + c]) for c in [*cuts, len(body)]])
        pos += len(line)
    return out


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
    # Per item line, the index of its first entry and how many it holds (a passage of
    # consecutive exchanges is one item of several entries); `ends`, `holds` and `names`
    # are per entry.
    spans: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready record, for reading misses one by one."""
        return {
            "question": self.question,
            "category": self.category,
            "evidence": sorted(self.evidence),
            "tokens": self.tokens,
            "recall": self.recall(),
            "items": [
                {"name": n, "end": e, "holds": sorted(h), "item": k}
                for (n, e, h), k in zip(
                    zip(self.names, self.ends, self.holds, strict=True),
                    self._item_of(),
                    strict=True,
                )
            ],
        }

    def _item_of(self) -> list[int]:
        return [k for k, (_, size) in enumerate(self.spans) for _ in range(size)]

    def _item_holds(self) -> list[bool]:
        """Whether each item (a passage counted once) holds evidence."""
        return [any(self.holds[start : start + size]) for start, size in self.spans]

    @property
    def items(self) -> int:
        return len(self.spans)

    def recall(self, limit: int | None = None) -> float:
        """Share of the evidence held by entries that end within `limit` tokens (all if None)."""
        if not self.evidence:
            return 0.0
        got: set[str] = set()
        for end, held in zip(self.ends, self.holds, strict=True):
            if limit is None or end <= limit:
                got |= held
        return len(got & self.evidence) / len(self.evidence)

    @property
    def first_holds(self) -> bool:
        """The first item holds evidence (any exchange of a passage)."""
        return any(self._item_holds()[:1])

    @property
    def first_entry(self) -> bool:
        """The first entry read holds evidence: a passage's best exchange, on its own."""
        return bool(self.holds) and bool(self.holds[0])

    @property
    def useful(self) -> int:
        return sum(self._item_holds())


def score_block(
    text: str | None,
    loaded: Sequence[str],
    held: dict[str, frozenset[str]] | None,
    evidence: Iterable[str],
    category: int = 0,
    question: str = "",
    items: Sequence[Sequence[str]] = (),
) -> Scored:
    """Score a block whose entries are `loaded` (block order), grouped into its item lines
    by `items` (a passage of consecutive exchanges is one item; empty: one entry each);
    `held[name]` is the evidence an entry can hold (missing names hold none). Recall
    within N tokens counts each entry where its text ends, a passage's too.

    Raises:
        ValueError: the block's item lines do not match `loaded`.
    """
    evidence = frozenset(evidence)
    if not text or not loaded:
        return Scored(0, (), (), evidence, category, (), question)
    lines = entry_ends(text)
    groups = [tuple(g) for g in items] or [(name,) for name in loaded]
    if [len(e) for e in lines] != [len(g) for g in groups] or [
        n for g in groups for n in g
    ] != list(loaded):
        raise ValueError(
            f"entries per item line {[len(e) for e in lines]}, per item loaded"
            f" {[len(g) for g in groups]}"
        )
    holds = tuple((held or {}).get(name, frozenset()) & evidence for name in loaded)
    spans, start = [], 0
    for g in groups:
        spans.append((start, len(g)))
        start += len(g)
    return Scored(
        estimate_tokens(text),
        tuple(e for ends in lines for e in ends),
        holds,
        evidence,
        category,
        tuple(loaded),
        question,
        tuple(spans),
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
        "first_entry": _mean([b.first_entry for b in blocks]),
        "first_entry_nonempty": _mean([b.first_entry for b in shown]),
        "no_evidence": _mean([not b.useful for b in blocks]),
    }
    for cat in (1, 2, 3, 4):
        out[f"cat{cat}"] = _mean([b.recall() for b in blocks if b.category == cat])
    for cut in CUTOFFS:
        out[f"at{cut}"] = _mean([b.recall(cut) for b in blocks])
    return out
