"""Sentence vectors: which sentences an entry is embedded by, and that its cosine is its
best sentence's on both backends."""

from __future__ import annotations

import pytest
from tests.conftest import BrainFactory
from tests.pg import backend  # noqa: F401  (runs this module on both backends)

from brainbridge.bridge.observe import exchange_attributes, exchange_name
from brainbridge.embed import MiniLMEmbedder
from brainbridge.search import parts
from brainbridge.search.parts import MAX_PARTS, sentence_parts, sentences


def test_a_sentence_keeps_its_speaker_but_not_the_exchange_role() -> None:
    text = (
        "ab12:ex:3 (Chat_Exchange): User: Melanie: Wow, Caroline! I just signed up for a"
        " pottery class yesterday. [shares a photo: a bowl of clay] | AI: Caroline: Love it."
        " What made you try pottery?"
    )
    assert sentences(text) == [
        "Melanie: I just signed up for a pottery class yesterday.",
        "Caroline: What made you try pottery?",
        "Melanie: [shares a photo: a bowl of clay]",
    ]  # "Wow, Caroline!" and "Love it." are too short to stand alone


def test_one_sentence_is_the_whole_text() -> None:
    assert sentences("Atlas (Project): A campus map app for students.") == []
    assert sentences("x (Note): Short. Also short. Tiny.") == []
    assert sentences("") == []


def test_a_long_reply_gives_at_most_a_few_sentences_from_each_side() -> None:
    user = "Which train do I take to the airport tomorrow morning?"
    reply = " ".join(f"Point number {i} is about the timetable." for i in range(20))
    text = f"n (Chat_Exchange): User: {user} | AI: {reply}"
    found = sentences(text)
    assert len(found) == MAX_PARTS
    assert found[:2] == [user, "Point number 0 is about the timetable."]


USER = "We had a long week with the kids. I just signed up for a pottery class yesterday."
REPLY = "Great idea, working with clay is calming. Do tell me how the first lesson goes."


async def test_an_exchange_is_as_near_as_its_best_sentence(
    make_brain: BrainFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parts, "EXCHANGE_SENTENCES", True)  # BRAIN_EXCHANGE_SENTENCES=1
    brain = await make_brain(background_indexing=False)
    description, attrs = exchange_attributes("s1", 1, USER, REPLY)
    ex = await brain.upsert_entity(
        "Chat_Exchange", exchange_name("s1", 1), description=description, attributes=attrs
    )
    await brain.upsert_entity("Topic", "Gardening", description="Tomatoes need sun and water.")
    await brain.index_vectors()
    assert brain.embedder is not None and brain.searcher.index is not None
    stored = {key: parts for key, _, _, parts in await brain._run(brain.store.iter_vectors)}
    assert stored[("Topic", "Gardening")] is None
    assert len(stored[("Chat_Exchange", ex.name)] or b"") == 4 * 4 * brain.embedder.dim

    sentence = "I just signed up for a pottery class yesterday."
    query = brain.embedder.embed([sentence])[0]
    whole = brain.embedder.embed([f"{ex.name} (Chat_Exchange): {description}"])[0]
    assert float(whole @ query) < 0.9
    index = brain.searcher.index
    await brain._run(index.refresh)
    cosine = await brain._run(index.cosines, [ex.id], query)
    assert cosine[ex.id] == pytest.approx(1.0, abs=1e-5)  # its own sentence, exactly
    nearest, _ = await brain._run(index.nearest, query, 5)
    assert nearest[0] == (ex.id, pytest.approx(1.0, abs=1e-5))
    assert [eid for eid, _ in nearest].count(ex.id) == 1  # once, at its best


async def test_switched_off_an_exchange_is_one_vector_and_an_observation_keeps_its_sentences(
    make_brain: BrainFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BRAIN_EXCHANGE_SENTENCES=0: one text embedded per turn, so vectors keep up with the
    embedder (#34); a longer entry is still matched by its best sentence."""
    monkeypatch.setattr(parts, "EXCHANGE_SENTENCES", False)  # BRAIN_EXCHANGE_SENTENCES=0
    brain = await make_brain(background_indexing=False)
    description, attrs = exchange_attributes("s1", 1, USER, REPLY)
    ex = await brain.upsert_entity(
        "Chat_Exchange", exchange_name("s1", 1), description=description, attributes=attrs
    )
    await brain.upsert_entity("Observation", "Week", description=f"{USER} {REPLY}")
    await brain.index_vectors()
    assert brain.embedder is not None
    stored = {key: parts for key, _, _, parts in await brain._run(brain.store.iter_vectors)}
    assert stored[("Chat_Exchange", ex.name)] is None
    assert len(stored[("Observation", "Week")] or b"") == 4 * 4 * brain.embedder.dim


def test_each_sentence_knows_where_it_lies_in_the_text() -> None:
    """Where a sentence lies is what an embedder pools its vector from (MiniLM reads the
    whole text once and averages each sentence's tokens)."""
    text = (
        "ab12:ex:3 (Chat_Exchange): User: Melanie: Wow, Caroline! I just signed up for a"
        " pottery class  yesterday.\n\nIt was fun. | AI: Caroline: Love it.   What made you"
        " try pottery?  "
    )
    found = sentence_parts(text)
    assert [p.text for p in found] == sentences(text)
    for part in found:
        said = text[part.start : part.end]
        assert part.text.endswith(said) and said == said.strip()
    assert text[found[0].start : found[0].end] == "I just signed up for a pottery class  yesterday."


async def test_pooled_minilm_stores_sentence_vectors_from_one_pass(
    make_brain: BrainFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BRAIN_POOL_SENTENCES=1: with MiniLM an exchange's sentence vectors come from the
    pass over its whole text, so indexing runs the model once per exchange, not once per
    sentence (#34 item 3)."""
    monkeypatch.setattr(parts, "EXCHANGE_SENTENCES", True)
    monkeypatch.setattr(parts, "POOL_SENTENCES", True)
    brain = await make_brain(background_indexing=False, embedder="minilm")
    embedder = brain.embedder
    assert isinstance(embedder, MiniLMEmbedder)
    texts: list[str] = []
    real = embedder.embed
    monkeypatch.setattr(embedder, "embed", lambda batch: texts.extend(batch) or real(batch))
    description, attrs = exchange_attributes("s1", 1, USER, REPLY)
    ex = await brain.upsert_entity(
        "Chat_Exchange", exchange_name("s1", 1), description=description, attributes=attrs
    )
    await brain.index_vectors()
    assert texts == []  # nothing embedded apart
    stored = {key: blob for key, _, _, blob in await brain._run(brain.store.iter_vectors)}
    text = f"{ex.name} (Chat_Exchange): {description}"
    _, (pooled,) = embedder.embed_parts([text], [parts.parts_of(text)])
    blob = stored[("Chat_Exchange", ex.name)]
    assert blob == pooled.tobytes() and len(pooled) == 4
