"""A small learned classifier for directive messages: logistic regression over word
n-grams and the rules' verdict, trained offline (`python -m brainbridge.directives.train`)
and shipped as weights (`data/directive_model.json`). Inference is plain Python: a
dictionary lookup per feature, well under a millisecond per message.

It predicts one of five classes (directive, objective, completion, people, chat); the
rules refine people and chat into their categories.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

MODEL = Path(__file__).with_name("data") / "directive_model.json"
CLASSES = ("directive", "objective", "completion", "people", "chat")

_TOKEN = re.compile(r"[#@][\w\-]+|\d+(?:[.,:]\d+)*%?|[A-Za-z][A-Za-z'’\-]*|[?!:]")
_DAYS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays".split()
)
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)


def tokens(text: str) -> list[str]:
    """Lower-cased words with numbers, days, months, channels and mid-sentence names
    replaced by a placeholder, so "every Monday at 9" and "every Friday at 4" look alike."""
    out: list[str] = []
    start = True
    for m in _TOKEN.finditer(text[:2000]):
        tok = m.group(0)
        low = tok.lower().replace("’", "'")
        if tok[0] in "#@":
            out.append("<chan>")
        elif tok[0].isdigit():
            out.append("<n>")
        elif low in _DAYS:
            out.append("<day>")
        elif low in _MONTHS and (low != "may" or tok[0].isupper()):
            out.append("<month>")
        elif tok[0].isupper() and not start and len(tok) > 1 and low != "i":
            out.append("<name>")
        else:
            out.append(low)
        start = tok in ("?", "!", ":")
    return out


def features(text: str, rule: str, cues: tuple[str, ...] = ()) -> list[str]:
    """The features of one message: uni- and bigrams, how it starts and ends, the rules'
    category for it and any cue flags (a time bound, a question)."""
    toks = tokens(text)
    feats = [f"w:{t}" for t in toks]
    feats += [f"b:{a}_{b}" for a, b in zip(toks, toks[1:], strict=False)]
    if toks:
        feats.append(f"s:{toks[0]}")
        if len(toks) > 1:
            feats.append(f"s:{toks[0]}_{toks[1]}")
    if text.rstrip().endswith("?"):
        feats.append("q")
    feats.append(f"rule:{rule}")
    feats += [f"cue:{c}" for c in cues]
    if len(toks) <= 3:
        feats.append("short")
    return feats


@dataclass(frozen=True)
class Model:
    classes: tuple[str, ...]
    bias: tuple[float, ...]
    weights: dict[str, tuple[float, ...]]

    def scores(self, feats: list[str]) -> list[float]:
        s = list(self.bias)
        for f in set(feats):
            w = self.weights.get(f)
            if w is not None:
                for i, v in enumerate(w):
                    s[i] += v
        return s

    def predict(self, feats: list[str]) -> tuple[str, float]:
        """The most likely class and its probability."""
        s = self.scores(feats)
        top = max(range(len(s)), key=s.__getitem__)
        z = sum(math.exp(v - s[top]) for v in s)
        return self.classes[top], 1.0 / z


@lru_cache(maxsize=1)
def model() -> Model | None:
    """The shipped model, or None when its file is missing or unreadable (rules decide)."""
    try:
        raw = json.loads(MODEL.read_text("utf-8"))
        return Model(
            tuple(raw["classes"]),
            tuple(raw["bias"]),
            {k: tuple(v) for k, v in raw["weights"].items()},
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
