"""Block quality on the TUNED split: does the injected block earn its tokens?

LoCoMo conversations 1-3 of the development file only (the held-out conversations are
never run here). Each conversation is ingested through `observe_now` as bench_bridge does,
then every question (categories 1-4) is enriched twice: with the judge forced to enrich
(the retrieval half) and with the local judge. Per question: evidence recall in the block,
block tokens, items, precision, whether the first item holds evidence, and recall within
the block's first 500 tokens.

Ingested brains are cached under benchmarks/.cache/block_quality/ (delete to rebuild);
MiniLM vectors through `CachingEmbedder`.

Run: PYTHONPATH=src:. python -m benchmarks.block_quality --convs 0,1,2 --embedder none
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import locomo_data
from benchmarks.bench_bridge import AlwaysEnrich, _ingest
from benchmarks.vector_cache import CACHE_DIR, CachingEmbedder
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge, BridgeConfig
from brainbridge.bridge.block import CHARS_PER_TOKEN, estimate_tokens
from brainbridge.embed import load_embedder

TUNED = (0, 1, 2)  # conversations 1-3; 4-5 are the held-out split
EARLY_TOKENS = 500
BRAINS = CACHE_DIR / "block_quality"
_SOURCES = (
    "bridge/observe.py",
    "bridge/changes.py",
    "bridge/facts.py",
    "bridge/profile.py",
    "store/sqlite/store.py",
    "search/parts.py",  # which texts of an entry get a vector
)


@dataclass(frozen=True)
class Score:
    """One question's block, measured against its evidence."""

    recall: float
    tokens: int
    items: int
    relevant: int  # items holding evidence
    first: bool | None  # None: no block
    early_recall: float


def score(
    block: str | None,
    loaded: Sequence[str],
    turns_of: dict[str, set[str]],
    evidence: Sequence[str],
) -> Score:
    """Measure one block: which loaded items hold evidence, and where they sit in it."""
    if not block or not loaded:
        return Score(0.0, 0, 0, 0, None, 0.0)
    want = set(evidence)
    got: set[str] = set()
    early: set[str] = set()
    relevant = 0
    limit = EARLY_TOKENS * CHARS_PER_TOKEN
    for name in loaded:
        held = turns_of.get(name, set()) & want
        relevant += bool(held)
        got |= held
        at = block.find(f"**{name}**")
        end = block.find("\n", at)
        if at >= 0 and (end if end >= 0 else len(block)) <= limit:
            early |= held
    first = bool(turns_of.get(loaded[0], set()) & want)
    return Score(
        len(got) / len(want),
        estimate_tokens(block),
        len(loaded),
        relevant,
        first,
        len(early) / len(want),
    )


def summary(scores: Sequence[Score]) -> dict[str, float]:
    """Means over questions; first item and precision over the questions given a block."""
    shown = [s for s in scores if s.first is not None]
    return {
        "questions": len(scores),
        "blocks": len(shown) / max(len(scores), 1),
        "recall": statistics.mean(s.recall for s in scores) if scores else 0.0,
        "tokens": statistics.mean(s.tokens for s in scores) if scores else 0.0,
        "items": statistics.mean(s.items for s in scores) if scores else 0.0,
        "precision": statistics.mean(s.relevant / s.items for s in shown) if shown else 0.0,
        "first": statistics.mean(bool(s.first) for s in shown) if shown else 0.0,
        "recall@500": statistics.mean(s.early_recall for s in scores) if scores else 0.0,
        "no_evidence": statistics.mean(s.relevant == 0 for s in shown) if shown else 0.0,
    }


def conversations() -> list[dict[str, Any]]:
    """The development file's conversations ($BRAIN_LOCOMO, else ../shared beside the
    repository or beside the worktree's parent)."""
    path = locomo_data.locomo_path()
    if not path.exists():
        path = Path(__file__).resolve().parents[3] / "shared/data/locomo" / locomo_data.DATA_FILE
    return locomo_data.load_conversations(path)


def _brain_key(index: int, label: str) -> str:
    src = Path(__file__).resolve().parents[1] / "src" / "brainbridge"
    digest = hashlib.sha1()
    for rel in _SOURCES:
        path = src / rel
        if path.exists():
            digest.update(path.read_bytes())
    return f"conv{index}-{label}-{digest.hexdigest()[:10]}"


async def open_conversation(
    index: int, embedder: Any, label: str, workdir: Path
) -> tuple[Brain, dict[str, set[str]]]:
    """The conversation's brain (ingested once, then copied from the cache) and its
    exchange name -> dia_ids map."""
    import json

    conversation = conversations()[index]
    cached = BRAINS / _brain_key(index, label)
    folder = workdir / f"conv{index}-{label}"
    if (cached / "turns.json").exists():
        shutil.copytree(cached, folder)
        turns_of = {k: set(v) for k, v in json.loads((folder / "turns.json").read_text()).items()}
        brain = await Brain.open(folder, embedder=embedder, background_indexing=False)
        await brain.index_vectors()
        return brain, turns_of
    brain = await Brain.open(folder, embedder=embedder, background_indexing=False)
    turns_of = await _ingest(brain, conversation)
    await brain.index_vectors()
    await brain.close()
    (folder / "turns.json").write_text(json.dumps({k: sorted(v) for k, v in turns_of.items()}))
    shutil.rmtree(cached, ignore_errors=True)
    shutil.copytree(folder, cached)
    brain = await Brain.open(folder, embedder=embedder, background_indexing=False)
    return brain, turns_of


def cached_embedder(name: str) -> CachingEmbedder | None:
    """MiniLM behind the vector cache, or None for "none".

    Raises: SystemExit when the model cannot be loaded.
    """
    if name == "none":
        return None
    inner = load_embedder("auto" if name == "minilm" else name)
    if inner is None:
        raise SystemExit("no embedder available")
    return CachingEmbedder(inner, "block-quality")


async def measure(
    convs: Sequence[int], embedder_name: str, config: BridgeConfig | None = None
) -> dict[str, Any]:
    """{path: [Score]} for the forced and the local judge, and enrich timings."""
    if any(c not in TUNED for c in convs):
        raise SystemExit("block_quality runs the tuned split only (conversations 0-2)")
    embedder = cached_embedder(embedder_name)
    out: dict[str, Any] = {"forced": [], "local": [], "seconds": []}
    with tempfile.TemporaryDirectory(prefix="block-quality-") as tmp:
        for c in convs:
            brain, turns_of = await open_conversation(c, embedder, embedder_name, Path(tmp))
            try:
                cfg = config or BridgeConfig()
                forced, local = Bridge(brain, AlwaysEnrich(), cfg), Bridge(brain, config=cfg)
                for q in locomo_data.questions(conversations()[c]):
                    for path, bridge in (("forced", forced), ("local", local)):
                        started = time.perf_counter()
                        result = await bridge.enrich(q.text, None)
                        if path == "local":
                            out["seconds"].append(time.perf_counter() - started)
                        out[path].append(score(result.block, result.loaded, turns_of, q.evidence))
                for bridge in (forced, local):
                    await bridge.drain()
            finally:
                await brain.close()
    if isinstance(embedder, CachingEmbedder):
        embedder.save()
    return out


def report(result: dict[str, Any], label: str) -> str:
    lines = [
        f"embedder {label}",
        "| path | questions | blocks | recall | tokens | items | precision | first |"
        " recall@500 | blocks w/o evidence |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for path in ("forced", "local"):
        s = summary(result[path])
        lines.append(
            f"| {path} | {s['questions']} | {s['blocks']:.2f} | {s['recall']:.3f} |"
            f" {s['tokens']:.0f} | {s['items']:.1f} | {s['precision']:.3f} | {s['first']:.3f} |"
            f" {s['recall@500']:.3f} | {s['no_evidence']:.2f} |"
        )
    secs = sorted(result["seconds"])
    if secs:
        p95 = secs[min(len(secs) - 1, round(0.95 * (len(secs) - 1)))]
        lines.append(
            f"local enrich: median {statistics.median(secs) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.block_quality")
    parser.add_argument("--convs", default="0,1,2", help="tuned conversations (0-2)")
    parser.add_argument("--embedder", default="none", choices=("none", "minilm"))
    args = parser.parse_args(argv)
    convs = [int(c) for c in args.convs.split(",")]
    result = asyncio.run(measure(convs, args.embedder))
    print(report(result, args.embedder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
