"""Background embedding: vectors catch up after writes without slowing them down."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np

from brainbridge.ports import Embedder
from brainbridge.store.sqlite.store import SqliteStore

log = logging.getLogger(__name__)

BATCH = 64


def embed_pending(
    store: SqliteStore,
    embedder: Embedder,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Embed entities that have no current vector; return how many were embedded."""
    done = 0
    total = store.count_pending_vectors(embedder.name)
    while limit is None or done < limit:
        batch = store.pending_vectors(BATCH, embedder.name)
        if not batch:
            break
        vectors = embedder.embed([text for _, text in batch]).astype(np.float32)
        store.put_vectors(
            embedder.name, [(eid, v.tobytes()) for (eid, _), v in zip(batch, vectors, strict=True)]
        )
        done += len(batch)
        if progress:
            progress(done, total)
    return done


class Indexer:
    """A daemon thread with its own connection that embeds pending entities when poked."""

    def __init__(self, db_path: Path, embedder: Embedder) -> None:
        self.db_path = db_path
        self.embedder = embedder
        self._wake = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="brain-indexer", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """Note that there may be new text to embed."""
        self._idle.clear()
        self._wake.set()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every pending entity has a vector (or timeout); True if idle."""
        self.poke()
        return self._idle.wait(timeout)

    def stop(self) -> None:
        self._stop = True
        self._wake.set()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        store: SqliteStore | None = None
        try:
            store = SqliteStore.open(self.db_path)
            while not self._stop:
                self._wake.wait()
                self._wake.clear()
                while not self._stop:
                    try:
                        if not embed_pending(store, self.embedder, limit=BATCH * 4):
                            break
                    except Exception:
                        log.exception("background embedding failed; will retry on next write")
                        break
                if not self._wake.is_set():
                    self._idle.set()
        finally:
            self._idle.set()
            if store is not None:
                store.close()
