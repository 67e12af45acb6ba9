"""The shipped relevance model is what its trainer writes from the committed features."""

from __future__ import annotations

import json

from brainbridge.bridge import rank
from brainbridge.bridge.train_relevance import FEATURES_FILE, fit, load_rows


def test_shipped_weights_equal_the_trainers_output() -> None:
    shipped = json.loads(rank.MODEL.read_text("utf-8"))
    model, _ = fit(load_rows(FEATURES_FILE))

    assert shipped == json.loads(json.dumps(model))
    assert shipped["features"] == list(rank.FEATURES)


def test_the_model_loads_without_numpy_and_reads_every_feature() -> None:
    loaded = rank.model()

    assert loaded is not None
    assert set(loaded.weights) == set(rank.FEATURES)
    assert 0.0 < loaded.threshold < 1.0 and 0.0 <= loaded.ratio < 1.0
