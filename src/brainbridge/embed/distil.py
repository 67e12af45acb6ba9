"""Rebuild the static embedder's matrix from the installed MiniLM.

`python -m brainbridge.embed.distil` writes `data/embed/static-minilm.npz` (see
`static.py`); deterministic for a given model file, about 35 s of CPU.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from brainbridge.embed import minilm, static


def main() -> int:
    """Distil, write the package's matrix file, and say how long it took."""
    started = time.perf_counter()
    teacher = minilm.MiniLMEmbedder(int8_compute=False)  # float products, as shipped
    teacher.load()
    data = static.distil(teacher._session, teacher._tokenizer.get_vocab_size())
    path = static.matrix_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        np.savez_compressed(fh, allow_pickle=False, **data)
    took = time.perf_counter() - started
    print(f"wrote {path} ({path.stat().st_size / 2**20:.1f} MB) in {took:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
