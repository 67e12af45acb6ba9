"""Secret rules read as data: gitleaks' maintained rule set (`data/gitleaks.toml`, MIT,
see `data/NOTICE-gitleaks.txt`) plus the patterns a user adds in config.toml.

A gitleaks rule is a regex (Go syntax, translated here), an optional secret group, the
keywords that must occur for the rule to be worth running, a minimum Shannon entropy of
the secret and allowlists (regexes and stopwords that mark a match as not a secret). Rules
run only in windows around their keywords, so a long message without "ghp_" never pays for
the GitHub rules; the windows are wide enough for any token the rules describe.

User patterns (`[redact] patterns = ["ACME-[0-9]{8}"]` in the brain's config.toml) are
Python regexes; a group, when there is one, is what gets replaced.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter, namedtuple
from collections.abc import Iterable, Sequence

from brainbridge.errors import InvalidInput

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Hit = tuple[int, int, str]  # start, end, kind
_BEFORE = 160  # how far before a keyword a match may start
_AFTER = 1200  # ... and how far after it it may end (PEM-sized tokens aside)
_POSIX = {
    "[:alnum:]": "a-zA-Z0-9",
    "[:alpha:]": "a-zA-Z",
    "[:digit:]": "0-9",
    "[:upper:]": "A-Z",
    "[:lower:]": "a-z",
    "[:space:]": r"\s",
    "[:xdigit:]": "0-9a-fA-F",
}
# Rules whose matches are files or whole documents, not text a person pastes.
_SKIP = frozenset({"pkcs12-file"})


# Plain named tuples, not dataclasses: this module is imported by every cold hook, and a
# dataclass costs milliseconds to create.
Allow = namedtuple("Allow", "regexes stopwords target all_of", defaults=((), (), "secret", False))
"""regexes (compiled on first use), stopwords, target ("secret", "match" or "line") and
all_of (condition = "AND") of one allowlist."""
Rule = namedtuple("Rule", "id regex group keywords entropy allows lead", defaults=(0,))
"""One gitleaks rule: its regex translated to Python's syntax (compiled when its keywords
first occur), the secret group (None: the first group that matched), keywords, minimum
entropy, allowlists, and `lead`: how many name characters the cut `[\\w.-]{0,N}?` covered."""


# `[\w.-]{0,50}?` before a keyword only widens where a match starts, yet makes Python
# try 50 starts at every position (0.5 s per MB of prose); it is cut from the pattern
# and the name it covered is read back for the allowlists ("primary_key = ...").
_LEAD = re.compile(r"^(\(\?[a-z]+\))?\[\\w\.-\]\{0,(\d+)\}\?")


def _log() -> Any:
    import logging  # only when there is something to say: a cold hook never pays for it

    return logging.getLogger(__name__)


def translate(regex: str) -> str:
    """Go (RE2) regex syntax to Python's: flags set mid-pattern apply to the whole
    pattern (slightly wider, never narrower), `\\z` is `\\Z`, POSIX classes spelled out."""
    out = regex.replace(r"\z", r"\Z")
    for cls, chars in _POSIX.items():
        out = out.replace(cls, chars)
    flags = ""
    for found in re.findall(r"\(\?([imsU]+)\)", out):
        flags += "".join(f for f in found if f != "U" and f not in flags)
    out = re.sub(r"\(\?[imsU]+\)", "", out)
    return f"(?{flags}){out}" if flags else out


def shannon(text: str) -> float:
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


@functools.cache
def _compile(regex: str) -> re.Pattern[str] | None:
    """A translated regex compiled, once; None for one Python cannot compile (skipped)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "possible nested set": Go's [[ is a plain "["
        try:
            return re.compile(regex)
        except re.error:
            _log().debug("a gitleaks regex Python cannot compile is skipped: %s", regex[:80])
            return None


def _allow(spec: dict[str, Any]) -> Allow | None:
    if spec.get("paths") and not spec.get("regexes") and not spec.get("stopwords"):
        return None  # about file paths only: nothing to say about a chat message
    if spec.get("paths") and spec.get("condition") == "AND":
        return None  # true only for certain files, which a message never is
    regexes = tuple(translate(r) for r in spec.get("regexes", []))
    stopwords = tuple(str(w).lower() for w in spec.get("stopwords", []))
    target = str(spec.get("regexTarget", "secret"))
    return Allow(regexes, stopwords, target, spec.get("condition") == "AND")


RULES_JSON = "data/gitleaks.json"


def rule_data(from_toml: bool = False) -> dict[str, Any]:
    """`data/gitleaks.toml` as data, read from its JSON copy: parsing the TOML costs every
    cold hook ~100 ms, the JSON ~1 ms. `python -m brainbridge.secret_rules` rewrites the
    copy; a test keeps it equal to the TOML."""
    import json
    from importlib import resources

    data = resources.files("brainbridge")
    if not from_toml:
        try:
            loaded: dict[str, Any] = json.loads(data.joinpath(RULES_JSON).read_text("utf-8"))
            return loaded
        except (OSError, ValueError):
            pass
    import tomllib

    return tomllib.loads(data.joinpath("data/gitleaks.toml").read_text("utf-8"))


@functools.cache
def gitleaks() -> tuple[tuple[Rule, ...], Allow]:
    """The shipped rules (translated; each compiled when first needed, which keeps a cold
    hook from compiling 200 patterns it will not use) and the global allowlist."""
    raw = rule_data()
    rules, skipped = [], []
    for spec in raw.get("rules", []):
        regex, lead = spec.get("regex", ""), 0
        cut = _LEAD.match(regex)
        if cut:
            regex, lead = (cut.group(1) or "") + regex[cut.end() :], int(cut.group(2))
        if not regex or spec["id"] in _SKIP or spec.get("path"):
            skipped.append(spec["id"])
            continue
        allows = tuple(a for a in map(_allow, spec.get("allowlists", [])) if a)
        group = spec.get("secretGroup")
        rules.append(
            Rule(
                spec["id"],
                translate(regex),
                int(group) if group else None,
                tuple(k.lower() for k in spec.get("keywords", [])),
                float(spec.get("entropy", 0.0)),
                allows,
                lead,
            )
        )
    if skipped:
        _log().debug("gitleaks rules not used here: %s", ", ".join(skipped))
    top = raw.get("allowlist", {})
    glob = Allow(
        tuple(translate(r) for r in top.get("regexes", [])),
        tuple(str(w).lower() for w in top.get("stopwords", [])),
    )
    return tuple(rules), glob


def compiled(rule: Rule) -> re.Pattern[str] | None:
    """The rule's pattern (None if Python cannot compile it)."""
    return _compile(rule.regex)


def scan(text: str, low: str) -> list[Hit]:
    """Secrets the gitleaks rules find in `text` (`low`: its ASCII-lowered copy)."""
    rules, glob = gitleaks()
    keywords, by_keyword, always = _keyword_index()
    # Each key word is looked for once; only rules one of whose words occurs (or that have
    # none) run, so a short text with no key word costs a few hundred `find`s, not 180 rules.
    positions = {kw: _positions(low, kw) for kw in keywords if kw in low}
    chosen = set(always).union(*(by_keyword[kw] for kw in positions))
    found: list[Hit] = []
    windows: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for index in sorted(chosen):
        rule = rules[index]
        if rule.keywords not in windows:
            spots = sorted(p for kw in rule.keywords for p in positions.get(kw, ()))
            windows[rule.keywords] = _windows(spots, len(text))
        spans = windows[rule.keywords] if rule.keywords else [(0, len(text))]
        pattern = _compile(rule.regex) if spans else None
        if pattern is None:
            continue
        for start, end in spans:
            for m in pattern.finditer(text, start, end):
                if m.end() == end and end < len(text):
                    continue  # cut by the window: the real token is longer
                hit = _secret(rule, m)
                if hit and not _allowed(rule, glob, m, hit, text):
                    found.append((*hit, rule.id))
    return found


@functools.cache
def _keyword_index() -> tuple[tuple[str, ...], dict[str, list[int]], tuple[int, ...]]:
    """Every key word of the rules, the rules (by index) each word belongs to, and the rules
    without key words, which run on every text."""
    rules, _ = gitleaks()
    by_keyword: dict[str, list[int]] = {}
    for i, rule in enumerate(rules):
        for kw in rule.keywords:
            by_keyword.setdefault(kw, []).append(i)
    always = tuple(i for i, rule in enumerate(rules) if not rule.keywords)
    return tuple(by_keyword), by_keyword, always


def _positions(low: str, word: str) -> list[int]:
    out, i = [], low.find(word)
    while i != -1:
        out.append(i)
        i = low.find(word, i + len(word))
    return out


def _windows(spots: list[int], size: int) -> list[tuple[int, int]]:
    """Merged [spot - _BEFORE, spot + _AFTER) windows of sorted keyword positions."""
    out: list[tuple[int, int]] = []
    for p in spots:
        s, e = max(0, p - _BEFORE), min(size, p + _AFTER)
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _secret(rule: Rule, m: re.Match[str]) -> tuple[int, int] | None:
    group = rule.group
    if group is None:
        group = next((i for i in range(1, (m.re.groups or 0) + 1) if m.group(i)), 0)
    if not m.group(group):
        return None
    secret = m.group(group)
    if rule.entropy and shannon(secret) < rule.entropy:
        return None
    if "[REDACTED:" in secret or secret.startswith("REDACTED"):
        return None
    return m.span(group)


def _allowed(rule: Rule, glob: Allow, m: re.Match[str], span: tuple[int, int], text: str) -> bool:
    secret = text[span[0] : span[1]]
    line_start = text.rfind("\n", 0, m.start()) + 1
    line_end = text.find("\n", m.end())
    line = text[line_start : line_end if line_end != -1 else len(text)]
    start = m.start()
    while rule.lead and start > max(0, m.start() - rule.lead) and _NAME_CHAR(text[start - 1]):
        start -= 1
    if _IMPORT_LINE.match(line):
        return True  # `from x import m012_name_keys, …`: names, not secrets
    targets = {"secret": secret, "match": text[start : m.end()], "line": line}
    for allow in (glob, *rule.allows):
        target = targets.get(allow.target, secret)
        by_regex = any((p := _compile(r)) is not None and p.search(target) for r in allow.regexes)
        by_word = any(w in secret.lower() for w in allow.stopwords)
        if allow.all_of:
            if (by_regex or not allow.regexes) and (by_word or not allow.stopwords):
                return True
        elif by_regex or by_word:
            return True
    return False


_IMPORT_LINE = re.compile(r"\s*(?:from\s+[\w.]+\s+)?import\s")


def _NAME_CHAR(c: str) -> bool:  # noqa: N802 (reads as the regex class it stands for)
    return c.isalnum() or c in "_.-"


# -- the user's own patterns --------------------------------------------------------

_user: tuple[re.Pattern[str], ...] = ()


def use_patterns(patterns: Iterable[str]) -> None:
    """Redact what these regexes match from now on, in this process (from config.toml).

    Raises: InvalidInput naming a pattern that is not a valid regex.
    """
    global _user
    compiled = []
    for p in patterns:
        try:
            compiled.append(re.compile(str(p)))
        except re.error as exc:
            raise InvalidInput(f"[redact] pattern {p!r} is not a valid regex: {exc}") from None
    _user = tuple(compiled)


def scan_user(text: str) -> list[Hit]:
    return [
        (*m.span(1 if p.groups else 0), "custom")
        for p in _user
        for m in p.finditer(text)
        if m.group(1 if p.groups else 0)
    ]


def user_patterns() -> Sequence[re.Pattern[str]]:
    return _user


if __name__ == "__main__":  # rewrite data/gitleaks.json from data/gitleaks.toml
    import json
    from pathlib import Path

    target = Path(__file__).parent / RULES_JSON
    target.write_text(json.dumps(rule_data(from_toml=True), ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {target}")
