"""`brain_context`: the brain entries that matter for a coding project.

BM25 on the project name seeds candidates, the best seeds are widened two hops
through relations, neighbours whose names or paths share terms with the files the
agent is touching are boosted, and the merged set is reranked.
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from brainbridge.model import CHAT_EXCHANGE, EPISODES, PASSAGE, Entity
from brainbridge.ports import Store
from brainbridge.vault.parse import excerpt

SEEDS = 3
ONE_HOP, TWO_HOPS = 0.7, 0.45
# Nodes linked to more than this many others (the user, a team) say little about
# any one of their neighbours: paths through them are damped.
HUB_DEGREE = 6
MAX_EXPANSIONS = 60
# Below a fifth of the best seed an entry is noise (a far BM25 match, a path via a hub).
MIN_SCORE = 0.2
# Path parts that say nothing about what a file is about.
_PATH_NOISE = frozenset(
    "src lib libs internal pkg cmd app apps test tests spec specs main index init mod util utils "
    "common core py go rs ts tsx js jsx md json yaml yml toml txt html css the and "
    "home users usr var tmp docs doc notes".split()
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
    """Lower-case word parts of a name or path, CamelCase and snake/kebab case split.

    Adjacent parts are also joined, so "graph-store", "GraphStore" and "graphstore" meet.
    """
    out: set[str] = set()
    for token in re.split(r"[^A-Za-z0-9_\-]+", text):
        spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", token)
        parts = [p for p in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if p]
        out.update(parts)
        out.update(a + b for a, b in zip(parts, parts[1:], strict=False))
    return {p for p in out if len(p) >= 3 and p not in _PATH_NOISE}


def path_terms(paths: Sequence[str], project_root: str = "") -> set[str]:
    """Terms of the last folders and the stem of each path (relative to the project if inside)."""
    root = PurePath(project_root) if project_root else None
    out: set[str] = set()
    for p in paths:
        pp = PurePath(p)
        if root is not None and pp.is_absolute():
            with contextlib.suppress(ValueError):  # outside the project: as given
                pp = pp.relative_to(root)
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


def _damp(degree: int) -> float:
    return 1.0 if degree <= HUB_DEGREE else 1.0 / (1.0 + math.log2(degree / HUB_DEGREE))


def _expand(store: Store, seeds: dict[int, float]) -> dict[int, float]:
    """Graph scores of the seeds' neighbours, two hops out, through hubs only faintly."""
    graph: dict[int, float] = {}
    hop1: dict[int, float] = {}
    for seed, weight in seeds.items():
        for eid, dist in store.neighbors([seed], 1, limit=400).items():
            if dist == 1:
                hop1[eid] = max(hop1.get(eid, 0.0), weight)
    degree = store.degree(list(hop1))
    for eid, weight in hop1.items():
        graph[eid] = weight * ONE_HOP * _damp(degree.get(eid, 0))
    # The most promising intermediates first; hubs last (their neighbours are mostly noise).
    order = sorted(hop1, key=lambda e: (-graph[e], degree.get(e, 0), e))[:MAX_EXPANSIONS]
    for mid in order:
        via = hop1[mid] * TWO_HOPS * _damp(degree.get(mid, 0))
        for eid, dist in store.neighbors([mid], 1, limit=400).items():
            if dist == 1 and eid not in seeds:
                graph[eid] = max(graph.get(eid, 0.0), via)
    return graph


def brain_context(
    store: Store,
    project_root: str,
    recent_files: Sequence[str] | None = None,
    limit: int = 10,
) -> list[ContextEntry]:
    """The `limit` entries most relevant to the project at `project_root`, best first."""
    if limit < 1:
        return []
    root = str(project_root).rstrip("/\\")
    project = PurePath(root).name or root
    recent = path_terms(recent_files or [], root)
    project_terms = terms_of(project)
    # A note counts as a whole here; its passages are for questions (the bridge).
    seeds = store.bm25(
        project.replace("-", " ").replace("_", " "), 30, exclude_types=(*EPISODES, PASSAGE)
    )
    if not seeds:
        return []
    top = seeds[0][1] or 1.0
    scores = {eid: s / top for eid, s in seeds}  # 0..1, best seed 1.0
    graph = _expand(store, {eid: scores[eid] for eid, _ in seeds[:SEEDS]})
    for eid, g in graph.items():
        scores[eid] = max(scores.get(eid, 0.0), g)
    ents = store.get_entities(list(scores))
    ranked: list[ContextEntry] = []
    for eid, base in scores.items():
        ent = ents.get(eid)
        if ent is None or ent.type == CHAT_EXCHANGE:
            continue
        doc_path = str(ent.attributes.get("doc_path") or "")
        where = str(ent.attributes.get("rel_path") or "") or " ".join(PurePath(doc_path).parts[-4:])
        own = terms_of(f"{ent.name} {where}")
        score = base
        if recent and own & recent:
            score += 0.3 + 0.5 * len(own & recent) / len(recent)
        if (own | terms_of(doc_path)) & project_terms:
            score += 0.2
        if score >= MIN_SCORE:
            ranked.append(_entry(ent, score))
    ranked.sort(key=lambda e: (-e.score, e.title))
    return ranked[:limit]
