"""Labelled directive messages (tests/data/directives/): is each one recognised for what it
is, are its time bounds read right, is a replacement seen as one? Used by the directives
suite and by tests; reads the labels only to score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from brainbridge.directives.classify import CATEGORY_OF, group
from brainbridge.directives.learned import CLASSES
from brainbridge.model.directives import GUIDANCE, Category
from brainbridge.when import Bounds, Calendar

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "directives"
SPLITS = ("dev", "fresh")


@dataclass(frozen=True)
class Labelled:
    text: str
    category: Category
    style: str
    owner: bool
    starts: date | None
    ends: date | None  # None: no end stated
    open_ended: bool  # "ends: none": holds till further notice
    replaces: bool


@dataclass(frozen=True)
class Split:
    now: datetime
    calendar: Calendar
    messages: list[Labelled]

    @property
    def today(self) -> date:
        return self.now.date()


def load(split: str) -> Split:
    raw = yaml.safe_load((DATA / f"messages_{split}.yaml").read_text("utf-8"))
    zone = ZoneInfo(raw["timezone"])
    now = raw["now"]
    now = (now if isinstance(now, datetime) else datetime.fromisoformat(now)).replace(tzinfo=zone)
    sprint = raw.get("sprint") or {}
    calendar = Calendar(sprint.get("starts"), int(sprint.get("days", 14)))
    messages = [
        Labelled(
            text=r["text"],
            category=Category(r["category"]),
            style=r["style"],
            owner=r.get("owner", True),
            starts=r.get("starts"),
            ends=None if r.get("ends") in (None, "none") else r["ends"],
            open_ended=r.get("ends") == "none",
            replaces=bool(r.get("replaces", False)),
        )
        for r in raw["messages"]
    ]
    return Split(now, calendar, messages)


def recognition(
    split: Split, classify: Callable[[str], Category]
) -> tuple[dict[str, tuple[float, float, int]], float, list[tuple[Labelled, str]]]:
    """Per class (precision, recall, labelled count), overall accuracy, and the misses.

    Only the owner's messages are scored: another author's never becomes guidance
    whatever the classifier says (the fold drops it).
    """
    pairs = [(m, group(classify(m.text))) for m in split.messages if m.owner]
    out: dict[str, tuple[float, float, int]] = {}
    for c in CLASSES:
        said = [m for m, got in pairs if got == c]
        truth = [m for m, _ in pairs if group(m.category) == c]
        hit = sum(group(m.category) == c for m in said)
        out[c] = (hit / len(said) if said else 1.0, hit / len(truth) if truth else 1.0, len(truth))
    accuracy = sum(group(m.category) == got for m, got in pairs) / len(pairs)
    misses = [(m, got) for m, got in pairs if group(m.category) != got]
    return out, accuracy, misses


def by_style(split: Split, classify: Callable[[str], Category]) -> dict[str, tuple[int, int]]:
    """Per style: (right, total) among the owner's messages."""
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for m in split.messages:
        if m.owner:
            total[m.style] += 1
            right[m.style] += group(classify(m.text)) == group(m.category)
    return {s: (right[s], total[s]) for s in sorted(total)}


def bounds_score(
    split: Split, read: Callable[[str, date, Calendar], Bounds]
) -> tuple[int, int, list[tuple[Labelled, Bounds]]]:
    """Messages whose stated bounds (or their absence) are read exactly, of all guidance."""
    ok, misses = 0, []
    rows = [m for m in split.messages if m.category in GUIDANCE]
    for m in rows:
        got = read(m.text, split.today, split.calendar)
        if (got.starts, got.ends, got.open_ended) == (m.starts, m.ends, m.open_ended):
            ok += 1
        else:
            misses.append((m, got))
    return ok, len(rows), misses


BASELINE_COMMIT = "0f49fbe"  # the labelled set landed here, before the classifier changed


def baseline_classifier() -> Callable[[str], Category] | None:
    """The rules as they stood at BASELINE_COMMIT, loaded from git (None outside a clone)."""
    from benchmarks.at_commit import module_at

    path = "src/brainbridge/directives/classify.py"
    module = module_at(BASELINE_COMMIT, path, "directive_classify_baseline")
    return None if module is None else (lambda text: module.classify(text).category)


def vector_classifier(train_split: Split, folds: int = 0) -> Callable[[str], Category] | None:
    """Logistic regression over MiniLM sentence vectors, trained like the shipped model
    (examples + the dev split); None when the model cannot load. With `folds`, returns a
    classifier that answers each dev text from a model trained without its fold."""
    import numpy as np

    from brainbridge.directives import train
    from brainbridge.embed import load_embedder

    embedder = load_embedder("minilm")
    if embedder is None:
        return None
    ex = train.examples(dev=None)
    dev = [(m.text, group(m.category)) for m in train_split.messages if m.owner]
    classes = list(train.learned.CLASSES)

    def fit(rows: list[tuple[str, str]]) -> tuple[Any, Any]:
        x = np.asarray(embedder.embed([t for t, _ in rows]))
        y = np.eye(len(classes))[[classes.index(c) for _, c in rows]]
        return train.softmax_regression(x, y, l2=0.001, epochs=500, rate=2.0)

    def predict(model: tuple[Any, Any], text: str) -> Category:
        v = np.asarray(embedder.embed([text]))[0]
        return CATEGORY_OF[classes[int(np.argmax(v @ model[0] + model[1]))]]

    if not folds:
        model = fit(ex + dev)
        return lambda text: predict(model, text)
    owner = [t for t, _ in dev]
    fold_models = [fit(ex + [r for i, r in enumerate(dev) if i % folds != k]) for k in range(folds)]
    return lambda text: predict(fold_models[owner.index(text) % folds], text)


def learned_cv(split: Split, folds: int = 5) -> Callable[[str], Category]:
    """The shipped combination (rules + learned model) answering each dev text from a
    model trained without its fold: an honest dev score for what was trained on dev."""
    from brainbridge.directives import classify as rules_and_model
    from brainbridge.directives import train

    ex = train.examples(dev=None)
    dev = [(m.text, group(m.category)) for m in split.messages if m.owner]
    models = [
        train.fit(ex + [r for i, r in enumerate(dev) if i % folds != k]) for k in range(folds)
    ]
    owner = [t for t, _ in dev]

    def classify(text: str) -> Category:
        model = models[owner.index(text) % folds]
        return rules_and_model.classify(text, model=model).category

    return classify
