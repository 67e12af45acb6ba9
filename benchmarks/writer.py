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
import sys
import time
from pathlib import Path

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


if __name__ == "__main__":
    folder, gate, worker, upserts = sys.argv[1:5]
    times = sys.argv[5] if len(sys.argv) > 5 else None
    asyncio.run(main(folder, gate, int(worker), int(upserts), times))
