"""A static embedder distilled from the MiniLM we ship: one vector per WordPiece token.

Distillation (model2vec's recipe, done here without its package or any download):
every token of the vocabulary is run through MiniLM alone (``[CLS] token [SEP]``),
its mean-pooled output is kept, the matrix is reduced by PCA, and each row is
weighted by a Zipf estimate of the token's frequency (SIF), so common words weigh
little. A text's vector is the mean of its tokens' rows, L2-normalised: tokenising
plus one gather, tens of microseconds instead of MiniLM's milliseconds.

The matrix ships with brainbridge (`data/embed/static-minilm.npz`, int8 rows with a
scale each, 6 MB) and is rebuilt from the model package by
`python -m brainbridge.embed.distil` (about 35 s of CPU). Shipping it means the
embedder works at once with only `tokenizers` installed, and no first query ever
waits half a minute for a build; the file keeps the PCA that made it, so a test
checks sampled rows against the installed model.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from brainbridge.embed import minilm
from brainbridge.errors import InvalidInput

log = logging.getLogger(__name__)

NAME = "static-minilm"
DIM = 192
# BERT's vocabulary lists WordPieces roughly by corpus frequency from id 1996 ("the")
# on; ids below are [PAD], [unused*], special tokens and single characters.
_FIRST_WORD_ID = 1996
# SIF: weight = a / (a + p(token)); chosen with DIM on LoCoMo's tuned conversations
# (docs/embedders.md).
SIF = 1e-5
_MAX_CHARS = 20_000
_CLS, _SEP = 101, 102


def matrix_path() -> Path:
    """The distilled matrix shipped as package data (`python -m brainbridge.embed.distil`)."""
    return Path(str(resources.files("brainbridge") / "data" / "embed" / f"{NAME}.npz"))


def token_outputs(session: Any, ids: np.ndarray) -> np.ndarray:
    """MiniLM's output at each token run alone as `[CLS] token [SEP]`: (len(ids), 384)."""
    n = len(ids)
    input_ids = np.stack([np.full(n, _CLS), ids, np.full(n, _SEP)], axis=1).astype(np.int64)
    feeds = {
        "input_ids": input_ids,
        "attention_mask": np.ones_like(input_ids),
        "token_type_ids": np.zeros_like(input_ids),
    }
    return np.asarray(session.run(None, feeds)[0][:, 1], dtype=np.float32)


def sif_weights(vocab: int) -> np.ndarray:
    """Each token's weight from a Zipf estimate of its frequency: common words weigh little."""
    ranks = np.maximum(np.arange(vocab) - _FIRST_WORD_ID, 0) + 1
    prob = (1.0 / ranks) / (1.0 / ranks).sum()
    return (SIF / (SIF + prob)).astype(np.float32)


def project(
    raw: np.ndarray, mean: np.ndarray, components: np.ndarray, weights: np.ndarray
) -> np.ndarray:
    """Rows reduced by PCA and weighted, as the embedder uses them (float32)."""
    return ((raw - mean) @ components * weights[:, None]).astype(np.float32)


def quantise(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 rows and the float32 scale of each: a quarter of float32's size."""
    scale = np.maximum(np.abs(rows).max(axis=1), 1e-12) / 127.0
    return np.round(rows / scale[:, None]).astype(np.int8), scale.astype(np.float32)


def distil(session: Any, vocab: int, batch: int = 512) -> dict[str, np.ndarray]:
    """Everything the shipped file holds: int8 rows, scales, and the PCA that made them."""
    raw = np.zeros((vocab, minilm.DIM), dtype=np.float32)
    for start in range(0, vocab, batch):
        ids = np.arange(start, min(start + batch, vocab))
        raw[start : start + len(ids)] = token_outputs(session, ids)
    mean = raw.mean(axis=0)
    centred = raw - mean
    _, vecs = np.linalg.eigh(centred.T.astype(np.float64) @ centred)
    components = vecs[:, ::-1][:, :DIM]
    # Eigenvectors are defined up to sign: make each one's largest entry positive.
    components = components * np.sign(components[np.abs(components).argmax(axis=0), range(DIM)])
    components = components.astype(np.float32)
    weights = sif_weights(vocab)
    rows, scale = quantise(project(raw, mean, components, weights))
    return {
        "rows": rows,
        "scale": scale,
        "mean": mean,
        "components": components,
        "weights": weights,
    }


class StaticEmbedder:
    """Mean of distilled token vectors, L2-normalised; loads its matrix on first use."""

    name = NAME
    dim = DIM

    def __init__(self, matrix: np.ndarray | None = None) -> None:
        """Use `matrix` (vocab x DIM) if given, else the shipped distillation."""
        self._matrix: np.ndarray | None = None if matrix is None else matrix.astype(np.float32)
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Read the matrix and the tokenizer now.

        Raises:
            InvalidInput: tokenizers is missing, or the matrix file is missing or unreadable.
        """
        with self._lock:
            if self._tokenizer is not None:
                return
            try:
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise InvalidInput(
                    "embedder 'static' needs tokenizers: pip install tokenizers"
                ) from exc
            if self._matrix is None:
                self._matrix = load_matrix()
            tokenizer = Tokenizer.from_file(str(minilm.tokenizer_path()))
            tokenizer.no_padding()
            tokenizer.no_truncation()
            self._tokenizer = tokenizer

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts into a (len(texts), DIM) float32 array with L2-normalised rows.

        Raises:
            InvalidInput: texts is a bare string, or the matrix cannot be loaded.
        """
        if isinstance(texts, str):
            raise InvalidInput("embed() takes a sequence of texts, not a single string")
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        if self._tokenizer is None:
            self.load()
        matrix = self._matrix
        assert matrix is not None
        encodings = self._tokenizer.encode_batch_fast(
            [t[:_MAX_CHARS] for t in texts], add_special_tokens=False
        )
        # One gather for the whole batch, then a sum per text: no Python loop over rows.
        lengths = np.array([len(e.ids) for e in encodings])
        filled = lengths > 0
        if filled.any():
            ids = np.fromiter((i for e in encodings for i in e.ids), np.int64, int(lengths.sum()))
            starts = np.concatenate(([0], np.cumsum(lengths[filled])[:-1]))
            out[filled] = np.add.reduceat(matrix[ids], starts, axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-12)


def load_matrix(path: Path | None = None) -> np.ndarray:
    """The shipped rows as float32 (vocab x DIM).

    Raises:
        InvalidInput: the file is missing or unreadable.
    """
    path = path or matrix_path()
    try:
        with np.load(path) as data:
            return data["rows"].astype(np.float32) * data["scale"][:, None]
    except (OSError, KeyError, ValueError) as exc:
        raise InvalidInput(f"embedder 'static': cannot read {path}: {exc}") from exc
