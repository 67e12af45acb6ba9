"""Splitting a note into passages: a paragraph or a few short ones under their heading path.

Search finds the passage that answers a question, not the whole note; each passage keeps
the file line it starts on and its headings, so an agent can open the note at that place.
Fenced code and lists stay whole while they fit a passage; longer ones are cut at lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from brainbridge.model import PASSAGE, EntityRow
from brainbridge.vault.parse import clean_passage

# A passage gathers blocks until it holds about this much text, and never holds more than
# the maximum (a longer block is cut at lines, then at sentences).
TARGET_CHARS = 600
MAX_CHARS = 1200
HEADING_SEP = " › "
# A passage is named "<owner> § <headings> ¶n", or "<owner> ¶n" before any heading.
NAME_HEADING = "§"
NAME_NUMBER = "¶"
MAX_NAME_HEADING_CHARS = 200
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Passage:
    """One passage of a note: where it is and what it says."""

    headings: tuple[str, ...]
    number: int  # 1, 2, ... among the passages under the same headings
    line: int  # 1-based line of the note file where it starts
    text: str

    @property
    def heading(self) -> str:
        return HEADING_SEP.join(self.headings)


def name_prefixes(owner: str) -> tuple[str, str]:
    """How the names of the passages of the entity named `owner` start."""
    return (f"{owner} {NAME_HEADING} ", f"{owner} {NAME_NUMBER}")


def passage_name(owner: str, passage: Passage) -> str:
    """ "Onboarding § Laptop setup ¶1": the owner, the headings, the number under them."""
    heading = passage.heading[:MAX_NAME_HEADING_CHARS]
    where = f" {NAME_HEADING} {heading}" if heading else ""
    return f"{owner}{where} {NAME_NUMBER}{passage.number}"


def owner_of(name: str) -> str:
    """The name of the entity a passage named `name` belongs to."""
    head = name.rsplit(f" {NAME_NUMBER}", 1)[0]
    return head.split(f" {NAME_HEADING} ", 1)[0]


@dataclass
class _Block:
    headings: tuple[str, ...]
    line: int
    lines: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def split_passages(body: str, first_line: int = 1, title: str = "") -> list[Passage]:
    """The passages of a note body whose first line is line `first_line` of its file.

    A top heading that repeats the note's `title` is left out of the heading path.
    """
    blocks = _blocks(body, first_line, title)
    out: list[Passage] = []
    counts: dict[tuple[str, ...], int] = {}
    current: list[_Block] = []

    def flush() -> None:
        if not current:
            return
        text = clean_passage("\n\n".join(b.text for b in current))
        if text:
            heads = current[0].headings
            counts[heads] = counts.get(heads, 0) + 1
            out.append(Passage(heads, counts[heads], current[0].line, text))
        current.clear()

    for block in blocks:
        for piece in _bounded(block):
            size = sum(len(b.text) + 2 for b in current)
            lead_in = bool(current) and current[-1].text.rstrip().endswith(":")
            if current and (
                piece.headings != current[0].headings
                or size + len(piece.text) > (MAX_CHARS if lead_in else TARGET_CHARS)
            ):
                flush()
            current.append(piece)
    flush()
    return out


def _blocks(body: str, first_line: int, title: str) -> list[_Block]:
    """Paragraphs, lists and fenced code, each with its heading path and first line."""
    stack: list[tuple[int, str]] = []
    blocks: list[_Block] = []
    block: _Block | None = None
    fence = ""
    # Lines as editors number them: only "\n" ends one (str.splitlines also splits at
    # form feeds and U+2028, which would shift every line number after them).
    for i, line in enumerate(body.split("\n")):
        line = line.removesuffix("\r")
        number = first_line + i
        if fence:
            assert block is not None
            block.lines.append(line)
            if line.strip().startswith(fence):
                fence = ""
            continue
        m = _FENCE.match(line)
        heading = None if m else _HEADING.match(line)
        if heading:
            level, text = len(heading.group(1)), heading.group(2).strip()
            while stack and stack[-1][0] >= level:
                stack.pop()
            if not (level == 1 and not stack and text.lower() == title.strip().lower()):
                stack.append((level, clean_passage(text) or text))
            block = None
            continue
        if not line.strip():
            block = None
            continue
        heads = tuple(t for _, t in stack)
        if m and block is not None and not _is_list(block.lines[-1]):
            block = None  # code after a paragraph starts a block of its own
        if block is None:
            block = _Block(heads, number, [])
            blocks.append(block)
        block.lines.append(line)
        if m:
            fence = m.group(1)
    return blocks


def _is_list(line: str) -> bool:
    return bool(re.match(r"^\s*(?:[-*+]|\d+[.)])\s", line))


def _bounded(block: _Block) -> list[_Block]:
    """The block, or pieces of it no longer than MAX_CHARS (at lines, then sentences)."""
    if len(block.text) <= MAX_CHARS:
        return [block]
    pieces: list[_Block] = []
    current = _Block(block.headings, block.line, [])
    for offset, line in enumerate(block.lines):
        for part in _sentences(line) if len(line) > MAX_CHARS else [line]:
            if current.lines and len(current.text) + len(part) + 1 > MAX_CHARS:
                pieces.append(current)
                current = _Block(block.headings, block.line + offset, [])
            current.lines.append(part)
    if current.lines:
        pieces.append(current)
    return pieces


def _sentences(line: str) -> list[str]:
    """A very long line cut at sentence ends, and hard at MAX_CHARS where there are none."""
    out: list[str] = []
    for sentence in _SENTENCE_END.split(line):
        while len(sentence) > MAX_CHARS:
            out.append(sentence[:MAX_CHARS])
            sentence = sentence[MAX_CHARS:]
        out.append(sentence)
    return out


def document_parts(owner: str, text: str) -> tuple[str, tuple[str, ...], list[EntityRow]]:
    """The passages of a document stored as its description (remembered, added, posted):
    none while the whole text is short enough to read at once (a block item shows it)."""
    found = split_passages(text, 1, owner) if len(text) > MAX_CHARS else []
    rows: list[EntityRow] = [(PASSAGE, passage_name(owner, p), p.text, {}) for p in found]
    return (PASSAGE, name_prefixes(owner), rows)
