"""Adapter settings: `<brain>/config.toml` overridden by `BRAIN_*` environment variables.

Only adapters (CLI, MCP, HTTP, hooks) call `load_settings`; library code takes
these values as constructor arguments.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brainbridge.errors import InvalidInput

# Re-exported: `read_config` lived here; it reads below the store now (`home.py`).
from brainbridge.home import CONFIG_FILE, brain_home, read_config

if TYPE_CHECKING:
    from brainbridge.brain import Brain
    from brainbridge.bridge import Bridge
    from brainbridge.curator.config import CuratorConfig
    from brainbridge.model.directives import DirectiveConfig
    from brainbridge.ports import LLM

DEFAULT_EMBEDDER = "auto"
DEFAULT_BUDGET_TOKENS = 1500

# (section, key, environment variable, field name)
_SOURCES = (
    ("search", "embedder", "BRAIN_EMBEDDER", "embedder"),
    ("llm", "provider", "BRAIN_LLM_PROVIDER", "llm_provider"),
    ("llm", "model", "BRAIN_LLM_MODEL", "llm_model"),
    ("llm", "base_url", "BRAIN_LLM_BASE_URL", "llm_base_url"),
    ("bridge", "budget_tokens", "BRAIN_BUDGET_TOKENS", "budget_tokens"),
)
# A provider's own key variable is honoured only once that provider is chosen.
_KEY_VARS = {
    "anthropic": "ANTHROPIC_API_KEY",
    "claude": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
}


@dataclass(frozen=True)
class Settings:
    """Everything an adapter needs to open a brain and build its optional parts."""

    brain_path: Path
    embedder: str = DEFAULT_EMBEDDER
    llm_provider: str | None = None
    llm_model: str | None = None
    llm_base_url: str | None = None
    budget_tokens: int = DEFAULT_BUDGET_TOKENS
    # Secrets come from the environment only and never show up in a repr.
    llm_api_key: str | None = field(default=None, repr=False)
    # The whole parsed config.toml, for adapters with sections of their own ([server], …).
    config: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def config_file(self) -> Path:
        return self.brain_path / CONFIG_FILE

    def section(self, name: str) -> Mapping[str, Any]:
        """One `[name]` table of config.toml ({} when absent)."""
        value = self.config.get(name)
        return value if isinstance(value, Mapping) else {}

    def make_llm(self, *, capped: bool = True) -> LLM | None:
        """The configured LLM client, or None when no provider is set. `capped`: its calls
        count against `[llm] max_calls_per_hour` / `max_calls_per_day` (llm/budget.py), as
        every call the brain makes by itself must; `brain chat`'s own answers do not.

        Raises: LLMError for an unknown provider or a missing SDK.
        """
        if self.llm_provider is None:  # hooks start cold: not even brainbridge.llm
            return None
        from brainbridge.llm import make_llm

        llm = make_llm(self.llm_provider, self.llm_model, self.llm_base_url, self.llm_api_key)
        if llm is None or not capped:
            return llm
        from brainbridge.llm.budget import CappedLLM, call_budget

        return CappedLLM(llm, call_budget(self.brain_path, self.section("llm")))

    def make_bridge(
        self, brain: Brain, llm: LLM | None = None, *, budget_tokens: int | None = None
    ) -> Bridge:
        """The bridge every adapter puts over `brain`: this budget, and `llm` from `make_llm`.

        `budget_tokens` overrides the configured budget (`brain enrich --budget`).
        """
        from brainbridge.bridge import Bridge, BridgeConfig

        return Bridge(brain, llm, BridgeConfig(budget_tokens=budget_tokens or self.budget_tokens))

    def curator_config(self) -> CuratorConfig:
        """The curator's cadence and limits from the `[curator]` table.

        Raises: InvalidInput naming the key whose value cannot be used.
        """
        from brainbridge.curator.config import curator_config

        return curator_config(self.section("curator"))

    def directive_config(self) -> DirectiveConfig:
        """The directive bridge's calendar from the `[directives]` table: `timezone` (an
        IANA name; default this machine's), `sprint_start` (a date) and `sprint_days`.

        Raises: InvalidInput naming the key whose value cannot be used.
        """
        from brainbridge.model.directives import directive_config

        return directive_config(self.section("directives"))


def load_settings(env: Mapping[str, str], brain: str | Path | None = None) -> Settings:
    """Settings for the brain at `brain` (else $BRAIN_HOME, else ~/.brain).

    A missing config.toml is fine (defaults apply); environment variables win over the file.
    Raises: InvalidInput naming the file or variable when a value cannot be used.
    """
    path = Path(brain).expanduser() if brain else brain_home(env)
    if path.suffix == ".db":
        path = path.parent
    config = read_config(path / CONFIG_FILE)
    _use_redact_patterns(config, path / CONFIG_FILE)
    values: dict[str, Any] = {}
    for section, key, var, name in _SOURCES:
        table = config.get(section, {})
        if not isinstance(table, dict):
            raise InvalidInput(f"{path / CONFIG_FILE}: [{section}] must be a table")
        raw_env = env.get(var, "").strip()
        if raw_env:
            values[name] = _coerce(name, raw_env, f"environment variable {var}")
        elif table.get(key) is not None:
            values[name] = _coerce(name, table[key], f"{path / CONFIG_FILE}: {section}.{key}")
    provider = (values.get("llm_provider") or "").lower()
    key_var = _KEY_VARS.get(provider)
    api_key = env.get("BRAIN_LLM_API_KEY") or (env.get(key_var) if key_var else None) or None
    return Settings(brain_path=path, llm_api_key=api_key, config=config, **values)


def _coerce(name: str, value: Any, source: str) -> Any:
    if name == "budget_tokens":
        if isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise InvalidInput(f"{source} must be a whole number, got {value!r}") from None
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise InvalidInput(f"{source} must be a positive whole number, got {value!r}")
        return value
    if not isinstance(value, str):
        raise InvalidInput(f"{source} must be a string, got {value!r}")
    if name == "embedder":
        return value.strip() or DEFAULT_EMBEDDER
    return value.strip() or None


def check_llm_provider(settings: Settings, env: Mapping[str, str]) -> None:
    """For the CLI, which says so at once (hooks instead run on without the LLM).

    Raises: InvalidInput for a provider no LLM client is built for, with the near name.
    """
    import difflib

    from brainbridge.llm import NAMES

    name = (settings.llm_provider or "").lower()
    if name in NAMES:
        return
    source = (
        "environment variable BRAIN_LLM_PROVIDER"
        if env.get("BRAIN_LLM_PROVIDER", "").strip()
        else f"{settings.config_file}: llm.provider"
    )
    close = difflib.get_close_matches(name, NAMES, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise InvalidInput(
        f"{source}: unknown LLM provider {settings.llm_provider!r}{hint}; use one of"
        f" {', '.join(n for n in NAMES if n not in ('', 'claude'))}"
    )


def _use_redact_patterns(config: Mapping[str, Any], file: Path) -> None:
    """`[redact] patterns = ["ACME-[0-9]{8}"]`: the user's own secrets, redacted from now on.

    Raises: InvalidInput for a value that is not a list of valid regexes.
    """
    from brainbridge import secret_rules

    table = config.get("redact", {})
    patterns = table.get("patterns", []) if isinstance(table, dict) else None
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise InvalidInput(f"{file}: [redact] patterns must be a list of regex strings")
    try:
        secret_rules.use_patterns(patterns)
    except InvalidInput as exc:
        raise InvalidInput(f"{file}: {exc}") from None
