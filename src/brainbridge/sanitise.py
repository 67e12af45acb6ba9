"""The one door for text injected into an agent's context, and for names on their way in.

Stored text (a note's title or file name, an entity name, a description) is data: once
injected it must never read as structure of the prompt around it. `inline` makes any
stored text one line that cannot open a line of its own, forge a heading, a role turn
(`SYSTEM:`), a tag (`</system-reminder>`) or a code fence, nor hide characters a person
cannot see (terminal escapes, bidi overrides, zero-width characters). `clean_name` is
the smaller rule for names as they are stored: no invisible characters, single spaces.

Standard library only: the cold hooks import this on every prompt.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Terminal escape sequences as a whole (CSI "ESC[31m", OSC "ESC]0;title BEL", two-byte
# ones), so no "[31m" debris is left behind once the ESC itself is gone.
_ESCAPES = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])|\x9b[0-?]*[ -/]*[@-~]"
)
# Control (Cc) and format (Cf) characters and lone surrogates, whitespace aside (as of
# Unicode 14; a test holds this to the running Python's unicodedata), and invisible
# characters of other kinds: the grapheme joiner, fillers, variation selectors 17-256
# (text can be smuggled in them).
_INVISIBLE = re.compile(
    "[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f"
    "\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ud800-\udfff\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    "\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\uffa0\U000e0100-\U000e01ef]"
)
# Markdown heading marks that open a line, and runs of them standing alone mid-line.
_LEADING_HASHES = re.compile(r"^\s*(?:#+(?:\s+|$))+")
_HASH_RUN = re.compile(r"(?<!\S)#{2,}(?!\S)")
# A role turn opening a line: "SYSTEM:", "**Human:**", "> Assistant :".
_ROLE = re.compile(
    r"^(?P<lead>[\s>*_\-`|~]*)(?P<role>system|developer|human|user|assistant|ai|model|tool)"
    r"(?P<trail>[\s*_]*):",
    re.IGNORECASE,
)
# Anything a model could read as a tag: <x ...>, </x>, <!x>, <?x?>, <|x|>, <!-- -->.
# A mail address or link in angle brackets is no tag and stays as written.
_TAG = re.compile(r"<((?:[/!?|]\s*)?(?:--[^<>]*|[A-Za-z][\w:.|-]*(?:\s[^<>]*)?/?))>")
_FENCE = re.compile(r"`{3,}|~{3,}")


def visible(text: str) -> str:
    """`text` without control, bidi, zero-width or other invisible characters.

    Line breaks and tabs are kept (callers collapse them); terminal escape sequences
    go as a whole.
    """
    if "\x1b" in text or "\x9b" in text:
        text = _ESCAPES.sub("", text)
    return _INVISIBLE.sub("", text)


def clean_name(name: str) -> str:
    """A name as it is stored: visible characters only, whitespace collapsed to single spaces."""
    return " ".join(visible(name).split())


def _unmark(line: str, role: bool = True) -> str:
    """A line of stored text without a leading heading mark and, if `role`, role label."""
    line = _LEADING_HASHES.sub("", line)
    return _ROLE.sub(r"\g<lead>\g<role>\g<trail> -", line, count=1) if role else line


def _escape_tag(match: re.Match[str]) -> str:
    return f"&lt;{match.group(1)}&gt;"


def inline(
    text: str,
    limit: int | None = None,
    *,
    opens_line: bool = False,
    redact: Callable[[str], str] | None = None,
) -> str:
    """Stored `text` as one line of injected context, clipped to `limit` characters.

    Every line of `text` loses a leading heading mark, and every line after the first
    a leading role label (`SYSTEM:` -> `SYSTEM -`); so does the first when `opens_line`
    (it starts an item), not otherwise, so "User: … | AI: …" after an item's name stays. Tags are
    escaped (`&lt;system-reminder&gt;`), code fences and heading runs dropped, invisible
    characters removed, whitespace collapsed. `redact` runs on the visible text, before
    anything is clipped, so no zero-width character can split a secret past it.
    """
    text = visible(text)
    if redact is not None:
        text = redact(text)
    lines = text.splitlines() or [""]
    parts = [_unmark(lines[0], role=opens_line)]
    parts += (_unmark(line) for line in lines[1:])
    flat = _FENCE.sub(" ", " ".join(parts))
    flat = _HASH_RUN.sub(" ", flat)
    while True:  # escaping one tag can leave the text around it looking like another
        escaped = _TAG.sub(_escape_tag, flat)
        if escaped == flat:
            break
        flat = escaped
    # Unmarking can leave a run of spaces ("USER :" -> "USER  -"): collapse once more.
    flat = " ".join(_unmark(" ".join(flat.split()), role=opens_line).split())
    if limit is not None and len(flat) > limit:
        flat = flat[: max(limit - 1, 0)].rstrip() + "…"
    return flat


# What a terminal would act on or hide: the invisible characters and every line-moving
# control but the newline and the tab.
_UNPRINTABLE = re.compile(_INVISIBLE.pattern[:-1] + "\r\x0b\x0c\x1c-\x1f\x85\u2028\u2029]")


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str) -> str:
    """`text` for a terminal: control, bidi and zero-width characters shown as escapes
    (`\\x1b`, `\\u202e`), newlines and tabs kept."""
    return _UNPRINTABLE.sub(_escape_char, text)
