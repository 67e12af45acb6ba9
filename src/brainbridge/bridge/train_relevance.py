"""Train the bridge's relevance model and write `data/relevance_model.json`.

Two stages, so the weights can be rebuilt without the data they were measured on:

(a) `python -m brainbridge.bridge.train_relevance --extract` (from a checkout, with the
    LoCoMo development file beside it): ingest the tuned LoCoMo conversations (1-3) and
    the scenario DEV split, and write numeric feature rows, no text, to
    `data/relevance_features.json.gz` (see benchmarks/relevance_features.py);
(b) `python -m brainbridge.bridge.train_relevance`: fit a logistic regression on those
    rows, calibrate the block's threshold on them, and write the model.

Needs NumPy; deterministic for a given features file. A test re-fits from the committed
features and keeps the shipped weights equal to the result.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import importlib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from brainbridge.bridge.block import RANKED_HEADER, estimate_tokens
from brainbridge.bridge.rank import FEATURES, MODEL

FEATURES_FILE = MODEL.with_name("relevance_features.json.gz")
L2 = 1.0
ITERATIONS = 30
BUDGET = 1500
HEADER_TOKENS = estimate_tokens(RANKED_HEADER) + 20  # and the left-out line
# The threshold maximises evidence recall minus this much per 1000 block tokens: a
# thousand tokens must buy more than a quarter of the evidence.
TOKEN_COST = 0.25
RATIOS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
# Most candidates are unlikely ones: the grid is finer where the threshold lands.
THRESHOLDS = tuple(k / 400 for k in range(2, 40)) + tuple(k / 100 for k in range(10, 60))


def load_rows(path: Path = FEATURES_FILE) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def logistic(x: Any, y: Any, l2: float = L2, iterations: int = ITERATIONS) -> Any:
    """Weights (bias last) of an L2-regularised logistic regression, by Newton's method."""
    import numpy as np

    x1 = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(x1.shape[1])
    penalty = np.eye(x1.shape[1]) * l2
    penalty[-1, -1] = 0.0  # the bias is not shrunk
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x1 @ w, -40, 40)))
        grad = x1.T @ (p - y) + penalty @ w
        hess = (x1 * (p * (1 - p))[:, None]).T @ x1 + penalty
        w -= np.linalg.solve(hess, grad)
    return w


def _probabilities(questions: Sequence[dict[str, Any]], weights: Sequence[float]) -> None:
    """Set each candidate's "p" (own facts are always in, as the bridge does)."""
    for q in questions:
        for c in q["candidates"]:
            z = weights[-1] + sum(w * v for w, v in zip(weights, c["x"], strict=False))
            c["p"] = 1.0 if c.get("own") else 1.0 / (1.0 + math.exp(-max(min(z, 40), -40)))


def simulate(
    questions: Sequence[dict[str, Any]], threshold: float, ratio: float = 0.0
) -> tuple[float, float, float]:
    """(mean evidence recall, mean block tokens, first item holds evidence) of blocks cut
    at `threshold` and at `ratio` times the best probability, ordered by probability."""
    recall = tokens = first = 0.0
    shown = 0
    for q in questions:
        order = sorted(q["candidates"], key=lambda c: -c["p"])
        bar = max(threshold, ratio * max((c["p"] for c in order), default=0.0))
        size, got, items = HEADER_TOKENS, set(), []
        for c in order:
            if c["p"] < bar or size + c["tokens"] > BUDGET:
                continue
            size += c["tokens"]
            got.update(c["held"])
            items.append(c)
        # The bridge never leads with a superseded item (it puts the most likely current
        # one, or what replaced it, first).
        lead = next((c for c in items if not c["superseded"]), None)
        if lead is not None and items[0]["superseded"]:
            items = [lead] + [c for c in items if c is not lead]
        if items:
            shown += 1
            tokens += size
            first += bool(items[0]["held"])
        recall += len(got) / max(q["evidence"], 1)
    n = max(len(questions), 1)
    return recall / n, tokens / n, first / max(shown, 1)


def calibrate(questions: Sequence[dict[str, Any]]) -> tuple[float, float, list[str]]:
    """The threshold and the share of the best item's probability an item must reach
    that maximise recall - TOKEN_COST * tokens / 1000, and the curve."""
    best, chosen, curve = -1e9, (0.5, 0.0), []
    for r in RATIOS:
        for t in THRESHOLDS:
            recall, tokens, first = simulate(questions, t, r)
            value = recall - TOKEN_COST * tokens / 1000
            curve.append(
                f"{t:.4f} {r:.2f} recall {recall:.3f} tokens {tokens:.0f} first {first:.3f}"
            )
            if value > best + 1e-12:
                best, chosen = value, (t, r)
    return chosen[0], chosen[1], curve


def fit(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The model for the feature rows in `data`, and the calibration curve."""
    import numpy as np

    names = data["features"]
    rows = [c for q in data["questions"] for c in q["candidates"] if c["label"] >= 0]
    x = np.array([c["x"] for c in rows], dtype=float)
    y = np.array([c["label"] for c in rows], dtype=float)
    w = [round(float(v), 4) for v in logistic(x, y)]
    questions = data["questions"]
    _probabilities(questions, w)
    threshold, ratio, curve = calibrate(questions)
    model = {
        "features": names,
        "bias": w[-1],
        "weights": dict(zip(names, w[:-1], strict=True)),
        "threshold": threshold,
        "ratio": ratio,
        "trained_on": f"{len(rows)} labelled candidates of {len(questions)} questions",
    }
    return model, curve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m brainbridge.bridge.train_relevance")
    parser.add_argument("--extract", action="store_true", help="stage (a): rebuild features")
    parser.add_argument("--embedders", default="none,minilm")
    parser.add_argument("--curve", action="store_true", help="print the threshold curve")
    args = parser.parse_args(argv)
    if args.extract:
        # Stage (a) lives with the benchmarks, beside the data it reads (a checkout only).
        extractor = importlib.import_module("benchmarks.relevance_features")
        data = asyncio.run(extractor.extract(tuple(args.embedders.split(","))))
        if list(data["features"]) != list(FEATURES):
            raise SystemExit("feature list mismatch")
        raw = json.dumps(data, separators=(",", ":")).encode()
        FEATURES_FILE.write_bytes(gzip.compress(raw, mtime=0))
        print(f"wrote {FEATURES_FILE} ({len(data['questions'])} questions)")
    model, curve = fit(load_rows())
    if args.curve:
        print("\n".join(curve))
    MODEL.write_text(json.dumps(model, indent=1) + "\n", "utf-8")
    print(
        f"wrote {MODEL}: threshold {model['threshold']}, ratio {model['ratio']},"
        f" {model['trained_on']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
