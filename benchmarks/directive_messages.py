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
from zoneinfo import ZoneInfo

import yaml

from brainbridge.directives.model import Category
from brainbridge.when import Bounds, Calendar

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "directives"
SPLITS = ("dev", "fresh")
# What a run does with a message: carry it as guidance, retire guidance, note a person, or drop it.
GROUPS = {
    Category.DIRECTIVE: "guidance",
    Category.OBJECTIVE: "guidance",
    Category.COMPLETION: "retire",
    Category.ROLE: "people",
    Category.TRUST: "people",
    Category.CONTACT: "people",
    Category.GREETING: "chat",
    Category.ACK: "chat",
    Category.CHITCHAT: "chat",
}
SHOWN = ("directive", "objective", "completion", "people", "chat")


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


def kind(category: Category) -> str:
    """The scored class: directive, objective, completion, people or chat."""
    group = GROUPS[category]
    return category.value if group in ("guidance", "retire") else group


def recognition(
    split: Split, classify: Callable[[str], Category]
) -> tuple[dict[str, tuple[float, float, int]], float, list[tuple[Labelled, str]]]:
    """Per class (precision, recall, labelled count), overall accuracy, and the misses.

    Only the owner's messages are scored: another author's never becomes guidance
    whatever the classifier says (the fold drops it), which `reaches_run` checks.
    """
    pairs = [(m, kind(classify(m.text))) for m in split.messages if m.owner]
    out: dict[str, tuple[float, float, int]] = {}
    for c in SHOWN:
        said = [m for m, got in pairs if got == c]
        truth = [m for m, _ in pairs if kind(m.category) == c]
        hit = sum(kind(m.category) == c for m in said)
        out[c] = (hit / len(said) if said else 1.0, hit / len(truth) if truth else 1.0, len(truth))
    accuracy = sum(kind(m.category) == got for m, got in pairs) / len(pairs)
    misses = [(m, got) for m, got in pairs if kind(m.category) != got]
    return out, accuracy, misses


def by_style(split: Split, classify: Callable[[str], Category]) -> dict[str, tuple[int, int]]:
    """Per style: (right, total) among the owner's messages."""
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for m in split.messages:
        if m.owner:
            total[m.style] += 1
            right[m.style] += kind(classify(m.text)) == kind(m.category)
    return {s: (right[s], total[s]) for s in sorted(total)}


def bounds_score(
    split: Split, read: Callable[[str, date, Calendar], Bounds]
) -> tuple[int, int, list[tuple[Labelled, Bounds]]]:
    """Messages whose stated bounds (or their absence) are read exactly, of all guidance."""
    ok, misses = 0, []
    rows = [m for m in split.messages if GROUPS[m.category] == "guidance"]
    for m in rows:
        got = read(m.text, split.today, split.calendar)
        if (got.starts, got.ends, got.open_ended) == (m.starts, m.ends, m.open_ended):
            ok += 1
        else:
            misses.append((m, got))
    return ok, len(rows), misses
