"""`<private>…</private>`: what the user marks private never reaches the brain.

The tags are removed, with what they hold, by the redactor (`redact.redact`), the one
door every stored, spooled, logged or exported text goes through, so no adapter needs
its own call. Standard library only: the hooks run this on their cold path.
"""

from __future__ import annotations

import re

_TAG = re.compile(r"<(/?)private\b[^<>]{0,200}>", re.I)
# What stands where a private part was: the words around it must not run together.
GAP = " "


def strip_private(text: str) -> str:
    """`text` without its `<private>` parts. Tags nest; an unclosed one hides everything
    after it (better to keep too little than to keep a secret); a stray closing tag is
    dropped."""
    if "<" not in text or "private" not in text.lower():
        return text
    out: list[str] = []
    depth = 0
    kept_from = 0
    for m in _TAG.finditer(text):
        closing = bool(m.group(1))
        if depth == 0:
            out.append(text[kept_from : m.start()])
            kept_from = m.end()
            if closing:
                continue  # a stray closing tag
            out.append(GAP)
            depth = 1
        elif closing:
            depth -= 1
            kept_from = m.end()
        else:
            depth += 1
    if depth == 0:
        out.append(text[kept_from:])
    return "".join(out)
