"""Reading one Markdown note: frontmatter, body, wikilinks and local Markdown links."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_WIKILINK = re.compile(r"!?\[\[([^\]\|#\n]+)(?:#[^\]\|\n]*)?(?:\|[^\]\n]*)?\]\]")
_WIKILINK_TEXT = re.compile(r"!?\[\[([^\]\|#\n]+)(?:#[^\]\|\n]*)?(?:\|([^\]\n]*))?\]\]")
_MDLINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+?\.md)(?:#[^)\s]*)?\)", re.I)
_MD_NOISE = re.compile(r"[#>*_`~]|\[\[|\]\]|!\[[^\]]*\]\([^)]*\)")
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
    links: tuple[str, ...]  # wikilink targets and relative .md paths, as written
    content_hash: str
    warning: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def slugify(text: str) -> str:
    """Lower-case words joined by hyphens: "LiteLLM Config Drift" -> "litellm-config-drift"."""
    return re.sub(r"[^\w]+", "-", text.lower(), flags=re.UNICODE).strip("-") or "note"


def _as_list(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(v.strip().lstrip("#") for v in re.split(r"[,\n]", value) if v.strip())
    if isinstance(value, list | tuple):
        return tuple(str(v).strip().lstrip("#") for v in value if v is not None and str(v).strip())
    return (str(value),)


def excerpt(body: str, n: int = 200) -> str:
    """The first `n` characters of a note's body, Markdown marks removed."""
    body = _WIKILINK_TEXT.sub(lambda m: m.group(2) or m.group(1), body)
    body = re.sub(r"\[([^\]\n]*)\]\([^)\s]*\)", r"\1", body)
    return " ".join(_MD_NOISE.sub(" ", body).split())[:n]


def parse_note(path: Path, root: Path) -> Note:
    """Read and parse a note; broken frontmatter becomes a warning, never an exception.

    Raises: OSError if the file cannot be read.
    """
    raw = path.read_bytes()[:MAX_NOTE_BYTES]
    text = raw.decode("utf-8", errors="replace")
    meta: dict[str, Any] = {}
    warning = None
    body = text
    m = _FRONTMATTER.match(text)
    if m:
        body = text[m.end() :]
        try:
            loaded = yaml.safe_load(m.group(1))
            if isinstance(loaded, dict):
                meta = loaded
            elif loaded is not None:
                warning = "frontmatter is not a mapping; ignored"
        except yaml.YAMLError as exc:
            warning = f"broken frontmatter ignored: {str(exc).splitlines()[0]}"
    rel = PurePosixPath(path.relative_to(root).as_posix())
    title = str(meta.get("title") or rel.stem).strip() or rel.stem
    links = [t.strip() for t in _WIKILINK.findall(body)]
    links += [
        str((rel.parent / href).as_posix()) for href in _MDLINK.findall(body) if "://" not in href
    ]
    known = {"title", "type", "tags", "tag", "aliases", "alias"}
    return Note(
        path=path,
        rel_path=str(rel),
        slug=slugify(str(rel.with_suffix(""))),
        title=title,
        type=str(meta["type"]).strip() if meta.get("type") else None,
        tags=_as_list(meta.get("tags", meta.get("tag"))),
        aliases=_as_list(meta.get("aliases", meta.get("alias"))),
        body=body.strip(),
        links=tuple(dict.fromkeys(links)),
        content_hash=hashlib.sha256(raw).hexdigest()[:16],
        warning=warning,
        extra={
            k: v
            for k, v in meta.items()
            if k not in known and isinstance(v, str | int | float | bool)
        },
    )
