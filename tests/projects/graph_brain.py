"""A working brain for a developer: several projects, notes, decisions, people and a hub."""

from __future__ import annotations

from brainbridge.brain import Brain

# The one entry the issue is about: the `litellm-config-drift` decision. Its text never
# says "litellm"; only its relations tie it to the project.
DRIFT = ("Decision", "Config drift between staging and prod")
GRAPHSTORE = ("Document", "graph-store migration plan")

ENTITIES: list[tuple[str, str, str, dict]] = [
    ("Person", "Me", "The owner of this brain.", {}),
    (
        "Project",
        "LiteLLM",
        "LiteLLM is the LLM gateway in front of every model provider we call.",
        {"status": "active", "repo": "github.com/me/litellm"},
    ),
    (
        "Document",
        "LiteLLM proxy rollout",
        "Rolling the litellm proxy out to every service, team by team.",
        {"slug": "litellm-proxy-rollout", "doc_path": "/home/me/notes/litellm-proxy-rollout.md"},
    ),
    (
        "Decision",
        "Route all model calls through LiteLLM",
        "Every service calls models through litellm so keys and budgets live in one place.",
        {"decided_on": "2024-03-01"},
    ),
    (
        *DRIFT,
        "Staging and prod proxy configs diverged: gpt-4o pointed at different deployments "
        "and max_tokens differed. Fix: render one config file per environment from git.",
        {"slug": "config-drift", "decided_on": "2024-05-02"},
    ),
    (
        *GRAPHSTORE,
        "Moving the request log from SQLite to Postgres behind a graph store interface.",
        {},
    ),
    ("Person", "Priya Raman", "Site reliability engineer who runs the gateway on-call.", {}),
    ("Commitment", "Fix budget alerts", "Alerts fire at 80 % of the monthly spend.", {}),
    # Other work of the same person: reachable through the hub, irrelevant to LiteLLM.
    *[
        ("Project", f"Side project {i}", f"Weekend experiment number {i} with woodworking.", {})
        for i in range(25)
    ],
    ("Topic", "Sourdough", "Baking bread with a starter.", {}),
    ("Person", "Kevin Lee", "Runs the spring founder cohort.", {}),
]

RELATIONS: list[tuple[tuple[str, str], str, tuple[str, str]]] = [
    (("Project", "LiteLLM"), "has_decision", ("Decision", "Route all model calls through LiteLLM")),
    (("Document", "LiteLLM proxy rollout"), "about", ("Project", "LiteLLM")),
    (("Project", "LiteLLM"), "has_issue", DRIFT),
    (DRIFT, "owned_by", ("Person", "Priya Raman")),
    (("Person", "Priya Raman"), "works_on", ("Project", "LiteLLM")),
    (("Project", "LiteLLM"), "depends_on", GRAPHSTORE),
    (("Commitment", "Fix budget alerts"), "for", ("Project", "LiteLLM")),
    (("Person", "Me"), "owns", ("Project", "LiteLLM")),
    *[(("Person", "Me"), "owns", ("Project", f"Side project {i}")) for i in range(25)],
    (("Person", "Me"), "likes", ("Topic", "Sourdough")),
]

# What a person would call relevant to the litellm project.
RELEVANT = {
    "LiteLLM",
    "LiteLLM proxy rollout",
    "Route all model calls through LiteLLM",
    DRIFT[1],
    GRAPHSTORE[1],
    "Priya Raman",
    "Fix budget alerts",
}


async def fill(brain: Brain, relations: bool = True) -> Brain:
    """Write the entities (and, unless told otherwise, the relations) into `brain`."""
    await brain.upsert_many([(t, n, d, a) for t, n, d, a in ENTITIES])
    if relations:
        for src, rel, dst in RELATIONS:
            await brain.relate(src, rel, dst)
    return brain
