"""Reading one Markdown note: frontmatter, body, wikilinks and local Markdown links."""

from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote

_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_WIKILINK = re.compile(r"!?\[\[([^\]\|#\n]+)(?:#[^\]\|\n]*)?(?:\|[^\]\n]*)?\]\]")
_WIKILINK_TEXT = re.compile(r"!?\[\[([^\]\|#\n]+)(?:#[^\]\|\n]*)?(?:\|([^\]\n]*))?\]\]")
_SECTION_LINK = re.compile(r"\[\[#([^\]\|\n]+)(?:\|([^\]\n]*))?\]\]")
_MDLINK = re.compile(r"\[[^\]\n]*\]\((?:<([^>\n]+?\.md)>|([^)\s]+?\.md))(?:#[^)\s]*)?\)", re.I)
# Code is quoted text, not structure: links inside it are not links.
_CODE = re.compile(r"^(```|~~~).*?(?:^\1[^\n]*$|\Z)|`[^`\n]+`", re.S | re.M)
_EMBED = re.compile(r"!\[\[[^\]\n]*\]\]|!\[[^\]\n]*\]\([^)\n]*\)")
_COMMENT = re.compile(r"<!--.*?-->|%%.*?%%", re.S)
_LINE_MARK = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]+|>[ \t>]*|[-*+][ \t]+\[[ xX]\][ \t]+|[-*+][ \t]+"
    r"|(?:```|~~~)\S*[ \t]*$|(?:[-*_][ \t]*){3,}$)",
    re.M,
)
_EMPHASIS = re.compile(r"(?<![\w*_~=])(\*\*|__|\*|_|~~|==)(?=\S)(.+?)(?<=\S)\1(?![\w*_~=])")
_ATTACHMENT = frozenset(
    "png jpg jpeg gif svg webp bmp pdf mp3 mp4 m4a wav ogg webm mov mkv canvas excalidraw".split()
)
MAX_NOTE_BYTES = 5_000_000


@dataclass(frozen=True)
class Note:
    path: Path
    rel_path: str
    slug: str
    title: str
    type: str | None
    tags: tuple[str, ...]
    aliases: tuple[str, ...]
    body: str
    links: tuple[str, ...]  # wikilink targets as written; Markdown links as vault paths
    content_hash: str
    warning: str | None = None
    body_line: int = 1  # the line of the file the body starts on (after frontmatter)
    extra: dict[str, Any] = field(default_factory=dict)


def slugify(text: str) -> str:
    """Lower-case words joined by hyphens: "LiteLLM Config Drift" -> "litellm-config-drift"."""
    return re.sub(r"[^\w]+", "-", text.lower(), flags=re.UNICODE).strip("-") or "note"


def clean_path(path: Path | str) -> str:
    """A path as text a database and JSON accept; names that are not UTF-8 read as Windows-1252."""
    text = str(path)
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        parts = text.encode("utf-8", "surrogateescape").split(b"/")
        return "/".join(_decode(p)[0] for p in parts)


def _as_list(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(v.strip().lstrip("#") for v in re.split(r"[,\n]", value) if v.strip())
    if isinstance(value, list | tuple):
        return tuple(str(v).strip().lstrip("#") for v in value if v is not None and str(v).strip())
    return (str(value),)


def excerpt(body: str, n: int = 200) -> str:
    """The first `n` characters of a note's text: Markdown marks removed, words kept as written."""
    text = _COMMENT.sub(" ", _EMBED.sub(" ", body))
    text = _WIKILINK_TEXT.sub(lambda m: m.group(2) or m.group(1), text)
    text = _SECTION_LINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = re.sub(r"\[([^\]\n]*)\]\([^)\n]*\)", r"\1", text)
    text = _LINE_MARK.sub("", text)
    for _ in range(2):  # nested emphasis: ***both***
        text = _EMPHASIS.sub(r"\2", text)
    text = text.replace("`", "")
    # The cut may land on a joining space; never end an excerpt with one.
    return " ".join(text.split())[:n].rstrip()


def clean_passage(text: str) -> str:
    """A passage's text as search and the block read it: links as their words, comments,
    embeds and emphasis marks removed; lines, list marks and code kept."""
    text = _COMMENT.sub(" ", _EMBED.sub(" ", text))
    text = _WIKILINK_TEXT.sub(lambda m: m.group(2) or m.group(1), text)
    text = _SECTION_LINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = re.sub(r"\[([^\]\n]*)\]\([^)\n]*\)", r"\1", text)
    for _ in range(2):
        text = _EMPHASIS.sub(r"\2", text)
    lines = [" ".join(line.split()) if line.strip() else "" for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _decode(raw: bytes) -> tuple[str, str | None]:
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        # Old editors saved Windows-1252; that reads right far more often than U+FFFD does.
        return raw.decode("cp1252", errors="replace"), "not UTF-8; read as Windows-1252"


def _links(body: str, rel: PurePosixPath) -> list[str]:
    body = _CODE.sub(" ", body)
    links = [t.strip() for t in _WIKILINK.findall(body)]
    for bracketed, bare in _MDLINK.findall(body):
        href = unquote(bracketed or bare)
        if "://" in href or href.startswith("mailto:"):
            continue
        # "/x.md" is relative to the vault root, anything else to the note's folder.
        joined = href.lstrip("/") if href.startswith("/") else f"{rel.parent.as_posix()}/{href}"
        norm = posixpath.normpath(joined)
        if not norm.startswith("../"):
            links.append(norm.removeprefix("./"))
    return [t for t in links if t and PurePosixPath(t).suffix.lower()[1:] not in _ATTACHMENT]


class NotText(ValueError):
    """A file named like a note that holds binary data (an image or archive renamed .md)."""


def parse_note(path: Path, root: Path) -> Note:
    """Read and parse a note; broken frontmatter becomes a warning, never an exception.

    Raises: OSError if the file cannot be read; NotText for binary content.
    """
    raw = path.read_bytes()
    if b"\x00" in raw[:8192]:  # text, in any encoding a note uses, has no NUL bytes
        raise NotText("binary content, not a note; skipped")
    text, warning = _decode(raw[:MAX_NOTE_BYTES])
    warnings = [warning] if warning else []
    meta: dict[str, Any] = {}
    body = text
    m = _FRONTMATTER.match(text)
    start = m.end() if m else 0
    if m:
        import yaml  # here: `excerpt` (on every SessionStart hook) needs no YAML

        body = text[m.end() :]
        try:
            loaded = yaml.safe_load(m.group(1))
            if isinstance(loaded, dict):
                meta = loaded
            elif loaded is not None:
                warnings.append("frontmatter is not a mapping; ignored")
        except yaml.YAMLError as exc:
            warnings.append(f"broken frontmatter ignored: {str(exc).splitlines()[0]}")
    rel = PurePosixPath(clean_path(path.relative_to(root).as_posix()))
    title = str(meta.get("title") or "").strip() or rel.stem
    known = {"title", "type", "tags", "tag", "aliases", "alias", "slug"}
    return Note(
        path=path,
        rel_path=str(rel),
        slug=slugify(str(meta.get("slug") or rel.with_suffix(""))),
        title=title,
        type=str(meta["type"]).strip() if meta.get("type") else None,
        tags=_as_list(meta.get("tags", meta.get("tag"))),
        aliases=_as_list(meta.get("aliases", meta.get("alias"))),
        body=body.strip(),
        links=tuple(dict.fromkeys(_links(body, rel))),
        content_hash=hashlib.sha256(raw).hexdigest()[:16],
        warning="; ".join(warnings) or None,
        body_line=text.count("\n", 0, start + len(body) - len(body.lstrip())) + 1,
        extra={
            str(k): v.isoformat() if isinstance(v, date) else v
            for k, v in meta.items()
            if k not in known and isinstance(v, str | int | float | bool | date)
        },
    )
