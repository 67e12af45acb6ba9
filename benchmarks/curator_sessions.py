"""Labelled curator sessions (tests/data/curator/): do titles name the topic, do summaries
carry the key facts? Used by the curator suite and by tests; reads the labels only to score.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from brainbridge.curator.config import CuratorConfig
from brainbridge.curator.local import Exchange, local_title, session_summary
from brainbridge.curator.text import stem, words

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "curator"
SPLITS = ("dev", "fresh", "fresh2")
TRANSCRIPT = re.compile(r"(?:^|\s)(?:User|AI|Assistant):")


@dataclass(frozen=True)
class Labelled:
    id: str
    topic: tuple[str, ...]
    facts: tuple[str, ...]
    exchanges: tuple[Exchange, ...]


def load(split: str) -> list[Labelled]:
    rows = yaml.safe_load((DATA / f"sessions_{split}.yaml").read_text("utf-8"))
    return [
        Labelled(
            r["id"],
            tuple(r["topic"]),
            tuple(r["facts"]),
            tuple(Exchange(i, u, a) for i, (u, a) in enumerate(r["exchanges"], start=1)),
        )
        for r in rows
    ]


def names_topic(title: str, topic: Sequence[str]) -> bool:
    """The title holds one of the topic words or phrases (stemmed, any case)."""
    said = [stem(w) for w in words(title.lower())]
    for phrase in topic:
        want = [stem(w) for w in words(phrase.lower())]
        if any(said[i : i + len(want)] == want for i in range(len(said))):
            return True
    return False


def facts_named(summary: str, facts: Sequence[str]) -> int:
    low = summary.lower()
    return sum(f.lower() in low for f in facts)


def score(
    split: str,
    title: Callable[[Sequence[Exchange]], str] | None = None,
    summary: Callable[[Sequence[Exchange]], str] | None = None,
) -> dict[str, Any]:
    """Shares for one split: titles naming the topic, facts in summaries, sessions whose
    summary names every fact; plus the outputs, for reading."""
    config = CuratorConfig()
    title = title or (lambda ex: local_title(ex[: config.title_exchanges], config.max_title_words))
    summary = summary or (lambda ex: session_summary(ex, config.max_summary_chars))
    sessions = load(split)
    rows = []
    for s in sessions:
        t, m = title(s.exchanges), summary(s.exchanges)
        rows.append((s, t, m, names_topic(t, s.topic), facts_named(m, s.facts)))
    facts = sum(len(s.facts) for s in sessions)
    return {
        "sessions": len(sessions),
        "titles naming the topic": sum(r[3] for r in rows) / len(rows),
        "facts in summaries": sum(r[4] for r in rows) / facts,
        "summaries with every fact": sum(r[4] == len(r[0].facts) for r in rows) / len(rows),
        "summaries without transcript labels": sum(not TRANSCRIPT.search(r[2]) for r in rows)
        / len(rows),
        "rows": rows,
    }


if __name__ == "__main__":
    import sys

    result = score(sys.argv[1] if len(sys.argv) > 1 else "dev")
    for s, t, m, ok, n in result["rows"]:
        print(f"{'+' if ok else '-'} {s.id}: {t!r}\n  [{n}/{len(s.facts)}] {m}\n")
    print({k: round(v, 3) for k, v in result.items() if k != "rows"})
