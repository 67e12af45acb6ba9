"""Writers on every front at once — the CLI (`brain import`, `brain add`), Claude Code's
hooks (Stop and UserPromptSubmit), an MCP client over stdio and the HTTP API — against one
brain: every write lands, no process fails, and the brain passes `brain check`."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from mcp import Client, StdioServerParameters

from api.served import serve_brain
from brainbridge.store.postgres.embedded import EmbeddedServer
from reliability.rig import HOOKS, Rig, entity_lines


def _scale(soak: bool) -> dict[str, int]:
    if soak:
        return {
            "importers": 6,
            "per_import": 3000,
            "adds": 20,
            "sessions": 6,
            "turns": 12,
            "mcp": 300,
            "http": 600,
        }
    return {
        "importers": 3,
        "per_import": 300,
        "adds": 4,
        "sessions": 3,
        "turns": 3,
        "mcp": 30,
        "http": 60,
    }


def _payload(event: str, session: str, i: int) -> bytes:
    """A Stop (the turn to store) or UserPromptSubmit (a question about it) payload."""
    fields: dict[str, str | bool] = {
        "session_id": session,
        "transcript_path": "",
        "cwd": "/home/dev/src/app",
        "hook_event_name": event,
    }
    if event == "Stop":
        fields |= {
            "stop_hook_active": False,
            "prompt": f"Turn {i} of {session}: we agreed the Orion release ships on day {i}",
            "last_assistant_message": f"Noted, Orion ships on day {i} ({session}).",
        }
    else:
        fields["prompt"] = f"When does the Orion release ship again, and what did we agree on {i}?"
    return json.dumps(fields).encode()


def test_cli_hooks_mcp_and_http_writing_at_once_lose_nothing(
    rig: Rig, tmp_path: Path, soak: bool
) -> None:
    _write_everywhere(rig, tmp_path, _scale(soak))


def test_twenty_writers_on_every_front_against_one_postgres_brain(
    rig: Rig,
    tmp_path: Path,
    soak: bool,
    pg_server: EmbeddedServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Twenty writing processes at once (importers, `brain add`, hook sessions, MCP, the
    HTTP server), all on one PostgreSQL brain; each write's latency is reported."""
    n = _scale(soak) | {"importers": 8, "adds": 6, "sessions": 8}
    n["adders"] = 2
    with pg_server.fresh_database("writers") as url:
        monkeypatch.setenv("BRAIN_DATABASE_URL", url)  # for `brain serve`
        rig.database_url = url
        rig.env["BRAIN_DATABASE_URL"] = url
        _write_everywhere(rig, tmp_path, n)
    assert n["importers"] + n["adders"] + n["sessions"] + 2 >= 20  # + MCP, + HTTP server


def _write_everywhere(rig: Rig, tmp_path: Path, n: dict[str, int]) -> None:
    rig.brain("init")
    files = []
    for k in range(n["importers"]):
        path = tmp_path / f"import-{k}.jsonl"
        path.write_text(entity_lines(f"cli{k}", n["per_import"]))
        files.append(path)
    sessions = [f"orion-{s}" for s in range(n["sessions"])]
    http_errors: list[str] = []

    def importer(path: Path) -> Callable[[], None]:
        return lambda: rig.brain("import", str(path))

    adders = n.get("adders", 1)

    def adder(a: int) -> None:
        for j in range(a, n["adds"], adders):
            rig.brain("add", "Person", f"cli-person-{j}", "-d", "added by hand")

    def hooks(session: str) -> None:
        for i in range(n["turns"]):
            rig.run([*HOOKS, "prompt"], input=_payload("UserPromptSubmit", session, i))
            rig.run([*HOOKS, "stop"], input=_payload("Stop", session, i))

    def mcp_writer() -> None:
        asyncio.run(_remember_over_mcp(rig, n["mcp"]))

    def http_writer(url: str, token: str) -> None:
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}) as http:
            for j in range(n["http"]):
                r = http.post(
                    "/entities",
                    json={"type": "Topic", "name": f"http-{j}", "description": "over HTTP"},
                    timeout=60,
                )
                if r.status_code != 200:
                    http_errors.append(f"POST /entities {j}: {r.status_code} {r.text[:200]}")

    with serve_brain(rig.home) as served:
        rig.figures.processes += 1
        jobs = [importer(p) for p in files] + [mcp_writer]
        jobs += [lambda a=a: adder(a) for a in range(adders)]  # type: ignore[misc]
        jobs += [lambda s=s: hooks(s) for s in sessions]  # type: ignore[misc]
        jobs.append(lambda: http_writer(served.url, served.token))
        with ThreadPoolExecutor(len(jobs)) as pool:
            for future in [pool.submit(job) for job in jobs]:
                future.result()
        rig.wait_drained()
    rig.figures.errors += http_errors
    rig.check()

    expected = {
        "Topic": {f"cli{k}-{i}" for k in range(n["importers"]) for i in range(n["per_import"])}
        | {f"mcp-{j}" for j in range(n["mcp"])}
        | {f"http-{j}" for j in range(n["http"])},
        "Person": {f"cli-person-{j}" for j in range(n["adds"])},
    }
    lost = sum(len(want - rig.names(etype)) for etype, want in expected.items())
    exchanges = rig.exchange_sessions()
    turns = len(sessions) * n["turns"]
    lost += max(0, turns - len(exchanges))
    rig.figures.lost = lost
    rig.figures.operations = sum(len(w) for w in expected.values()) + 2 * turns
    assert lost == 0
    assert sorted(exchanges) == sorted(s for s in sessions for _ in range(n["turns"])), Counter(
        exchanges
    )


async def _remember_over_mcp(rig: Rig, count: int) -> None:
    rig.figures.processes += 1
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "brainbridge.cli.main", "mcp"], env=rig.env
    )
    async with Client(server) as client:
        for j in range(count):
            result = await client.call_tool(
                "remember",
                {"entity_type": "Topic", "name": f"mcp-{j}", "description": "over MCP"},
            )
            if result.is_error:
                rig.figures.errors.append(f"MCP remember {j}: {result.content}")
