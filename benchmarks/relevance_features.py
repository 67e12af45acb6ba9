"""Stage (a) of the relevance trainer: numeric feature rows from real brains.

Each tuned LoCoMo conversation (1-3 only) and the first-person scenario DEV split are
ingested through `observe_now`; every question is enriched with the judge forced to
enrich, and every candidate the bridge considered becomes one row: its features, which
of the question's evidence it holds, and the tokens its line takes. No text is written,
so the file can be committed (LoCoMo text cannot).

Run: PYTHONPATH=src:. python -m brainbridge.bridge.train_relevance --extract
"""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path
from typing import Any

from benchmarks import locomo_data, scenarios
from benchmarks.bench_bridge import AlwaysEnrich
from benchmarks.block_quality import TUNED, cached_embedder, conversations, open_conversation
from benchmarks.vector_cache import CachingEmbedder
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.bridge.block import estimate_tokens, render_ranked
from brainbridge.bridge.bridge import Enrichment, _item
from brainbridge.bridge.rank import FEATURES, features
from brainbridge.model import CHAT_EXCHANGE, Session


def _rows(
    result: Enrichment, group: str, holds: Any, evidence: int, labelled_types: Any
) -> dict[str, Any]:
    """One question: its evidence count and a row per candidate."""
    cands = []
    for _, c in result.ranked:
        ent = c.hit.entity
        feats = features(c)
        held = sorted(holds(c))
        cands.append(
            {
                "x": [round(feats.get(f, 0.0), 5) for f in FEATURES],
                "held": held,
                "label": (1 if held else 0) if labelled_types(ent.type) else -1,
                "tokens": estimate_tokens(render_ranked(_item(c.hit, {}))),
                "superseded": int(c.superseded),
                "own": int("own" in c.hit.retrievers),
            }
        )
    return {"group": group, "evidence": evidence, "candidates": cands}


async def locomo_rows(embedder_name: str) -> list[dict[str, Any]]:
    embedder = cached_embedder(embedder_name)
    out = []
    with tempfile.TemporaryDirectory(prefix="relevance-features-") as tmp:
        for c in TUNED:
            brain, turns_of = await open_conversation(c, embedder, embedder_name, Path(tmp))
            try:
                bridge = Bridge(brain, AlwaysEnrich())
                for qi, q in enumerate(locomo_data.questions(conversations()[c])):
                    result = await bridge.enrich(q.text, None)
                    evidence = list(dict.fromkeys(q.evidence))

                    def holds(
                        cand: Any, ev: list[str] = evidence, turns: Any = turns_of
                    ) -> set[int]:
                        got = turns.get(cand.hit.entity.name, set())
                        return {i for i, e in enumerate(ev) if e in got}

                    out.append(
                        _rows(
                            result,
                            f"locomo{c}-{qi}-{embedder_name}",
                            holds,
                            len(evidence),
                            lambda t: t == CHAT_EXCHANGE,
                        )
                    )
                await bridge.drain()
            finally:
                await brain.close()
    if isinstance(embedder, CachingEmbedder):
        embedder.save()
    return out


async def scenario_rows(embedder_name: str) -> list[dict[str, Any]]:
    """The DEV scenarios' enrich probes, labelled by the strings each expects."""
    turns, probes = scenarios.load("dev")
    embedder: Any = None if embedder_name == "none" else embedder_name
    out = []
    with tempfile.TemporaryDirectory(prefix="relevance-scenarios-") as tmp:
        brain = await Brain.open(Path(tmp) / "b", embedder=embedder, background_indexing=False)
        try:
            await scenarios.observe_all(Bridge(brain), turns)
            await brain.index_vectors()
            bridge = Bridge(brain, AlwaysEnrich())
            for i, probe in enumerate(probes):
                if not probe.expect or probe.judgment.value != "enrich":
                    continue
                result = await bridge.enrich(probe.message, Session(str(uuid.uuid4())))
                expect = [e.lower() for e in probe.expect]

                def holds(cand: Any, ex: list[str] = expect) -> set[int]:
                    line = render_ranked(_item(cand.hit, {})).lower()
                    return {k for k, e in enumerate(ex) if e in line}

                out.append(
                    _rows(
                        result, f"scenario{i}-{embedder_name}", holds, len(expect), lambda t: True
                    )
                )
            await bridge.drain()
        finally:
            await brain.close()
    return out


async def extract(embedders: tuple[str, ...] = ("none", "minilm")) -> dict[str, Any]:
    """All rows, for each embedder."""
    questions = []
    for name in embedders:
        questions += await locomo_rows(name)
        questions += await scenario_rows(name)
    return {"features": list(FEATURES), "questions": questions}
