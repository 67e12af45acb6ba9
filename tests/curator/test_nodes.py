"""Sessions and days as entities: a curated conversation is a Chat_Session its exchanges are
part of, and the day's activity log a Journal_Entry that mentions it; search and the graph
reach both, the bridge's block does not repeat them."""

from __future__ import annotations

from datetime import date

from brainbridge.bridge.bridge import Bridge
from brainbridge.curator import Curator

from .conftest import MIGRATION_CHAT


async def test_a_curated_session_and_its_day_become_entities_in_the_graph(brain) -> None:
    bridge = Bridge(brain)
    for n, (user, ai) in enumerate(MIGRATION_CHAT, start=1):
        await bridge.observe_now("s-nodes", n, user, ai)
    run = await Curator(brain).curate("s-nodes")
    assert run.title and not run.error

    node = await brain.get_entity("Chat_Session", "s-nodes")
    assert node is not None and run.title.rstrip(".") in node.description
    assert node.attributes["title"] == run.title and node.attributes["turns"] == len(MIGRATION_CHAT)
    around = await brain.subgraph(("Chat_Session", "s-nodes"), hops=1, limit=500)
    parts = [e for e in around.edges if e.type == "part_of"]
    assert len(parts) == len([n for n in around.nodes if n.type == "Chat_Exchange"]) > 0

    today = date.today().isoformat()
    journal = await brain.get_entity("Journal_Entry", today)
    assert journal is not None and run.title in journal.description
    assert any(
        e.type == "mentions" and e.dst_name == "s-nodes"
        for e in (await brain.subgraph(("Journal_Entry", today), hops=1)).edges
    )

    again = await Curator(brain).curate("s-nodes")  # idempotent: one node, same links
    assert not again.error
    sessions = await brain._run(brain.store.list_entities, "Chat_Session", "", 10, 0)
    assert sessions[1] == 1
    hits = await brain.search(run.title, 10)
    assert any(h.entity.type == "Chat_Session" for h in hits)
    block = (
        await bridge.enrich(f"what did we say about {run.title.lower()} last time?", "s-x")
    ).block
    assert block is None or "Chat_Session" not in block


async def test_a_run_links_only_the_exchanges_not_linked_before(brain) -> None:
    bridge = Bridge(brain)
    for n, (user, ai) in enumerate(MIGRATION_CHAT, start=1):
        await bridge.observe_now("s-long", n, user, ai)
    assert not (await Curator(brain).curate("s-long")).error
    await bridge.observe_now(
        "s-long", len(MIGRATION_CHAT) + 1, "And the cutover is on May 3.", "Noted."
    )
    linking: list[str] = []

    def trace(sql: str) -> None:
        if "relations" in sql and sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            linking.append(sql)

    conn = brain.store.conn  # type: ignore[attr-defined]
    await brain._run(conn.set_trace_callback, trace)
    try:
        assert not (await Curator(brain).curate("s-long")).error
    finally:
        await brain._run(conn.set_trace_callback, None)
    # One new exchange: one link written, not every exchange of the session again.
    assert len(linking) == 1, linking
    around = await brain.subgraph(("Chat_Session", "s-long"), hops=1, limit=500)
    parts = {e.src_name for e in around.edges if e.type == "part_of"}
    exchanges = {n.name for n in around.nodes if n.type == "Chat_Exchange"}
    assert parts == exchanges and len(parts) == len(MIGRATION_CHAT) + 1
