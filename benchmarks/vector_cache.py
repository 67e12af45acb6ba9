"""Vectors for the synthetic brain, embedded once and cached under benchmarks/.cache/.

MiniLM int8 embeds ~160 texts/s on 2 cores, so 100k entities take ~10 minutes.
The cache is keyed by the embedder and a hash of every text it embeds, so a change
to the generator or to the embedded text invalidates it by itself.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from brainbridge.ports import Embedder

CACHE_DIR = Path(__file__).resolve().parent / ".cache"
BATCH = 256


def cached_vectors(embedder: Embedder, texts: Sequence[str]) -> tuple[np.ndarray, bool]:
    """(vectors for `texts` in order, whether they came from the cache)."""
    digest = hashlib.sha1("\x00".join(texts).encode("utf-8", "replace")).hexdigest()[:16]
    path = CACHE_DIR / f"vectors-{embedder.name}-{len(texts)}-{digest}.npy"
    if path.exists():
        return np.load(path), True
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    started = time.perf_counter()
    for i in range(0, len(texts), BATCH):
        out[i : i + BATCH] = embedder.embed(list(texts[i : i + BATCH]))
        done = min(i + BATCH, len(texts))
        rate = done / max(time.perf_counter() - started, 1e-9)
        print(
            f"\r  embedding for the cache: {done:,}/{len(texts):,} ({rate:.0f}/s)",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, out)
    tmp.replace(path)
    return out, False


class CachingEmbedder:
    """Wraps an embedder with a text -> vector cache kept on disk between runs.

    The benchmark questions are searched once per recipe and unit; caching their
    vectors (and the conversations') makes reruns fast without changing a result.
    """

    def __init__(self, inner: Embedder, label: str) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.path = CACHE_DIR / f"{label}-{inner.name}.npz"
        self._memo: dict[str, np.ndarray] = {}
        self._dirty = False
        if self.path.exists():
            with np.load(self.path) as data:
                self._memo = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [hashlib.sha1(t.encode("utf-8", "replace")).hexdigest() for t in texts]
        todo = list(
            dict.fromkeys(k_t for k_t in zip(keys, texts, strict=True) if k_t[0] not in self._memo)
        )
        if todo:
            vectors = self.inner.embed([t for _, t in todo])
            for (key, _), vec in zip(todo, vectors, strict=True):
                self._memo[key] = vec
            self._dirty = True
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._memo[k] for k in keys]).astype(np.float32)

    def __getattr__(self, name: str) -> Any:
        # Sentence vectors pooled from the whole text's pass, when the embedder pools them
        # (MiniLM): cached too, keyed by the text and where each sentence lies in it.
        if name == "embed_parts" and hasattr(self.inner, "embed_parts"):
            return self._embed_parts
        raise AttributeError(name)

    def _embed_parts(
        self, texts: Sequence[str], parts: Sequence[Sequence[Any]]
    ) -> tuple[np.ndarray, list[np.ndarray]]:
        def key(text: str, part: Any = None) -> str:
            raw = text if part is None else f"part\x00{part.start}:{part.end}\x00{text}"
            return hashlib.sha1(raw.encode("utf-8", "replace")).hexdigest()

        todo = [
            i
            for i, (t, some) in enumerate(zip(texts, parts, strict=True))
            if key(t) not in self._memo or any(key(t, p) not in self._memo for p in some)
        ]
        if todo:
            whole, said = self.inner.embed_parts([texts[i] for i in todo], [parts[i] for i in todo])
            for i, vector, vectors in zip(todo, whole, said, strict=True):
                self._memo[key(texts[i])] = vector
                self._memo.update(
                    (key(texts[i], p), v) for p, v in zip(parts[i], vectors, strict=True)
                )
            self._dirty = True
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i] = self._memo[key(t)]
        return out, [
            np.array([self._memo[key(t, p)] for p in some], dtype=np.float32).reshape(-1, self.dim)
            for t, some in zip(texts, parts, strict=True)
        ]

    def save(self) -> None:
        """Write new vectors back to the cache file."""
        if not self._dirty:
            return
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        keys = np.array(list(self._memo))
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=keys, vectors=np.stack(list(self._memo.values())))
        tmp.replace(self.path)
        self._dirty = False
