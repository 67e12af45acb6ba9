"""Block quality (#32): what the injected "## Brain Context" block holds, per token.

Per split (tuned: LoCoMo conversations 1-3, scenario dev, the unrelated dev set;
untouched: LoCoMo 4-5, scenario fresh, the unrelated test set) and per embedder
(MiniLM, the default install, and none, the hooks' cold path):

- LoCoMo, each conversation ingested once through `observe_now` (as the bridge suite
  does), each question of categories 1-4 enriched by the local judge: evidence recall,
  tokens, items, precision, first item, recall at token cut-offs, blocks with no
  evidence; beside plain BM25 on the question filling a block to the same tokens as the
  bridge's block, and to the full 1500-token budget.
- First-person scenarios: first item right, tokens, items, right fact in the block.
- Messages unrelated to any brain: how often a block is injected, and its tokens.
- The first block of `brain demo`, and how many of its items come from the board session.

Tuning: PYTHONPATH=src python -m benchmarks.bench_block --split tuned [--embedder none]
Full (both splits, writes docs): python -m benchmarks --only block
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import locomo_data, scenarios
from benchmarks.bench_bridge import _ingest
from benchmarks.bench_locomo import SPLITS as LOCOMO_SPLITS
from benchmarks.block_metrics import CUTOFFS, ITEM_START, Scored, score_block, summarise
from benchmarks.vector_cache import CachingEmbedder
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.bridge.block import Block, BlockItem, QueryResults, estimate_tokens, format_block
from brainbridge.cli.demo import MESSAGES as DEMO_MESSAGES
from brainbridge.cli.sample import load_sample, read_sample
from brainbridge.embed import load_embedder
from brainbridge.model import CHAT_EXCHANGE, Judgment, Session
from brainbridge.ports import Embedder

DATA = Path(__file__).resolve().parent / "data"
BUDGET = 1500
TUNED, UNTOUCHED = "tuned", "untouched"
TITLES = {TUNED: "tuned", UNTOUCHED: "untouched (scored once)"}
_LOCOMO = list(LOCOMO_SPLITS.values())
SPLITS: dict[str, dict[str, Any]] = {
    TUNED: {"locomo": _LOCOMO[0], "scenarios": "dev", "unrelated": "unrelated_dev.txt"},
    UNTOUCHED: {"locomo": _LOCOMO[1], "scenarios": "fresh", "unrelated": "unrelated_test.txt"},
}
PATHS = ("bridge", "bm25_same", "bm25_full")
PATH_TITLES = {
    "bridge": "bridge",
    "bm25_same": "BM25, same tokens",
    "bm25_full": f"BM25, {BUDGET} tokens",
}


def unrelated(split: str) -> list[str]:
    """The split's unrelated messages (none when its file is absent)."""
    path = DATA / SPLITS[split]["unrelated"]
    if not path.exists():
        return []
    lines = (line.strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


@dataclass
class Injection:
    """What unrelated messages injected on one brain."""

    brain: str
    blocks: int = 0
    tokens: list[int] = field(default_factory=list)  # per message, 0 when nothing


async def _unrelated(bridge: Bridge, label: str, messages: Sequence[str]) -> Injection:
    out = Injection(label)
    for message in messages:
        result = await bridge.enrich(message, None)
        tokens = estimate_tokens(result.block) if result.block else 0
        out.tokens.append(tokens)
        if tokens:
            out.blocks += 1
    return out


# -- LoCoMo -----------------------------------------------------------------------


def _bm25_block(brain: Brain, question: str, budget: int) -> Block | None:
    """Plain BM25 over exchanges on the question, in the bridge's block under `budget`."""
    store = brain.searcher.store
    ids = [eid for eid, _ in store.bm25(question, 40, entity_types=(CHAT_EXCHANGE,))]
    ents = store.get_entities(ids)
    items = tuple(
        BlockItem(ents[i].name, ents[i].type, ents[i].description, ents[i].created_at[:10])
        for i in ids
        if i in ents
    )
    return format_block([QueryResults(question, items)], budget) if items else None


def _scored(block: Block | None, held: dict[str, frozenset[str]], q: Any) -> Scored:
    text, loaded = (block.text, block.loaded) if block else (None, ())
    return score_block(text, loaded, held, q.evidence, q.category)


async def locomo_brain(
    folder: Path, conversation: dict[str, Any], embedder: Embedder | None, messages: list[str]
) -> tuple[dict[str, list[Scored]], Injection]:
    """One conversation ingested once; every question and unrelated message enriched."""
    out: dict[str, list[Scored]] = {p: [] for p in PATHS}
    brain = await Brain.open(folder, embedder=embedder, background_indexing=False)
    try:
        turns_of = await _ingest(brain, conversation)
        await brain.index_vectors()
        held = {name: frozenset(ids) for name, ids in turns_of.items()}
        bridge = Bridge(brain)
        for q in locomo_data.questions(conversation):
            result = await bridge.enrich(q.text, None)
            block = score_block(result.block, result.loaded, held, q.evidence, q.category)
            out["bridge"].append(block)
            same = (
                await brain._run(_bm25_block, brain, q.text, block.tokens) if block.tokens else None
            )
            out["bm25_same"].append(_scored(same, held, q))
            full = await brain._run(_bm25_block, brain, q.text, BUDGET)
            out["bm25_full"].append(_scored(full, held, q))
        injected = await _unrelated(bridge, f"LoCoMo {conversation['sample_id']}", messages)
        await bridge.drain()
    finally:
        await brain.close()
    return out, injected


# -- first-person scenarios ---------------------------------------------------------


@dataclass(frozen=True)
class ProbeBlock:
    tokens: int
    items: int
    first_right: bool
    fact_right: bool


def _item_lines(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.startswith(ITEM_START)]


async def scenario_brain(
    split: str, folder: Path, embedder: Embedder | None, messages: list[str]
) -> tuple[list[ProbeBlock], Injection]:
    """The split's sessions observed into one brain; its enrich probes and the unrelated
    messages enriched."""
    turns, probes = scenarios.load(split)
    brain = await Brain.open(folder, embedder=embedder, background_indexing=False)
    try:
        bridge = Bridge(brain)
        await scenarios.observe_all(bridge, turns)
        await brain.index_vectors()
        out = []
        for i, probe in enumerate(probes):
            if probe.judgment is not Judgment.ENRICH:
                continue
            result = await bridge.enrich(probe.message, Session(f"probe-{split}-{i}"))
            block = result.block if result.judgment is Judgment.ENRICH and result.block else ""
            lines = _item_lines(block)
            first = lines[0].lower() if lines else ""
            out.append(
                ProbeBlock(
                    estimate_tokens(block) if block else 0,
                    len(lines),
                    bool(first) and all(e.lower() in first for e in probe.expect),
                    bool(scenarios.score(probe, result.judgment, block).fact_ok),
                )
            )
        injected = await _unrelated(bridge, f"scenarios {split}", messages)
        await bridge.drain()
    finally:
        await brain.close()
    return out, injected


# -- the demo brain -------------------------------------------------------------------


@dataclass
class Demo:
    block: str
    items: int
    tokens: int
    board_items: int
    board_session: str
    injections: dict[str, Injection] = field(default_factory=dict)


def _board_session() -> str:
    """The sample's board-update session: unrelated to the demo's first message."""
    for session in read_sample("chats.yaml")["sessions"]:
        if "board" in session["exchanges"][0]["user"].lower():
            return str(session["id"])
    return ""


async def demo_brain(folder: Path, embedder: Embedder | None, sets: dict[str, list[str]]) -> Demo:
    """`brain demo`'s first message on the sample brain, and the unrelated messages."""
    brain = await Brain.open(folder, embedder=embedder, background_indexing=False)
    try:
        await load_sample(brain)
        await brain.index_vectors()
        bridge = Bridge(brain)
        result = await bridge.enrich(DEMO_MESSAGES[0], "brain-demo")
        board = _board_session()
        block = result.block or ""
        demo = Demo(
            block,
            len(result.loaded),
            estimate_tokens(block) if block else 0,
            sum(n.startswith(f"{board[:8]}:ex:") for n in result.loaded),
            board[:8],
        )
        for split, messages in sets.items():
            if messages:
                demo.injections[split] = await _unrelated(bridge, "demo sample", messages)
        await bridge.drain()
    finally:
        await brain.close()
    return demo


# -- one split, one embedder ----------------------------------------------------------


@dataclass
class Result:
    split: str
    embedder: str
    locomo: dict[str, list[Scored]] = field(default_factory=dict)
    conversations: int = 0
    probes: list[ProbeBlock] = field(default_factory=list)
    injections: list[Injection] = field(default_factory=list)
    unrelated_n: int = 0
    seconds: float = 0.0


async def measure(
    split: str, label: str, embedder: Embedder | None, root: Path, quick: bool
) -> Result:
    """Every LoCoMo brain and the scenario brain of `split`, with `embedder`."""
    started = time.perf_counter()
    res = Result(split, label)
    messages = unrelated(split)
    res.unrelated_n = len(messages)
    path = locomo_data.locomo_path()
    if path.exists():
        data = locomo_data.load_conversations(path)
        chosen = SPLITS[split]["locomo"][: 1 if quick else None]
        for c in chosen:
            got, inj = await locomo_brain(root / f"locomo-{label}-{c}", data[c], embedder, messages)
            for key, values in got.items():
                res.locomo.setdefault(key, []).extend(values)
            res.injections.append(inj)
            res.conversations += 1
    res.probes, inj = await scenario_brain(
        SPLITS[split]["scenarios"], root / f"scenarios-{split}-{label}", embedder, messages
    )
    res.injections.append(inj)
    res.seconds = time.perf_counter() - started
    return res


def embedders(which: str) -> dict[str, Embedder | None]:
    """{label: embedder} for "minilm", "none" or "both" (MiniLM cached on disk)."""
    out: dict[str, Embedder | None] = {}
    if which in ("minilm", "both"):
        inner = load_embedder("auto")
        if inner is not None:
            out["minilm"] = CachingEmbedder(inner, "block")
    if which in ("none", "both"):
        out["none"] = None
    return out


# -- report -----------------------------------------------------------------------------


def _f(x: float) -> str:
    return f"{x:.3f}"


LOCOMO_ROWS = (
    ("recall", "evidence recall in block"),
    ("cat1", "· cat 1 (multi-hop)"),
    ("cat2", "· cat 2 (temporal)"),
    ("cat3", "· cat 3 (open domain)"),
    ("cat4", "· cat 4 (single hop)"),
    ("tokens", "mean block tokens (non-empty)"),
    ("items", "mean items (non-empty)"),
    ("precision", "precision (items holding evidence)"),
    ("first", "first item holds evidence (empty = miss)"),
    ("first_nonempty", "first item holds evidence (non-empty blocks)"),
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
            f"| {TITLES[r.split]} ({SPLITS[r.split]['scenarios']}) | {r.embedder} | {len(p)}"
            f" | {_f(statistics.fmean(b.first_right for b in p))}"
            f" | {_f(statistics.fmean(b.fact_right for b in p))}"
            f" | {statistics.fmean(b.tokens for b in shown) if shown else 0:.0f}"
            f" | {statistics.fmean(b.items for b in shown) if shown else 0:.1f}"
            f" | {len(p) - len(shown)} |"
        )
    return lines


def injection_rows(results: Sequence[Result], demos: dict[str, Demo]) -> list[str]:
    lines = [
        "| split | embedder | brain | messages | inject a block | mean tokens per message |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        extra = (
            [demos[r.embedder].injections[r.split]]
            if r.embedder in demos and r.split in (demos[r.embedder].injections)
            else []
        )
        for inj in [*r.injections, *extra]:
            n = len(inj.tokens)
            if not n:
                continue
            lines.append(
                f"| {TITLES[r.split]} | {r.embedder} | {inj.brain} | {n}"
                f" | {inj.blocks / n:.1%} | {statistics.fmean(inj.tokens):.0f} |"
            )
        pooled = [t for inj in [*r.injections, *extra] for t in inj.tokens]
        if pooled:
            lines.append(
                f"| {TITLES[r.split]} | {r.embedder} | **all brains** | {len(pooled)}"
                f" | **{sum(t > 0 for t in pooled) / len(pooled):.1%}**"
                f" | {statistics.fmean(pooled):.0f} |"
            )
    return lines


def demo_section(demos: dict[str, Demo]) -> list[str]:
    lines: list[str] = []
    for label, d in demos.items():
        lines += [
            "",
            f"`brain demo`, first message “{DEMO_MESSAGES[0]}” (embedder {label}):"
            f" {d.items} items, {d.tokens} tokens, {d.board_items} of them from the unrelated"
            f" board-update session ({d.board_session}).",
            "",
            "```text",
            d.block or "(no block)",
            "```",
        ]
    return lines


def headline(results: Sequence[Result], demos: dict[str, Demo]) -> list[str]:
    """One line per split and embedder against the targets in DESIGN.md."""
    lines = [
        "| split | embedder | first item holds evidence (≥ 0.55) | recall in block"
        " | mean tokens | recall within 500 / 1000 tokens | unrelated messages injecting (≤ 2 %) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        s = summarise(r.locomo.get("bridge", []))
        demo = demos.get(r.embedder)
        extra = [demo.injections[r.split]] if demo and r.split in demo.injections else []
        pooled = [t for inj in [*r.injections, *extra] for t in inj.tokens]
        inject = f"{sum(t > 0 for t in pooled) / len(pooled):.1%}" if pooled else "no set"
        lines.append(
            f"| {TITLES[r.split]} | {r.embedder} | {_f(s['first'])} | {_f(s['recall'])}"
            f" | {s['tokens']:.0f} | {_f(s['at500'])} / {_f(s['at1000'])} | {inject} |"
        )
    return lines


def report(results: Sequence[Result], demos: dict[str, Demo], seconds: float) -> str:
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
        " categories 1-4 enriched by the local judge, budget 1500; an item holds evidence"
        " when its exchange holds one of the question's evidence turns. Recall within N"
        " tokens: evidence held by items whose line ends within N tokens of the block's top"
        " (`estimate_tokens`). BM25: plain BM25 on the question over exchanges, in the same"
        " block format, filled to the bridge block's tokens for that question (none when the"
        " bridge injected nothing) and to the full budget.",
        "",
        *headline(results, demos),
    ]
    if not any(r.conversations for r in results):
        lines += ["", f"LoCoMo skipped: {locomo_data.locomo_path()} not found (set BRAIN_LOCOMO)."]
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
        "Share of messages that inject any block (step-back notes included), and tokens"
        " injected per message (0 when none).",
        "",
        *injection_rows(results, demos),
    ]
    if demos:
        lines += ["", "### The first block of `brain demo`", *demo_section(demos)]
    times = ", ".join(f"{TITLES[r.split]}/{r.embedder} {r.seconds:.0f} s" for r in results)
    lines += ["", f"_Wall time {seconds:.0f} s ({times})._"]
    return "\n".join(lines)


async def _run(splits: Sequence[str], which: str, quick: bool, demo: bool) -> str:
    started = time.perf_counter()
    results: list[Result] = []
    demos: dict[str, Demo] = {}
    with tempfile.TemporaryDirectory(prefix="bench-block-") as tmp:
        root = Path(tmp)
        for label, embedder in embedders(which).items():
            for split in splits:
                results.append(await measure(split, label, embedder, root, quick))
            if demo:
                sets = {s: unrelated(s) for s in splits}
                demos[label] = await demo_brain(root / f"demo-{label}", embedder, sets)
            if isinstance(embedder, CachingEmbedder):
                embedder.save()
    return report(results, demos, time.perf_counter() - started)


def run(quick: bool = False) -> str:
    """Both splits side by side, MiniLM and none (quick: none, one conversation per
    split), and the demo's first block."""
    return asyncio.run(_run((TUNED, UNTOUCHED), "none" if quick else "both", quick, demo=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_block", description=__doc__)
    parser.add_argument("--split", choices=(TUNED, UNTOUCHED, "both"), default=TUNED)
    parser.add_argument("--embedder", choices=("minilm", "none", "both"), default="both")
    parser.add_argument("--quick", action="store_true", help="first conversation of the split only")
    parser.add_argument("--demo", action="store_true", help="also the demo brain's first block")
    args = parser.parse_args(argv)
    splits = (TUNED, UNTOUCHED) if args.split == "both" else (args.split,)
    print(asyncio.run(_run(splits, args.embedder, args.quick, args.demo)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
