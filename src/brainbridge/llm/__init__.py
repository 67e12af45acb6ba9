"""Optional LLM providers. Importing this package never imports a provider SDK."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from brainbridge.errors import LLMError
from brainbridge.llm.base import ToolCall, ToolSpec

if TYPE_CHECKING:
    from brainbridge.ports import LLM

__all__ = ["NAMES", "PROVIDERS", "ToolCall", "ToolSpec", "llm_from_env", "make_llm"]

PROVIDERS = ("anthropic", "openai", "ollama")

_OFF = {"", "none", "off"}
# Every name `make_llm` accepts ("claude" is anthropic; none, off and "" mean no LLM).
NAMES = ("anthropic", "claude", "openai", "ollama", "none", "off", "")
_OLLAMA_URL = "http://localhost:11434/v1"
# A local Ollama gets no cloud key: it needs none, and the key should not travel.
_KEY_VARS = {
    "anthropic": "ANTHROPIC_API_KEY",
    "claude": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
}
# Only used against api.openai.com; compatible servers name their own models.
_OPENAI_DEFAULT_MODEL = "gpt-5-mini"


def make_llm(
    provider: str | None,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
) -> LLM | None:
    """Build the named provider, or return None when no LLM is configured.

    `provider` is "anthropic", "openai" (any OpenAI-compatible server when `base_url`
    is given), "ollama" (OpenAI-compatible at localhost:11434 unless `base_url` says
    otherwise), or None/"none" for no LLM.

    Raises:
        LLMError: unknown provider, missing model, or the provider's SDK is not installed.
    """
    name = (provider or "").strip().lower()
    if name in _OFF:
        return None
    if name in ("anthropic", "claude"):
        from brainbridge.llm.anthropic import DEFAULT_MODEL, AnthropicLLM

        return AnthropicLLM(model or DEFAULT_MODEL, api_key=api_key, base_url=base_url)
    if name in ("openai", "ollama"):
        from brainbridge.llm.openai_compat import OpenAICompatLLM

        if name == "ollama":
            base_url = base_url or _OLLAMA_URL
        if not model:
            if base_url:
                raise LLMError(
                    f"the {name} provider at {base_url} needs a model name "
                    "(set BRAIN_LLM_MODEL, e.g. llama3.2)"
                )
            model = _OPENAI_DEFAULT_MODEL
        return OpenAICompatLLM(model, base_url=base_url, api_key=api_key)
    raise LLMError(f"unknown LLM provider {provider!r}; use one of {', '.join(PROVIDERS)} or none")


def llm_from_env(env: Mapping[str, str]) -> LLM | None:
    """Build the LLM an adapter's environment asks for, or None when none is configured.

    Reads BRAIN_LLM_PROVIDER, BRAIN_LLM_MODEL, BRAIN_LLM_BASE_URL and the key from
    BRAIN_LLM_API_KEY, else ANTHROPIC_API_KEY or OPENAI_API_KEY for the chosen provider.
    A provider key alone never switches an LLM on: the provider must be named.

    Raises:
        LLMError: as for `make_llm`.
    """
    provider = (env.get("BRAIN_LLM_PROVIDER") or "").strip().lower()
    if provider in _OFF:
        return None
    key_var = _KEY_VARS.get(provider)
    return make_llm(
        provider,
        model=env.get("BRAIN_LLM_MODEL") or None,
        base_url=env.get("BRAIN_LLM_BASE_URL") or None,
        api_key=env.get("BRAIN_LLM_API_KEY") or (env.get(key_var) if key_var else None) or None,
    )
