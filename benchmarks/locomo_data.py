"""LoCoMo conversations: loading, and ingesting one into a brain as chat exchanges.

The data (CC BY-NC 4.0, evaluation only) is read where it lies, never copied into
the repository: `$BRAIN_LOCOMO` (the JSON file or its folder), else
`../shared/data/locomo/locomo_dev.json` next to the repository (or next to the folder
holding it, for a git worktree).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brainbridge.brain import Brain

DATA_FILE = "locomo_dev.json"
UNITS = ("turn", "pair")


def locomo_path() -> Path:
    """Where the LoCoMo development split is read from."""
    env = os.environ.get("BRAIN_LOCOMO") or os.environ.get("LOCOMO_DIR")
    if env:
        path = Path(env)
    else:
        # Beside the repository, or beside a folder holding it (a git worktree).
        found = (p / "shared/data/locomo" for p in Path(__file__).resolve().parents[2:4])
        path = next(
            (p for p in found if p.is_dir()),
            Path(__file__).resolve().parents[2] / "shared/data/locomo",
        )
    return path / DATA_FILE if path.is_dir() else path


def load_conversations(path: Path | None = None) -> list[dict[str, Any]]:
    """The conversations of the split, as in the file."""
    return json.loads((path or locomo_path()).read_text("utf-8"))


@dataclass(frozen=True)
class Turn:
    session: int
    date: str
    speaker: str
    dia_id: str
    text: str
    caption: str | None


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]


def turns(conversation: dict[str, Any]) -> list[Turn]:
    """Every turn of every session, in order."""
    conv = conversation["conversation"]
    out, n = [], 1
    while f"session_{n}" in conv:
        date = conv.get(f"session_{n}_date_time", "")
        for t in conv[f"session_{n}"]:
            out.append(Turn(n, date, t["speaker"], t["dia_id"], t["text"], t.get("blip_caption")))
        n += 1
    return out


def questions(conversation: dict[str, Any]) -> list[Question]:
    """Questions of categories 1-4 that name their evidence (category 5 is adversarial)."""
    out = []
    for qa in conversation["qa"]:
        evidence = tuple(
            part.strip()
            for ev in qa.get("evidence") or []
            for part in re.split(r"[;,]", ev)
            if part.strip()
        )
        if qa["category"] != 5 and evidence:
            out.append(Question(qa["question"], int(qa["category"]), evidence))
    return out


def turn_text(turn: Turn) -> str:
    """What was said, by whom, and the photo shared with it (its caption) if any."""
    photo = f" [shares a photo: {turn.caption}]" if turn.caption else ""
    return f"{turn.speaker}: {turn.text}{photo}"


def items(conversation: dict[str, Any], unit: str) -> list[list[Turn]]:
    """Turns grouped into exchanges: one turn each, or consecutive pairs within a session."""
    size = {"turn": 1, "pair": 2}[unit]
    out: list[list[Turn]] = []
    for turn in turns(conversation):
        if out and len(out[-1]) < size and out[-1][0].session == turn.session:
            out[-1].append(turn)
        else:
            out.append([turn])
    return out


def session_id(conversation: dict[str, Any], session: int) -> str:
    """A stable uuid-like id, so `id[:8]` differs between sessions as real ids do."""
    return hashlib.sha1(f"{conversation['sample_id']}/{session}".encode()).hexdigest()


async def ingest(brain: Brain, conversation: dict[str, Any], unit: str = "pair") -> int:
    """Store the conversation as Chat_Exchange entities (DESIGN.md); return how many.

    A "pair" exchange holds two consecutive turns (the first as the user message,
    the second as the reply); a "turn" exchange holds one turn and an empty reply.
    """
    rows = []
    numbers: dict[int, int] = {}
    for group in items(conversation, unit):
        first = group[0]
        sid = session_id(conversation, first.session)
        n = numbers[first.session] = numbers.get(first.session, 0) + 1
        message = turn_text(first)
        response = turn_text(group[1]) if len(group) > 1 else ""
        rows.append(
            (
                "Chat_Exchange",
                f"{sid[:8]}:ex:{n}",
                f"User: {message[:300]} | AI: {response[:500]}",
                {
                    "session_id": sid,
                    "exchange_number": n,
                    "user_message": message[:1000],
                    "ai_response": response[:2000],
                    "dia_ids": [t.dia_id for t in group],
                    "session_date": first.date,
                },
            )
        )
    await brain.upsert_many(rows)
    return len(rows)
