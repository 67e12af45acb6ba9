"""When the curator runs and how much it writes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from brainbridge.errors import InvalidInput


@dataclass(frozen=True)
class CuratorConfig:
    """Cadence, limits and timeouts of the curator."""

    # Runs after these exchange numbers, then after every `every`-th one (0: never again).
    first: tuple[int, ...] = (1, 3, 5)
    every: int = 10
    llm_timeout: float = 20.0
    # Manual runs wait this long for a run already in progress (in any process).
    lock_timeout: float = 60.0
    max_summary_chars: int = 600
    max_title_words: int = 8
    max_activity_chars: int = 240
    # The title comes from the opening of the conversation.
    title_exchanges: int = 5
    # Exchanges the local summary reads, and those the LLM prompt shows.
    summary_exchanges: int = 400
    prompt_exchanges: int = 12
    # The local curator logs activity once this many exchanges are new since its last entry.
    activity_every: int = 3
    max_tool_calls: int = 12

    def is_due(self, exchange_number: int) -> bool:
        """True if the curator runs after this exchange."""
        if exchange_number in self.first:
            return True
        return self.every > 0 and exchange_number > 0 and exchange_number % self.every == 0


def curator_config(section: Mapping[str, Any]) -> CuratorConfig:
    """A CuratorConfig from a `[curator]` table of config.toml (adapters call this).

    Raises: InvalidInput naming the key whose value cannot be used.
    """
    known = {f.name: f for f in fields(CuratorConfig)}
    values: dict[str, Any] = {}
    for key, raw in section.items():
        if key not in known:
            raise InvalidInput(f"[curator] {key}: unknown setting; known: {', '.join(known)}")
        default = getattr(CuratorConfig(), key)
        try:
            if isinstance(default, tuple):
                value: Any = tuple(int(v) for v in raw)
            elif isinstance(default, float):
                value = float(raw)
            else:
                value = int(raw)
        except (TypeError, ValueError):
            raise InvalidInput(f"[curator] {key}: cannot use {raw!r}") from None
        if (isinstance(value, tuple) and any(v < 1 for v in value)) or (
            not isinstance(value, tuple) and value < 0
        ):
            raise InvalidInput(f"[curator] {key}: must not be negative")
        values[key] = value
    return CuratorConfig(**values)
