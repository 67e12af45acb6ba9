"""`brain import-chatgpt` and `brain import-claude-ai`: the official exports (the .zip or
its conversations.json) become sessions and dated exchanges, once."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from cli.runner import BrainCli

DATA = Path(__file__).parent.parent / "data" / "exports"
CHATGPT = DATA / "chatgpt" / "conversations.json"
CLAUDE_AI = DATA / "claude_ai" / "conversations.json"


def _zipped(source: Path, target: Path, inside: str = "conversations.json") -> Path:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("user.json", '{"id": "user-1"}')
        archive.write(source, inside)
        archive.writestr("chat.html", "<html></html>")
    return target


def _exchange(cli: BrainCli, name: str) -> dict:
    return cli.ok("show", name, "--json").json()["entity"]["attributes"]


def test_a_chatgpt_export_follows_the_branch_the_user_kept(cli: BrainCli, tmp_path: Path) -> None:
    said = cli.ok("import-chatgpt", str(_zipped(CHATGPT, tmp_path / "export.zip"))).out
    assert "4 exchanges imported from 2 conversations (0 already there)" in said

    first = _exchange(cli, "67e2a1f0:ex:1")
    assert first["date"] == "2024-03-02"
    assert first["user_message"].startswith("We decided to host the quarkplinth offsite")
    assert "strategy sessions" in first["ai_response"]  # the regenerated answer, not the draft
    second = _exchange(cli, "67e2a1f0:ex:2")
    assert second["date"] == "2024-03-03"
    assert second["ai_response"] == "That is 7.5 hours of sessions over the two days."
    third = _exchange(cli, "67e2a1f0:ex:3")
    assert third["user_message"] == "Is this hall big enough for forty people?"
    assert cli("show", "67e2a1f0:ex:4").code == 3
    assert cli.ok("show", "Decision:Host the quarkplinth offsite in Tbilisi next spring")

    found = cli.ok("search", "Batumi by the sea", "--json").json()["results"]
    assert all("Batumi" not in r["description"] for r in found)  # the abandoned draft
    sessions = cli.ok("sessions", "--json").json()
    titles = {s["id"]: s["title"] for s in sessions}
    assert titles["67e2a1f0-3b4c-8005-9a1e-5d2c0b7f4e11"] == "Quarkplinth offsite agenda"

    again = cli.ok("import-chatgpt", str(CHATGPT)).out  # the json itself, same conversations
    assert "0 exchanges imported from 2 conversations (4 already there)" in again


def test_a_claude_ai_export_keeps_its_dates(cli: BrainCli, tmp_path: Path) -> None:
    said = cli.ok("import-claude-ai", str(CLAUDE_AI)).out
    assert "3 exchanges imported from 3 conversations (0 already there)" in said
    first = _exchange(cli, "b1f3c5d7:ex:1")
    assert first["date"] == "2024-05-06" and "zorvex batch jobs" in first["user_message"]
    assert _exchange(cli, "b1f3c5d7:ex:2")["date"] == "2024-05-07"
    budget = _exchange(cli, "0f9e8d7c:ex:1")  # text only in content blocks; tool use left out
    assert budget["ai_response"].startswith("The budget is 900 euros per student")
    assert "web_search" not in budget["ai_response"]

    nested = _zipped(CLAUDE_AI, tmp_path / "data-2024-06-20.zip", "data/conversations.json")
    again = cli.ok("import-claude-ai", str(nested)).out
    assert "0 exchanges imported from 3 conversations (3 already there)" in again


def test_a_missing_export_exits_3(cli: BrainCli, tmp_path: Path) -> None:
    for command in ("import-chatgpt", "import-claude-ai"):
        missing = cli(command, str(tmp_path / "nope.zip"))
        assert missing.code == 3 and "does not exist" in missing.err


@pytest.mark.parametrize(
    ("command", "content", "says"),
    [
        ("import-chatgpt", b'[{"title": "x", "mapping": ', "not valid JSON"),
        ("import-chatgpt", b'{"conversations": []}', "not a ChatGPT export"),
        ("import-chatgpt", CLAUDE_AI.read_bytes(), "has no 'mapping'"),
        ("import-claude-ai", CHATGPT.read_bytes(), "has no 'chat_messages'"),
        ("import-claude-ai", b"PK\x03\x04 not really a zip", "not valid JSON"),
    ],
)
def test_a_malformed_export_exits_2_with_one_line(
    cli: BrainCli, tmp_path: Path, command: str, content: bytes, says: str
) -> None:
    path = tmp_path / "conversations.json"
    path.write_bytes(content)
    bad = cli(command, str(path))
    assert bad.code == 2 and says in bad.err, bad.err
    assert len(bad.err.strip().splitlines()) == 1


def test_a_zip_without_conversations_exits_2(cli: BrainCli, tmp_path: Path) -> None:
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("user.json", "{}")
    bad = cli("import-chatgpt", str(path))
    assert bad.code == 2 and "holds no conversations.json" in bad.err


def test_what_was_forgotten_is_not_imported_again(cli: BrainCli) -> None:
    cli.ok("import-claude-ai", str(CLAUDE_AI))
    cli.ok("forget", "session:b1f3c5d7-2a4e-4b6c-8d0f-1e2a3b4c5d6e", "--yes")
    cli.ok("forget", "0f9e8d7c:ex:1", "--yes")
    again = cli.ok("import-claude-ai", str(CLAUDE_AI)).out
    assert "0 exchanges imported from 3 conversations (0 already there, 3 forgotten)" in again
    assert cli("show", "b1f3c5d7:ex:1").code == 3
    assert cli("show", "0f9e8d7c:ex:1").code == 3
