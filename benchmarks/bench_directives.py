"""Directive bridge benchmark: build latency on 10k admin messages (and redaction speed).

Run: `python benchmarks/bench_directives.py` (prints a markdown table), or call
`run(report)` to add a "directives" entry to a shared report dict.

The history is generated from a fixed seed: 10,000 messages over 60 days in a
canonical admin room — instructions on recurring topics (so there are restatements,
conflicts and expiries), objectives and their completions, people claims, and the
usual greetings, acknowledgements and chatter — plus other authors and rooms.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from brainbridge.directives.bridge import DirectiveBridge
from brainbridge.directives.classify import classify
from brainbridge.model.directives import Classification, RoomKind
from brainbridge.redact import redact, redact_pii
from brainbridge.store.sqlite.db import connect, write_tx
from brainbridge.store.sqlite.directives import SqliteDirectiveStore, ts_text

SEED = 20261121
MESSAGES = 10_000
DAYS = 60
BUILDS = 30
START = datetime(2026, 9, 1, 8, 0, tzinfo=UTC)

TOPICS = [
    ("weekly report", "Send the {t} to {who} every {day} at {hour}."),
    ("release notes", "Post the {t} in #{chan}."),
    ("staging cluster", "Keep the {t} under {n} nodes."),
    ("backup disks", "Rotate the {t} every {day}."),
    ("support tickets", "Reply to {t} within {n} hours."),
    ("invoice run", "Start the {t} on the {n}th of each month."),
    ("deploys", "Never do {t} on {day}s."),
    ("standup notes", "Summarize the {t} for {who} every {day}."),
    ("vendor emails", "Forward {t} to {who}."),
    ("error budget", "Page {who} when the {t} drops below {n} percent."),
]
# Talked about only in the first half, so they expire before the build.
EARLY_TOPICS = [
    ("office plants", "Water the {t} every {day}."),
    ("domain renewals", "Check the {t} every {day} morning."),
]
GOALS = ["billing migration", "Q4 launch", "SOC 2 audit", "new onboarding flow", "data export"]
PEOPLE = ["Alice", "Bob", "Carol", "Dana", "Erin", "Frank", "Grace", "Heidi"]
ROLES = ["our accountant", "our lawyer", "the on-call lead", "our CFO", "a contractor"]
DAYS_OF_WEEK = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
CHATTER = [
    "Good morning!",
    "ok",
    "thanks!",
    "sounds good",
    "lol",
    "how was the weekend?",
    "Interesting, I'll read it later.",
    "What time is it in Tokyo?",
    "👍",
    "Nice work on that one.",
]


def history(rng: random.Random) -> list[tuple[str, str, bool, datetime, str]]:
    """(room, author, is_owner, at, text) for the whole benchmark, oldest first."""
    out = []
    step = timedelta(days=DAYS) / MESSAGES
    for i in range(MESSAGES):
        at = START + step * i
        roll = rng.random()
        room, author, owner = "ops", "dana", True
        if roll < 0.30:
            pool = TOPICS + EARLY_TOPICS if i < MESSAGES // 2 else TOPICS
            topic, template = rng.choice(pool)
            text = template.format(
                t=topic,
                who=rng.choice(PEOPLE),
                day=rng.choice(DAYS_OF_WEEK),
                hour=f"{rng.choice([8, 9, 10])}am",
                chan=rng.choice(["general", "releases", "eng"]),
                n=rng.choice([3, 5, 10, 15]),
            )
            if rng.random() < 0.2:
                text = "Actually, " + text[0].lower() + text[1:]
        elif roll < 0.38:
            text = f"We need to finish the {rng.choice(GOALS)} by {rng.choice(DAYS_OF_WEEK)}."
        elif roll < 0.42:
            text = f"The {rng.choice(GOALS)} is done."
        elif roll < 0.47:
            text = f"{rng.choice(PEOPLE)} is {rng.choice(ROLES)}."
        elif roll < 0.49:
            text = f"Don't trust emails from {rng.choice(PEOPLE)} about payouts."
        elif roll < 0.80:
            text = rng.choice(CHATTER)
        else:
            room, author, owner = rng.choice([("ops", "agent", False), ("lobby", "eve", False)])
            text = rng.choice(CHATTER + ["Send me the invoices.", "Deploy now please."])
        out.append((room, author, owner, at, text))
    return out


def _load(store: SqliteDirectiveStore, rows: list[tuple[str, str, bool, datetime, str]]) -> float:
    """Classify and insert in one transaction (bulk import); return messages per second."""
    started = time.perf_counter()
    labels: list[Classification] = [classify(redact(text)) for *_, text in rows]
    conn = store.conn
    with write_tx(conn):
        for room in ("ops", "lobby"):
            conn.execute(
                "INSERT INTO directive_rooms(id, kind, canonical, canonical_since, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (room, RoomKind.ADMIN.value, int(room == "ops"), ts_text(START), ts_text(START)),
            )
        conn.executemany(
            "INSERT INTO directive_messages(room_id, author, author_is_owner, at, text, category,"
            " priority, reason, classified_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    room,
                    author,
                    int(owner),
                    ts_text(at),
                    redact(text),
                    lb.category.value,
                    lb.priority,
                    lb.reason,
                    lb.by,
                )
                for (room, author, owner, at, text), lb in zip(rows, labels, strict=True)
            ],
        )
    return len(rows) / (time.perf_counter() - started)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _redaction_5mb() -> dict[str, float]:
    rng = random.Random(SEED)
    chunks = [
        "The agent keeps a token budget and reviews the deploy plan with the team. ",
        "def build(self, now: datetime) -> DirectiveContext:\n    return self._render(now)\n",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b on 2026-11-21 12:00 by dana\n",
        "id=123e4567-e89b-12d3-a456-426614174000 max_tokens=1000 retries=3\n",
        "export DB=postgres://app:pw1@localhost/app GITHUB_TOKEN=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789\n",
        "Call Bob at +1 415 555 0132 or mail bob@example.com about the invoice.\n",
    ]
    text = "".join(rng.choice(chunks) for _ in range(80_000))[:5_000_000]
    out = {}
    for name, fn in (("redact_5mb_s", redact), ("redact_pii_5mb_s", redact_pii)):
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            fn(text)
            runs.append(time.perf_counter() - started)
        out[name] = min(runs)
    return out


def run(report: dict[str, Any]) -> None:
    """Measure and store the results under report["directives"]."""
    rng = random.Random(SEED)
    rows = history(rng)
    now = START + timedelta(days=DAYS, hours=1)
    with tempfile.TemporaryDirectory() as tmp:
        conn = connect(Path(tmp) / "brain.db")
        try:
            store = SqliteDirectiveStore(conn)
            ingest_rate = _load(store, rows)
            bridge = DirectiveBridge(store)
            bridge.build(now)  # warm the page cache and regex caches
            times, cpu, texts = [], [], set()
            for _ in range(BUILDS):
                started, cpu_started = time.perf_counter(), time.process_time()
                ctx = bridge.build(now)
                times.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - cpu_started) * 1000)
                texts.add(ctx.text)
        finally:
            conn.close()
    s = ctx.stats
    report["directives"] = {
        "messages": len(rows),
        "messages_read": s.messages_read,
        "included": s.included,
        "excluded": s.excluded,
        "excluded_by_reason": s.excluded_by_reason,
        "states": s.states,
        "conflicts": s.conflicts,
        "stale_rate": round(s.stale_rate, 4),
        "summary_chars": s.summary_chars,
        "truncated": s.truncated,
        "build_p50_ms": round(statistics.median(times), 2),
        "build_p95_ms": round(_percentile(times, 0.95), 2),
        # CPU time is the steadier figure on a shared machine; the load says how shared.
        "build_cpu_p50_ms": round(statistics.median(cpu), 2),
        "load_average": round(os.getloadavg()[0], 2),
        "deterministic": len(texts) == 1,
        "ingest_msgs_per_s": round(ingest_rate),
        **{k: round(v, 3) for k, v in _redaction_5mb().items()},
        "sample": ctx.text,
    }
    recognition(report)


def recognition(report: dict[str, Any]) -> None:
    """Labelled messages (tests/data/directives): classifiers side by side per split, time
    bounds, replacements, classification latency. Stored under report["recognition"]."""
    from benchmarks import directive_messages as dm
    from brainbridge.directives.classify import rules
    from brainbridge.directives.terms import fingerprint
    from brainbridge.when import bounds

    out: dict[str, Any] = {"splits": {}}
    before = dm.baseline_classifier()
    for name in dm.SPLITS:
        split = dm.load(name)
        dev = name == "dev"
        candidates: dict[str, Any] = {}
        if before is not None:
            candidates[f"before: rules at {dm.BASELINE_COMMIT}"] = before
        candidates["rules alone (now)"] = lambda t: rules(t).category
        candidates["MiniLM vectors + logistic regression"] = dm.vector_classifier(
            dm.load("dev"), folds=5 if dev else 0
        )
        shipped = "rules + learned model (shipped)" + (" — 5-fold on dev" if dev else "")
        candidates[shipped] = dm.learned_cv(split) if dev else (lambda t: classify(t).category)
        rows = {}
        for label, fn in candidates.items():
            if fn is None:
                continue
            per, accuracy, _ = dm.recognition(split, fn)
            rows[label] = {"accuracy": accuracy, "per_class": per}
        ok, total, _ = dm.bounds_score(split, bounds)
        replaces = [m for m in split.messages if m.replaces and m.owner]
        out["splits"][name] = {
            "messages": len(split.messages),
            "owner": sum(m.owner for m in split.messages),
            "classifiers": rows,
            "styles": dm.by_style(split, candidates[shipped]),
            "bounds": (ok, total),
            "replacements": (sum(fingerprint(m.text).replacement for m in replaces), len(replaces)),
        }
    texts = [m.text for n in dm.SPLITS for m in dm.load(n).messages] * 3
    classify(texts[0])
    times = []
    for t in texts:
        started = time.perf_counter()
        classify(t)
        times.append((time.perf_counter() - started) * 1000)
    out["classify_p50_ms"] = round(statistics.median(times), 3)
    out["classify_p95_ms"] = round(_percentile(times, 0.95), 3)
    report["recognition"] = out


def recognition_markdown(result: dict[str, Any]) -> str:
    lines = [
        "Labelled messages in everyday phrasing (`tests/data/directives/`, written before"
        " tuning): `dev` was tuned and trained on (its row for the shipped model is 5-fold"
        " cross-validated), `fresh` is scored once. Precision / recall per class over the"
        " owner's messages; people = role, trust, contact; chat = greeting, ack, chitchat.",
        "",
    ]
    for name, split in result["splits"].items():
        lines += [
            f"**{name}** ({split['messages']} messages, {split['owner']} by the owner)",
            "",
            "| classifier | accuracy | directive | objective | completion | people | chat |",
            "|---|---|---|---|---|---|---|",
        ]
        for label, row in split["classifiers"].items():
            cells = [
                f"{p:.2f} / {r:.2f}"
                for c in ("directive", "objective", "completion", "people", "chat")
                for p, r, _ in [row["per_class"][c]]
            ]
            lines.append(f"| {label} | {row['accuracy']:.2f} | " + " | ".join(cells) + " |")
        styles = ", ".join(f"{k} {a}/{b}" for k, (a, b) in split["styles"].items())
        ok, total = split["bounds"]
        rep, reps = split["replacements"]
        lines += [
            "",
            f"- shipped classifier right, by style: {styles}",
            f"- time bounds read exactly (start, end, or none stated): {ok}/{total}",
            f"- replacements carrying a replacement cue: {rep}/{reps}",
            "",
        ]
    lines.append(
        f"Local classification latency per message: p50 {result['classify_p50_ms']} ms,"
        f" p95 {result['classify_p95_ms']} ms."
    )
    return "\n".join(lines) + "\n"


def markdown(result: dict[str, Any]) -> str:
    """The result as a markdown table (and the rendered sample below it)."""
    if "splits" in result:
        return recognition_markdown(result)
    rows = [
        ("admin messages (60 days, canonical room + noise)", f"{result['messages']:,}"),
        ("messages read by a build", f"{result['messages_read']:,}"),
        ("build latency p50 / p95", f"{result['build_p50_ms']} ms / {result['build_p95_ms']} ms"),
        ("build CPU time p50", f"{result['build_cpu_p50_ms']} ms"),
        ("machine load average while measuring", str(result["load_average"])),
        ("included / excluded", f"{result['included']:,} / {result['excluded']:,}"),
        (
            "excluded by reason",
            ", ".join(f"{k} {v:,}" for k, v in result["excluded_by_reason"].items()),
        ),
        ("states", ", ".join(f"{k} {v:,}" for k, v in result["states"].items())),
        ("conflicts resolved", f"{result['conflicts']:,}"),
        ("stale-directive rate", f"{result['stale_rate']:.1%}"),
        ("summary length (budget 1200)", str(result["summary_chars"])),
        ("truncated", ", ".join(f"{k} {v}" for k, v in result["truncated"].items()) or "-"),
        ("same input, same bytes (30 builds)", "yes" if result["deterministic"] else "NO"),
        ("classify + store (bulk)", f"{result['ingest_msgs_per_s']:,} msgs/s"),
        (
            "redact 5 MB / redact_pii 5 MB",
            f"{result['redact_5mb_s']} s / {result['redact_pii_5mb_s']} s",
        ),
    ]
    lines = ["| directive bridge | result |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in rows]
    return "\n".join(lines) + "\n\n```\n" + result["sample"] + "\n```\n"


if __name__ == "__main__":
    report: dict[str, Any] = {}
    run(report)
    sys.stdout.write(markdown(report["directives"]) + markdown(report["recognition"]))
