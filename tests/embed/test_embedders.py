"""The local embedders on the real model: the contract of the Embedder port and its edge cases."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from brainbridge import embed
from brainbridge.embed import HashingEmbedder, MiniLMEmbedder, load_embedder
from brainbridge.errors import InvalidInput
from brainbridge.search.parts import Part, sentence_parts

PARAPHRASES = [
    (
        "The meeting with the design team moved to Thursday afternoon.",
        "We rescheduled the design review to Thursday after lunch.",
    ),
    (
        "My laptop battery drains very quickly since the update.",
        "After updating, the notebook's battery runs out fast.",
    ),
    (
        "She prefers tea over coffee in the morning.",
        "In the mornings she would rather drink tea than coffee.",
    ),
]
UNRELATED = [
    "The recipe calls for two cups of flour and a pinch of salt.",
    "Saturn's rings are made mostly of ice particles.",
    "The invoice for October is still unpaid.",
]


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    embedder = MiniLMEmbedder()
    embedder.load()
    return embedder


@pytest.fixture(scope="module", params=["minilm", "hashing"])
def embedder(request: pytest.FixtureRequest, minilm: MiniLMEmbedder):
    return minilm if request.param == "minilm" else HashingEmbedder()


def assert_unit_rows(vectors: np.ndarray, rows: int) -> None:
    assert vectors.shape == (rows, 384)
    assert vectors.dtype == np.float32
    assert np.all(np.isfinite(vectors))
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_vectors_have_the_port_shape_and_unit_norm(embedder) -> None:
    vectors = embedder.embed(["first text", "a second, somewhat longer text", "third"])
    assert_unit_rows(vectors, 3)
    assert embedder.dim == 384


def test_empty_list_gives_empty_array(embedder) -> None:
    vectors = embedder.embed([])
    assert vectors.shape == (0, 384)
    assert vectors.dtype == np.float32


def test_empty_and_symbol_only_strings_still_give_unit_vectors(embedder) -> None:
    assert_unit_rows(embedder.embed(["", "   ", "!!!", "\n\t"]), 4)


def test_non_ascii_and_emoji(embedder) -> None:
    texts = ["naïve café déjà vu", "東京は日本の首都です。", "🙂🚀🔥", "Ünïcödé — “quotes” ½"]
    assert_unit_rows(embedder.embed(texts), 4)


def test_five_megabyte_text_is_truncated_not_fatal(embedder) -> None:
    huge = "lorem ipsum dolor sit amet " * 200_000
    assert len(huge) > 5_000_000
    vectors = embedder.embed([huge, "short"])
    assert_unit_rows(vectors, 2)


def test_minilm_truncates_to_256_tokens(minilm: MiniLMEmbedder) -> None:
    head = "The quarterly report shows revenue growth in every region. " * 30  # > 256 tokens
    with_tail = head + "Completely different words about volcanoes and penguins. " * 30
    a, b = minilm.embed([head, with_tail])
    assert float(a @ b) > 0.999


def test_same_input_gives_same_vector_in_any_batch(embedder) -> None:
    texts = [p for pair in PARAPHRASES for p in pair] + UNRELATED
    together = embedder.embed(texts)
    alone = np.vstack([embedder.embed([t]) for t in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)
    np.testing.assert_array_equal(embedder.embed(texts), together)


def test_hashing_vectors_never_change() -> None:
    # Pinned: vectors stored by one process (or release) must match a query in another,
    # which Python's salted hash() would break.
    vector = HashingEmbedder().embed(["stable across processes"])[0]
    pinned = {39: 0.3881, 72: -0.3881, 15: 0.3881, 144: -0.3291}
    assert {i: round(float(vector[i]), 4) for i in pinned} == pinned


def test_minilm_scores_paraphrases_above_unrelated(minilm: MiniLMEmbedder) -> None:
    for left, right in PARAPHRASES:
        a, b = minilm.embed([left, right])
        paraphrase = float(a @ b)
        unrelated = max(float(a @ u) for u in minilm.embed(UNRELATED))
        assert paraphrase > 0.5, (left, right, paraphrase)
        assert paraphrase > unrelated + 0.3, (left, paraphrase, unrelated)


def test_minilm_matches_known_all_minilm_l6_v2_scores(minilm: MiniLMEmbedder) -> None:
    # Cosines of the fp32 sentence-transformers model on its documented examples.
    known = [
        ("A man is eating food.", "A man is eating a piece of bread.", 0.7553),
        (
            "A man is riding a horse.",
            "A man is riding a white horse on an enclosed ground.",
            0.7369,
        ),
        (
            "A monkey is playing drums.",
            "Someone in a gorilla costume is playing a set of drums.",
            0.6433,
        ),
        ("A man is eating food.", "A monkey is playing drums.", 0.0476),
    ]
    for left, right, expected in known:
        a, b = minilm.embed([left, right])
        assert float(a @ b) == pytest.approx(expected, abs=0.02), (left, right)


def test_hashing_prefers_shared_words() -> None:
    a, b, c = HashingEmbedder().embed(
        ["deploy the billing service", "billing service deploy failed", "my cat sleeps all day"]
    )
    assert float(a @ b) > float(a @ c) + 0.3


def test_minilm_embeds_from_two_threads_at_once(minilm: MiniLMEmbedder) -> None:
    texts = [f"background item number {i} about the billing service" for i in range(64)]
    expected = minilm.embed(texts)
    results: dict[int, np.ndarray] = {}

    def work(key: int) -> None:
        results[key] = minilm.embed(texts)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for key in range(2):
        np.testing.assert_allclose(results[key], expected, atol=1e-5)


def test_minilm_loads_lazily() -> None:
    embedder = MiniLMEmbedder()
    assert not embedder.loaded
    assert embedder.embed([]).shape == (0, 384)
    assert not embedder.loaded
    embedder.embed(["now it loads"])
    assert embedder.loaded


def test_bare_string_is_rejected(embedder) -> None:
    with pytest.raises(InvalidInput):
        embedder.embed("not a list")


def test_load_embedder_by_name() -> None:
    assert load_embedder("none") is None
    assert load_embedder(None) is None
    assert load_embedder(" None ") is None
    assert isinstance(load_embedder("hashing"), HashingEmbedder)
    minilm = load_embedder("minilm")
    assert isinstance(minilm, MiniLMEmbedder)
    assert minilm.name == "minilm-l6-int8"
    assert isinstance(load_embedder("minilm-l6-int8"), MiniLMEmbedder)
    assert isinstance(load_embedder("auto"), MiniLMEmbedder)  # installed in this environment
    assert isinstance(load_embedder(), MiniLMEmbedder)


def test_missing_model_package(monkeypatch: pytest.MonkeyPatch) -> None:
    # A module name that cannot exist stands in for an uninstalled package.
    monkeypatch.setattr(embed, "_MINILM_MODULES", ("onnxruntime", "brainbridge_no_such_pkg"))
    assert load_embedder("auto") is None
    with pytest.raises(InvalidInput, match="brainbridge_no_such_pkg"):
        load_embedder("minilm")


def test_load_embedder_rejects_unknown_name() -> None:
    with pytest.raises(InvalidInput, match="unknown embedder 'word2vec'"):
        load_embedder("word2vec")


def test_minilm_with_a_bad_model_file_raises_invalid_input(tmp_path) -> None:
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not an onnx model")
    with pytest.raises(InvalidInput, match="cannot load embedding model"):
        MiniLMEmbedder(model_path=bad).embed(["x"])


def test_minilm_pools_a_sentence_vector_from_the_pass_over_the_whole_text(
    minilm: MiniLMEmbedder,
) -> None:
    """A sentence's vector is the mean of its tokens read in the whole text's context:
    no model call of its own, and of the text's sentences the one nearest a paraphrase
    of it; the text's own vector is exactly what `embed` gives."""
    text = (
        "week (Chat_Exchange): User: We had a long week with the kids. My laptop battery"
        " drains very quickly since the update. | AI: Sorry to hear that. Saturn's rings"
        " are made mostly of ice particles."
    )
    found = sentence_parts(text)
    battery = next(p for p in found if "battery" in p.text)
    assert text[battery.start : battery.end] == battery.text
    whole, (pooled,) = minilm.embed_parts([text], [found])
    np.testing.assert_array_equal(whole, minilm.embed([text]))
    assert_unit_rows(pooled, len(found))
    paraphrase = minilm.embed([PARAPHRASES[1][1]])[0]
    sims = pooled @ paraphrase
    assert int(np.argmax(sims)) == found.index(battery)


def test_minilm_embeds_a_sentence_beyond_the_truncated_pass_on_its_own(
    minilm: MiniLMEmbedder,
) -> None:
    head = "The quarterly report shows revenue growth in every region. " * 30  # > 256 tokens
    text = f"r (Note): {head}Penguins live on the ice of the far south."
    found = sentence_parts(text)
    tail = Part("Penguins live on the ice of the far south.", len(text) - 42, len(text))
    assert text[tail.start : tail.end] == tail.text
    _, (pooled,) = minilm.embed_parts([text], [[found[0], tail]])
    np.testing.assert_allclose(pooled[1], minilm.embed([tail.text])[0], atol=1e-6)
    assert minilm.embed_parts([], [])[0].shape == (0, 384)


def test_loading_minilm_writes_no_telemetry_outside_the_brain(tmp_path: Path) -> None:
    # Found by a new user: onnxruntime's Linux build created ~/.cache/Microsoft/
    # DeveloperTools/.onnxruntime/ with a device id and a queued "ProcessInfo" event.
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    env["HOME"] = str(tmp_path)
    env.pop("XDG_CACHE_HOME", None)
    code = "from brainbridge.embed.minilm import MiniLMEmbedder; MiniLMEmbedder().embed(['hi'])"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)
    assert not (tmp_path / ".cache" / "Microsoft").exists()
