"""A key in an entity's name or in a bookkeeping attribute is redacted like one in its
description, whichever way it comes in (CLI, MCP stdio, HTTP, import-notes) and in
`brain export`; ids, UUIDs and paths without a key stay exactly as written (issue #31)."""

from __future__ import annotations

import json
import random
import sqlite3
import string
import sys
from contextlib import closing
from pathlib import Path

from mcp import Client, StdioServerParameters

from api.served import serve_brain
from cli.runner import BrainCli

_RNG = random.Random(3131)
_ALNUM = string.ascii_letters + string.digits


def _random(n: int) -> str:
    return "".join(_RNG.choice(_ALNUM) for _ in range(n))


# Synthetic keys of the providers' published shapes (random characters, never real keys).
GITHUB = "ghp_" + _random(36)
OPENAI = "sk-proj-" + _random(48)
STRIPE = "sk_live_" + _random(24)
GOOGLE = "AIza" + _random(35)
ANTHROPIC = "sk-ant-api03-" + _random(93) + "AA"
KEYS = (GITHUB, OPENAI, STRIPE, GOOGLE, ANTHROPIC)


def _stored(home: Path) -> str:
    with closing(sqlite3.connect(home / "brain.db")) as conn:
        rows = conn.execute("SELECT name, description, attributes FROM entities").fetchall()
    return json.dumps(rows)


def _leaked(text: str) -> list[str]:
    return [k for k in KEYS if k in text]


def test_cli_add_with_a_key_in_the_name_stores_and_exports_none(cli: BrainCli) -> None:
    cli.ok("add", "Document", f"deploy key {GITHUB}")
    cli.ok("add", "Topic", "billing", "-a", f"session_id={STRIPE}", "-a", f"slug=key-{OPENAI}")
    assert _leaked(_stored(cli.home)) == []
    # The name as typed still finds what was stored (the same redactor on the lookup).
    shown = cli.ok("show", f"Document:deploy key {GITHUB}", "--json").json()["entity"]
    assert shown["name"] == "deploy key [REDACTED:github_token]"
    assert _leaked(cli.ok("export").out) == []


def test_bookkeeping_values_without_a_key_stay_exactly_as_written(cli: BrainCli) -> None:
    values = {
        "session_id": "9f1c2a7e-5b3d-4c8e-a1f0-6d2b7e9c4a10",
        "doc_path": "/home/dev/notes/Projects/api-key-rotation.md",
        "slug": "token-budget-notes",
        "content_hash": "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881",
        "turn_key": "9f1c2a7e-5b3d-4c8e-a1f0-6d2b7e9c4a10/a1fce4363854ff888cff4b8e7875d600",
    }
    args = [a for k, v in values.items() for a in ("-a", f"{k}={v}")]
    cli.ok("add", "Document", "notes/api-key-rotation.md", *args)
    shown = cli.ok("show", "Document:notes/api-key-rotation.md", "--json").json()["entity"]
    assert {k: shown["attributes"][k] for k in values} == values


async def test_mcp_remember_and_http_with_a_key_as_the_name(cli: BrainCli) -> None:
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "brainbridge.cli.main", "mcp"], env=cli.env
    )
    async with Client(server) as client:
        result = await client.call_tool(
            "remember", {"entity_type": "Topic", "name": OPENAI, "description": "ci key"}
        )
        assert not result.is_error
        assert OPENAI not in json.dumps([c.model_dump() for c in result.content])
    with serve_brain(cli.home) as served, served.client() as http:
        r = http.post(
            "/entities",
            json={"type": "Topic", "name": f"maps {GOOGLE}", "attributes": {"slug": ANTHROPIC}},
        )
        assert r.status_code == 200
        assert _leaked(r.text) == []
    assert _leaked(_stored(cli.home)) == []
    assert "[REDACTED:openai_key]" in _stored(cli.home)


def test_import_notes_with_keys_in_frontmatter_file_name_and_title(
    cli: BrainCli, tmp_path: Path
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / f"stripe {STRIPE}.md").write_text(
        f"---\napi_key: {GITHUB}\ntitle: keys {OPENAI}\n---\n# Billing\n\nWe bill monthly.\n",
        "utf-8",
    )
    (vault / "maps.md").write_text(f"# Maps {GOOGLE}\n\nThe map tiles.\n", "utf-8")
    cli.ok("import-notes", str(vault), "--json")
    stored = _stored(cli.home)
    assert "monthly" in stored or "Billing" in stored
    assert _leaked(stored) == []
    assert _leaked(cli.ok("export").out) == []
