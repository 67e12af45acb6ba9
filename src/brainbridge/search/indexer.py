"""Background embedding: vectors catch up after writes without slowing them down."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from brainbridge.ports import Embedder, Store
from brainbridge.search import parts as layout
from brainbridge.search.parts import Part, parts_of, vector_model

log = logging.getLogger(__name__)

BATCH = 256
# A background indexer looks only at entities newer than its last full pass, and re-reads
# the whole table at most this often: an edit deletes the entity's stale vector, and on
# a big brain each full pass reads every row (~0.25 s at 300k), which a write per chat
# turn must not pay. Until then an edited entity is found by BM25 alone.
FULL_PASS_SECONDS = 60.0
# Times a pass embeds again the entities whose text changed while it embedded them.
MAX_RETRIES = 3


def embed_pending(
    store: Store,
    embedder: Embedder,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Embed entities that have no current vector; return how many were embedded."""
    total = store.count_pending_vectors(vector_model(embedder)) if progress else 0

    def step(n: int) -> None:
        if progress:
            progress(n, total)

    done, _ = embed_after(store, embedder, 0, limit, step)
    return done


def vectors_for(
    batch: Sequence[tuple[int, str]],
    embed: Callable[[list[str]], Any],
    embed_parts: Callable[[list[str], list[list[Part]]], tuple[Any, list[Any]]] | None = None,
) -> tuple[list[tuple[int, bytes]], dict[int, bytes]]:
    """(entity id, vector blob) of each (id, text), and the blob of each one's sentence
    vectors where it has sentences to embed apart (`parts.py`). With `embed_parts` (an
    embedder that pools sentence vectors from the pass over the whole text, MiniLM) the
    sentences cost no model call; else one `embed` call embeds texts and sentences."""
    import numpy as np  # here, not at the top: the hooks' cold path never embeds

    said = [parts_of(text) for _, text in batch]
    texts = [text for _, text in batch]
    if embed_parts is not None:
        whole, pooled = embed_parts(texts, said)
        vectors = np.asarray(whole, dtype=np.float32)
        per_text = [np.asarray(v, dtype=np.float32) for v in pooled]
    else:
        vectors = np.asarray(embed(texts + [p.text for some in said for p in some]), np.float32)
        ends = np.cumsum([len(batch)] + [len(some) for some in said])
        per_text = [vectors[a:b] for a, b in zip(ends[:-1], ends[1:], strict=True)]
    items = [(eid, v.tobytes()) for (eid, _), v in zip(batch, vectors[: len(batch)], strict=True)]
    parts = {eid: v.tobytes() for (eid, _), v in zip(batch, per_text, strict=True) if len(v)}
    return items, parts


class Walk:
    """One pass over the pending entities by id, shared by the background indexer and
    `Brain.index_vectors` (which runs the same steps on the store's thread and the model
    off it): which ids to read next, and what a batch written back means.

        while batch := store.pending_vectors(BATCH, walk.model, walk.after):
            walk.wrote(batch, store.put_vectors(walk.model, *walk.embed(batch)))
    """

    def __init__(self, embedder: Embedder, after: int = 0) -> None:
        self.embedder = embedder
        self.model = vector_model(embedder)
        self.after = after  # the last id embedded, or where the walk started
        self.done = 0
        self.retries = 0

    def embed(
        self, batch: Sequence[tuple[int, str]]
    ) -> tuple[list[tuple[int, bytes]], dict[int, str], dict[int, bytes]]:
        """`put_vectors`' arguments after the model: the vectors, the texts they were
        embedded from (an entity changed meanwhile is not given its old text's vector),
        the sentence vectors. One model call for the whole batch."""
        # MiniLM's, when asked for (BRAIN_POOL_SENTENCES=1).
        embed_parts = getattr(self.embedder, "embed_parts", None) if layout.POOL_SENTENCES else None
        items, parts = vectors_for(batch, self.embedder.embed, embed_parts)
        return items, dict(batch), parts

    def wrote(self, batch: Sequence[tuple[int, str]], changed: Sequence[int]) -> int:
        """Note a batch written back; how many entities it embedded (0 when those whose
        text changed meanwhile are to be embedded again, from their new text)."""
        if changed and self.retries < MAX_RETRIES:
            self.retries += 1
            self.after = min(changed) - 1
            return 0
        self.after = batch[-1][0]
        self.done += len(batch)
        return len(batch)


def embed_after(
    store: Store,
    embedder: Embedder,
    after: int,
    limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Embed entities with an id above `after` that lack a vector, walking the table once
    by id: (how many were embedded, the last id embedded, or `after` if none)."""
    walk = Walk(embedder, after)
    while limit is None or walk.done < limit:
        batch = store.pending_vectors(BATCH, walk.model, walk.after)
        if not batch:
            break
        if walk.wrote(batch, store.put_vectors(walk.model, *walk.embed(batch))) and progress:
            progress(walk.done)
    return walk.done, walk.after


class Indexer:
    """A daemon thread with its own connection that embeds pending entities when poked."""

    def __init__(self, open_store: Callable[[], Store], embedder: Embedder) -> None:
        self.open_store = open_store
        self.embedder = embedder
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._stop = False
        self._full = True
        self._thread = threading.Thread(target=self._run, name="brain-indexer", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """Note that there may be new text to embed."""
        self._idle.clear()
        self._wake.set()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every pending entity has a vector (or timeout); True if idle."""
        self._full = True  # edited entities too, not only new ones
        self.poke()
        return self._idle.wait(timeout)

    def stop(self) -> None:
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        store: Store | None = None
        try:
            store = self.open_store()
            checked, full_at = 0, time.monotonic()  # ids up to `checked` have vectors
            partial = False  # a pass since the last full one looked only at new ids
            while not self._stop:
                # Then an edited entity may still lack its vector: wake for a full pass once
                # FULL_PASS_SECONDS are up, whether or not more writes come.
                due = full_at + FULL_PASS_SECONDS - time.monotonic() if partial else None
                self._wake.wait(max(due, 0.0) if due is not None else None)
                self._wake.clear()
                try:
                    if self._full or time.monotonic() - full_at >= FULL_PASS_SECONDS:
                        self._full, checked, full_at = False, 0, time.monotonic()
                    partial = checked > 0
                    newest = store.max_entity_id()
                    # The newest entities were deleted: a new one may get their ids again
                    # (SQLite reuses the largest rowid), so look from there.
                    checked = min(checked, newest)
                    cursor = checked
                    while not self._stop:
                        done, cursor = embed_after(store, self.embedder, cursor, BATCH * 4)
                        if not done:  # the pass reached the end of the table
                            checked = max(checked, newest)
                            break
                except Exception:
                    log.exception("background embedding failed; will retry on next write")
                if not self._wake.is_set():
                    self._idle.set()
        finally:
            self._idle.set()
            if store is not None:
                store.close()
