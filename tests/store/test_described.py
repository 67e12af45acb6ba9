"""The people who hold a role for the user, read by description prefix (the bridge does
at every enrich): the same entities, newest first, on both backends, whatever the
prefix's length."""

from __future__ import annotations

from brainbridge.brain import Brain


async def test_entities_described_with_a_prefix_newest_first(brain: Brain) -> None:
    await brain.upsert_entity("Person", "Oskar", description="The user's manager since May")
    await brain.upsert_entity(
        "Person", "Ines", description="the user's sister"
    )  # not the same prefix
    await brain.upsert_entity("Person", "Mara", description="The user's dentist")
    await brain.upsert_entity("Person", "Tom", description="The user")  # shorter than the prefix
    await brain.upsert_entity("Project", "Apollo", description="The user's project")  # another type
    store = brain.store

    found = await brain._run(store.described_with_prefix, "Person", "The user's ", 10)  # type: ignore[attr-defined]
    assert [e.name for e in found] == ["Mara", "Oskar"]

    long = "The user's manager since May, who"  # longer than any index's head
    found = await brain._run(store.described_with_prefix, "Person", long[:28], 10)  # type: ignore[attr-defined]
    assert [e.name for e in found] == ["Oskar"]
    found = await brain._run(store.described_with_prefix, "Person", long, 10)  # type: ignore[attr-defined]
    assert found == []
    one = await brain._run(store.described_with_prefix, "Person", "The user's ", 1)  # type: ignore[attr-defined]
    assert [e.name for e in one] == ["Mara"]


async def test_the_newest_of_a_type(brain: Brain) -> None:
    """What the bridge keeps in memory for short questions: the newest exchanges, on both
    backends, of that type only."""
    for n in range(4):
        await brain.upsert_entity("Chat_Exchange", f"s1:ex:{n}", description=f"turn {n}")
        await brain.upsert_entity("Person", f"Person {n}")
    found = await brain._run(brain.store.newest, "Chat_Exchange", 3)
    assert [e.name for e in found] == ["s1:ex:3", "s1:ex:2", "s1:ex:1"]
    assert await brain._run(brain.store.newest, "Project", 3) == []
