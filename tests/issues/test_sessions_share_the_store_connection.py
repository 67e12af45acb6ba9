"""`brain.sessions` runs on the caller's thread but shares the store's connection.

Brain methods run on the store's own thread; a session write from the event loop
in the meantime interleaves BEGIN/COMMIT on the same connection.
"""

from __future__ import annotations

import asyncio

from brainbridge.brain import Brain


async def test_session_writes_alongside_entity_writes_lose_nothing(brain: Brain) -> None:
    brain.sessions.ensure("s-1")
    writes = 300

    async def write_entities() -> None:
        for i in range(writes):
            await brain.upsert_entity("Topic", f"topic {i}", description="concurrent write")

    writer = asyncio.create_task(write_entities())
    errors = []
    turn = 0
    while not writer.done():
        turn += 1
        try:
            brain.sessions.record_turn("s-1", turn, {"judgment": "enrich"})
        except Exception as exc:  # noqa: BLE001 - any failure here is the bug
            errors.append(repr(exc))
        await asyncio.sleep(0)
    writer_error = writer.exception()
    assert writer_error is None and errors == []
    assert (await brain.stats())["entities"] == writes
    assert brain.sessions.get("s-1").message_count == turn
