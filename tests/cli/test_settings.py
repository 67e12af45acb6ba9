"""`load_settings`: config.toml in the brain folder, BRAIN_* variables on top."""

from __future__ import annotations

from pathlib import Path

import pytest

from brainbridge.errors import InvalidInput
from brainbridge.home import DEFAULT_CONFIG, init_home
from brainbridge.settings import Settings, load_settings


def test_defaults_for_a_fresh_brain(tmp_path: Path) -> None:
    init_home(tmp_path)
    assert (tmp_path / "config.toml").read_text() == DEFAULT_CONFIG
    s = load_settings({"BRAIN_HOME": str(tmp_path)})
    assert s == Settings(brain_path=tmp_path)
    assert (s.embedder, s.llm_provider, s.budget_tokens) == ("auto", None, 1500)
    assert s.make_llm() is None


def test_brain_argument_beats_brain_home(tmp_path: Path) -> None:
    s = load_settings({"BRAIN_HOME": str(tmp_path / "a")}, str(tmp_path / "b"))
    assert s.brain_path == tmp_path / "b"
    assert load_settings({}, str(tmp_path / "b" / "brain.db")).brain_path == tmp_path / "b"


def test_config_file_values_and_environment_overrides(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(
        '[llm]\nprovider = "ollama"\nmodel = "llama3.2"\nbase_url = "http://gpu:11434/v1"\n'
        '[search]\nembedder = "hashing"\n[bridge]\nbudget_tokens = 900\n'
        "[server]\nport = 9000\n"
    )
    s = load_settings({}, tmp_path)
    assert (s.llm_provider, s.llm_model, s.llm_base_url) == (
        "ollama",
        "llama3.2",
        "http://gpu:11434/v1",
    )
    assert (s.embedder, s.budget_tokens) == ("hashing", 900)
    assert s.section("server") == {"port": 9000}
    assert s.section("nothing") == {}

    env = {"BRAIN_EMBEDDER": "none", "BRAIN_BUDGET_TOKENS": "2500", "BRAIN_LLM_MODEL": "qwen3"}
    s = load_settings(env, tmp_path)
    assert (s.embedder, s.budget_tokens, s.llm_model, s.llm_provider) == (
        "none",
        2500,
        "qwen3",
        "ollama",
    )


def test_api_key_comes_from_the_environment_and_stays_out_of_reprs(tmp_path: Path) -> None:
    env = {"BRAIN_LLM_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "sk-ant-secret"}
    s = load_settings(env, tmp_path)
    assert s.llm_api_key == "sk-ant-secret"
    assert "sk-ant-secret" not in repr(s)
    # A provider key alone never switches an LLM on, and never leaks to another provider.
    assert load_settings({"ANTHROPIC_API_KEY": "k"}, tmp_path).llm_api_key is None
    other = {"BRAIN_LLM_PROVIDER": "openai", "ANTHROPIC_API_KEY": "k"}
    assert load_settings(other, tmp_path).llm_api_key is None


def test_bad_toml_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("[llm\nprovider = 'x'\n")
    with pytest.raises(InvalidInput, match=r"config\.toml: not valid TOML"):
        load_settings({}, tmp_path)


def test_non_utf8_config_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_bytes(b"# caf\xe9\n")
    with pytest.raises(InvalidInput, match="config.toml: not valid UTF-8"):
        load_settings({}, tmp_path)


@pytest.mark.parametrize(
    ("toml", "env", "message"),
    [
        ("[bridge]\nbudget_tokens = 0\n", {}, "bridge.budget_tokens must be a positive"),
        ("[bridge]\nbudget_tokens = true\n", {}, "bridge.budget_tokens"),
        ("[search]\nembedder = 3\n", {}, "search.embedder must be a string"),
        ("llm = 5\n", {}, "[llm] must be a table"),
        ("", {"BRAIN_BUDGET_TOKENS": "many"}, "BRAIN_BUDGET_TOKENS must be a whole number"),
        ("", {"BRAIN_BUDGET_TOKENS": "-5"}, "BRAIN_BUDGET_TOKENS must be a positive"),
    ],
)
def test_values_of_the_wrong_kind_are_named(
    tmp_path: Path, toml: str, env: dict[str, str], message: str
) -> None:
    (tmp_path / "config.toml").write_text(toml)
    with pytest.raises(InvalidInput) as caught:
        load_settings(env, tmp_path)
    assert message in str(caught.value)


def test_blank_environment_variables_do_not_override(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('[search]\nembedder = "hashing"\n')
    assert load_settings({"BRAIN_EMBEDDER": "  "}, tmp_path).embedder == "hashing"
