"""The static embedder distilled from MiniLM: shipped rows match the installed model."""

from __future__ import annotations

import numpy as np

from brainbridge.embed import load_embedder, minilm, static


def test_shipped_rows_are_what_the_installed_model_distils() -> None:
    teacher = minilm.MiniLMEmbedder(int8_compute=False)  # the rows were distilled from it
    teacher.load()
    with np.load(static.matrix_path()) as data:
        shipped = {k: data[k] for k in data.files}
    ids = np.random.default_rng(3).choice(len(shipped["rows"]), 96, replace=False)
    raw = static.token_outputs(teacher._session, ids)
    weights = shipped["weights"][ids]
    rows, _ = static.quantise(static.project(raw, shipped["mean"], shipped["components"], weights))
    assert np.abs(rows.astype(int) - shipped["rows"][ids]).max() <= 1
    np.testing.assert_allclose(weights, static.sif_weights(len(shipped["rows"]))[ids])


def test_similar_sentences_land_closer_than_unrelated_ones() -> None:
    embedder = load_embedder("static")
    assert embedder is not None and embedder.name == "static-minilm"
    food, bread, drums, empty = embedder.embed(
        ["A man is eating food.", "A man is eating a piece of bread.", "A monkey plays drums.", ""]
    )
    assert embedder.embed([]).shape == (0, static.DIM)
    assert float(food @ bread) > float(food @ drums) + 0.3
    assert abs(float(np.linalg.norm(food)) - 1.0) < 1e-5
    assert not empty.any()
