"""The block suite's Markdown: what was measured, per split and embedder, in tables."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from benchmarks.block_metrics import CUTOFFS, Scored, summarise

BUDGET = 1500
TUNED, UNTOUCHED = "tuned", "untouched"
TITLES = {TUNED: "tuned", UNTOUCHED: "untouched (scored once)"}

PATHS = ("bridge", "bm25_same", "bm25_full")
PATH_TITLES = {
    "bridge": "bridge",
    "bm25_same": "BM25, same tokens",
    "bm25_full": f"BM25, {BUDGET} tokens",
}


@dataclass
class Injection:
    """What unrelated messages injected on one brain."""

    brain: str
    split: str  # the split the messages belong to
    embedder: str
    tokens: list[int] = field(default_factory=list)  # per message, 0 when nothing

    @property
    def blocks(self) -> int:
        return sum(t > 0 for t in self.tokens)


@dataclass(frozen=True)
class ProbeBlock:
    """One scenario probe's block."""

    tokens: int
    items: int
    first_right: bool
    fact_right: bool


@dataclass
class Demo:
    """The demo's first block on the sample brain, and the unrelated messages there."""

    message: str
    block: str
    items: int
    tokens: int
    board_items: int
    board_session: str
    entries: int = 0  # what the items hold: a passage of consecutive exchanges is several
    injections: list[Injection] = field(default_factory=list)


@dataclass
class Result:
    """Everything measured for one split with one embedder."""

    split: str
    embedder: str
    scenario_split: str = ""
    locomo: dict[str, list[Scored]] = field(default_factory=dict)
    conversations: int = 0
    probes: list[ProbeBlock] = field(default_factory=list)
    injections: list[Injection] = field(default_factory=list)
    seconds: float = 0.0


def _f(x: float) -> str:
    return f"{x:.3f}"


LOCOMO_ROWS = (
    ("recall", "evidence recall in block"),
    ("cat1", "· cat 1"),
    ("cat2", "· cat 2"),
    ("cat3", "· cat 3"),
    ("cat4", "· cat 4"),
    ("tokens", "mean block tokens (non-empty)"),
    ("items", "mean items (non-empty)"),
    ("precision", "precision (items holding evidence)"),
    ("first", "first item holds evidence (empty = miss)"),
    ("first_nonempty", "first item holds evidence (non-empty blocks)"),
    ("first_entry_nonempty", "first entry read holds evidence (a passage's first exchange)"),
    *((f"at{c}", f"recall within first {c} tokens") for c in CUTOFFS),
    ("no_evidence", "blocks with no evidence (empty included)"),
    ("injected", "questions with a block"),
)


def locomo_table(results: Sequence[Result]) -> list[str]:
    cols = [(r, p) for r in results for p in PATHS]
    head = " | ".join(f"{TITLES[r.split]}: {PATH_TITLES[p]}" for r, p in cols)
    lines = [f"| metric | {head} |", "|---" * (len(cols) + 1) + "|"]
    sums = {(r.split, p): summarise(r.locomo.get(p, [])) for r, p in cols}
    for key, title in LOCOMO_ROWS:
        cells = []
        for r, p in cols:
            v = sums[(r.split, p)][key]
            cells.append(f"{v:.0f}" if key == "tokens" else f"{v:.1f}" if key == "items" else _f(v))
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    ns = ", ".join(
        f"{TITLES[r.split]}: {r.conversations} conversation(s), {len(r.locomo.get('bridge', []))}"
        " questions"
        for r in results
    )
    return [*lines, "", ns + "."]


def scenario_rows(results: Sequence[Result]) -> list[str]:
    lines = [
        "| split | embedder | enrich probes | first item right | right fact in block"
        " | mean tokens (non-empty) | mean items (non-empty) | no block |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        p = r.probes
        shown = [b for b in p if b.items]
        lines.append(
            f"| {TITLES[r.split]} ({r.scenario_split}) | {r.embedder} | {len(p)}"
            f" | {_f(statistics.fmean(b.first_right for b in p))}"
            f" | {_f(statistics.fmean(b.fact_right for b in p))}"
            f" | {statistics.fmean(b.tokens for b in shown) if shown else 0:.0f}"
            f" | {statistics.fmean(b.items for b in shown) if shown else 0:.1f}"
            f" | {len(p) - len(shown)} |"
        )
    return lines


def _injections(results: Sequence[Result], demos: dict[str, Demo]) -> list[Injection]:
    return [i for r in results for i in r.injections] + [
        i for d in demos.values() for i in d.injections
    ]


def _share(tokens: list[int]) -> str:
    return f"{sum(t > 0 for t in tokens) / len(tokens):.1%}" if tokens else "no set"


def injection_rows(results: Sequence[Result], demos: dict[str, Demo]) -> list[str]:
    lines = [
        "| messages of | embedder | brain | messages | inject a block | mean tokens per message |",
        "|---|---|---|---|---|---|",
    ]
    found = _injections(results, demos)
    groups = dict.fromkeys((i.split, i.embedder) for i in found)
    for split, embedder in groups:
        chosen = [i for i in found if (i.split, i.embedder) == (split, embedder)]
        for inj in chosen:
            lines.append(
                f"| {TITLES[split]} | {embedder} | {inj.brain} | {len(inj.tokens)}"
                f" | {_share(inj.tokens)} | {statistics.fmean(inj.tokens):.0f} |"
            )
        pooled = [t for inj in chosen for t in inj.tokens]
        lines.append(
            f"| {TITLES[split]} | {embedder} | **all {len(chosen)} brains** | {len(pooled)}"
            f" | **{_share(pooled)}** | {statistics.fmean(pooled):.0f} |"
        )
    return lines


def demo_section(demos: dict[str, Demo]) -> list[str]:
    lines: list[str] = []
    shown: dict[str, str] = {}
    for label, d in demos.items():
        lines += [
            "",
            f"`brain demo`, first message “{d.message}” (embedder {label}):"
            f" {d.items} items ({d.entries or d.items} entries), {d.tokens} tokens,"
            f" {d.board_items} entries from the unrelated board-update session"
            f" ({d.board_session}).",
        ]
        if d.block in shown:
            lines[-1] += f" The same block as with {shown[d.block]}."
            continue
        shown[d.block] = label
        lines += ["", "```text", d.block or "(no block)", "```"]
    return lines


def headline(results: Sequence[Result], demos: dict[str, Demo]) -> list[str]:
    """One line per split and embedder against the targets in DESIGN.md."""
    lines = [
        "| split | embedder | first item holds evidence (a passage as one; ≥ 0.55) | first"
        " entry read holds evidence (as before passages) | recall in block | mean tokens"
        " | recall within 500 / 1000 tokens | unrelated messages injecting (≤ 2 %) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    found = _injections(results, demos)
    for r in results:
        s = summarise(r.locomo.get("bridge", []))
        pooled = [
            t for i in found if (i.split, i.embedder) == (r.split, r.embedder) for t in i.tokens
        ]
        inject = _share(pooled)
        lines.append(
            f"| {TITLES[r.split]} | {r.embedder} | {_f(s['first'])}"
            f" | {_f(s['first_entry'])} | {_f(s['recall'])}"
            f" | {s['tokens']:.0f} | {_f(s['at500'])} / {_f(s['at1000'])} | {inject} |"
        )
    return lines


def report(
    results: Sequence[Result],
    demos: dict[str, Demo],
    seconds: float,
    locomo: str = "",
    absent: Sequence[str] = (),
) -> str:
    """The suite's Markdown; `locomo` names the LoCoMo file when it was not found,
    `absent` the splits without a set of unrelated messages."""
    by_embedder: dict[str, list[Result]] = {}
    for r in results:
        by_embedder.setdefault(r.embedder, []).append(r)
    lines = [
        "## Block quality (#32)",
        "",
        "What the injected block holds, per token. Tuned = LoCoMo conversations 1-3, scenario"
        " dev, unrelated dev set (`benchmarks/data/unrelated_dev.txt`); untouched (scored"
        " once) = LoCoMo 4-5, scenario fresh, unrelated test set. LoCoMo: each conversation"
        " ingested once through `observe_now` (turn pairs as user/AI), each question of"
        " categories 1-4 enriched by the local judge, budget 1500. An item is one"
        " entry, or a passage: consecutive exchanges of one conversation that all made the"
        " block, shown on one line, the best of them first; it holds evidence when one of"
        " its exchanges holds one of the question's evidence turns. The first entry read is"
        " a passage's best exchange alone: the first item as if every exchange were an item"
        " of its own, as before passages. Recall within N tokens: evidence held by entries"
        " whose text ends within N tokens of the block's top (`estimate_tokens`). BM25's"
        " lines are single exchanges: compare its first item with the bridge's first entry"
        " read; precision counts lines. BM25: plain BM25 on the question over exchanges, in"
        " the same block format, filled to the bridge block's tokens for that question (none"
        " when the bridge injected nothing) and to the full budget.",
        "",
        *headline(results, demos),
    ]
    if not any(r.conversations for r in results):
        lines += ["", f"LoCoMo skipped: {locomo} not found (set BRAIN_LOCOMO)."]
    for label, rs in by_embedder.items():
        if any(r.conversations for r in rs):
            lines += ["", f"### LoCoMo, embedder {label}", "", *locomo_table(rs)]
    lines += [
        "",
        "### First-person scenarios (enrich probes)",
        "",
        "First item right: the block's first item line holds every expected string; right"
        " fact: as in the memory suite (every expected string in the block, no stale line).",
        "",
        *scenario_rows(results),
        "",
        "### Messages unrelated to the brain",
        "",
        "Each set of unrelated messages enriched on every brain built in the run (no"
        " session): share of messages that inject any block (step-back notes included),"
        " and tokens injected per message (0 when none).",
        "",
    ]
    rows = injection_rows(results, demos)
    lines += rows if len(rows) > 2 else ["No unrelated set for these splits."]
    if absent and len(rows) > 2:
        lines += ["", f"No unrelated set for: {', '.join(TITLES[a] for a in absent)}."]
    if demos:
        lines += ["", "### The first block of `brain demo`", *demo_section(demos)]
    times = ", ".join(f"{TITLES[r.split]}/{r.embedder} {r.seconds:.0f} s" for r in results)
    lines += ["", f"_Wall time {seconds:.0f} s ({times})._"]
    return "\n".join(lines)
