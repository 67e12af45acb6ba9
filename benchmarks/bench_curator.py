"""Local curator quality on LoCoMo: titles and summaries against the gold `session_summary`.

Each LoCoMo session goes through the product path (Bridge.observe_now, then the curator's
after-observe hook on its cadence 1, 3, 5, then every 10th), pairing consecutive turns as
(user, AI) exchanges; one manual run then summarises the whole session. No LLM.

Summaries: ROUGE-L F1 (LCS over lower-cased word tokens) and ROUGE-1 F1 against the gold
summary, beside two baselines with the same 600-character budget: the lead-3 sentences and
the first 600 characters of the session. With MiniLM installed, the embedding cosine too.
Titles: the share of their content words found in the gold summary, and MiniLM cosine,
beside the first six words of the session (what many chat apps show). A title of a
conversation between two people ends with their names, as a person would write it; the
masked column shows the topic alone. Gold summaries name
both speakers in nearly every sentence and greetings name them too ("Hey Mel!"), which
lifts the embedding cosine of any text that keeps greetings; the "names masked" columns
remove the speakers' names from both sides to compare topics alone.

The data stays in ../shared/data/locomo (CC BY-NC, evaluation only); set BRAIN_LOCOMO to
read it from elsewhere. Run: python -m benchmarks.bench_curator [--quick]
"""

from __future__ import annotations

import asyncio
import functools
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import locomo_data
from brainbridge.brain import Brain
from brainbridge.bridge.bridge import Bridge
from brainbridge.curator import Curator, CuratorConfig
from brainbridge.curator.text import content_terms, sentences

_TOKEN = re.compile(r"[a-z0-9]+")
BUDGET = 600
# The conversations the local curator's summaries and titles were tuned on (2026-11-25).
TUNED = ("conv-26", "conv-30")


# -- metrics ------------------------------------------------------------------


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _lcs(a: list[str], b: list[str]) -> int:
    if len(a) < len(b):
        a, b = b, a
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b, start=1):
            cur.append(prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1]))
        prev = cur
    return prev[-1]


def _f1(overlap: float, n_candidate: int, n_reference: int) -> float:
    if not overlap or not n_candidate or not n_reference:
        return 0.0
    p, r = overlap / n_candidate, overlap / n_reference
    return 2 * p * r / (p + r)


def rouge_l(candidate: str, reference: str) -> float:
    """ROUGE-L F1: longest common subsequence of word tokens."""
    c, r = tokens(candidate), tokens(reference)
    return _f1(_lcs(c, r), len(c), len(r))


def rouge_1(candidate: str, reference: str) -> float:
    """ROUGE-1 F1: clipped unigram overlap."""
    c, r = tokens(candidate), tokens(reference)
    counts: dict[str, int] = {}
    for t in r:
        counts[t] = counts.get(t, 0) + 1
    overlap = 0
    for t in c:
        if counts.get(t, 0) > 0:
            counts[t] -= 1
            overlap += 1
    return _f1(overlap, len(c), len(r))


def title_precision(title: str, reference: str) -> float:
    """Share of the title's content words that the reference summary uses."""
    words = set(content_terms(title))
    if not words:
        return 0.0
    return len(words & set(content_terms(reference))) / len(words)


# -- baselines ----------------------------------------------------------------


def session_text(turns: list[tuple[str, str]]) -> str:
    return " ".join(f"{u} {a}" for u, a in turns)


def lead_3(turns: list[tuple[str, str]]) -> str:
    said = [s for u, a in turns for s in (*sentences(u), *sentences(a))]
    return " ".join(said[:3])[:BUDGET]


def first_chars(turns: list[tuple[str, str]]) -> str:
    return " ".join(session_text(turns).split())[:BUDGET]


def first_words(turns: list[tuple[str, str]], n: int = 6) -> str:
    return " ".join(session_text(turns).split()[:n])


# -- running the curator ---------------------------------------------------------


@dataclass
class Sample:
    conversation: str
    session: int
    gold: str
    turns: list[tuple[str, str]]
    names: tuple[str, ...] = ()
    title: str = ""
    summary: str = ""
    run_ms: list[float] = field(default_factory=list)


def load(quick: bool) -> list[dict[str, Any]]:
    data = locomo_data.load_conversations()
    return data[:1] if quick else data


def pairs(turns: list[dict[str, Any]]) -> list[tuple[str, str]]:
    texts = [t.get("text", "") for t in turns]
    return [(texts[i], texts[i + 1] if i + 1 < len(texts) else "") for i in range(0, len(texts), 2)]


async def curate_conversation(item: dict[str, Any], folder: Path) -> list[Sample]:
    conv = item["conversation"]
    samples: list[Sample] = []
    brain = await Brain.open(folder, embedder=None, background_indexing=False)
    try:
        curator = Curator(brain, config=CuratorConfig(max_summary_chars=BUDGET))
        bridge = Bridge(brain)  # the curator's hook is called by hand below, to time it
        k = 1
        while f"session_{k}" in conv:
            gold = item["session_summary"].get(f"session_{k}_summary")
            turns = pairs(conv[f"session_{k}"])
            if gold and turns:
                # Exchange names start with the session id's first 8 characters: keep them apart.
                sid = f"{k:03d}-{item['sample_id']}"
                names = (conv["speaker_a"], conv["speaker_b"])
                sample = Sample(item["sample_id"], k, gold, turns, names)
                for n, (user, ai) in enumerate(turns, start=1):
                    await bridge.observe_now(sid, n, user, ai)
                    if curator.config.is_due(n):
                        started = time.perf_counter()
                        await curator.after_observe(sid, n)
                        sample.run_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                run = await curator.curate(sid)
                sample.run_ms.append((time.perf_counter() - started) * 1000)
                sample.title, sample.summary = run.title, run.summary
                samples.append(sample)
            k += 1
    finally:
        await brain.close()
    return samples


@functools.cache
def _embedder() -> Any:
    try:
        from brainbridge.embed import load_embedder

        return load_embedder("minilm")
    except Exception:  # not installed: the report says "—"
        return None


_vectors: dict[str, Any] = {}


def cosines(pairs_: list[tuple[str, str]]) -> list[float] | None:
    """MiniLM cosine of each (candidate, gold) pair; None without MiniLM."""
    embedder = _embedder()
    if embedder is None:
        return None
    missing = list(dict.fromkeys(t or " " for pair in pairs_ for t in pair))
    missing = [t for t in missing if t not in _vectors]
    for i in range(0, len(missing), 64):
        batch = missing[i : i + 64]
        _vectors.update(zip(batch, embedder.embed(batch), strict=True))
    return [float(_vectors[a or " "] @ _vectors[b or " "]) for a, b in pairs_]


def masked(text: str, names: tuple[str, ...]) -> str:
    """`text` without the speakers' names, which gold summaries repeat in every sentence."""
    for name in names:
        text = re.sub(rf"\b{re.escape(name)}(?:'s)?\b", " ", text)
    return " ".join(text.split())


# -- report -------------------------------------------------------------------


def _mean(values: list[float]) -> str:
    return f"{statistics.fmean(values):.3f}" if values else "—"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _table(
    samples: list[Sample], candidates: dict[str, list[str]], first: str, scores: dict[str, Any]
) -> list[str]:
    """Rows of one Markdown table: each metric averaged over the samples, per candidate."""
    names = [*scores, "MiniLM cosine", "cosine, names masked"]
    lines = [
        f"| {first} | " + " | ".join(names) + " | mean length |",
        "|---" * (len(names) + 2) + "|",
    ]
    golds = [s.gold for s in samples]
    for name, texts in candidates.items():
        cells = [
            _mean([fn(t, g) for t, g in zip(texts, golds, strict=True)]) for fn in scores.values()
        ]
        cells.append(_mean(cosines(list(zip(texts, golds, strict=True))) or []))
        blind = [
            (masked(t, s.names), masked(s.gold, s.names))
            for s, t in zip(samples, texts, strict=True)
        ]
        cells.append(_mean(cosines(blind) or []))
        if first == "summary":
            size = f"{statistics.fmean(len(t) for t in texts):.0f} chars"
        else:
            size = f"{statistics.fmean(len(t.split()) for t in texts):.1f} words"
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {size} |")
    return lines


def _extractive(turns: list[tuple[str, str]]) -> str:
    from brainbridge.curator.local import Exchange, local_summary

    return local_summary([Exchange(n, u, a) for n, (u, a) in enumerate(turns, 1)], BUDGET)


def labelled_sessions() -> list[str]:
    """Titles and summaries of the sessions in tests/data/curator, per split, beside the
    baselines: does the title name the topic, does the summary carry the key facts?"""
    from benchmarks.curator_sessions import SPLITS, score

    def first_600(ex: Any) -> str:
        return first_chars([(e.user, e.ai) for e in ex])

    def six_words(ex: Any) -> str:
        return first_words([(e.user, e.ai) for e in ex])

    def extractive(ex: Any) -> str:
        return _extractive([(e.user, e.ai) for e in ex])

    lines = [
        "| split | method | sessions | titles naming the topic | facts in summaries |"
        " summaries with every fact | summaries without User:/AI: |",
        "|---|---|---|---|---|---|---|",
    ]
    for split in SPLITS:
        for label, title, summary in (
            ("local curator", None, None),
            (f"baseline: first 6 words / first {BUDGET} chars", six_words, first_600),
            ("before: the extractive summary", None, extractive),
        ):
            r = score(split, title=title, summary=summary)
            t = "-" if label.startswith("before") else f"{r['titles naming the topic']:.2f}"
            lines.append(
                f"| {split} | {label} | {r['sessions']} | {t} | {r['facts in summaries']:.2f} |"
                f" {r['summaries with every fact']:.2f} |"
                f" {r['summaries without transcript labels']:.2f} |"
            )
    return lines


def report(samples: list[Sample], elapsed: float) -> str:
    """The Markdown report."""
    summaries = {
        "local curator": [s.summary for s in samples],
        "before: the extractive summary (the local curator before #18)": [
            _extractive(s.turns) for s in samples
        ],
        "baseline: lead-3 sentences": [lead_3(s.turns) for s in samples],
        f"baseline: first {BUDGET} chars": [first_chars(s.turns) for s in samples],
    }
    titles = {
        "local curator": [s.title for s in samples],
        "baseline: first 6 words": [first_words(s.turns) for s in samples],
    }
    local_rl = [rouge_l(s.summary, s.gold) for s in samples]
    base_rl = [rouge_l(first_chars(s.turns), s.gold) for s in samples]
    wins = sum(a > b for a, b in zip(local_rl, base_rl, strict=True))
    runs = [ms for s in samples for ms in s.run_ms]
    held = [s for s in samples if s.conversation not in TUNED]
    held_line = ""
    if held:
        held_cos = cosines([(s.title, s.gold) for s in held])
        base_cos = cosines([(first_words(s.turns), s.gold) for s in held])
        held_line = (
            f"Held out: the summaries and titles were tuned on {' and '.join(TUNED)} only; on the"
            f" other {len(held)} sessions ROUGE-L is"
            f" {_mean([rouge_l(s.summary, s.gold) for s in held])} against"
            f" {_mean([rouge_l(first_chars(s.turns), s.gold) for s in held])} for the first"
            f" {BUDGET} characters"
            + (
                f", title cosine {_mean(held_cos)} against {_mean(base_cos or [])}."
                if held_cos
                else "."
            )
        )
    lines = [
        "Local curator (no LLM) titles and summaries against LoCoMo's `session_summary`.",
        "",
        f"{len(samples)} sessions from {len({s.conversation for s in samples})} conversations, "
        f"{sum(len(s.turns) for s in samples)} exchanges, no LLM, summary budget {BUDGET} chars.",
        "",
        "### Summaries",
        "",
        *_table(samples, summaries, "summary", {"ROUGE-L F1": rouge_l, "ROUGE-1 F1": rouge_1}),
        "",
        f"The local summary beats the first {BUDGET} characters on ROUGE-L in {wins} of "
        f"{len(samples)} sessions.",
        "",
        held_line,
        "",
        "### Titles",
        "",
        *_table(samples, titles, "title", {"content words found in gold": title_precision}),
        "",
        "### Labelled sessions (tests/data/curator)",
        "",
        "Sessions written and labelled (topic words, key facts) before the local curator was"
        " changed; `dev` was tuned on. `fresh` was scored once after the first round of"
        " changes (prose summaries) and `fresh2`, written before the second round (names,"
        " narrative, advice), once after it. A title names the topic when it holds one of the"
        " topic words (stemmed); a summary names a fact when it holds the string.",
        "",
        *labelled_sessions(),
        "",
        "### Cost",
        "",
        f"Local run (background, off the chat path): p50 {_pct(runs, 0.5):.1f} ms, "
        f"p95 {_pct(runs, 0.95):.1f} ms over {len(runs)} runs; ingest and curation "
        f"{elapsed:.1f} s.",
        "",
        "### Examples",
        "",
    ]
    for s in samples[:2]:
        lines += [
            f"**{s.conversation} session {s.session}**, title *{s.title}*",
            "",
            f"- local: {s.summary}",
            f"- gold: {s.gold}",
            "",
        ]
    return "\n".join(lines)


async def _run(quick: bool) -> str:
    started = time.perf_counter()
    samples: list[Sample] = []
    with tempfile.TemporaryDirectory(prefix="bench-curator-") as tmp:
        for i, item in enumerate(load(quick)):
            samples += await curate_conversation(item, Path(tmp) / f"brain{i}")
    return report(samples, time.perf_counter() - started)


def run(quick: bool = False) -> str:
    """Run the benchmark and return its report as Markdown."""
    return asyncio.run(_run(quick))


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv[1:]))
