"""The CLI contract of the README's table: each command's main failure modes exit with
the code the table names and one line on stderr that says what to do (#35)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from cli.runner import BrainCli

USAGE, NOT_FOUND, BUSY, INVALID = 2, 3, 4, 2


def _one_line(result_err: str) -> bool:
    return len(result_err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        (("serach", "kevin"), USAGE, "Did you mean 'search'"),
        (("search",), USAGE, "missing argument 'QUERY'"),
        (("add", "Person"), USAGE, "missing argument 'NAME'"),
        (("search", "x", "-n", "many"), USAGE, "'many' is not a valid integer"),
        (("add", "Spaceship", "Enterprise"), INVALID, "unknown entity type 'Spaceship'"),
        (("show", "Nobody Here"), NOT_FOUND, "Nobody Here"),
        (("import", "/nonexistent/file.jsonl"), NOT_FOUND, "/nonexistent/file.jsonl"),
        (("import-notes", "/nonexistent/vault"), NOT_FOUND, "does not exist"),
        (("import-claude", "/nonexistent/transcripts"), NOT_FOUND, "does not exist"),
        (("restore", "/nonexistent/b.db", "--yes"), NOT_FOUND, "/nonexistent/b.db"),
    ],
)
def test_each_failure_has_its_code_and_one_line(
    cli: BrainCli, args: tuple[str, ...], code: int, says: str
) -> None:
    cli.ok("init")
    result = cli(*args)
    assert result.code == code, (args, result.err)
    assert says in result.err and _one_line(result.err), result.err


def test_a_mistyped_brain_folder_is_not_an_empty_brain(cli: BrainCli, tmp_path: Path) -> None:
    typo = tmp_path / ".brian"
    result = cli("--brain", str(typo), "stats")
    assert result.code == NOT_FOUND and f"no brain at {typo}" in result.err
    assert f"brain --brain {typo} init" in result.err and _one_line(result.err)
    assert not typo.exists()


def test_restore_without_a_terminal_asks_for_yes_instead_of_reading_ctrl_c(
    cli: BrainCli, tmp_path: Path
) -> None:
    cli.ok("init")
    cli.ok("backup", str(tmp_path / "b.db"))
    result = cli("restore", str(tmp_path / "b.db"), input="")
    assert result.code == INVALID and "--yes" in result.err and _one_line(result.err)


def test_an_unknown_llm_provider_is_invalid_with_the_name_it_may_mean(cli: BrainCli) -> None:
    cli.ok("init")
    (cli.home / "config.toml").write_text('[llm]\nprovider = "antropic"\n', "utf-8")
    result = cli("stats")
    assert result.code == INVALID and "did you mean 'anthropic'" in result.err
    doctor = cli("doctor")
    assert doctor.code == 1 and "unknown LLM provider 'antropic'" in doctor.out


def test_chat_lists_every_missing_step_at_once(cli: BrainCli) -> None:
    cli.ok("init")
    result = cli(
        "chat",
        input="",
        env={"BRAIN_LLM_PROVIDER": "openai", "BRAIN_LLM_BASE_URL": "http://127.0.0.1:9/v1"},
    )
    assert result.code == INVALID and "http://127.0.0.1:9/v1 does not answer" in result.err
    bare = cli("chat", input="")
    assert bare.code == INVALID and "needs an LLM" in bare.err


def test_serve_on_a_busy_port_says_so_and_exits_busy(cli: BrainCli) -> None:
    cli.ok("init")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("serve", "--port", str(port))
    assert result.code == BUSY and f"port {port} on 127.0.0.1 is in use" in result.err
    assert "Errno" not in result.err and _one_line(result.err)


def test_doctor_stats_and_the_server_count_alike(cli: BrainCli, tmp_path: Path) -> None:
    """One set of counts (#35): doctor's line is made of the numbers stats reports, and the
    size counts the write-ahead log too."""
    folder = tmp_path / "demo"
    cli.ok("demo", str(folder), "--json")
    stats = cli.ok("--brain", str(folder), "stats", "--json").json()
    assert stats["entities"] == stats["knowledge"] + sum(
        n
        for t, n in stats["entities_by_type"].items()
        if t in ("Chat_Exchange", "Chat_Session", "Journal_Entry")
    )
    line = (
        f"{stats['entities']} entities ({stats['knowledge']} knowledge,"
        f" {stats['exchanges']} exchanges)"
    )
    assert line in cli("--brain", str(folder), "doctor").out
    on_disk = sum(f.stat().st_size for f in folder.glob("brain.db*"))
    assert stats["bytes"] == on_disk
