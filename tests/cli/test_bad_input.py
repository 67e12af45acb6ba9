"""Bad input gets one clear line on stderr and a meaningful exit code, never a traceback."""

from __future__ import annotations

import pytest

from cli.runner import BrainCli


def test_unknown_type_exits_2_naming_the_known_types(cli: BrainCli) -> None:
    result = cli("add", "Spaceship", "Enterprise")
    assert result.code == 2
    assert result.err.startswith("brain: error: unknown entity type 'Spaceship'")
    for known in ("Person", "Project", "Document", "Decision", "Commitment", "Chat_Exchange"):
        assert known in result.err
    assert result.err.count("\n") == 1  # one line


def test_badly_typed_attributes_exit_2(cli: BrainCli) -> None:
    wrong_kind = cli("add", "Decision", "Use SQLite", "-a", "decided_on=20240101")
    assert wrong_kind.code == 2 and "Decision.decided_on must be date" in wrong_kind.err
    not_a_date = cli("add", "Decision", "Use SQLite", "-a", "decided_on=2024-02-31")
    assert not_a_date.code == 2 and "decided_on" in not_a_date.err
    off_enum = cli("add", "Project", "Atlas", "-a", "status=someday")
    assert off_enum.code == 2 and "active" in off_enum.err
    assert cli("show", "Atlas").code == 3  # nothing half-written


def test_malformed_attr_option_exits_2(cli: BrainCli) -> None:
    for bad in ("role", "=x"):
        result = cli("add", "Person", "Ada", "-a", bad)
        assert result.code == 2 and "expected key=value" in result.err


def test_empty_and_overlong_names_exit_2(cli: BrainCli) -> None:
    assert cli("add", "Person", "   ").code == 2
    result = cli("add", "Person", "x" * 600)
    assert result.code == 2 and "longer than" in result.err


def test_a_5_mb_description_from_stdin_is_stored_cut(cli: BrainCli) -> None:
    text = "The orbital mechanics notebook. " + "filler words here " * 300_000
    assert len(text) > 5_000_000
    result = cli.ok("add", "Document", "Huge", "-d", "-", "--json", input=text)
    stored = result.json()["description"]
    assert text.startswith(stored) and 0 < len(stored) < len(text)
    assert "description was cut" in result.err
    found = cli.ok("search", "orbital mechanics", "--json").json()
    # The document, and the passage of it that holds the words (long documents are
    # searched by passage), nothing else.
    names = [r["name"] for r in found["results"]]
    assert "Huge" in names and all(n.startswith("Huge") for n in names)


def test_invalid_utf8_on_stdin_is_refused(cli: BrainCli) -> None:
    result = cli("add", "Document", "Bytes", "-d", "-", input=b"caf\xe9")
    assert result.code == 2 and "not valid UTF-8" in result.err
    query = cli("search", "-", input=b"\xff\xfe")
    assert query.code == 2 and "not valid UTF-8" in query.err


def test_a_broken_config_file_is_named(cli: BrainCli) -> None:
    cli.ok("init")
    config = cli.home / "config.toml"
    config.write_text("[search]\nembedder = \n")
    result = cli("stats")
    assert result.code == 2
    assert str(config) in result.err and "not valid TOML" in result.err


def test_a_config_value_of_the_wrong_kind_is_named(cli: BrainCli) -> None:
    cli.ok("init")
    (cli.home / "config.toml").write_text('[bridge]\nbudget_tokens = "lots"\n')
    result = cli("stats")
    assert result.code == 2 and "bridge.budget_tokens" in result.err


def test_config_toml_chooses_the_embedder_and_env_wins(cli: BrainCli) -> None:
    cli.ok("init")
    (cli.home / "config.toml").write_text('[search]\nembedder = "none"\n')
    no_env = {"BRAIN_EMBEDDER": ""}
    assert cli.ok("stats", "--json", env=no_env).json()["embedder"] == "none"
    assert cli.ok("stats", "--json").json()["embedder"] == "hashing"


def test_unknown_commands_and_options_are_usage_errors(cli: BrainCli) -> None:
    assert cli("frobnicate").code == 2
    result = cli("search", "x", "--colour")
    assert result.code == 2 and "no such option" in result.err
    assert cli("show", "x", "--hops", "99").code == 2


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("serach", "x"), "brain: no such command 'serach'. Did you mean 'search'"),
        (("directives", "shwo"), "brain directives: no such command 'shwo'. Did you mean 'show'"),
        (("users", "ad", "bob"), "Did you mean 'add'"),
        (("search",), "brain search: missing argument 'QUERY' (see 'brain search --help')"),
        (("show", "--bogus", "x"), "brain show: no such option '--bogus'"),
    ],
)
def test_a_usage_error_is_one_line_with_a_suggestion_and_the_help_to_read(
    cli: BrainCli, args: tuple[str, ...], says: str
) -> None:
    result = cli(*args)
    assert result.code == 2 and says in result.err
    assert len(result.err.strip().splitlines()) == 1, result.err


def test_a_damaged_database_file_is_one_line_not_a_traceback(cli: BrainCli) -> None:
    cli.home.mkdir()
    (cli.home / "brain.db").write_bytes(b"this is not a database " * 100)
    result = cli("stats")
    assert result.code == 1 and "not a usable brain database (file is not a database)" in result.err
    assert "Traceback" not in result.err and len(result.err.strip().splitlines()) == 1


def test_a_brain_path_that_is_a_file_is_refused(cli: BrainCli) -> None:
    cli.home.parent.mkdir(exist_ok=True)
    cli.home.write_text("not a folder")
    result = cli("add", "Person", "Ada")
    assert result.code in (1, 2) and str(cli.home) in result.err
