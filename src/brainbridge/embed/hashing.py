"""A model-free embedder: signed feature hashing of words, word pairs and character trigrams.

It knows no synonyms, so it is no substitute for MiniLM on recall quality, but
it is deterministic across processes and machines, costs microseconds, and
texts that share words or spellings land close together. That makes it a real
embedder for tests of vector plumbing and for machines without onnxruntime.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Sequence

import numpy as np

from brainbridge.errors import InvalidInput

NAME = "hashing"
DIM = 384

_WORD = re.compile(r"\w+")
# Hashing cost grows with length while a memory item's gist sits at its start;
# the cap bounds the cost of a pasted log or file.
_MAX_CHARS = 20_000
# Words weigh most; trigrams catch inflections and typos; pairs catch a little order.
_WORD_WEIGHT, _PAIR_WEIGHT, _TRIGRAM_WEIGHT = 1.0, 0.5, 0.3
# Text with no word characters (empty, emoji only) still needs a unit vector.
_NO_WORDS_FEATURE = "\x00no-words"


class HashingEmbedder:
    """Deterministic 384-dim vectors from hashed n-grams, L2-normalised."""

    name = NAME
    dim = DIM

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts into a (len(texts), 384) float32 array with L2-normalised rows.

        Raises:
            InvalidInput: texts is a bare string.
        """
        if isinstance(texts, str):
            raise InvalidInput("embed() takes a sequence of texts, not a single string")
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = _embed_one(text)
        return out


def _embed_one(text: str) -> np.ndarray:
    words = _WORD.findall(unicodedata.normalize("NFKC", text[:_MAX_CHARS]).casefold())
    features: list[tuple[str, float]] = [(f"w:{w}", _WORD_WEIGHT) for w in words]
    features += [(f"p:{a} {b}", _PAIR_WEIGHT) for a, b in zip(words, words[1:], strict=False)]
    for word in words:
        padded = f"<{word}>"
        features += [(f"c:{padded[i : i + 3]}", _TRIGRAM_WEIGHT) for i in range(len(padded) - 2)]
    if not features:
        features = [(_NO_WORDS_FEATURE, 1.0)]
    vector = np.zeros(DIM, dtype=np.float64)
    for feature, weight in features:
        # crc32, unlike hash(), is the same in every process; its top bit picks a
        # sign so that colliding features cancel out instead of piling up.
        h = zlib.crc32(feature.encode("utf-8"))
        vector[h % DIM] += weight if h & 0x80000000 else -weight
    # Sublinear term frequency: a word said ten times is not ten times as relevant.
    vector = np.sign(vector) * np.log1p(np.abs(vector))
    norm = np.linalg.norm(vector)
    if norm == 0.0:  # every feature cancelled out; fall back to the no-words vector
        return _embed_one("")
    return (vector / norm).astype(np.float32)
