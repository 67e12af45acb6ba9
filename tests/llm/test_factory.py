"""make_llm / llm_from_env, and keeping the SDKs out of `import brainbridge.llm`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import brainbridge
from brainbridge.errors import LLMError
from brainbridge.llm import llm_from_env, make_llm
from brainbridge.llm.anthropic import AnthropicLLM
from brainbridge.llm.openai_compat import OpenAICompatLLM
from fakes.llm_server import FakeLLMServer

SRC = str(Path(brainbridge.__file__).parent.parent)
CHAT = [{"role": "user", "content": "hello there"}]


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter that can import brainbridge."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([SRC, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )


def test_importing_brainbridge_llm_imports_no_sdk() -> None:
    result = run_python(
        "import sys, brainbridge.llm\n"
        "from brainbridge.llm import make_llm, llm_from_env, ToolSpec, ToolCall\n"
        "print(sorted(m for m in ('anthropic', 'openai', 'httpx2') if m in sys.modules))"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("provider", "extra"),
    [("anthropic", "brainbridge[anthropic]"), ("openai", "brainbridge[openai]")],
)
def test_missing_sdk_is_llm_error_naming_the_extra(provider: str, extra: str) -> None:
    # A None entry in sys.modules makes `import <sdk>` raise ImportError, as if not installed.
    result = run_python(
        f"import sys; sys.modules[{provider!r}] = None\n"
        "from brainbridge.errors import LLMError\n"
        "from brainbridge.llm import make_llm\n"
        "try:\n"
        f"    make_llm({provider!r}, model='m', base_url='http://127.0.0.1:9')\n"
        "except LLMError as exc:\n"
        "    print(exc)\n"
    )
    assert result.returncode == 0, result.stderr
    assert extra in result.stdout


@pytest.mark.parametrize("provider", [None, "", "none", "NONE", " off "])
def test_no_provider_means_no_llm(provider: str | None) -> None:
    assert make_llm(provider) is None


async def test_make_llm_anthropic_defaults_to_haiku() -> None:
    llm = make_llm("anthropic", api_key="k", base_url="http://127.0.0.1:9")
    assert isinstance(llm, AnthropicLLM)
    assert llm.name == "anthropic:claude-haiku-4-5"
    await llm.aclose()


async def test_make_llm_ollama_points_at_the_local_server() -> None:
    llm = make_llm("ollama", model="llama3.2")
    assert isinstance(llm, OpenAICompatLLM)
    assert llm.name == "openai:llama3.2"
    assert llm.base_url == "http://localhost:11434/v1"
    await llm.aclose()


def test_compatible_server_without_a_model_is_llm_error() -> None:
    with pytest.raises(LLMError, match="needs a model name"):
        make_llm("openai", base_url="http://127.0.0.1:9/v1")


def test_unknown_provider_is_llm_error() -> None:
    with pytest.raises(LLMError, match="unknown LLM provider 'gemini'"):
        make_llm("gemini")


@pytest.mark.parametrize(
    "env", [{}, {"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"}, {"BRAIN_LLM_PROVIDER": "none"}]
)
def test_env_without_a_provider_means_no_llm(env: dict[str, str]) -> None:
    # A key on its own never switches a cloud LLM on.
    assert llm_from_env(env) is None


async def test_llm_from_env_builds_anthropic_with_its_key(fake_llm_server: FakeLLMServer) -> None:
    fake_llm_server.respond_text("hi")
    env = {
        "BRAIN_LLM_PROVIDER": "anthropic",
        "BRAIN_LLM_MODEL": "claude-haiku-5-5",
        "BRAIN_LLM_BASE_URL": fake_llm_server.anthropic_base_url,
        "ANTHROPIC_API_KEY": "sk-ant-from-env",
        "OPENAI_API_KEY": "sk-openai-wrong",
    }
    llm = llm_from_env(env)
    assert llm is not None and llm.name == "anthropic:claude-haiku-5-5"
    try:
        assert await llm.complete_text("s", CHAT, timeout=5) == "hi"
    finally:
        await llm.aclose()
    sent = fake_llm_server.last_request
    assert sent.model == "claude-haiku-5-5"
    assert "sk-ant-from-env" in sent.headers.get("authorization", sent.headers.get("x-api-key"))


async def test_llm_from_env_builds_openai_compatible(fake_llm_server: FakeLLMServer) -> None:
    fake_llm_server.respond_text("hi")
    env = {
        "BRAIN_LLM_PROVIDER": "openai",
        "BRAIN_LLM_MODEL": "qwen3:4b",
        "BRAIN_LLM_BASE_URL": fake_llm_server.openai_base_url,
        "OPENAI_API_KEY": "sk-from-env",
    }
    llm = llm_from_env(env)
    assert llm is not None
    try:
        await llm.complete_text("s", CHAT, timeout=5)
    finally:
        await llm.aclose()
    assert fake_llm_server.last_request.model == "qwen3:4b"
    assert fake_llm_server.last_request.headers["authorization"] == "Bearer sk-from-env"


async def test_ollama_never_receives_the_openai_key(fake_llm_server: FakeLLMServer) -> None:
    fake_llm_server.respond_text("hi")
    env = {
        "BRAIN_LLM_PROVIDER": "ollama",
        "BRAIN_LLM_MODEL": "llama3.2",
        "BRAIN_LLM_BASE_URL": fake_llm_server.openai_base_url,
        "OPENAI_API_KEY": "sk-secret-cloud-key",
    }
    llm = llm_from_env(env)
    assert llm is not None
    try:
        await llm.complete_text("s", CHAT, timeout=5)
    finally:
        await llm.aclose()
    assert "sk-secret-cloud-key" not in fake_llm_server.last_request.headers["authorization"]


async def test_brain_llm_api_key_wins(fake_llm_server: FakeLLMServer) -> None:
    fake_llm_server.respond_text("hi")
    env = {
        "BRAIN_LLM_PROVIDER": "openai",
        "BRAIN_LLM_MODEL": "m",
        "BRAIN_LLM_BASE_URL": fake_llm_server.openai_base_url,
        "BRAIN_LLM_API_KEY": "sk-vllm",
        "OPENAI_API_KEY": "sk-openai",
    }
    llm = llm_from_env(env)
    assert llm is not None
    try:
        await llm.complete_text("s", CHAT, timeout=5)
    finally:
        await llm.aclose()
    assert fake_llm_server.last_request.headers["authorization"] == "Bearer sk-vllm"
