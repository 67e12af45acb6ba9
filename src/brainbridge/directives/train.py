"""Train the learned directive classifier and write `data/directive_model.json`.

Run from a checkout: `python -m brainbridge.directives.train` (add `--check` to print
5-fold cross-validated accuracy on the training set instead of writing). It trains on
`data/examples.yaml` and the dev split of the labelled messages
(`tests/data/directives/messages_dev.yaml`, the owner's messages only); the fresh split
is never trained on. Needs NumPy; deterministic for a given input.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from brainbridge.directives import learned
from brainbridge.directives.classify import group, learned_features

EXAMPLES = Path(__file__).with_name("data") / "examples.yaml"
DEV = Path(__file__).resolve().parents[3] / "tests" / "data" / "directives" / "messages_dev.yaml"
L2 = 0.01
EPOCHS = 400
RATE = 0.5
MIN_WEIGHT = 1e-3


def examples(dev: Path | None = DEV) -> list[tuple[str, str]]:
    """(text, class) pairs to train on: the shipped examples, and the owner's messages
    of the labelled `dev` split when given and present."""
    out = []
    for line in yaml.safe_load(EXAMPLES.read_text("utf-8")):
        cls, text = line.split(": ", 1)
        out.append((text, cls))
    if dev is not None and dev.exists():
        from brainbridge.model.directives import Category

        for m in yaml.safe_load(dev.read_text("utf-8"))["messages"]:
            if m.get("owner", True):
                out.append((m["text"], group(Category(m["category"]))))
    return out


def softmax_regression(
    x: Any, y: Any, *, l2: float = L2, epochs: int = EPOCHS, rate: float = RATE
) -> tuple[Any, Any]:
    """Weights and biases of a multinomial logistic regression of one-hot `y` on `x`,
    by full-batch gradient descent with L2; each class weighs the same in the loss,
    however many examples it has."""
    import numpy as np

    weight = ((len(y) / (y.shape[1] * np.maximum(y.sum(axis=0), 1)))[None, :] * y).sum(
        axis=1, keepdims=True
    )
    w = np.zeros((x.shape[1], y.shape[1]))
    b = np.zeros(y.shape[1])
    for _ in range(epochs):
        z = x @ w + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad = (p - y) * weight
        w -= rate * (x.T @ grad / len(y) + l2 * w)
        b -= rate * grad.mean(axis=0)
    return w, b


def fit(rows: Sequence[tuple[str, str]]) -> learned.Model:
    """The learned model for `rows`: a softmax regression over their n-gram features."""
    import numpy as np

    feats = [learned_features(text) for text, _ in rows]
    vocab = sorted({f for fs in feats for f in fs})
    index = {f: i for i, f in enumerate(vocab)}
    x = np.zeros((len(rows), len(vocab)))
    for r, fs in enumerate(feats):
        for f in set(fs):
            x[r, index[f]] = 1.0
    classes = learned.CLASSES
    y = np.zeros((len(rows), len(classes)))
    for r, (_, cls) in enumerate(rows):
        y[r, classes.index(cls)] = 1.0
    w, b = softmax_regression(x, y)
    weights = {
        f: tuple(round(float(v), 4) for v in w[i])
        for f, i in index.items()
        if np.abs(w[i]).max() >= MIN_WEIGHT
    }
    return learned.Model(classes, tuple(round(float(v), 4) for v in b), weights)


def cross_validate(rows: Sequence[tuple[str, str]], folds: int = 5) -> float:
    """Accuracy of models trained without each fold, on that fold."""
    right = 0
    for k in range(folds):
        train = [r for i, r in enumerate(rows) if i % folds != k]
        model = fit(train)
        right += sum(
            model.predict(learned_features(text))[0] == cls
            for i, (text, cls) in enumerate(rows)
            if i % folds == k
        )
    return right / len(rows)


def to_json(model: learned.Model) -> dict[str, Any]:
    return {
        "classes": list(model.classes),
        "bias": list(model.bias),
        "weights": {k: list(v) for k, v in sorted(model.weights.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m brainbridge.directives.train")
    parser.add_argument("--check", action="store_true", help="cross-validate, write nothing")
    args = parser.parse_args(argv)
    rows = examples()
    if args.check:
        print(f"{len(rows)} examples, 5-fold accuracy {cross_validate(rows):.3f}")
        return 0
    model = fit(rows)
    learned.MODEL.write_text(json.dumps(to_json(model), separators=(",", ":")) + "\n", "utf-8")
    print(f"wrote {learned.MODEL} ({len(model.weights)} features, {len(rows)} examples)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
