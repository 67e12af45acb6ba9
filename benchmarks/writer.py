"""One writer process of the store suite's concurrency run (not a suite itself).

usage: python -m benchmarks.writer BRAIN_DIR GATE_FILE WORKER_ID UPSERTS [TIMES_FILE]
Waits for GATE_FILE so that every writer starts at once; each upsert is its own
transaction, as the hooks, the MCP server and the CLI write. With TIMES_FILE, each
upsert's latency (ms) is written there as a JSON list. The brain is the one
BRAIN_DATABASE_URL names, when set, as for every entry point.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from brainbridge.brain import Brain


async def main(folder: str, gate: str, worker: int, upserts: int, times: str | None) -> None:
    brain = await Brain.open(folder, embedder=None)
    took: list[float] = []
    try:
        while not Path(gate).exists():
            time.sleep(0.002)
        for j in range(upserts):
            started = time.perf_counter()
            await brain.upsert_entity(
                "Topic",
                f"w{worker}-n{j}",
                {"worker": str(worker)},
                description=f"note {j} from writer {worker} about concurrent ingest",
            )
            took.append((time.perf_counter() - started) * 1000)
    finally:
        await brain.close()
    if times:
        Path(times).write_text(json.dumps(took))


def run_writers(folder: Path, writers: int, upserts: int, database_url: str = "") -> dict[str, Any]:
    """Start `writers` of these processes on one brain (the file in `folder`, or the
    PostgreSQL database at `database_url`), release them at once, and report what landed:
    writes per second, entities stored, errors, and every write's latency (ms)."""
    asyncio.run(_open_close(folder, database_url))
    gate, times = folder.parent / f"{folder.name}.go", folder.parent / f"{folder.name}.times"
    times.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRAIN_")}
    if database_url:
        env["BRAIN_DATABASE_URL"] = database_url
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "benchmarks.writer",
                str(folder),
                str(gate),
                str(w),
                str(upserts),
                str(times / f"{w}.json"),
            ],
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=Path(__file__).resolve().parents[1],
        )
        for w in range(writers)
    ]
    time.sleep(2.0)  # let every process import and open the brain
    started = time.perf_counter()
    gate.touch()
    errors = [p.communicate(timeout=900)[1].strip() for p in procs]
    elapsed = time.perf_counter() - started
    took = [t for w in range(writers) for t in _read_times(times / f"{w}.json")]
    return {
        "writers": writers,
        "upserts": upserts,
        "stored": asyncio.run(_count_topics(folder, database_url)),
        "expected": writers * upserts,
        "errors": [e for e in errors if e],
        "writes_per_s": writers * upserts / elapsed,
        "latency": took,
    }


def _read_times(file: Path) -> list[float]:
    return json.loads(file.read_text()) if file.exists() else []


async def _open_close(folder: Path, database_url: str) -> None:
    await (await Brain.open(folder, embedder=None, database_url=database_url)).close()


async def _count_topics(folder: Path, database_url: str) -> int:
    async with await Brain.open(folder, embedder=None, database_url=database_url) as brain:
        return int((await brain.stats())["entities_by_type"].get("Topic", 0))


if __name__ == "__main__":
    folder, gate, worker, upserts = sys.argv[1:5]
    times = sys.argv[5] if len(sys.argv) > 5 else None
    asyncio.run(main(folder, gate, int(worker), int(upserts), times))
