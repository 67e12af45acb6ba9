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
[--quick] [--dump FILE] (each tuned block as a JSON line: items, their ends, what they hold)
Full (both splits, writes docs): python -m benchmarks --only block
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks import locomo_data, scenarios
from benchmarks.bench_bridge import _ingest, bm25_block
from benchmarks.bench_locomo import SPLITS as LOCOMO_SPLITS
from benchmarks.block_metrics import ITEM_START, Scored, score_block
from benchmarks.block_report import (
    BUDGET,
    PATHS,
    TUNED,
    UNTOUCHED,
    Demo,
    Injection,
    ProbeBlock,
    Result,
    report,
)
from benchmarks.vector_cache import CachingEmbedder
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.bridge.block import Block, estimate_tokens
from brainbridge.cli.demo import MESSAGES as DEMO_MESSAGES
from brainbridge.cli.sample import load_sample, read_sample
from brainbridge.embed import load_embedder
from brainbridge.model import Judgment, Session
from brainbridge.ports import Embedder

DATA = Path(__file__).resolve().parent / "data"
_LOCOMO = list(LOCOMO_SPLITS.values())
SPLITS: dict[str, dict[str, Any]] = {
    TUNED: {"locomo": _LOCOMO[0], "scenarios": "dev", "unrelated": "unrelated_dev.txt"},
    UNTOUCHED: {"locomo": _LOCOMO[1], "scenarios": "fresh", "unrelated": "unrelated_test.txt"},
}


Sets = dict[str, list[str]]  # unrelated messages by the split they belong to


def _label(embedder: Embedder | None) -> str:
    if embedder is None:
        return "none"
    return "static" if embedder.name.startswith("static") else "minilm"


def unrelated(split: str) -> list[str]:
    """The split's unrelated messages (none when its file is absent)."""
    path = DATA / SPLITS[split]["unrelated"]
    if not path.exists():
        return []
    lines = (line.strip() for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


async def _unrelated(
    bridge: Bridge, brain: str, embedder: str, sets: dict[str, list[str]]
) -> list[Injection]:
    """Each set of unrelated messages enriched on one brain, without a session."""
    out = []
    for split, messages in sets.items():
        got = Injection(brain, split, embedder)
        for message in messages:
            result = await bridge.enrich(message, None)
            got.tokens.append(estimate_tokens(result.block) if result.block else 0)
        if got.tokens:
            out.append(got)
    return out


# -- LoCoMo -----------------------------------------------------------------------


def _scored(block: Block | None, held: dict[str, frozenset[str]], q: Any) -> Scored:
    text, loaded = (block.text, block.loaded) if block else (None, ())
    return score_block(text, loaded, held, q.evidence, q.category, q.text)


async def locomo_brain(
    folder: Path, conversation: dict[str, Any], embedder: Embedder | None, sets: Sets
) -> tuple[dict[str, list[Scored]], list[Injection]]:
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
            block = score_block(
                result.block, result.loaded, held, q.evidence, q.category, q.text, result.items
            )
            out["bridge"].append(block)
            same = (
                await brain._run(bm25_block, brain, q.text, block.tokens) if block.tokens else None
            )
            out["bm25_same"].append(_scored(same, held, q))
            full = await brain._run(bm25_block, brain, q.text, BUDGET)
            out["bm25_full"].append(_scored(full, held, q))
        brain_label = f"LoCoMo {conversation['sample_id']}"
        injected = await _unrelated(bridge, brain_label, _label(embedder), sets)
        await bridge.drain()
    finally:
        await brain.close()
    return out, injected


# -- first-person scenarios ---------------------------------------------------------


def _item_lines(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.startswith(ITEM_START)]


async def scenario_brain(
    split: str, folder: Path, embedder: Embedder | None, sets: Sets
) -> tuple[list[ProbeBlock], list[Injection]]:
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
        injected = await _unrelated(bridge, f"scenarios {split}", _label(embedder), sets)
        await bridge.drain()
    finally:
        await brain.close()
    return out, injected


# -- the demo brain -------------------------------------------------------------------


def _board_session() -> str:
    """The sample's board-update session: unrelated to the demo's first message."""
    for session in read_sample("chats.yaml")["sessions"]:
        if "board" in session["exchanges"][0]["user"].lower():
            return str(session["id"])
    return ""


async def demo_brain(folder: Path, embedder: Embedder | None, sets: Sets) -> Demo:
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
            DEMO_MESSAGES[0],
            block,
            len(result.items or result.loaded),
            estimate_tokens(block) if block else 0,
            sum(n.startswith(f"{board[:8]}:ex:") for n in result.loaded),
            board[:8],
            len(result.loaded),
        )
        demo.injections = await _unrelated(bridge, "demo sample", _label(embedder), sets)
        await bridge.drain()
    finally:
        await brain.close()
    return demo


# -- one split, one embedder ----------------------------------------------------------


async def measure(
    split: str, label: str, embedder: Embedder | None, root: Path, quick: bool, sets: Sets
) -> Result:
    """Every LoCoMo brain and the scenario brain of `split`, with `embedder`; every set of
    unrelated messages in `sets` on each of them."""
    started = time.perf_counter()
    res = Result(split, label, SPLITS[split]["scenarios"])
    path = locomo_data.locomo_path()
    if path.exists():
        data = locomo_data.load_conversations(path)
        chosen = SPLITS[split]["locomo"][: 1 if quick else None]
        for c in chosen:
            got, inj = await locomo_brain(root / f"locomo-{label}-{c}", data[c], embedder, sets)
            for key, values in got.items():
                res.locomo.setdefault(key, []).extend(values)
            res.injections += inj
            res.conversations += 1
    res.probes, inj = await scenario_brain(
        SPLITS[split]["scenarios"], root / f"scenarios-{split}-{label}", embedder, sets
    )
    res.injections += inj
    res.seconds = time.perf_counter() - started
    return res


def embedders(which: str) -> dict[str, Embedder | None]:
    """{label: embedder} for a comma-separated list of "minilm", "static", "none", or
    "both" (minilm,none) or "all" (MiniLM cached on disk)."""
    names = {"both": "minilm,none", "all": "static,minilm,none"}.get(which, which).split(",")
    out: dict[str, Embedder | None] = {}
    for name in names:
        if name == "none":
            out["none"] = None
            continue
        inner = load_embedder("auto" if name == "minilm" else name)
        if inner is not None:
            out[name] = CachingEmbedder(inner, "block") if name == "minilm" else inner
    return out


# -- report -----------------------------------------------------------------------------


def dump(results: Sequence[Result], path: Path) -> int:
    """Write each tuned-split LoCoMo block as a JSON line (the untouched split never:
    its misses are not for reading); returns how many."""
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for r in results:
            if r.split != TUNED:
                continue
            for kind, blocks in r.locomo.items():
                for b in blocks:
                    record = {"embedder": r.embedder, "path": kind, **b.to_dict()}
                    fh.write(json.dumps(record) + "\n")
                    n += 1
    return n


async def _run(
    splits: Sequence[str], which: str, quick: bool, demo: bool, dump_to: Path | None = None
) -> str:
    started = time.perf_counter()
    results: list[Result] = []
    demos: dict[str, Demo] = {}
    with tempfile.TemporaryDirectory(prefix="bench-block-") as tmp:
        root = Path(tmp)
        # Only the chosen splits' messages are read: tuning never sees the test set.
        sets = {s: unrelated(s) for s in splits}
        for label, embedder in embedders(which).items():
            for split in splits:
                results.append(await measure(split, label, embedder, root, quick, sets))
            if demo:
                demos[label] = await demo_brain(root / f"demo-{label}", embedder, sets)
            if isinstance(embedder, CachingEmbedder):
                embedder.save()
    if dump_to is not None:
        print(f"wrote {dump(results, dump_to)} blocks to {dump_to}", file=sys.stderr)
    missing = "" if locomo_data.locomo_path().exists() else str(locomo_data.locomo_path())
    absent = [s for s, messages in sets.items() if not messages]
    return report(results, demos, time.perf_counter() - started, missing, absent)


def run(quick: bool = False) -> str:
    """Both splits side by side, MiniLM and none (quick: none, one conversation per
    split), and the demo's first block."""
    return asyncio.run(_run((TUNED, UNTOUCHED), "none" if quick else "both", quick, demo=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_block", description=__doc__)
    parser.add_argument("--split", choices=(TUNED, UNTOUCHED, "both"), default=TUNED)
    parser.add_argument(
        "--embedder", default="both", help="minilm, static, none (comma-separated), both, all"
    )
    parser.add_argument("--quick", action="store_true", help="first conversation of the split only")
    parser.add_argument("--demo", action="store_true", help="also the demo brain's first block")
    parser.add_argument(
        "--dump", type=Path, metavar="FILE", help="tuned-split blocks, one JSON line each"
    )
    args = parser.parse_args(argv)
    splits = (TUNED, UNTOUCHED) if args.split == "both" else (args.split,)
    started = time.perf_counter()
    print(asyncio.run(_run(splits, args.embedder, args.quick, args.demo, args.dump)))
    print(f"wall time {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
