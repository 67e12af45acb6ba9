"""How often the bridge injects context into messages that have nothing to do with the brain.

Each message of `benchmarks/data/unrelated_dev.txt` (general questions, code, cooking,
travel, chit-chat, tool names) is enriched on brains that hold content: the bundled demo
sample, LoCoMo conversation 1 ingested through `observe`, and the scenario dev split's
life. The rate is the share of messages that get a block. Brains are built once under
`--cache` (default a temporary folder) and reused when the folder exists.

Run: python -m benchmarks.bench_unrelated [--cache DIR] [--show]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from benchmarks import locomo_data, scenarios
from benchmarks.bench_bridge import _ingest
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.cli.sample import load_sample
from brainbridge.model import Judgment

DEV = Path(__file__).resolve().parent / "data" / "unrelated_dev.txt"


def messages(path: Path = DEV) -> list[str]:
    """The set's messages, one a line."""
    return [line.strip() for line in path.read_text("utf-8").splitlines() if line.strip()]


async def _sample(brain: Brain) -> None:
    await load_sample(brain)


async def _locomo(brain: Brain) -> None:
    # Conversation 1 only: 4 and 5 are held out from tuning.
    await _ingest(brain, locomo_data.load_conversations()[0])


async def _scenarios(brain: Brain) -> None:
    turns, _ = scenarios.load("dev")
    bridge = Bridge(brain)
    await scenarios.observe_all(bridge, turns)
    await bridge.drain()


BRAINS: dict[str, Callable[[Brain], Awaitable[None]]] = {
    "demo sample": _sample,
    "LoCoMo conversation 1": _locomo,
    "scenario dev": _scenarios,
}


async def injected(
    folder: Path, fill: Callable[[Brain], Awaitable[None]], texts: list[str]
) -> list[tuple[str, tuple[str, ...]]]:
    """[(message, reasons)] of the messages that got a block, on the brain at `folder`."""
    fresh = not (folder / "brain.db").exists()
    folder.mkdir(parents=True, exist_ok=True)
    brain = await Brain.open(folder, embedder=None, background_indexing=False)
    try:
        if fresh:
            await fill(brain)
        bridge = Bridge(brain)
        out = []
        for text in texts:
            result = await bridge.enrich(text, None)
            if result.block and result.judgment is Judgment.ENRICH:
                out.append((text, result.reasons))
        await bridge.drain()
        return out
    finally:
        await brain.close()


async def measure(cache: Path, show: bool = False) -> str:
    texts = messages()
    lines = [f"## Unrelated messages injected ({len(texts)} messages, {DEV.name})", ""]
    for label, fill in BRAINS.items():
        if fill is _locomo and not locomo_data.locomo_path().exists():
            lines.append(f"- {label}: skipped, {locomo_data.locomo_path()} not found")
            continue
        got = await injected(cache / label.replace(" ", "-"), fill, texts)
        lines.append(f"- {label}: {len(got)}/{len(texts)} = {len(got) / len(texts):.1%}")
        if show:
            lines += [f"    {t}  <- {'; '.join(r)}" for t, r in got]
    return "\n".join(lines)


def run(quick: bool = False) -> str:
    """The suite as `python -m benchmarks` runs it: fresh brains in a temporary folder."""
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(measure(Path(tmp)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    if args.cache is None:
        with tempfile.TemporaryDirectory() as tmp:
            print(asyncio.run(measure(Path(tmp), args.show)))
    else:
        print(asyncio.run(measure(args.cache, args.show)))


if __name__ == "__main__":
    main()
