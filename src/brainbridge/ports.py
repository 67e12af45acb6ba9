"""Small protocols between features and backends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from brainbridge.llm.base import ToolCall, ToolSpec


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an array of shape (len(texts), dim), rows L2-normalised."""
        ...


class LLM(Protocol):
    """A chat model. Implementations live in `brainbridge.llm`; every failure is an LLMError.

    Callers always pass a timeout and keep a local fallback: the LLM is optional everywhere.
    """

    name: str

    async def complete_json(
        self, system: str, user: str, *, schema: dict[str, Any] | None = None, timeout: float
    ) -> dict[str, Any]:
        """Ask for one JSON object, shaped by `schema` when given.

        Raises:
            LLMError: timeout, transport failure, or an answer that is not a JSON object
                with the schema's required keys.
        """
        ...

    async def complete_text(
        self, system: str, messages: list[dict[str, str]], *, timeout: float
    ) -> str:
        """Continue a chat of {"role", "content"} messages and return the reply text.

        Raises:
            LLMError: timeout, transport failure or an empty answer.
        """
        ...

    async def call_tools(
        self,
        system: str,
        messages: list[dict[str, str]],
        tools: Sequence[ToolSpec],
        *,
        timeout: float,
        require: bool = False,
    ) -> list[ToolCall]:
        """Offer several tools in one request and return every call the model made.

        An empty list means the model chose to call none; `require=True` asks for at least one.

        Raises:
            LLMError: timeout, transport failure or malformed tool arguments.
        """
        ...

    async def aclose(self) -> None:
        """Release the HTTP connections; the object is unusable afterwards."""
        ...
