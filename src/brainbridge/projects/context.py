"""`brain_context`: the brain entries that matter for a coding project.

BM25 on the project name seeds candidates, the best seeds are widened two hops
through relations, neighbours whose names or paths share terms with the files the
agent is touching are boosted, and the merged set is reranked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from brainbridge.model import CHAT_EXCHANGE, Entity
from brainbridge.store.sqlite.store import SqliteStore
from brainbridge.vault.parse import excerpt

SEEDS = 3
HOPS = 2
# Path parts that say nothing about what a file is about.
_PATH_NOISE = frozenset(
    "src lib libs internal pkg cmd app apps test tests spec specs main index init mod util utils "
    "common core py go rs ts tsx js jsx md json yaml yml toml txt html css the and".split()
)


@dataclass(frozen=True)
class ContextEntry:
    slug: str
    title: str
    doc_path: str
    excerpt: str
    type: str
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "title": self.title,
            "doc_path": self.doc_path,
            "excerpt": self.excerpt,
            "type": self.type,
            "score": round(self.score, 4),
        }


def terms_of(text: str) -> set[str]:
    """Lower-case word parts of a name or path, CamelCase and snake/kebab case split."""
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    parts = re.split(r"[^A-Za-z0-9]+", text.lower())
    return {p for p in parts if len(p) >= 3 and p not in _PATH_NOISE}


def path_terms(paths: Sequence[str]) -> set[str]:
    out: set[str] = set()
    for p in paths:
        pp = PurePath(p)
        out |= terms_of(" ".join([*pp.parent.parts[-3:], pp.stem]))
    return out


def _entry(ent: Entity, score: float) -> ContextEntry:
    attrs = ent.attributes
    body = attrs.get("body") if isinstance(attrs.get("body"), str) else None
    return ContextEntry(
        slug=str(attrs.get("slug") or re.sub(r"[^\w]+", "-", ent.name.lower()).strip("-")),
        title=ent.name,
        doc_path=str(attrs.get("doc_path") or ""),
        excerpt=excerpt(body if body else ent.description),
        type=ent.type,
        score=score,
    )


def brain_context(
    store: SqliteStore,
    project_root: str,
    recent_files: Sequence[str] | None = None,
    limit: int = 10,
) -> list[ContextEntry]:
    """The `limit` entries most relevant to the project at `project_root`, best first."""
    project = PurePath(str(project_root).rstrip("/\\")).name or str(project_root)
    recent = path_terms(recent_files or [])
    project_terms = terms_of(project)
    seeds = store.bm25(
        project.replace("-", " ").replace("_", " "), 30, exclude_types=(CHAT_EXCHANGE,)
    )
    scores: dict[int, float] = {}
    if seeds:
        top = seeds[0][1] or 1.0
        for eid, s in seeds:
            scores[eid] = s / top  # 0..1, best seed 1.0
    near = store.neighbors([eid for eid, _ in seeds[:SEEDS]], HOPS, limit=400) if seeds else {}
    seed_strength = max((scores[e] for e, _ in seeds[:SEEDS]), default=0.0)
    for eid, hops in near.items():
        if hops == 0:
            continue
        # A neighbour is worth a fraction of its seed; closer means more.
        scores[eid] = max(scores.get(eid, 0.0), seed_strength * (0.7 if hops == 1 else 0.45))
    ents = store.get_entities(list(scores))
    degree = store.degree(list(near)) if near else {}
    ranked: list[ContextEntry] = []
    for eid, base in scores.items():
        ent = ents.get(eid)
        if ent is None or ent.type == CHAT_EXCHANGE:
            continue
        own = terms_of(" ".join([ent.name, str(ent.attributes.get("doc_path") or "")]))
        score = base
        if recent and own & recent:
            score += 0.5 * len(own & recent) / max(len(recent), 1) + 0.3
        if own & project_terms:
            score += 0.2
        if eid in near:
            score += 0.02 * min(degree.get(eid, 0), 10)  # well-connected hubs of the project
        ranked.append(_entry(ent, score))
    ranked.sort(key=lambda e: (-e.score, e.title))
    return ranked[:limit]
