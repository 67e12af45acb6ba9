"""Every brain tool through a real MCP client session on the SDK's in-memory transport."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client
from mcp_support import TOOLS, error_of, text_of

from brainbridge.brain import Brain
from brainbridge.mcp import build_server
from projects.graph_brain import DRIFT, fill


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "brain"


def _server(home: Path):
    return build_server(lambda: Brain.open(home, embedder="hashing"))


@pytest.fixture
async def filled(home: Path) -> Path:
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        await fill(brain)
    return home


async def test_list_tools_describes_every_tool(home: Path) -> None:
    async with Client(_server(home)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}

    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 20, tool.name
        assert tool.output_schema is None, tool.name  # plain text, no {"result": ...}
        for prop, spec in tool.input_schema["properties"].items():
            assert spec.get("description"), f"{tool.name}.{prop}"
    assert set(tools["remember"].input_schema["required"]) == {"entity_type", "name"}
    assert tools["search"].annotations.read_only_hint is True
    assert tools["forget"].annotations.destructive_hint is True


async def test_the_server_introduces_itself(home: Path) -> None:
    async with Client(_server(home)) as client:
        assert "knowledge graph" in (client.instructions or "")


async def test_remember_search_recall_get_and_forget(home: Path) -> None:
    async with Client(_server(home)) as client:
        said = text_of(
            await client.call_tool(
                "remember",
                {
                    "entity_type": "Project",
                    "name": "Gateway",
                    "description": "The LLM gateway in front of every provider.",
                    "attributes": {"status": "active", "repo": "github.com/me/gateway"},
                },
            )
        )
        assert said == "Remembered Project 'Gateway'."
        text_of(
            await client.call_tool(
                "remember",
                {"entity_type": "Person", "name": "Priya Raman", "description": "Runs on-call."},
            )
        )
        linked = text_of(
            await client.call_tool(
                "relate", {"source": "Priya Raman", "relation": "works_on", "target": "Gateway"}
            )
        )
        assert linked == "Linked Person 'Priya Raman' -works_on-> Project 'Gateway'."

        found = text_of(await client.call_tool("search", {"query": "llm gateway provider"}))
        lines = found.splitlines()
        assert lines[0].endswith(" for 'llm gateway provider':")
        assert lines[1] == "1. Gateway (Project): The LLM gateway in front of every provider."

        recalled = text_of(await client.call_tool("recall", {"query": "who runs on-call"}))
        assert "Priya Raman (Person): Runs on-call." in recalled

        shown = text_of(await client.call_tool("get_entity", {"name": "Gateway"}))
        assert shown.splitlines()[:2] == [
            "Gateway (Project)",
            "The LLM gateway in front of every provider.",
        ]
        assert "status=active" in shown and "repo=github.com/me/gateway" in shown
        assert "- Priya Raman -works_on-> Gateway" in shown
        assert "Nearby: Priya Raman (Person)" in shown

        gone = text_of(
            await client.call_tool("forget", {"entity_type": "Project", "name": "Gateway"})
        )
        assert gone == "Forgot Project 'Gateway'."
        again = text_of(
            await client.call_tool("forget", {"entity_type": "Project", "name": "Gateway"})
        )
        assert again == "No Project named 'Gateway'."
        missing = error_of(await client.call_tool("get_entity", {"name": "Gateway"}))
        assert "no entity named 'Gateway'" in missing
        alone = text_of(await client.call_tool("get_entity", {"name": "Priya Raman"}))
        assert "Relations:" not in alone  # the relation went with the project


async def test_remember_merges_attributes(home: Path) -> None:
    async with Client(_server(home)) as client:
        for attrs in ({"role": "SRE"}, {"organization": "Acme"}):
            text_of(
                await client.call_tool(
                    "remember", {"entity_type": "Person", "name": "Ana", "attributes": attrs}
                )
            )
        shown = text_of(await client.call_tool("get_entity", {"name": "Ana"}))
    assert "role=SRE" in shown and "organization=Acme" in shown


async def test_brain_context_brings_the_graph_entry(filled: Path) -> None:
    async with Client(_server(filled)) as client:
        text = text_of(
            await client.call_tool("brain_context", {"project_root": "/home/me/src/litellm"})
        )
        boosted = text_of(
            await client.call_tool(
                "brain_context",
                {
                    "project_root": "/home/me/src/litellm",
                    "recent_files": ["internal/graphstore/pg.go"],
                    "limit": 1,
                },
            )
        )
        nothing = text_of(await client.call_tool("brain_context", {"project_root": "/tmp/zzz"}))

    lines = text.splitlines()
    assert lines[0] == "Brain context for /home/me/src/litellm:"
    assert lines[1].startswith("- LiteLLM (Project): LiteLLM is the LLM gateway")
    assert any(line.startswith(f"- {DRIFT[1]} (Decision): Staging and prod") for line in lines)
    assert boosted.splitlines()[1].startswith("- graph-store migration plan (Document)")
    assert len(boosted.splitlines()) == 2
    assert nothing == "The brain has nothing on the project at /tmp/zzz."


async def test_enrich_returns_the_block_or_says_why_not(filled: Path) -> None:
    async with Client(_server(filled)) as client:
        block = text_of(
            await client.call_tool(
                "enrich",
                {
                    "message": "What did we decide about the config drift between staging "
                    "and prod for my gateway?",
                    "session_id": "s-1",
                },
            )
        )
        short = text_of(await client.call_tool("enrich", {"message": "thanks!"}))

    assert block.startswith("## Brain Context")
    assert DRIFT[1] in block
    assert short.startswith("No brain context (pass_through:")


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("remember", {"entity_type": "Spaceship", "name": "X"}, "unknown entity type 'Spaceship'"),
        ("remember", {"entity_type": "Project", "name": " "}, "name must not be empty"),
        (
            "remember",
            {"entity_type": "Project", "name": "P", "attributes": {"status": "someday"}},
            "Project.status must be one of",
        ),
        ("search", {"query": "x", "entity_types": ["person"]}, "unknown entity type 'person'"),
        ("forget", {"entity_type": "Spaceship", "name": "X"}, "known types: "),
        ("get_entity", {"name": "Nobody"}, "no entity named 'Nobody'"),
        ("get_entity", {"name": "Nobody", "entity_type": "Person"}, "no Person named 'Nobody'"),
        ("relate", {"source": "Nobody", "relation": "knows", "target": "Me"}, "'Nobody'"),
        ("relate", {"source": "Me", "relation": " ", "target": "LiteLLM"}, "must not be empty"),
    ],
)
async def test_errors_are_tool_errors_with_a_readable_message(
    filled: Path, tool: str, args: dict, message: str
) -> None:
    async with Client(_server(filled)) as client:
        text = error_of(await client.call_tool(tool, args))
    assert message in text
    assert "Traceback" not in text


async def test_an_ambiguous_name_asks_for_the_type(home: Path) -> None:
    async with Client(_server(home)) as client:
        for etype in ("Person", "Topic"):
            await client.call_tool("remember", {"entity_type": etype, "name": "Mercury"})
        await client.call_tool("remember", {"entity_type": "Person", "name": "Freddie"})

        ambiguous = error_of(
            await client.call_tool(
                "relate", {"source": "Freddie", "relation": "sang_about", "target": "Mercury"}
            )
        )
        shown = error_of(await client.call_tool("get_entity", {"name": "mercury"}))
        typed = text_of(
            await client.call_tool(
                "relate",
                {
                    "source": "Freddie",
                    "relation": "is",
                    "target": "Mercury",
                    "target_type": "Person",
                },
            )
        )

    assert ambiguous == (
        "Error executing tool relate: 'Mercury' names several entities (Person, Topic);"
        " pass target_type"
    )
    assert "pass entity_type" in shown
    assert typed == "Linked Person 'Freddie' -is-> Person 'Mercury'."


@pytest.mark.parametrize(
    "query", ['"unbalanced', "AND OR NOT", "NEAR(a b", "*", "col:umn ^start", "'); DROP --", ""]
)
async def test_any_query_text_is_fine(filled: Path, query: str) -> None:
    async with Client(_server(filled)) as client:
        for tool in ("search", "recall"):
            text = text_of(await client.call_tool(tool, {"query": query}))
            assert text.startswith(("Nothing in the brain matches", "1 result", "2 results"))
        text_of(await client.call_tool("brain_context", {"project_root": query}))


async def test_counts_are_kept_in_range(filled: Path) -> None:
    async with Client(_server(filled)) as client:
        one = text_of(await client.call_tool("search", {"query": "litellm", "num_results": 0}))
        many = text_of(await client.call_tool("search", {"query": "project", "num_results": 10**6}))
        ctx = text_of(
            await client.call_tool("brain_context", {"project_root": "/src/litellm", "limit": -5})
        )
        far = text_of(await client.call_tool("get_entity", {"name": "Me", "hops": 1000}))

    assert one.startswith("1 result for 'litellm':")
    assert int(many.split()[0]) <= 50
    assert len(ctx.splitlines()) == 2
    assert far.startswith("Me (Person)")


async def test_the_brain_is_closed_when_the_session_ends(home: Path) -> None:
    async with Client(_server(home)) as client:
        text_of(await client.call_tool("remember", {"entity_type": "Topic", "name": "Kept"}))
    # A second server on the same folder sees the write: the first one let go cleanly.
    async with Client(_server(home)) as client:
        assert "Kept (Topic)" in text_of(await client.call_tool("get_entity", {"name": "Kept"}))
