"""Redaction of secrets and personal identifiers before anything is stored or injected.

`redact` removes credentials (API keys, tokens, passwords, private keys, connection
string passwords and keys, Luhn-checked payment card numbers); `redact_pii` also removes
personal identifiers (emails, phone numbers, US SSNs, IBANs). Each hit becomes `[REDACTED:<kind>]`.

- Every detector is anchored on something distinctive (a vendor prefix, a keyword,
  a checksum) so ordinary prose, code identifiers, UUIDs and git SHAs pass through.
- Where a secret sits behind a key (`password=…`, `user:pass@host`) only the value
  is replaced, so the text stays readable.
- Replacements never match a detector again, so redaction is idempotent.
- One door: `redact_value` (every string of a value) is called where text is written,
  not by each caller: the store's entity writes (names, descriptions, every attribute),
  the session and bridge-log writer, history records in and out, the curator's activity
  files and export. Ids, hashes and paths hold no key shape and pass unchanged.
- Speed: Python's `re` scans fast only from a literal prefix, so patterns start with
  one and word-boundary checks run in Python on the few hits; keyword and digit
  detectors first find candidates, then match only there. 5 MB takes ~0.2 s.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from brainbridge import secret_rules
from brainbridge.privacy import strip_private

__all__ = ["find_pii", "find_secrets", "redact", "redact_pii", "redact_value"]

Span = tuple[int, int]
_Hit = tuple[int, int, int, str]  # start, end, rank (lower = more specific), kind
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_NOT_REDACTED = r"(?!\[REDACTED:)"


@dataclass(frozen=True)
class _Detector:
    kind: str
    pattern: re.Pattern[str]
    group: int = 0  # the secret; the rest of the match is context that stays
    check: Callable[[re.Match[str]], bool] | None = None
    word_start: bool = True  # the match must not continue a longer token to its left


def _has_mixed(s: str) -> bool:
    return (
        any(c.isupper() for c in s) and any(c.islower() for c in s) and any(c.isdigit() for c in s)
    )


def _looks_made_up(value: str) -> bool:
    """A password or token said in prose, not a word: letters with digits or symbols,
    or a long run that mixes cases and digits."""
    if value.startswith(("http://", "https://", "[REDACTED:")) or value.isalpha():
        return False
    if re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z]+)+[.,;:!?]*", value):
        return False  # "case-sensitive": a word
    letters = sum(c.isalpha() for c in value)
    others = len(value) - letters
    return letters >= 2 and others >= 1 and len(value) >= 8


def _random_enough(value: str) -> bool:
    """Letters and digits mixed in a run long and varied enough to be generated, not
    typed: no dotted name, path or version, no word."""
    if (
        "://" in value
        or value.count("/") > 2
        or re.fullmatch(r"[\d.\-]+|v?\d+(?:\.\d+)+[\w.\-+]*", value)
    ):
        return False
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    if letters < 4 or digits < 2:
        return False
    return _entropy(value) >= 3.3


def _generated(body: str) -> bool:
    """A token's body made by a machine: upper, lower and digits mixed (or long hex), with
    the entropy of random characters, not words joined by dashes."""
    core = body.replace("_", "").replace("-", "")
    if len(core) < 24 or len(body) - len(core) > 2:
        return False
    # Hex alone is what hashes, trace ids and digests look like (`sha256-…`, `trace-…`).
    return _has_mixed(core) and _entropy(core) >= 4.2


def _entropy(text: str) -> float:
    from collections import Counter
    from math import log2

    n = len(text)
    return -sum(c / n * log2(c / n) for c in Counter(text).values())


_DIGEST = re.compile(r"(?i)(?:sha|md|blake|xxh)\d")  # `sha384-…` (subresource integrity)
_PEM_END = r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----"

_DETECTORS: tuple[_Detector, ...] = (
    # A private key block; a pasted half without its END line is cut after its base64.
    _Detector(
        "private_key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[\s\S]{0,16384}?"
            + _PEM_END
            + r"|(?:\s*(?:[A-Za-z0-9+/=]{16,}|Proc-Type:[^\n]*|DEK-Info:[^\n]*))*)"
        ),
        word_start=False,
    ),
    _Detector("anthropic_key", re.compile(r"sk-ant-[A-Za-z0-9_\-]{20,}")),
    _Detector(
        "openai_key",
        re.compile(r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
        check=lambda m: not m.group(0).startswith("sk-ant-"),
    ),
    _Detector("stripe_key", re.compile(r"sk_(?:live|test)_[A-Za-z0-9]{16,}")),
    _Detector("stripe_key", re.compile(r"rk_(?:live|test)_[A-Za-z0-9]{16,}")),
    _Detector("aws_access_key", re.compile(r"AKIA[0-9A-Z]{16}(?![A-Za-z0-9])")),
    _Detector("aws_access_key", re.compile(r"ASIA[0-9A-Z]{16}(?![A-Za-z0-9])")),
    _Detector("github_token", re.compile(r"gh[pousr]_[A-Za-z0-9]{36,}(?![A-Za-z0-9])")),
    _Detector("github_token", re.compile(r"github_pat_[A-Za-z0-9_]{22,}")),
    _Detector("slack_token", re.compile(r"xox[abprs]-[A-Za-z0-9\-]{10,}")),
    _Detector("npm_token", re.compile(r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])")),
    _Detector(
        "gitlab_token",
        re.compile(r"gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_\-]{20,}"),
    ),
    # Twilio API key SIDs: "SK" and 32 hex digits (account SIDs, "AC…", are not secret).
    _Detector("twilio_key", re.compile(r"SK[0-9a-f]{32}(?![0-9A-Za-z])")),
    # Azure connection strings and SAS URLs: only the key is replaced.
    _Detector(
        "azure_key",
        re.compile(r"Key=" + _NOT_REDACTED + r"([A-Za-z0-9+/]{20,}={0,2})"),
        group=1,
        check=lambda m: m.string.endswith(("Account", "SharedAccess", "Access"), 0, m.start()),
        word_start=False,
    ),
    _Detector(
        "azure_sas",
        re.compile(r"sig=" + _NOT_REDACTED + r"([A-Za-z0-9%+/]{20,}(?:%3D|=){0,2})"),
        group=1,
        check=lambda m: m.start() > 0 and m.string[m.start() - 1] in "?&",
        word_start=False,
    ),
    # A Google service account's key id travels with its key: both go.
    _Detector(
        "private_key_id",
        re.compile(r"private_key_id[\"']?\s*[:=]\s*[\"']?([0-9a-f]{40})(?![0-9a-f])"),
        group=1,
    ),
    _Detector("groq_key", re.compile(r"gsk_[A-Za-z0-9]{48,}(?![A-Za-z0-9])")),
    _Detector("replicate_token", re.compile(r"r8_[A-Za-z0-9]{37,}(?![A-Za-z0-9])")),
    _Detector("clickup_token", re.compile(r"pk_\d{6,10}_[A-Z0-9]{32}(?![A-Za-z0-9])")),
    # Discord bot tokens: the bot's id in base64, a timestamp, an HMAC.
    _Detector(
        "discord_token",
        re.compile(r"[MNO][A-Za-z0-9]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?![\w\-])"),
        check=lambda m: _has_mixed(m.group(0)),
    ),
    # A key in a URL's user part: Sentry DSNs, webhook URLs with a key before the host.
    _Detector(
        "url_key",
        re.compile(r"https?://([A-Za-z0-9_\-]{16,})@[A-Za-z0-9.\-]+"),
        group=1,
        check=lambda m: _random_enough(m.group(1)),
        word_start=False,
    ),
    _Detector("google_api_key", re.compile(r"AIza[0-9A-Za-z_\-]{35}(?![A-Za-z0-9_\-])")),
    _Detector("doppler_token", re.compile(r"dp\.(?:st|sa|ct|scim|audit)\.[A-Za-z0-9_\-.]{40,}")),
    _Detector("newrelic_key", re.compile(r"NR(?:AK|AA|II|JS)-[A-Z0-9]{27}(?![A-Za-z0-9])")),
    _Detector("vault_token", re.compile(r"hv[sbr]\.[A-Za-z0-9_\-]{24,}")),
    _Detector(
        "jwt",
        re.compile(r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{8,}"),
    ),
    _Detector(
        "bearer_token",
        re.compile(r"Bearer\s+" + _NOT_REDACTED + r"([A-Za-z0-9._~+/\-]{16,}=*)"),
        group=1,
    ),
    _Detector(
        "bearer_token",
        re.compile(r"bearer\s+" + _NOT_REDACTED + r"([A-Za-z0-9._~+/\-]{16,}=*)"),
        group=1,
    ),
    _Detector(
        "basic_auth",
        re.compile(r"Basic\s+" + _NOT_REDACTED + r"([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])"),
        group=1,
        check=lambda m: any(c.isdigit() or c.isupper() for c in m.group(1)),
    ),
    # scheme://user:password@host — any scheme; the password runs to the last "@" (postgres, mysql, redis, amqp, https…).
    _Detector(
        "password",
        re.compile(r"://[^\s:/@\[\]]+:" + _NOT_REDACTED + r"([^\s/]+)@"),
        group=1,
        check=lambda m: m.start() > 0 and m.string[m.start() - 1].isalnum(),
        word_start=False,
    ),
)


# A vendor's prefix, then a long generated body: the shape most providers now use
# (`dckr_pat_…`, `pscale_tkn_…`), so tokens of vendors no rule names still go. Runs of
# token characters are found first (one cheap class, never started mid-run), and only
# long ones are matched against the shape.
_RUN = re.compile(r"(?<![A-Za-z0-9_\-.])[A-Za-z][A-Za-z0-9_\-]{27,}")
_PREFIXED = re.compile(
    r"[A-Za-z][A-Za-z0-9]{1,11}(?:[_\-][A-Za-z0-9]{1,10}){0,2}?[_\-]([A-Za-z0-9_\-]{24,})"
)


def _scan_prefixed_tokens(text: str, rank: int) -> list[_Hit]:
    found = []
    for run in _RUN.finditer(text):
        m = _PREFIXED.fullmatch(run.group(0))
        if m is not None and _generated(m.group(1)) and not _DIGEST.match(run.group(0)):
            found.append((run.start(), run.end(), rank, "token"))
    return found


def _scan_detectors(text: str, detectors: tuple[_Detector, ...], base_rank: int) -> list[_Hit]:
    found = []
    for rank, det in enumerate(detectors, base_rank):
        for m in det.pattern.finditer(text):
            start = m.start()
            # Glued on by a separator ("key-sk-proj-…" in a slug), a generated token
            # still shows: upper, lower and digits mixed; a slug's words do not.
            if (
                det.word_start
                and start > 0
                and text[start - 1] in _TOKEN_CHARS
                and (text[start - 1] not in "-_" or not _has_mixed(m.group(det.group)))
            ):
                continue
            if det.check is not None and not det.check(m):
                continue
            s, e = m.span(det.group)
            found.append((s, e, rank, det.kind))
    return found


# AWS secret keys have no prefix: exactly 40 base64 chars. Outside an assignment
# (`aws_secret_access_key = …`, caught by the keyword scan) they are looked for only
# near an access key id, as in credential CSVs and pasted `aws configure` output,
# and only with upper, lower and digits, so git SHAs and other blobs pass through.
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=_\-])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_\-])")
_AWS_WINDOW = 200


def _scan_aws_secrets(text: str, access_keys: list[_Hit], rank: int) -> list[_Hit]:
    windows = [
        (max(0, s - _AWS_WINDOW), min(len(text), e + _AWS_WINDOW))
        for s, e, _r, kind in access_keys
        if kind == "aws_access_key"
    ]
    found = []
    for start, end in _merge(windows):
        for m in _AWS_SECRET.finditer(text, start, end):
            # endpos hides what follows; a run cut by the window is not a 40-char key.
            if m.end() < len(text) and text[m.end()] in _BASE64_CHARS:
                continue
            if _has_mixed(m.group(0)):
                found.append((m.start(), m.end(), rank, "aws_secret_key"))
    return found


_BASE64_CHARS = _TOKEN_CHARS | frozenset("/+=")


def _merge(spans: list[Span]) -> Iterator[Span]:
    spans.sort()
    cur: list[int] | None = None
    for s, e in spans:
        if cur is not None and s <= cur[1]:
            cur[1] = max(cur[1], e)
            continue
        if cur is not None:
            yield cur[0], cur[1]
        cur = [s, e]
    if cur is not None:
        yield cur[0], cur[1]


# `password=…`, `"api_key": "…"`, `GITHUB_TOKEN: …`: the key must end in one of these
# words, so `max_tokens: 100`, `tokenizer: bert` or `secret_santa: bob` never match.
_KEYWORDS = {
    "pass": re.compile(r"(?i)(?:word|wd|phrase)"),
    "secret": None,
    "token": None,
    "key": None,
    "credential": re.compile(r"(?i)s?"),
}
_KEY_PREFIX = re.compile(r"(?i)(?:api|access|private|secret)[_\-]?$")
_ASSIGN_TAIL = re.compile(
    r"(?![A-Za-z0-9])[\"']?[ \t]*[:=][ \t]*"
    + _NOT_REDACTED
    + r"(?:(?P<qc>[\"'])(?P<q>[^\"'\n]{1,256})(?P=qc)|(?P<v>[^\s\"',;(){}<>\[\]]{1,256}))"
)
_ASSIGN_KIND = {"pass": "password", "secret": "secret", "token": "token", "credential": "secret"}
# Values after `password:` etc. that are code or prose, not secrets.
_NON_SECRET_VALUES = frozenset(
    [
        "str",
        "string",
        "bytes",
        "int",
        "bool",
        "none",
        "null",
        "nil",
        "true",
        "false",
        "optional",
        "any",
        "required",
        "unknown",
        "redacted",
        "hidden",
        "empty",
        "undefined",
    ]
)
_CODE_VALUE = re.compile(r"[A-Za-z_]+(?:\.[A-Za-z_]\w*)+")  # os.environ, self.token
_CALLABLE = re.compile(r"[A-Za-z_][\w.]*")  # what `name(` or `name[` can be
# A reference to a secret kept elsewhere: $TOKEN, ${TOKEN}, %TOKEN%, {{ secrets.X }}.
_REFERENCE = re.compile(r"\$\{|\$[A-Z_][A-Z0-9_]*(?![a-z])|%\w+%|\{\{")


def _scan_assignments(text: str, low: str, rank: int) -> list[_Hit]:
    found = []
    for word, suffix in _KEYWORDS.items():
        i = low.find(word)
        while i != -1:
            end = i + len(word)
            i = low.find(word, end)
            if suffix is not None:
                sm = suffix.match(text, end)
                if sm is None or (word == "pass" and not sm.group(0)):
                    continue
                end = sm.end()
            kind = _ASSIGN_KIND.get(word)
            if word == "key":
                pm = _KEY_PREFIX.search(low, max(0, end - 11), end - 3)
                if pm is None:
                    continue
                kind = {"private": "private_key", "secret": "secret"}.get(
                    pm.group(0)[:-3].rstrip("_-"), "api_key"
                )
            m = _ASSIGN_TAIL.match(text, end)
            if m is not None and kind is not None and _assignment_value_is_secret(m):
                group = "q" if m.group("q") is not None else "v"
                found.append((*m.span(group), rank, kind))
    return found


def _assignment_value_is_secret(m: re.Match[str]) -> bool:
    if m.group("q") is not None:  # quoted: the author delimited it as a value
        quoted = m.group("q").strip()
        if _REFERENCE.match(quoted):
            return False
        return not quoted.startswith("[REDACTED:") and quoted.lower() not in _NON_SECRET_VALUES
    value = m.group("v")
    if value.lower().rstrip(".") in _NON_SECRET_VALUES:
        return False
    if _REFERENCE.match(m.string, m.start("v")):
        return False
    call = m.string[m.end() : m.end() + 1] in ("(", "[") and _CALLABLE.fullmatch(value)
    if call or _CODE_VALUE.fullmatch(value):
        return False  # a call or attribute: `token = get_token()`, `password = cfg.pw`
    if not value.isalpha():
        return True
    # A bare word is a secret in config (`password: hunter` ends the line), not in
    # prose (`the token: the unit of text`), where more words follow.
    tail = m.string[m.end() : m.end() + 80].split("\n", 1)[0].lstrip()
    return not tail or tail[0] in ",;&}"


def _ascii_lower(text: str) -> str:
    # Offsets in the lowered copy must equal offsets in `text`; str.lower() can grow
    # a string (e.g. 'İ'), so fall back to ASCII-only lowering when it does.
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(65, 91)}


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card_brand_ok(d: str) -> bool:
    n = len(d)
    if d[0] == "4":
        return n in (13, 16, 19)
    if d[:2] in ("34", "37"):
        return n == 15
    if "51" <= d[:2] <= "55" or "2221" <= d[:4] <= "2720":
        return n == 16
    if d[:4] == "6011" or d[:2] == "65" or "644" <= d[:3] <= "649" or "3528" <= d[:4] <= "3589":
        return 16 <= n <= 19
    if d[:2] in ("36", "38") or "300" <= d[:3] <= "305":  # Diners
        return n == 14
    return False


def _is_card(m: re.Match[str]) -> bool:
    digits = m.group(0).replace(" ", "").replace("-", "")
    return 13 <= len(digits) <= 19 and _card_brand_ok(digits) and _luhn(digits)


def _is_ssn(m: re.Match[str]) -> bool:
    area, group, serial = m.group(1), m.group(2), m.group(3)
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def _is_iban(m: re.Match[str]) -> bool:
    s = m.group(0).replace(" ", "")
    if not 15 <= len(s) <= 34:
        return False
    return int("".join(str(int(c, 36)) for c in s[4:] + s[:4])) % 97 == 1


def _is_phone(m: re.Match[str]) -> bool:
    return 8 <= sum(c.isdigit() for c in m.group(0)) <= 15


# Personal identifiers made of digits are matched only inside candidate regions.
# Candidates come from C-speed substring search on a "shape" copy of the text
# (digits -> 0, capitals -> A): every card, SSN and US phone has 3 digits in a row,
# every international phone a "+digit", every IBAN "AA00". Regex scans of the
# whole text with a character-class start cost ~10x more.
_SHAPE = str.maketrans(
    {**dict.fromkeys("0123456789", "0"), **dict.fromkeys(string.ascii_uppercase, "A")}
)
_WORD_CHARS = frozenset(string.ascii_letters + "_")
_RUN_CHARS = frozenset("0123456789 -().+")
_RUN_FORWARD = re.compile(r"[\d \-().+]*\d")
_RUN_BACK_LIMIT = 24
_MIN_DIGITS = 8
_IBAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![A-Za-z0-9])"
)
_NUMBER_DETECTORS: tuple[_Detector, ...] = (
    _Detector(
        "card_number", re.compile(r"(?<![\d\-])\d(?:[ \-]?\d){12,18}(?![\d\-])"), check=_is_card
    ),
    _Detector("ssn", re.compile(r"(?<![\d\-])(\d{3})-(\d{2})-(\d{4})(?![\d\-])"), check=_is_ssn),
    _Detector(
        "phone",
        re.compile(r"(?<![\w+])\+\d{1,3}(?:[ .\-]?\(?\d{1,4}\)?){2,5}(?![\w\-])"),
        check=_is_phone,
    ),
    _Detector(
        "phone", re.compile(r"(?<![\w.\-])(?:\(\d{3}\) ?|\d{3}[.\s\-])\d{3}[.\s\-]\d{4}(?![\w\-])")
    ),
)


def _number_regions(text: str, shape: str) -> list[Span]:
    regions = []
    for needle in ("000", "+0"):
        i = shape.find(needle)
        while i != -1:
            start = i
            while start > 0 and i - start < _RUN_BACK_LIMIT and text[start - 1] in _RUN_CHARS:
                start -= 1
            while text[start] in " -.)":  # the run starts at a digit, "+" or "("
                start += 1
            m = _RUN_FORWARD.match(text, i)
            end = m.end() if m is not None else i + len(needle)
            i = shape.find(needle, end)
            # Digits glued to letters are part of an identifier (a SHA, a UUID, `v1234`).
            if (start > 0 and text[start - 1] in _WORD_CHARS) or (
                end < len(text) and text[end] in _WORD_CHARS
            ):
                continue
            if shape.count("0", start, end) >= _MIN_DIGITS:
                regions.append((start, end))
    return regions


def _scan_numbers(text: str, rank: int) -> list[_Hit]:
    shape = text.translate(_SHAPE)
    found = []
    i = shape.find("AA00")
    while i != -1:
        m = _IBAN.match(text, i)
        if m is not None and _is_iban(m):
            found.append((m.start(), m.end(), rank, "iban"))
        i = shape.find("AA00", i + 1)
    for start, end in _merge(_number_regions(text, shape)):
        # One char past the region so lookaheads see what really follows.
        end = min(len(text), end + 1)
        for r, det in enumerate(_NUMBER_DETECTORS, rank + 1):
            for m in det.pattern.finditer(text, start, end):
                if det.check is None or det.check(m):
                    found.append((m.start(), m.end(), r, det.kind))
    return found


_EMAIL_DOMAIN = re.compile(r"@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,62}\.)+[A-Za-z]{2,24}(?![A-Za-z0-9\-])")
_EMAIL_LOCAL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}$")


def _scan_emails(text: str, rank: int) -> list[_Hit]:
    found = []
    for m in _EMAIL_DOMAIN.finditer(text):
        local = _EMAIL_LOCAL.search(text, max(0, m.start() - 64), m.start())
        if local is None:
            continue
        start = local.start()
        if start > 0 and text[start - 1] in _TOKEN_CHARS:
            # The local part was longer than 64 chars or glued to a word: not an address.
            continue
        # `git@github.com:org/repo` is an SSH remote, not a person.
        if local.group(0).lower() in ("git", "noreply", "no-reply"):
            continue
        found.append((start, m.end(), rank, "email"))
    return found


def _resolve(found: list[_Hit]) -> list[tuple[str, Span]]:
    # Earliest start wins; on a tie the longer span, then the more specific detector.
    # A later hit reaching past the kept one widens it so nothing leaks.
    found.sort(key=lambda f: (f[0], -f[1], f[2]))
    out: list[tuple[str, Span]] = []
    last_end = -1
    for start, end, _rank, kind in found:
        if start >= last_end:
            out.append((kind, (start, end)))
            last_end = end
        elif end > last_end:
            k, (s, _e) = out[-1]
            out[-1] = (k, (s, end))
            last_end = end
    return out


# Any token right after a key word ("huggingface token hf_…", "api-key: 3f9c…", "pat
# dckr_pat_…"): vendors come and go, and a random run of letters and digits said to be a
# token is one. Only a separator may stand between (":", "=", "is"), never a word, so
# "key id 0x1F…" or "key rotation is in commit 3f9c…" stay. Key words are found with
# `str.find` (a case-insensitive alternation would cost seconds on 5 MB).
# A code that opens a door: "the door code is 4471", "key safe code: 2580".
_DOOR_CODES = (
    "door code",
    "alarm code",
    "gate code",
    "safe code",
    "keysafe code",
    "keybox code",
    "key box code",
    "lockbox code",
    "entry code",
    "access code",
    "keypad code",
    "garage code",
    "combination",
    "padlock combo",
    "lock combo",
    "safe combo",
    "padlock code",
    "lock code",
)
# ...or named by what it opens: "the code for the door is 4471", "code to the key safe:
# 2580", "the code to get into the building is 4471", "code for Mum's key safe is 2580"
# ("the code for the project is on GitHub", "the code for the office dashboard is 2000
# lines" open nothing).
_OPENS = re.compile(
    r"\s+(?:(?:for|to|on|of)\s+(?:get(?:ting)?\s+in(?:to|\s+to)?\s+)?|to\s+(?:open|unlock)\s+)"
    r"(?:(?:the|our|my|his|her|their|your|[A-Z][\w-]*['’]s)\s+)?(?:[\w'’-]+\s+){0,2}?"
    r"(?:door|gate|alarm|garage|safe|key\s?safe|key\s?box|lock\s?box|building|shed|locker|"
    r"padlock|lock|entrance|flat|house|apartment|airbnb|storeroom|store\s?room|bike\s+store|"
    r"cupboard|cabinet)s?(?=\s*(?:[:=]|[-–]\s|(?:is|was)\b))",
    re.I,
)
_NOT_A_LOCK = re.compile(
    r"\b(?:zip|post|postal|area|dialling|dialing|dial|phone|extension|country|sort|promo|"
    r"discount|voucher|error|fault|status|source|qr|bar|dress|tax|tracking|booking|reference|"
    r"confirmation|reservation|swift|bank|product|item|model|part|sku|serial|billing|icd|cpt|"
    r"diagnosis|procedure|medical|course|ral|colou?r|paint|ikea|regs|regulations|uber)\s*$"
)
# A word that is a secret only when said of what it opens ("the code for the door").
_BY_LOCK = ("code", "combo")
# A secret said in prose: "the wifi password is Tr0ub4dor&3", "my pw is Kx9!…".
_PROSE_WORDS = (
    "password",
    "passcode",
    "passphrase",
    "passwd",
    "pwd",
    "pw",
    "pin",
    "token",
    "api key",
    "secret",
    "backup code",
    "recovery code",
    "recovery key",
    *_DOOR_CODES,
    *_BY_LOCK,
)
# "is"/"was" right after the word, or after a short "for the banking app" / "at the hall"
# between; or a colon ("wifi password at the church hall: chessclub2026").
_PROSE_TAIL = re.compile(
    r"(?:\s+(?:for|of|to|on|at|in)(?:\s+[\w.'’-]+){1,5}?(?:\s+(?:is|was)|['’]s|\s*[:=]|\s+[-–])|"
    r"\s+(?:is|was)|['’]s|"
    # "changed the keysafe code, new one is 9038"
    r",?\s+(?:and\s+)?(?:the\s+)?new\s+(?:one|code|number|pin|password)\s+(?:is|['’]s)|"
    r"\s+(?:has\s+)?chang(?:ed|es)\s+to)\s+"
    r"(?:(?:now|also|still|just|actually|currently)\s+)?"
    + _NOT_REDACTED
    + r"[\"'“]?([^\s\"'”]{4,128})"
)
# A PIN or passcode is short: four or more characters, mostly digits ("8472", "8472-Kx").
_SHORT_CODE_WORDS = (
    "pin",
    "passcode",
    "backup code",
    "recovery code",
    "recovery key",
    *_DOOR_CODES,
    *_BY_LOCK,
)
_TOKEN_WORDS = (
    "key",
    "token",
    "secret",
    "pat",
    "password",
    "passphrase",
    "passwd",
    "pwd",
    "dsn",
    "credential",
    "auth",
)
_TOKEN_TAIL = re.compile(
    r"s?[ \t]*(?:[:=]|is|was)?[ \t]*[\"'`]?"
    + _NOT_REDACTED
    + r"([A-Za-z0-9][A-Za-z0-9_\-./+=]{14,}[A-Za-z0-9=])(?![A-Za-z0-9_\-./+=])"
)


def _scan_key_word_tokens(text: str, low: str, rank: int) -> list[_Hit]:
    found = []
    for word in dict.fromkeys(_TOKEN_WORDS + _PROSE_WORDS):
        i = low.find(word)
        while i != -1:
            end = i + len(word)
            start, i = i, low.find(word, end)
            if start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
                continue
            if word in _TOKEN_WORDS:
                m = _TOKEN_TAIL.match(text, end)
                if m is not None and _random_enough(m.group(1)):
                    found.append((*m.span(1), rank, "token"))
                    continue
            if word == "combination" and low.startswith(" of ", end):
                continue  # "a combination of factors"
            if word in _BY_LOCK and (
                not _OPENS.match(text, end) or _NOT_A_LOCK.search(low, max(0, start - 20), start)
            ):
                continue  # "the code for the project", "the zip code for the office"
            if word in _PROSE_WORDS and (end == len(text) or not text[end].isalnum()):
                m = (
                    _PROSE_TAIL.match(text, end)
                    or (_BARE_TAIL.match(text, end) if word in _BARE_WORDS else None)
                    or (_CODE_TAIL.match(text, end) if word in _SHORT_CODE_WORDS else None)
                )
                value = m.group(1).rstrip(".,;:!?)") if m is not None else ""
                if m is not None and (
                    _looks_made_up(value)
                    or (word in _SHORT_CODE_WORDS and _short_code(value))
                    or (
                        word in _PASSWORD_WORDS
                        and _plain_password(value, text, m.start(1) + len(value))
                    )
                ):
                    stop = m.start(1) + len(value)
                    if word in _SHORT_CODE_WORDS and value.isdigit():
                        # "door code is 4471 2231": every group of it.
                        while more := _MORE_DIGITS.match(text, stop):
                            stop = more.end()
                    found.append((m.start(1), stop, rank, "password"))
    return found


_MORE_DIGITS = re.compile(r"[ \t]\d{2,8}(?![\w\-])")
# ", password chessclub2026": the value right after the word, with no "is" (only a value
# that starts with a letter and holds a digit reads as one: "password reset", "password
# 10chars minimum" and "£450 pw 2bedroom" do not).
_BARE_WORDS = ("password", "passcode", "passphrase")
_BARE_TAIL = re.compile(
    r"[ \t]+" + _NOT_REDACTED + r"[\"'“]?((?=[A-Za-z])(?=[^\s\"'”]*\d)[^\s\"'”]{6,128})"
)
# "door code: 4471", "alarm code 9931": a code right after its name.
_CODE_TAIL = re.compile(
    r"[ \t]*[:=]?[ \t]+" + _NOT_REDACTED + r"(?!\d{4}-\d\d-\d\d\b)(\d[\d\-]{2,15})(?![\w\-]|\s\d)"
)
# "my password is hunter2": a password a person chose, said in passing ("the password is
# reset every month", "the password is expired" and "... is in the vault" are none).
_PASSWORD_WORDS = ("password", "passcode", "passphrase", "passwd", "pwd", "pw")
_CLAUSE_AFTER = re.compile(r"[\s\"'”]*(?:[.,;:!?)\n]|$|\s+(?:and|but|so|dont|don't|do not)\b)")


def _plain_password(value: str, text: str, end: int) -> bool:
    """A value said after "password is" that reads as one: letters with a digit
    ("hunter2"), or six digits and more that end the clause ("123456"). A word alone
    ("swordfish") is kept: it cannot be told from "secure", "stupid" or "upstairs"."""
    low = value.lower().rstrip(".,;:!?)")
    if len(low) < 4:
        return False
    if any(c.isdigit() for c in low) and any(c.isalpha() for c in low):
        return not re.fullmatch(r"\d+(?:st|nd|rd|th|am|pm|s)", low)  # "the 3rd", "90s"
    return low.isdigit() and len(low) >= 6 and _CLAUSE_AFTER.match(text, end) is not None


def _short_code(value: str) -> bool:
    # Not a price ("combination at Wagamama is £12.95") or a place ("pin ...: 51.5072"),
    # nor a time ("19:30") or a count ("1,200 lines").
    if value[:1] in "£$€" or re.search(r"\d[.:]\d|\d,\d{3}", value):
        return False
    return len(value) >= 4 and sum(c.isdigit() for c in value) >= 3


# A .pgpass line (host:port:database:user:password); the port is a number or `*`.
_PGPASS = re.compile(
    r"(?m)^[ \t]*(?:[\w.\-]+|\*):(?:\d{1,5}|\*):[\w.\-*]+:[\w.\-@*]+:"
    + _NOT_REDACTED
    + r"(\S+)[ \t]*$"
)


# Passwords given to a command on its command line: `redis-cli -a X`, `sshpass -p X`,
# `mysql -pX`, `docker login -p X`, `--password X`, `curl -u user:X`.
_COMMAND_NEEDLES = ("redis-cli", "sshpass", "mysql", "mariadb", "--password", "docker", "curl")
_COMMAND_PASSWORDS = [
    re.compile(p)
    for p in (
        r"\bredis-cli\b[^\n]*?\s-a\s+['\"]?" + _NOT_REDACTED + r"([^\s'\"$<%{][^\s'\"]{3,})",
        r"\bsshpass\s+-p\s*['\"]?" + _NOT_REDACTED + r"([^\s'\"$<%{][^\s'\"]{3,})",
        r"\b(?:mysql|mariadb|mysqldump|mysqladmin)\b[^\n]*?\s-p['\"]?"
        + _NOT_REDACTED
        + r"([^\s'\"$<%{][^\s'\"]{3,})",
        r"\bdocker\s+login\b[^\n]*?\s(?:-p|--password)\s+['\"]?"
        + _NOT_REDACTED
        + r"([^\s'\"$<%{][^\s'\"]{3,})",
        r"(?<![\w-])--password(?:=|\s+)['\"]?" + _NOT_REDACTED + r"([^\s'\"$<%{-][^\s'\"]{3,})",
        r"\bcurl\b[^\n]*?\s(?:-u|--user)\s+['\"]?[^\s:'\"]+:"
        + _NOT_REDACTED
        + r"([^\s'\"$<%{][^\s'\"]{3,})",
    )
]
# A cookie whose name says it holds a session or a token.
_COOKIE_LINE = re.compile(r"(?im)^[ \t]*(?:set-)?cookie:[^\n]*")
_SESSION_COOKIE = re.compile(
    r"(?i)(?:^|[:;\s])[\w.\-]*(?:sess|sid|token|auth|jwt|remember)[\w.\-]*="
    + _NOT_REDACTED
    + r"([^;\s]{16,})"
)


def _scan_commands_and_cookies(text: str, low: str, rank: int) -> list[_Hit]:
    found: list[_Hit] = []
    if any(n in low for n in _COMMAND_NEEDLES):
        for pattern in _COMMAND_PASSWORDS:
            found += [(*m.span(1), rank, "password") for m in pattern.finditer(text)]
    if "cookie:" in low:
        for line in _COOKIE_LINE.finditer(text):
            found += [
                (line.start() + m.start(1), line.start() + m.end(1), rank, "session_cookie")
                for m in _SESSION_COOKIE.finditer(line.group())
            ]
    return found


# A wallet's seed (recovery) phrase: 12 to 24 lower-case words after the words that name it.
_SEED_PHRASE = re.compile(
    r"(?i:seed phrase|recovery phrase|mnemonic)(?:\s+(?:is|was|:))?\s*[:=]?\s*['\"]?"
    + _NOT_REDACTED
    + r"((?:[a-z]{3,8}[ ,]+){11,23}[a-z]{3,8})\b"
)


# Words a sentence about a seed phrase needs and a seed phrase (almost) never holds.
_PROSE_GLUE = frozenset(
    "the and you your is are was that this with for from into keep write down".split()
)


def _scan_seed_phrases(text: str, low: str, rank: int) -> list[_Hit]:
    if "phrase" not in low and "mnemonic" not in low:
        return []
    return [
        (*m.span(1), rank, "seed_phrase")
        for m in _SEED_PHRASE.finditer(text)
        if sum(w in _PROSE_GLUE for w in re.split(r"[ ,]+", m.group(1).lower())) <= 1
    ]


def _scan_pgpass(text: str, rank: int) -> list[_Hit]:
    if text.count(":") < 4:
        return []
    return [(*m.span(1), rank, "password") for m in _PGPASS.finditer(text)]


def _secret_hits(text: str, rule_sets: bool = True) -> list[_Hit]:
    low = _ascii_lower(text)
    found = _scan_detectors(text, _DETECTORS, 0)
    found += _scan_key_word_tokens(text, low, 65)
    found += _scan_prefixed_tokens(text, 66)
    found += _scan_aws_secrets(text, found, 50)
    found += _scan_assignments(text, low, 60)
    found += _scan_cards(text, 110)
    found += _scan_pgpass(text, 60)
    found += _scan_commands_and_cookies(text, low, 60)
    found += _scan_seed_phrases(text, low, 60)
    # gitleaks' maintained rules and the user's own patterns, after ours (ours know chat
    # text: context that stays readable, values in prose).
    if rule_sets:
        found += [(s, e, 150, kind) for s, e, kind in secret_rules.scan(text, low)]
    found += [(s, e, 140, kind) for s, e, kind in secret_rules.scan_user(text)]
    return found


# Every card number, as people write one, holds 13+ digits in a row or two groups of four
# joined by a space or a dash: C-speed `find` on the shape copy locates the few places
# worth matching, so digit-heavy text (logs, tables) costs next to nothing.
_CARD_NEEDLES = ("0" * 13, "0000 0000", "0000-0000")
_CARD = re.compile(r"(?<![\w\-])\d(?:[ \-]?\d){12,18}(?![\w\-])")


def _scan_cards(text: str, rank: int) -> list[_Hit]:
    """Luhn-valid card numbers: a credential, not only an identifier, so `redact` (what
    every stored exchange goes through) removes them too."""
    shape = text.translate(_SHAPE)
    found: dict[Span, _Hit] = {}
    for needle in _CARD_NEEDLES:
        i = shape.find(needle)
        while i != -1:
            # A card spans at most 23 characters; look a little either side of the hit.
            for m in _CARD.finditer(text, max(0, i - 24), min(len(text), i + 48)):
                if _is_card(m):
                    found[m.span()] = (m.start(), m.end(), rank, "card_number")
            i = shape.find(needle, i + 24)
    return list(found.values())


def find_secrets(text: str, rule_sets: bool = True) -> list[tuple[str, Span]]:
    """Return (kind, (start, end)) for every secret in `text`, sorted and non-overlapping.

    `rule_sets=False` leaves gitleaks' rules out (a later pass near a replacement: they
    match whole tokens, which a replacement never exposes)."""
    return _resolve(_secret_hits(text, rule_sets))


def find_pii(text: str, rule_sets: bool = True) -> list[tuple[str, Span]]:
    """Return (kind, (start, end)) for secrets and personal identifiers, sorted, non-overlapping."""
    found = _secret_hits(text, rule_sets) + _scan_emails(text, 100) + _scan_numbers(text, 110)
    return _resolve(found)


def _apply(text: str, hits: list[tuple[str, Span]]) -> str:
    if not hits:
        return text
    parts = []
    pos = 0
    for kind, (start, end) in hits:
        parts.append(text[pos:start])
        parts.append(f"[REDACTED:{kind}]")
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


# A replacement can expose a neighbour that its glued-on context hid (a phone number
# right after a key); a second pass catches it. Passes stop when nothing changes.
_MAX_PASSES = 4
_NEAR = 400  # how far from a replacement the next pass looks


def _redact_until_stable(text: str, find: Callable[..., list[tuple[str, Span]]]) -> str:
    hits = find(text)
    for _ in range(_MAX_PASSES - 1):
        if not hits:
            break
        text, spans = _apply_spans(text, hits)
        # Only what sits next to a replacement can have been exposed: look there again.
        hits = []
        for start, end in _merge(
            [(max(0, s - _NEAR), min(len(text), e + _NEAR)) for s, e in spans]
        ):
            for kind, (s, e) in find(text[start:end], False):
                # A hit touching a cut edge may be part of a longer token: leave it.
                if (s == 0 and start > 0) or (e == end - start and end < len(text)):
                    continue
                hits.append((kind, (start + s, start + e)))
        hits = _resolve([(s, e, 0, k) for k, (s, e) in hits])
    return _apply(text, hits) if hits else text


def _apply_spans(text: str, hits: list[tuple[str, Span]]) -> tuple[str, list[Span]]:
    """`_apply`, also returning where each replacement landed in the new text."""
    parts, spans, pos, size = [], [], 0, 0
    for kind, (start, end) in hits:
        parts.append(text[pos:start])
        size += start - pos
        marker = f"[REDACTED:{kind}]"
        parts.append(marker)
        spans.append((size, size + len(marker)))
        size += len(marker)
        pos = end
    parts.append(text[pos:])
    return "".join(parts), spans


def redact(text: str) -> str:
    """Replace every secret (keys, tokens, passwords, private keys) with `[REDACTED:<kind>]`,
    and drop what the user marked `<private>`."""
    return _redact_until_stable(strip_private(text), find_secrets)


def redact_pii(text: str) -> str:
    """Like `redact`, and also replace emails, phone numbers, card numbers, US SSNs and IBANs."""
    return _redact_until_stable(strip_private(text), find_pii)


def redact_value(value: Any) -> Any:
    """`value` with `redact` applied to every string in it, at any depth (mapping keys too):
    the one door for whatever is stored, logged, spooled or exported.

    Ids, UUIDs, hashes, dates and paths carry no key shape and come back unchanged, so
    redacting bookkeeping values never breaks a lookup by them; a value that does carry
    a key loses it like any other text."""
    if isinstance(value, str):
        if len(value) <= _SHORT:
            return _redact_short(strip_private(value), secret_rules.user_patterns())
        return redact(value)
    if isinstance(value, list | tuple):
        return [redact_value(v) for v in value]
    if isinstance(value, dict):
        return {redact_value(k): redact_value(v) for k, v in value.items()}
    return value


# Names, ids and attribute values repeat across a bulk write (a session id on every
# exchange, a name looked up then stored): short ones are redacted once. The user's
# patterns are part of the key, so a config that adds one is never answered from before.
_SHORT = 256


@functools.lru_cache(maxsize=8192)
def _redact_short(text: str, _patterns: object) -> str:
    return redact(text) if text else text
