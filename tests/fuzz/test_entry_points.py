"""Bad input everywhere: every entry point that parses outside input, fed by Hypothesis.

Each property is the same promise: a clear error of the documented kind (BrainError for
the Python API, a 4xx for HTTP, an error result for MCP, {} for a hook) and never a
traceback; and what was stored before is still there afterwards.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mcp import Client

from brainbridge.api.app import ServerConfig, create_app
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.directives.bridge import DirectiveBridge
from brainbridge.directives.classify import classify
from brainbridge.errors import BrainError
from brainbridge.hooks.payload import read_payload
from brainbridge.hooks.spool import turn_record
from brainbridge.hooks.work import run_hook
from brainbridge.mcp import build_server
from brainbridge.store.sqlite.db import connect
from brainbridge.store.sqlite.directives import SqliteDirectiveStore
from brainbridge.transfer import import_lines
from brainbridge.vault.parse import NotText, parse_note

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# Text that breaks parsers: FTS operators, quotes, control characters, lone surrogates'
# neighbours, very long words, JSON and YAML punctuation.
NASTY = st.sampled_from(
    [
        'AND OR NOT NEAR( "',
        "*",
        "^",
        "col:val",
        '"unbalanced',
        "\x00\x1f\x7f",
        "---\nkey: [\n---",
        "{}[]:,",
        "a" * 5000,
        "🚀 Zoë Ångström",
        "\\u0000",
        "' OR 1=1 --",
        "\r\n\t",
    ]
)
TEXT = st.one_of(st.text(max_size=400), NASTY, st.lists(NASTY, max_size=5).map(" ".join))
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | TEXT,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("fuzz") / "brain"

    async def seed() -> None:
        async with await Brain.open(path, embedder=None, background_indexing=False) as brain:
            await brain.upsert_entity("Person", "Ada Lovelace", description="wrote programs")

    run(seed())
    yield path


# -- hooks ---------------------------------------------------------------------------


@FUZZ
@given(raw=st.binary(max_size=2000) | JSONISH.map(lambda v: json.dumps(v).encode()))
def test_any_hook_stdin_reads_as_an_object(raw: bytes) -> None:
    assert isinstance(read_payload(io.BytesIO(raw)), dict)


@FUZZ
@given(
    kind=st.sampled_from(["prompt", "session-start", "stop"]),
    payload=st.dictionaries(
        st.sampled_from(["prompt", "session_id", "cwd", "transcript_path", "hook_event_name"])
        | st.text(max_size=8),
        JSONISH,
        max_size=6,
    ),
)
@example(kind="stop", payload={"transcript_path": "\x00"})  # found by CI: a NUL in the path
def test_any_hook_payload_is_answered_without_an_exception(
    home: Path, kind: str, payload: dict[str, Any]
) -> None:
    if kind == "stop":
        record = turn_record(payload)
        assert record is None or isinstance(record["prompt"], str)
        return

    async def hook() -> dict[str, Any]:
        async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
            bridge = Bridge(brain)
            try:
                return await run_hook(brain, kind, payload, bridge)
            finally:
                await bridge.drain()

    result = run(hook())
    assert result.get("context") is None or isinstance(result["context"], str)


# -- JSONL import --------------------------------------------------------------------

ENTITY = st.builds(
    lambda name: json.dumps({"kind": "entity", "type": "Person", "name": name}),
    st.text(min_size=1, max_size=30).filter(str.strip),
)
LINE = st.one_of(ENTITY, TEXT, JSONISH.map(json.dumps), st.just('{"kind": "session"}'))


@FUZZ
@given(lines=st.lists(LINE, max_size=12), skip_bad=st.booleans())
def test_any_jsonl_import_keeps_what_was_stored(
    tmp_path: Path, lines: list[str], skip_bad: bool
) -> None:
    store_path = tmp_path / f"import-{abs(hash(tuple(lines)))}-{skip_bad}.db"
    from brainbridge.store.sqlite.store import SqliteStore
    from brainbridge.types import load_types

    store = SqliteStore.open(store_path)
    types = load_types(tmp_path / "no-such-types.yaml")
    try:
        store.upsert_entity("Person", "Kept Before")
        try:
            done = import_lines(store, lines, types, skip_bad=skip_bad)
            assert all(isinstance(n, int) for n, _ in done.skipped)
        except BrainError:
            assert not skip_bad  # with --skip-bad only a locked database would stop it
        assert store.get_entity("Person", "Kept Before") is not None
    finally:
        store.close()


# -- Markdown and frontmatter ----------------------------------------------------------


@FUZZ
@given(
    raw=st.one_of(
        st.binary(max_size=3000),
        st.tuples(TEXT, JSONISH.map(str), TEXT).map(
            lambda t: f"---\n{t[0]}: {t[1]}\n---\n{t[2]}".encode("utf-8", "surrogatepass")
        ),
    )
)
def test_any_note_file_parses_or_is_skipped_as_binary(tmp_path: Path, raw: bytes) -> None:
    note = tmp_path / "note.md"
    note.write_bytes(raw)
    try:
        parsed = parse_note(note, tmp_path)
    except NotText:
        assert b"\x00" in raw
        return
    assert isinstance(parsed.body, str)


# -- directive messages ------------------------------------------------------------------


@FUZZ
@given(text=TEXT, author=st.text(max_size=20), owner=st.booleans())
def test_any_directive_message_is_stored_or_refused_clearly(
    tmp_path: Path, text: str, author: str, owner: bool
) -> None:
    assert classify(text).category
    bridge = DirectiveBridge(SqliteDirectiveStore(connect(tmp_path / "d.db")))
    try:
        bridge.add_message("ops", author, text, at=datetime.now(UTC), author_is_owner=owner)
    except BrainError:
        return
    assert isinstance(bridge.build(datetime.now(UTC)).text, str)


# -- search queries --------------------------------------------------------------------


@FUZZ
@given(query=TEXT)
def test_any_search_query_returns_results_or_a_clear_error(home: Path, query: str) -> None:
    async def search() -> None:
        async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
            try:
                hits = await brain.search(query)
            except BrainError:
                return
            assert isinstance(hits, list)

    run(search())


# -- HTTP bodies -------------------------------------------------------------------------

TOKEN = "fuzz-token-0123456789"
ROUTES = [
    ("POST", "/entities"),
    ("POST", "/relations"),
    ("POST", "/recall"),
    ("POST", "/merges"),
    ("POST", "/brain-context"),
    ("POST", "/enrich"),
    ("POST", "/observe"),
    ("PATCH", "/sessions/s1"),
    ("POST", "/hooks/prompt"),
    ("GET", "/search?q=%22unbalanced%20AND%20*"),
]


@FUZZ
@given(
    route=st.sampled_from(ROUTES),
    body=st.one_of(JSONISH.map(json.dumps), TEXT, st.binary(max_size=300)),
)
def test_any_http_body_gets_a_4xx_or_an_answer_never_a_500(
    home: Path, route: tuple[str, str], body: str | bytes
) -> None:
    app = create_app(ServerConfig(home, embedder="hashing", token=TOKEN))  # type: ignore[arg-type]

    async def call() -> int:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                response = await c.request(
                    route[0],
                    route[1],
                    content=body,
                    headers={
                        "Authorization": f"Bearer {TOKEN}",
                        "Content-Type": "application/json",
                    },
                )
                return response.status_code

    status = run(call())
    assert status < 500, (route, body)


# -- MCP tool arguments -------------------------------------------------------------------

TOOL_ARGS = {
    "search": ["query", "num_results", "entity_types"],
    "recall": ["query", "num_results"],
    "remember": ["entity_type", "name", "description", "attributes"],
    "relate": ["source", "relation", "target"],
    "get_entity": ["name", "entity_type", "hops"],
    "forget": ["name", "entity_type"],
    "enrich": ["message", "session_id"],
    "brain_context": ["project_root", "recent_files"],
    "invalidate": ["name", "on"],
    "merges": ["action", "merge_id"],
}


@FUZZ
@given(
    tool=st.sampled_from(sorted(TOOL_ARGS)),
    values=st.lists(JSONISH, min_size=4, max_size=4),
)
def test_any_mcp_tool_arguments_give_a_result_or_a_tool_error(
    home: Path, tool: str, values: list[Any]
) -> None:
    server = build_server(lambda: Brain.open(home, embedder="hashing"))
    args = dict(zip(TOOL_ARGS[tool], values, strict=False))

    async def call() -> None:
        async with Client(server) as client:
            result = await client.call_tool(tool, args)
            assert result.content  # a text block, an error's included

    run(call())
