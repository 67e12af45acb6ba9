"""Small protocols between features and backends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an array of shape (len(texts), dim), rows L2-normalised."""
        ...


class LLM(Protocol):
    """A chat model. Implementations live in `brainbridge.llm`."""

    name: str

    async def complete_json(
        self, system: str, user: str, *, schema: dict[str, Any] | None = None, timeout: float
    ) -> dict[str, Any]:
        """Ask for one JSON object. Raises: LLMError on timeout, transport or parse failure."""
        ...

    async def complete_text(self, system: str, messages: list[dict[str, str]], *, timeout: float) -> str:
        """Plain chat completion. Raises: LLMError."""
        ...
