"""MiniLM's products in int8: the rewritten model runs and means what the float one does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brainbridge.embed import MiniLMEmbedder
from brainbridge.embed.int8_matmul import RewriteError, rewrite
from brainbridge.embed.minilm import default_model_path

_MODEL = default_model_path().read_bytes()
SENTENCES = [
    "We moved the standup to Thursdays starting this week.",
    "I'm allergic to peanuts and shellfish, so no satay please.",
    "The offsite is in the Lisbon office, room Tejo, on November 12.",
    "Who should I send the quarterly report to?",
]


@pytest.fixture(scope="module")
def both() -> tuple[MiniLMEmbedder, MiniLMEmbedder]:
    return MiniLMEmbedder(int8_compute=True), MiniLMEmbedder(int8_compute=False)


def test_every_int8_weighted_product_is_rewritten() -> None:
    model = _MODEL
    rewritten, count = rewrite(model)
    # Six layers of four attention and two feed-forward products.
    assert count == 36
    assert rewritten != model
    assert rewrite(rewritten) == (rewritten, 0)


def test_int8_products_give_the_float_products_vectors(both) -> None:
    fast, exact = both
    a, b = fast.embed(SENTENCES), exact.embed(SENTENCES)
    assert np.min(np.sum(a * b, axis=1)) > 0.98
    # Each sentence's nearest of the float vectors is its own.
    assert list(np.argmax(a @ b.T, axis=1)) == list(range(len(SENTENCES)))


def test_a_query_finds_the_same_passage_either_way(both) -> None:
    for embedder in both:
        query, *passages = embedder.embed(["when is the standup now?", *SENTENCES])
        assert int(np.argmax(np.asarray(passages) @ query)) == 0


@pytest.mark.parametrize("junk", [b"\xff\xff\xff", b"\x0a\x05abc", b"not an onnx model"])
def test_bytes_that_are_no_model_are_refused(junk: bytes) -> None:
    with pytest.raises(RewriteError):
        rewrite(junk)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_are_rewritten_or_refused_never_crash(junk: bytes) -> None:
    try:
        out, count = rewrite(junk)
    except RewriteError:
        return
    assert (out, count) == (junk, 0) or count > 0


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=7, max_value=2000))
def test_a_model_cut_inside_its_graph_is_refused(cut: int) -> None:
    # The file ends with its graph, then a 6-byte operator set declaration.
    model = _MODEL[:-cut]
    with pytest.raises(RewriteError):
        rewrite(model)
