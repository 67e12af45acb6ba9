"""The labelled judge set (benchmarks/data/judge_set.yaml) and its brain fixture."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from brainbridge.brain import Brain
from brainbridge.bridge.observe import exchange_attributes, exchange_name
from brainbridge.model import CHAT_EXCHANGE, Judgment

JUDGE_SET = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "judge_set.yaml"


@dataclass(frozen=True)
class Item:
    text: str
    label: Judgment
    split: str
    summary: str = ""


def load() -> tuple[dict[str, Any], list[Item]]:
    """The brain fixture and the labelled items."""
    data = yaml.safe_load(JUDGE_SET.read_text(encoding="utf-8"))
    items = [
        Item(i["text"], Judgment(i["label"]), i["split"], i.get("summary") or "")
        for i in data["items"]
    ]
    return data["brain"], items


async def fill(brain: Brain, fixture: dict[str, Any]) -> None:
    """Load the fixture's entities, relations and past exchanges into `brain`."""
    rows: list[tuple[str, str, str | None, dict[str, Any] | None]] = [
        (e["type"], e["name"], e.get("description"), e.get("attributes") or {})
        for e in fixture["entities"]
    ]
    for ex in fixture.get("exchanges", []):
        description, attrs = exchange_attributes(ex["session"], ex["n"], ex["user"], ex["ai"])
        rows.append(
            (
                CHAT_EXCHANGE,
                exchange_name(ex["session"], ex["n"]),
                description,
                {**attrs, "date": ex["date"]},
            )
        )
    await brain.upsert_many(rows)
    for src, rel, dst in fixture.get("relations", []):
        await brain.relate(tuple(src.split(":", 1)), rel, tuple(dst.split(":", 1)))


def connection(brain: Brain) -> sqlite3.Connection:
    """The brain's own SQLite connection (`brain.store` marshals calls to the store thread,
    and wraps anything callable, the connection included)."""
    return brain.searcher.store.conn
