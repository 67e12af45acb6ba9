"""A small, realistic brain shared by the HTTP, hook and web-page tests."""

from __future__ import annotations

import asyncio
from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.curator.wiring import attach_curator

ENTITIES = [
    (
        "Person",
        "Ada Lovelace",
        "Mathematician who wrote the first program for the Analytical Engine.",
        {"role": "mathematician"},
    ),
    (
        "Person",
        "Kevin Ortiz",
        "Runs the spring cohort of the data bootcamp; prefers async updates.",
        {"role": "instructor"},
    ),
    (
        "Project",
        "Spring Cohort",
        "Data bootcamp cohort starting in March with 24 students, led by Kevin Ortiz.",
        {"status": "active"},
    ),
    ("Organization", "Acme Robotics", "Robotics company in Lyon that sponsors the bootcamp.", {}),
    (
        "Decision",
        "Use Postgres for teams",
        "Teams share one Postgres brain; single users keep SQLite.",
        {"rationale": "replication"},
    ),
    (
        "Document",
        "litellm config drift",
        "Notes on how the litellm proxy config drifted between staging and prod.",
        {"doc_path": "notes/litellm-config-drift.md", "slug": "litellm-config-drift"},
    ),
    (
        "Project",
        "litellm",
        "The LLM proxy we run in front of every model provider.",
        {"status": "active"},
    ),
]
RELATIONS = [
    (("Person", "Kevin Ortiz"), "LEADS", ("Project", "Spring Cohort")),
    (("Organization", "Acme Robotics"), "SPONSORS", ("Project", "Spring Cohort")),
    (("Document", "litellm config drift"), "ABOUT", ("Project", "litellm")),
]
SESSION = "5e55104a-0b1c-4d2e-9f00-1234567890ab"
EXCHANGES = [
    (
        "Kevin Ortiz said the spring cohort starts on March 3 with 24 students.",
        "Got it: the Spring Cohort starts March 3 with 24 students, led by Kevin.",
    ),
    (
        "Acme Robotics agreed to sponsor the spring cohort laptops.",
        "Noted: Acme Robotics sponsors laptops for the Spring Cohort.",
    ),
    (
        "Remind me to send Kevin the syllabus draft by Friday.",
        "I'll remember: send Kevin Ortiz the syllabus draft by Friday.",
    ),
]


async def seed(brain: Brain, with_session: bool = True) -> None:
    """Entities, relations and (optionally) one curated session of three exchanges."""
    for etype, name, description, attrs in ENTITIES:
        await brain.upsert_entity(etype, name, attrs, description)
    for src, rel, dst in RELATIONS:
        await brain.relate(src, rel, dst)
    if with_session:
        bridge = Bridge(brain)
        await attach_curator(brain, bridge)
        for n, (message, reply) in enumerate(EXCHANGES, start=1):
            await bridge.observe_now(SESSION, n, message, reply)
        await bridge.drain()
    await brain.index_vectors()


def seed_folder(path: Path, with_session: bool = True) -> Path:
    """Create and seed a brain folder from synchronous code (outside any event loop)."""

    async def _go() -> None:
        brain = await Brain.open(path, embedder="hashing", background_indexing=False)
        try:
            await seed(brain, with_session)
        finally:
            await brain.close()

    asyncio.run(_go())
    return path
