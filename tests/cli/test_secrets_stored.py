"""No way into the brain stores a pasted secret: `brain add`, `brain import`, MCP's
`remember` and the HTTP API all redact before writing, and `brain export` redacts on the
way out what an older version stored raw."""

from __future__ import annotations

import json
import sqlite3
import sys
from contextlib import closing

from mcp import Client, StdioServerParameters

from api.served import serve_brain
from cli.runner import BrainCli

TOKEN = "ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"
PASSWORD = "password=Tr0ub4dor&3x"


def _stored(cli: BrainCli) -> str:
    with closing(sqlite3.connect(cli.home / "brain.db")) as conn:
        return json.dumps(conn.execute("SELECT description, attributes FROM entities").fetchall())


async def test_every_way_in_redacts_and_export_redacts_on_the_way_out(cli: BrainCli) -> None:
    said = cli.ok("add", "Person", "Ana", "-d", f"her token {TOKEN}", "-a", f"note={PASSWORD}")
    assert "secret" in said.err
    line = {"kind": "entity", "type": "Topic", "name": "deploy", "description": PASSWORD}
    cli.ok("import", "-", input=json.dumps(line) + "\n")

    server = StdioServerParameters(
        command=sys.executable, args=["-m", "brainbridge.cli.main", "mcp"], env=cli.env
    )
    async with Client(server) as client:
        result = await client.call_tool(
            "remember", {"entity_type": "Topic", "name": "ci", "description": f"uses {TOKEN}"}
        )
        assert not result.is_error
    with serve_brain(cli.home) as served, served.client() as http:
        r = http.post("/entities", json={"type": "Topic", "name": "api", "description": TOKEN})
        assert r.status_code == 200

    stored = _stored(cli)
    assert TOKEN not in stored and "Tr0ub4dor" not in stored
    assert stored.count("[REDACTED:") == 5

    with closing(sqlite3.connect(cli.home / "brain.db")) as conn, conn:  # as an old version
        conn.execute("UPDATE entities SET description = ? WHERE name = 'Ana'", (TOKEN,))
    exported = cli.ok("export").out
    assert TOKEN not in exported and "[REDACTED:github_token]" in exported
