"""`brain doctor`: each link of the Claude Code chain, checked as a user's machine has it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from api.served import serve_env
from cli.runner import COMMAND


def doctor(tmp_path: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    user = tmp_path / "user"
    user.mkdir(exist_ok=True)
    return subprocess.run(
        [*COMMAND, "doctor", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env=serve_env(home, HOME=str(user), CLAUDE_CONFIG_DIR=str(user / ".claude")),
    )


def brain(tmp_path: Path, home: Path, *args: str) -> None:
    user = tmp_path / "user"
    user.mkdir(exist_ok=True)
    env = serve_env(home, HOME=str(user), CLAUDE_CONFIG_DIR=str(user / ".claude"))
    proc = subprocess.run(
        [*COMMAND, *args], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env
    )
    assert proc.returncode == 0, proc.stderr


def test_a_bare_machine_gets_one_fix_per_missing_link(tmp_path: Path) -> None:
    r = doctor(tmp_path, tmp_path / "nowhere")
    assert r.returncode == 1
    assert "PROBLEM no brain at" in r.stdout and "→ brain init" in r.stdout
    assert "PROBLEM no brain hooks in Claude Code's settings" in r.stdout
    assert "→ brain hooks install --user" in r.stdout
    assert "PROBLEM the brain's MCP server is not registered" in r.stdout
    assert "claude mcp add --scope user brain -e BRAIN_HOME=" in r.stdout


def test_json_lists_the_same_checks_for_scripts(tmp_path: Path) -> None:
    r = doctor(tmp_path, tmp_path / "nowhere", "--json")
    assert r.returncode == 1
    data = json.loads(r.stdout)
    problems = [c for c in data["checks"] if c["level"] == "problem"]
    assert data["problems"] == len(problems) >= 3
    assert any(c["what"].startswith("no brain at") and c["fix"] for c in problems)


def test_a_complete_setup_is_all_good_and_stale_parts_are_named(tmp_path: Path) -> None:
    home = tmp_path / "brain"
    brain(tmp_path, home, "init")
    brain(tmp_path, home, "hooks", "install", "--user")
    claude = tmp_path / "user" / ".claude"
    (claude / ".claude.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "brain": {
                        "type": "stdio",
                        "command": COMMAND[0],
                        "args": [*COMMAND[1:], "mcp"],
                        "env": {"BRAIN_HOME": str(home)},
                    }
                }
            }
        )
    )
    r = doctor(tmp_path, home)
    assert r.returncode == 0, r.stdout
    assert "ok      hooks registered in" in r.stdout and "MCP server registered" in r.stdout
    assert "brain serve is not running" in r.stdout and "all good" in r.stdout

    # An older install: async Stop (cancelled by `claude -p`), and a server that died.
    settings = claude / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["Stop"][0]["hooks"][0]["async"] = True
    settings.write_text(json.dumps(data))
    (home / "server.json").write_text(json.dumps({"url": "http://127.0.0.1:9", "token": "x"}))
    (home / "spool").mkdir()
    (home / "spool" / "pending.jsonl").write_text(
        json.dumps({"v": 1, "key": "k1", "session_id": "s", "prompt": "p", "reply": "r"}) + "\n"
    )
    r = doctor(tmp_path, home)
    assert r.returncode == 1
    assert "the Stop hook in" in r.stdout and "is async" in r.stdout
    assert "nothing answers there" in r.stdout
    assert "1 turn(s) wait in" in r.stdout and "-m brainbridge.hooks drain" in r.stdout
