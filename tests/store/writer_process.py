"""A separate writer process for the concurrency tests (run as a script, not collected).

usage: writer_process.py BRAIN_DIR GATE_FILE WORKER_ID ENTITIES RELATIONS
Waits for GATE_FILE so every worker starts writing at once.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from brainbridge.brain import Brain


async def main(folder: str, gate: str, worker: int, entities: int, relations: int) -> None:
    while not Path(gate).exists():
        time.sleep(0.005)
    brain = await Brain.open(folder, embedder="hashing")
    try:
        # Every worker merges its own key into one shared entity: no update may be lost.
        await brain.upsert_entity("Topic", "shared", {f"seen_by_{worker}": True})
        for j in range(entities):
            name = f"w{worker}-e{j}"
            await brain.upsert_entity(
                "Topic",
                name,
                {"worker": str(worker)},
                description=f"note {j} written by worker {worker} about concurrency",
            )
            if j < relations:
                await brain.relate(("Topic", name), "follows", ("Topic", "shared"))
        await brain.wait_for_vectors(120)
    finally:
        await brain.close()


if __name__ == "__main__":
    folder, gate, worker, entities, relations = sys.argv[1:6]
    asyncio.run(main(folder, gate, int(worker), int(entities), int(relations)))
