"""One writer process of the store suite's concurrency run (not a suite itself).

usage: python -m benchmarks.writer BRAIN_DIR GATE_FILE WORKER_ID UPSERTS
Waits for GATE_FILE so that every writer starts at once; each upsert is its own
transaction, as the hooks, the MCP server and the CLI write.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from brainbridge.brain import Brain


async def main(folder: str, gate: str, worker: int, upserts: int) -> None:
    brain = await Brain.open(folder, embedder=None)
    try:
        while not Path(gate).exists():
            time.sleep(0.002)
        for j in range(upserts):
            await brain.upsert_entity(
                "Topic",
                f"w{worker}-n{j}",
                {"worker": str(worker)},
                description=f"note {j} from writer {worker} about concurrent ingest",
            )
    finally:
        await brain.close()


if __name__ == "__main__":
    folder, gate, worker, upserts = sys.argv[1:5]
    asyncio.run(main(folder, gate, int(worker), int(upserts)))
