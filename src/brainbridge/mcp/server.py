"""Brain tools over MCP. Text tools return plain text, not a JSON wrapper."""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from brainbridge.bounds import MAX_NUMBER, check_depth
from brainbridge.brain import Brain, EntityRef
from brainbridge.bridge import Bridge
from brainbridge.errors import BrainError, InvalidInput, NotFound
from brainbridge.mcp.text import context_text, entity_text, forget_text, hits_text
from brainbridge.model import CHAT_EXCHANGE
from brainbridge.search import SearchRequest

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "brainbridge is the user's personal knowledge graph (people, projects, documents, "
    "decisions, commitments, past conversations). Use `recall` or `search` before answering "
    "questions about the user's own work; `remember` and `relate` to store durable facts; "
    "`brain_context` at the start of work in a code project; `brain_get` opens an item of "
    "the session-start digest by id, `brain_timeline` walks a past session step by step."
)
MAX_RESULTS = 50
MAX_HOPS = 3
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DELETES = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

Query = Annotated[str, Field(description="What to look for, in plain words.")]
NumResults = Annotated[int, Field(description=f"How many results (1-{MAX_RESULTS}).")]
EntityType = Annotated[str, Field(description="An entity type such as Person, Project, Document.")]
OptionalType = Annotated[
    str | None, Field(description="The entity type, when the name alone is ambiguous.")
]


AsOf = Annotated[str | None, Field(description="What held on this day (YYYY-MM-DD); default: now.")]
Superseded = Annotated[bool, Field(description="Also return facts replaced since.")]


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def _check_types(brain: Brain, names: list[str] | None) -> None:
    unknown = [n for n in names or [] if n not in brain.types]
    if unknown:
        raise ToolError(
            f"unknown entity type {', '.join(map(repr, unknown))};"
            f" known types: {', '.join(sorted(brain.types))}"
        )


async def _resolve(brain: Brain, name: str, etype: str | None, param: str) -> EntityRef:
    """A (type, name) reference; a bare name only when it names one entity."""
    if etype:
        return (etype, name)
    try:
        return await brain.resolve(name)
    except InvalidInput as exc:
        matches = await brain._run(brain.store.find_by_name, name)
        if len(matches) < 2:
            raise
        kinds = ", ".join(sorted(m.type for m in matches))
        raise ToolError(f"{name!r} names several entities ({kinds}); pass {param}") from exc


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
        "brain",
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        log_level="WARNING",
        version=_version(),
    )

    def guarded(fn: Callable[..., Awaitable[str]]) -> Callable[..., Awaitable[str]]:
        @functools.wraps(fn)
        async def wrapper(*args: Any, **kwargs: Any) -> str:
            try:
                return await fn(*args, **kwargs)
            except BrainError as exc:
                raise ToolError(str(exc)) from exc
            except ToolError:
                raise
            except Exception as exc:  # the tool boundary: the agent reads what went wrong
                log.exception("MCP tool %s failed", fn.__name__)
                raise ToolError(f"{fn.__name__} failed: {type(exc).__name__}: {exc}") from exc

        return wrapper

    @server.tool(structured_output=False, annotations=READ_ONLY)
    @guarded
    async def brain_context(
        project_root: Annotated[str, Field(description="Absolute path of the code project.")],
        recent_files: Annotated[
            list[str] | None, Field(description="Files being worked on; they sharpen the ranking.")
        ] = None,
        limit: NumResults = 10,
    ) -> str:
        """Brain entries that matter for the code project at `project_root` (notes, decisions, people)."""
        b = await brain()
        entries = await b.brain_context(project_root, recent_files, _clamp(limit, 1, MAX_RESULTS))
        return context_text(entries, project_root)

    @server.tool(structured_output=False, annotations=READ_ONLY)
    @guarded
    async def brain_get(
        item_id: Annotated[
            str,
            Field(description="The item's id as the digest or a timeline shows it (12 or #12)."),
        ],
    ) -> str:
        """Open any brain item by id in full: a session, an exchange, a tool call, a file, a note."""
        return await (await brain()).item_text(item_id)

    @server.tool(structured_output=False, annotations=READ_ONLY)
    @guarded
    async def brain_timeline(
        session: Annotated[
            str, Field(description="The session: its id in the digest (#12), or a session id.")
        ],
    ) -> str:
        """A session's exchanges and tool calls (observations) in the order they happened."""
        from brainbridge.projects.disclose import timeline_text

        sid, steps = await (await brain()).timeline(session)
        return timeline_text(sid, steps)

    @server.tool(structured_output=False, annotations=READ_ONLY)
    @guarded
    async def search(
        query: Query,
        num_results: NumResults = 5,
        entity_types: Annotated[
            list[str] | None, Field(description="Only these entity types.")
        ] = None,
        exclude_types: Annotated[
            list[str] | None, Field(description="Leave out these entity types.")
        ] = None,
        as_of: AsOf = None,
        include_superseded: Superseded = False,
    ) -> str:
        """Hybrid search (keywords + meaning + graph) over the user's brain."""
        b = await brain()
        _check_types(b, entity_types)
        _check_types(b, exclude_types)
        n = _clamp(num_results, 1, MAX_RESULTS)
        hits = await b.search(
            query, n, entity_types, exclude_types, as_of=as_of, superseded=include_superseded
        )
        return hits_text(hits, query)

    @server.tool(structured_output=False, annotations=READ_ONLY)
    @guarded
    async def recall(
        query: Query,
        num_results: NumResults = 5,
        as_of: AsOf = None,
        include_superseded: Superseded = False,
    ) -> str:
        """What the brain knows about a topic: what holds now first, then past conversations."""
        b = await brain()
        n = _clamp(num_results, 1, MAX_RESULTS)
        day = as_of.strip() if as_of is not None else None  # checked as search checks it
        facts, history = await b.search_many(
            [
                SearchRequest(query, n, None, [CHAT_EXCHANGE], day, include_superseded),
                SearchRequest(query, max(2, n // 2), [CHAT_EXCHANGE], None, day, True),
            ]
        )
        return hits_text(facts + history, query)

    @server.tool(structured_output=False, annotations=WRITES)
    @guarded
    async def merges(
        action: Annotated[
            str,
            Field(description="list (the review queue), accept, reject, or undo (unmerge)."),
        ] = "list",
        merge_id: Annotated[
            int | None, Field(description="The merge to act on.", ge=1, le=MAX_NUMBER)
        ] = None,
    ) -> str:
        """Review names that may be one entity: list the queue, accept, reject or undo a merge."""
        b = await brain()
        if action == "list":
            rows = await b.merges("pending")
            if not rows:
                return "Nothing waits for review."
            return "\n".join(
                f"#{m['id']} {m['entity_type']}: '{m['keep_name']}' ~ '{m['other_name']}'"
                f" ({m['reason']}, {m['score']:.2f})"
                for m in rows
            )
        if action not in ("accept", "reject", "undo") or merge_id is None:
            raise InvalidInput(
                "action is list, accept, reject or undo; the last three need merge_id"
            )
        if action == "undo":
            done = await b.unmerge(merge_id)
        else:
            done = await b.decide_merge(merge_id, action == "accept")
        return (
            f"Merge #{done['id']} ({done['keep_name']} ~ {done['other_name']}) is {done['status']}."
        )

    @server.tool(structured_output=False, annotations=WRITES)
    @guarded
    async def invalidate(
        name: Annotated[str, Field(description="The entity that no longer holds.")],
        entity_type: OptionalType = None,
        on: Annotated[
            str | None, Field(description="The day it stopped holding (YYYY-MM-DD; default today).")
        ] = None,
    ) -> str:
        """Mark a fact as no longer true; it is kept, with the day it ended."""
        b = await brain()
        ref = await _resolve(b, name, entity_type, "entity_type")
        ent = await b.invalidate(ref, on)
        return f"{ent.type} '{ent.name}' no longer holds from {ent.attributes['valid_to']}."

    @server.tool(structured_output=False, annotations=WRITES)
    @guarded
    async def remember(
        entity_type: EntityType,
        name: Annotated[str, Field(description="The entity's name, unique within its type.")],
        description: Annotated[str, Field(description="What to remember about it.")] = "",
        attributes: Annotated[
            dict[str, Any] | None, Field(description="Typed facts; they merge into stored ones.")
        ] = None,
    ) -> str:
        """Store or update an entity (attributes merge into what is stored)."""
        check_depth(attributes, "attributes")
        ent = await (await brain()).upsert_entity(
            entity_type, name, attributes, description or None
        )
        return f"Remembered {ent.type} '{ent.name}'."

    @server.tool(structured_output=False, annotations=WRITES)
    @guarded
    async def observe_tool_call(
        session_id: Annotated[str, Field(description="Your session's id.")],
        cwd: Annotated[str, Field(description="The folder the tool ran in (absolute).")],
        tool_name: Annotated[str, Field(description="The tool, e.g. Read, Edit, Bash.")],
        tool_input: Annotated[
            dict[str, Any] | None,
            Field(description="Its arguments (file_path, command, pattern, url...)."),
        ] = None,
        tool_response: Annotated[Any, Field(description="What it returned.")] = None,
        error: Annotated[str | None, Field(description="Its error output, when it failed.")] = None,
        exit_code: Annotated[int | None, Field(description="A command's exit status.")] = None,
    ) -> str:
        """Record what a tool call did (files, command, outcome) as an observation of the
        session, folded with the calls before it; no LLM involved."""
        from brainbridge.observations.calls import tool_event
        from brainbridge.observations.record import observe_events

        check_depth(tool_input, "tool_input")
        check_depth(tool_response, "tool_response")
        payload = {
            "session_id": session_id,
            "cwd": cwd,
            "tool_name": tool_name,
            "tool_input": tool_input or {},
            "tool_response": tool_response,
            "error": error,
            "exit_code": exit_code,
        }
        event = tool_event(payload)
        if event is None:
            return "Nothing to record: that call is noise (looking around, bookkeeping)."
        written = await observe_events(await brain(), [event])
        return f"Observed: {written[0].description}" if written else "Already recorded."

    @server.tool(structured_output=False, annotations=WRITES)
    @guarded
    async def relate(
        source: Annotated[str, Field(description="Name of the entity the relation starts at.")],
        relation: Annotated[str, Field(description="The relation, e.g. works_on, decided, owns.")],
        target: Annotated[str, Field(description="Name of the entity the relation points to.")],
        source_type: OptionalType = None,
        target_type: OptionalType = None,
    ) -> str:
        """Link two entities with a typed relation (give types when names are ambiguous)."""
        b = await brain()
        src = await _resolve(b, source, source_type, "source_type")
        dst = await _resolve(b, target, target_type, "target_type")
        rel = await b.relate(src, relation, dst)
        return (
            f"Linked {rel.src_type} '{rel.src_name}' -{rel.type}-> {rel.dst_type} '{rel.dst_name}'."
        )

    @server.tool(structured_output=False, annotations=READ_ONLY)
    @guarded
    async def get_entity(
        name: Annotated[str, Field(description="The entity's name.")],
        entity_type: OptionalType = None,
        hops: Annotated[
            int, Field(description=f"How far to show its neighbourhood (0-{MAX_HOPS}).")
        ] = 1,
    ) -> str:
        """One entity with its neighbourhood in the graph."""
        b = await brain()
        ref = await _resolve(b, name, entity_type, "entity_type")
        return entity_text(await b.subgraph(ref, hops=_clamp(hops, 0, MAX_HOPS)))

    @server.tool(structured_output=False, annotations=DELETES)
    @guarded
    async def forget(
        entity_type: EntityType,
        name: Annotated[
            str,
            Field(description="The name of the entity to delete (a session: its id)."),
        ],
        preview: Annotated[
            bool, Field(description="Only list what would be deleted; delete nothing.")
        ] = False,
    ) -> str:
        """Delete an entity and what was derived from it: its relations, vectors and index
        rows; for a Chat_Exchange the facts extracted only from it; for a Chat_Session its
        exchanges and observations. `preview` lists it first."""
        b = await brain()
        _check_types(b, [entity_type])
        try:
            plan = await b.forget((entity_type, name), preview=preview, via="mcp")
        except NotFound:
            return f"No {entity_type} named '{name}'."
        return forget_text(plan, entity_type, name)

    @server.tool(structured_output=False, annotations=WRITES)  # logs the turn in the session
    @guarded
    async def enrich(
        message: Annotated[str, Field(description="The user's message, as they wrote it.")],
        session_id: Annotated[
            str | None, Field(description="The chat session, so turns are logged together.")
        ] = None,
    ) -> str:
        """The Brain Context block the bridge would inject for this message (or why none)."""
        result = await (await bridge()).enrich(message, session_id)
        if result.block:
            return result.block
        return f"No brain context ({result.judgment.value}: {'; '.join(result.reasons)})."

    return server


def _version() -> str:
    """This package's version, for the client's server info (empty it said nothing)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("brainbridge")
    except PackageNotFoundError:
        return ""
