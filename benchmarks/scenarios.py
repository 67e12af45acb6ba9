"""First-person memory scenarios (tests/data/memory/): observe sessions, then enrich probes.

One brain per split, as one person's life: every scenario's sessions are observed in
date order through `Bridge.observe_now`, then each probe is enriched. A probe passes when
the judgment is right and, for enrich probes, the block holds every `expect` string and
no line shows a superseded value as current (see tests/data/memory/README.md).
"""

from __future__ import annotations

import re
import tempfile
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from benchmarks.block_metrics import ITEM_START
from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.bridge.block import PASSAGE_PART
from brainbridge.model import Judgment, Session
from brainbridge.ports import Embedder

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "memory"
SPLITS = ("dev", "fresh")
SUPERSEDED_MARK = "superseded"


@dataclass(frozen=True)
class Probe:
    scenario: str
    message: str
    judgment: Judgment
    expect: tuple[str, ...] = ()
    stale: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Turn:
    when: date
    session: str
    number: int
    user: str
    ai: str


@dataclass
class Outcome:
    probe: Probe
    judgment: Judgment
    block: str
    judge_ok: bool
    fact_ok: bool | None  # None for probes that expect no block
    why: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.judge_ok and self.fact_ok is not False


def load(split: str) -> tuple[list[Turn], list[Probe]]:
    """The split's turns in date order and its probes."""
    data = yaml.safe_load((DATA / f"scenarios_{split}.yaml").read_text("utf-8"))
    turns: list[Turn] = []
    probes: list[Probe] = []
    for sc in data["scenarios"]:
        for si, sess in enumerate(sc["sessions"]):
            when = (
                sess["date"] if isinstance(sess["date"], date) else date.fromisoformat(sess["date"])
            )
            for n, t in enumerate(sess["turns"], start=1):
                sid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{split}/{sc['id']}/{si}"))
                turns.append(Turn(when, sid, n, t["user"], t["ai"]))
        for p in sc["probes"]:
            probes.append(
                Probe(
                    sc["id"],
                    p["message"],
                    Judgment(p["judgment"]),
                    tuple(str(e) for e in p.get("expect") or ()),
                    tuple(tuple(str(w) for w in s) for s in p.get("stale") or ()),
                )
            )
    turns.sort(key=lambda t: (t.when, t.session, t.number))
    return turns, probes


def stale_lines(block: str, probe: Probe) -> list[str]:
    """Item lines of `block` that show one of the probe's superseded values as current
    (the header and the closing "more matches left out" line hold no item); each exchange
    of a passage is judged on its own."""
    out = []
    for line in block.splitlines():
        if not line.lower().startswith(ITEM_START):
            continue
        for part in PASSAGE_PART.split(line):
            low = part.lower()
            if SUPERSEDED_MARK in low or any(e.lower() in low for e in probe.expect):
                continue
            if any(all(_has(low, w) for w in words) for words in probe.stale):
                out.append(line)
                break
    return out


def _has(low: str, word: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(word.lower()), low) is not None


def score(probe: Probe, judgment: Judgment, block: str) -> Outcome:
    judge_ok = judgment is probe.judgment
    why = [] if judge_ok else [f"judged {judgment.value}"]
    fact_ok: bool | None = None
    if probe.judgment is Judgment.ENRICH:
        missing = [e for e in probe.expect if e.lower() not in block.lower()]
        stale = stale_lines(block, probe)
        fact_ok = not missing and not stale
        why += [f"missing {m!r}" for m in missing] + [f"stale: {s[:120]}" for s in stale]
    return Outcome(probe, judgment, block, judge_ok, fact_ok, why)


async def observe_all(bridge: Bridge, turns: list[Turn]) -> None:
    for t in turns:
        obs = await bridge.observe_now(t.session, t.number, t.user, t.ai, today=t.when)
        if obs.error:
            raise RuntimeError(obs.error)


async def run_split(
    split: str, embedder: Embedder | str | None = None, folder: Path | None = None
) -> list[Outcome]:
    """Observe the split's sessions into a fresh brain, then enrich and score each probe."""
    turns, probes = load(split)
    with tempfile.TemporaryDirectory() as tmp:
        brain = await Brain.open(
            folder or Path(tmp) / "brain", embedder=embedder, background_indexing=False
        )
        try:
            bridge = Bridge(brain)
            await observe_all(bridge, turns)
            await brain.index_vectors()
            out = []
            for i, probe in enumerate(probes):
                result = await bridge.enrich(probe.message, Session(f"probe-{split}-{i}"))
                out.append(score(probe, result.judgment, result.block or ""))
            await bridge.drain()
            return out
        finally:
            await brain.close()


def summary(outcomes: list[Outcome]) -> dict[str, Any]:
    """Judge accuracy, right-fact rate over enrich probes, and the pass rate."""
    enrich = [o for o in outcomes if o.probe.judgment is Judgment.ENRICH]
    return {
        "probes": len(outcomes),
        "judge": sum(o.judge_ok for o in outcomes) / len(outcomes),
        "fact": sum(bool(o.fact_ok) for o in enrich) / max(len(enrich), 1),
        "passed": sum(o.passed for o in outcomes) / len(outcomes),
        "stale": sum(any(w.startswith("stale") for w in o.why) for o in outcomes),
        "by_label": dict(Counter(o.probe.judgment.value for o in outcomes)),
    }


def name_pairs() -> list[dict[str, Any]]:
    data = yaml.safe_load((DATA / "name_pairs.yaml").read_text("utf-8"))
    return list(data["items"])


def resolution(items: list[dict[str, Any]] | None = None) -> dict[str, dict[str, float]]:
    """Merge precision and recall of `resolve_name`, beside a plain exact-name baseline,
    and how much of the rest the review queue (`lookalikes`) catches.

    A merge is right when it names the expected entity; recall is over the items that
    expect one; precision over the items where the method merged at all. "queued" counts
    items sent to review instead: a person decides those, so a look-alike queued is a
    question asked, not a wrong merge.
    """
    from brainbridge.bridge.resolve import AMBIGUOUS, lookalikes, resolve_name
    from brainbridge.store.sqlite.store import SqliteStore

    items = items if items is not None else name_pairs()
    methods = {
        "exact name (baseline)": lambda st, t, n: n if st.get_entity(t, n) else None,
        "resolve_name + review queue": resolve_name,
    }
    out: dict[str, dict[str, float]] = {}
    for label, method in methods.items():
        merged = right = queued_same = queued_other = 0
        for item in items:
            etype = item.get("type", "Person")
            with tempfile.TemporaryDirectory() as tmp:
                store = SqliteStore.open(Path(tmp) / "b.db")
                for name in item["known"]:
                    aliases = (item.get("aliases") or {}).get(name, [])
                    store.upsert_entity(etype, name, "", {"aliases": aliases} if aliases else {})
                got = method(store, etype, item["mention"])
                review = (
                    [n for n, _ in lookalikes(store, etype, item["mention"])]
                    if got is None and method is resolve_name
                    else []
                )
                store.close()
            got = None if got == AMBIGUOUS else got
            merged += got is not None
            right += got is not None and got == item["expect"]
            queued_same += item["expect"] in review
            queued_other += bool(review) and item["expect"] not in review
        should = sum(i["expect"] is not None for i in items)
        out[label] = {
            "precision": right / merged if merged else 1.0,
            "recall": right / should,
            "merged": merged,
            "wrong": merged - right,
            "recall_with_review": (right + queued_same) / should,
            "queued_wrongly": queued_other,
        }
    return out
