"""`brain mcp` answers the handshake before the SDK has loaded, and hands over cleanly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from brainbridge.brain import Brain
from brainbridge.mcp.manifest import load_manifest, record
from cli.runner import clean_env


async def test_the_stored_manifest_is_what_the_sdk_answers() -> None:
    # Fails after a tool changes until `python -m brainbridge.mcp.manifest` is run.
    assert load_manifest() == await record()


def _session(home: Path, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send the messages, read one reply per request, then close stdin: nothing more comes."""
    env = clean_env(BRAIN_HOME=str(home))
    proc = subprocess.Popen(
        [sys.executable, "-m", "brainbridge.cli.main", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    for message in messages:
        proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()
    replies = [json.loads(proc.stdout.readline()) for m in messages if "id" in m]
    proc.stdin.close()
    rest = proc.stdout.read()
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0
    assert rest == b"", rest  # no second answer to anything
    return replies


def _initialize(version: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }


async def test_one_answer_per_request_across_the_hand_over(tmp_path: Path) -> None:
    home = tmp_path / "brain"
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        await brain.upsert_entity("Person", "Ana Souza", {}, "Owns the proxy's Helm chart.")
    replies = _session(
        home,
        [
            _initialize("2025-06-18"),
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 3, "method": "ping"},
            {
                "jsonrpc": "2.0",
                "id": 4,
                "method": "tools/call",
                "params": {"name": "search", "arguments": {"query": "helm chart"}},
            },
        ],
    )
    # The SDK's own answer to the replayed initialize is dropped: one reply per id.
    assert [r["id"] for r in replies] == [1, 2, 3, 4]
    manifest = load_manifest()
    assert manifest is not None
    assert replies[0]["result"] == manifest["initialize"]["2025-06-18"]
    assert {t["name"] for t in replies[1]["result"]["tools"]} >= {"remember", "search", "recall"}
    assert replies[2]["result"] == {}
    assert "result" in replies[3], replies[3]
    assert "Ana Souza" in replies[3]["result"]["content"][0]["text"]


async def test_a_version_the_manifest_lacks_waits_for_the_sdk(tmp_path: Path) -> None:
    replies = _session(
        tmp_path / "brain",
        [
            _initialize("1999-01-01"),
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ],
    )
    # The SDK counter-offers its newest handshake version; tools/list follows it.
    assert [r["id"] for r in replies] == [1, 2]
    assert replies[0]["result"]["protocolVersion"] != "1999-01-01"
    assert replies[1]["result"]["tools"]


async def test_claude_codes_stateless_probe_is_answered_and_the_listen_acknowledged_once(
    tmp_path: Path,
) -> None:
    """What Claude Code 2.1.331 sends first: `server/discover`, a listen stream (it waits
    for the acknowledgement), then the lists, each request carrying the 2026-07-28 version."""
    home = tmp_path / "brain"
    async with await Brain.open(home, embedder=None, background_indexing=False) as brain:
        await brain.upsert_entity("Person", "Ana Souza", {}, "Owns the proxy's Helm chart.")
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "claude-code", "version": "2.1.331"},
        "io.modelcontextprotocol/clientCapabilities": {"roots": {"listChanged": True}},
    }
    asked = {"toolsListChanged": True, "promptsListChanged": True, "resourcesListChanged": True}

    def request(id_: str | int, method: str, **params: Any) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": id_, "method": method, "params": {"_meta": meta, **params}}

    env = clean_env()
    proc = subprocess.Popen(
        [sys.executable, "-m", "brainbridge.cli.main", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**env, "BRAIN_HOME": str(home)},
    )
    assert proc.stdin is not None and proc.stdout is not None
    for message in [
        request("probe", "server/discover"),
        request("listen:0", "subscriptions/listen", notifications=asked),
        request(0, "server/discover"),
        request(1, "tools/list"),
        request(2, "tools/call", name="search", arguments={"query": "helm chart"}),
    ]:
        proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()
    seen: list[dict[str, Any]] = []
    while not any(m.get("id") == 2 for m in seen):
        seen.append(json.loads(proc.stdout.readline()))
    proc.stdin.close()
    seen += [json.loads(line) for line in proc.stdout.read().splitlines()]
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0

    acks = [m for m in seen if m.get("method") == "notifications/subscriptions/acknowledged"]
    assert len(acks) == 1 and acks[0]["params"]["notifications"] == asked
    assert acks[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "listen:0"
    by_id = {m["id"]: m for m in seen if "id" in m}
    assert by_id["probe"]["result"]["supportedVersions"] == ["2026-07-28"]
    assert {t["name"] for t in by_id[1]["result"]["tools"]} >= {"remember", "search"}
    assert "Ana Souza" in by_id[2]["result"]["content"][0]["text"]
    # Each request answered once; the listen stream ends with the session.
    assert sorted(str(m["id"]) for m in seen if "id" in m) == sorted(
        ["probe", "0", "1", "2", "listen:0"]
    )
