"""Brain tools over MCP. Text tools return plain text, not a JSON wrapper."""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import BrainError
from brainbridge.mcp.text import context_text, entity_text, hits_text

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "brainbridge is the user's personal knowledge graph (people, projects, documents, "
    "decisions, commitments, past conversations). Use `recall` or `search` before answering "
    "questions about the user's own work; `remember` and `relate` to store durable facts; "
    "`brain_context` at the start of work in a code project."
)


def build_server(
    open_brain: Callable[[], Awaitable[Brain]],
    make_bridge: Callable[[Brain], Bridge] | None = None,
    own_brain: bool = True,
) -> MCPServer[Any]:
    """An MCP server whose tools act on the brain that `open_brain` returns.

    With `own_brain` the server opens the brain at start-up and closes it at shutdown
    (stdio); otherwise the caller owns it (the HTTP server shares its brain).
    """
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        try:
            yield state
        finally:
            if own_brain and "brain" in state:
                bridge = state.get("bridge")
                if bridge is not None:
                    await bridge.drain()
                await state["brain"].close()

    async def brain() -> Brain:
        if "brain" not in state:
            state["brain"] = await open_brain()
        return state["brain"]

    async def bridge() -> Bridge:
        if "bridge" not in state:
            b = await brain()
            state["bridge"] = make_bridge(b) if make_bridge else Bridge(b)
        return state["bridge"]

    # log_level: the SDK calls logging.basicConfig; keep it from chattering at INFO.
    server: MCPServer[Any] = MCPServer(
        "brain", instructions=INSTRUCTIONS, lifespan=lifespan, log_level="WARNING"
    )

    def guarded(fn: Callable[..., Awaitable[str]]) -> Callable[..., Awaitable[str]]:
        @functools.wraps(fn)
        async def wrapper(*args: Any, **kwargs: Any) -> str:
            try:
                return await fn(*args, **kwargs)
            except BrainError as exc:
                raise ToolError(str(exc)) from exc

        return wrapper

    @server.tool(structured_output=False)
    @guarded
    async def brain_context(
        project_root: str, recent_files: list[str] | None = None, limit: int = 10
    ) -> str:
        """Brain entries that matter for the code project at `project_root` (notes, decisions, people)."""
        entries = await (await brain()).brain_context(project_root, recent_files, limit)
        return context_text(entries, project_root)

    @server.tool(structured_output=False)
    @guarded
    async def search(
        query: str,
        num_results: int = 5,
        entity_types: list[str] | None = None,
        exclude_types: list[str] | None = None,
    ) -> str:
        """Hybrid search (keywords + meaning + graph) over the user's brain."""
        hits = await (await brain()).search(query, num_results, entity_types, exclude_types)
        return hits_text(hits, query)

    @server.tool(structured_output=False)
    @guarded
    async def recall(query: str, num_results: int = 5) -> str:
        """What the brain knows about a topic: stored facts first, then past conversations."""
        b = await brain()
        facts = await b.search(query, num_results, exclude_types=["Chat_Exchange"])
        history = await b.search(query, max(2, num_results // 2), entity_types=["Chat_Exchange"])
        return hits_text(facts + history, query)

    @server.tool(structured_output=False)
    @guarded
    async def remember(
        entity_type: str, name: str, description: str = "", attributes: dict[str, Any] | None = None
    ) -> str:
        """Store or update an entity (attributes merge into what is stored)."""
        ent = await (await brain()).upsert_entity(
            entity_type, name, attributes, description or None
        )
        return f"Remembered {ent.type} '{ent.name}'."

    @server.tool(structured_output=False)
    @guarded
    async def relate(
        source: str,
        relation: str,
        target: str,
        source_type: str | None = None,
        target_type: str | None = None,
    ) -> str:
        """Link two entities with a typed relation (give types when names are ambiguous)."""
        b = await brain()
        src = (source_type, source) if source_type else source
        dst = (target_type, target) if target_type else target
        rel = await b.relate(src, relation, dst)
        return (
            f"Linked {rel.src_type} '{rel.src_name}' -{rel.type}-> {rel.dst_type} '{rel.dst_name}'."
        )

    @server.tool(structured_output=False)
    @guarded
    async def get_entity(name: str, entity_type: str | None = None, hops: int = 1) -> str:
        """One entity with its neighbourhood in the graph."""
        b = await brain()
        ref = (entity_type, name) if entity_type else name
        sub = await b.subgraph(ref, hops=hops)
        return entity_text(sub)

    @server.tool(structured_output=False)
    @guarded
    async def forget(entity_type: str, name: str) -> str:
        """Delete an entity and its relations."""
        gone = await (await brain()).delete_entity(entity_type, name)
        return f"Forgot {entity_type} '{name}'." if gone else f"No {entity_type} named '{name}'."

    @server.tool(structured_output=False)
    @guarded
    async def enrich(message: str, session_id: str | None = None) -> str:
        """The Brain Context block the bridge would inject for this message (or why none)."""
        result = await (await bridge()).enrich(message, session_id)
        if result.block:
            return result.block
        return f"No brain context ({result.judgment.value}: {'; '.join(result.reasons)})."

    return server
