"""Indexing a folder of Markdown notes into the brain, incrementally."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from brainbridge.errors import BrainError, InvalidInput, NotFound
from brainbridge.redact import redact
from brainbridge.vault.parse import Note, excerpt, parse_note, slugify

if TYPE_CHECKING:
    from brainbridge.brain import Brain

log = logging.getLogger(__name__)

DEFAULT_TYPE = "Document"
LINK = "links_to"
SKIP_DIRS = {".git", ".obsidian", ".trash", "node_modules", ".venv"}


@dataclass
class ImportReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)
    links: int = 0
    unresolved_links: int = 0
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "deleted": self.deleted,
            "links": self.links,
            "unresolved_links": self.unresolved_links,
            "warnings": self.warnings,
        }


def note_files(root: Path) -> list[Path]:
    """Every .md file under `root`, skipping tool folders, in a stable order."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        out += [Path(dirpath) / f for f in sorted(filenames) if f.lower().endswith(".md")]
    return out


async def import_notes(
    brain: Brain, folder: str | Path, progress: Callable[[int], None] | None = None
) -> ImportReport:
    """Index the notes under `folder`: new and changed files are (re)written, deleted ones removed.

    Raises: NotFound if the folder does not exist.
    """
    root = Path(folder).expanduser().resolve()
    if not root.is_dir():
        raise NotFound(f"notes folder {root} does not exist")
    report = ImportReport()
    vault_key = str(root)
    existing = {
        e.attributes.get("doc_path"): e
        for e in await brain._run(brain.store.entities_with_attribute, "vault", vault_key)
    }
    notes: list[Note] = []
    changed: list[Note] = []
    for path in note_files(root):
        try:
            note = parse_note(path, root)
        except OSError as exc:
            report.warnings.append(f"{path}: cannot read ({exc.strerror})")
            continue
        if note.warning:
            report.warnings.append(f"{note.rel_path}: {note.warning}")
        notes.append(note)
        old = existing.pop(str(path), None)
        if old is not None and old.attributes.get("content_hash") == note.content_hash:
            report.unchanged += 1
            continue
        changed.append(note)
        (report.updated if old is not None else report.added).append(note.rel_path)
        if old is not None and (old.type, old.name) != (_type(brain, note), note.title):
            await brain.delete_entity(old.type, old.name)  # renamed or retyped
    for gone in existing.values():
        await brain.delete_entity(gone.type, gone.name)
        report.deleted.append(str(gone.attributes.get("doc_path")))
    rows = [
        (_type(brain, n), n.title, redact(excerpt(n.body, 400)), _attrs(n, vault_key))
        for n in changed
    ]
    for i in range(0, len(rows), 500):
        await brain.upsert_many(rows[i : i + 500])
        if progress:
            progress(len(rows[i : i + 500]))
    await _link(brain, notes, {n.rel_path for n in changed}, report)
    return report


def _type(brain: Brain, note: Note) -> str:
    return note.type if note.type in brain.types else DEFAULT_TYPE


def _attrs(note: Note, vault_key: str) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "slug": note.slug,
        "doc_path": str(note.path),
        "vault": vault_key,
        "rel_path": note.rel_path,
        "content_hash": note.content_hash,
        "body": redact(note.body[:20_000]),
        "tags": list(note.tags),
        "aliases": list(note.aliases),
    }
    for key, value in note.extra.items():
        attrs.setdefault(key, value)
    return attrs


async def _link(brain: Brain, notes: list[Note], changed: set[str], report: ImportReport) -> None:
    """Relations for links of changed notes, resolved by path, file name, title or alias."""
    index: dict[str, Note] = {}
    for n in notes:
        stem = PurePosixPath(n.rel_path).stem
        for key in (n.rel_path, n.rel_path[:-3], stem, n.title, *n.aliases, n.slug, slugify(stem)):
            index.setdefault(key.lower(), n)
    for note in notes:
        if note.rel_path not in changed:
            continue
        for target in note.links:
            key = target.lower().removesuffix(".md")
            dst = index.get(key) or index.get(key + ".md") or index.get(slugify(key))
            if dst is None or dst is note:
                report.unresolved_links += dst is None
                continue
            try:
                await brain.relate(
                    (_type(brain, note), note.title), LINK, (_type(brain, dst), dst.title)
                )
                report.links += 1
            except (NotFound, InvalidInput) as exc:
                log.debug("link %s -> %s skipped: %s", note.rel_path, target, exc)


async def watch_notes(
    brain: Brain,
    folder: str | Path,
    interval: float = 1.0,
    on_report: Callable[[ImportReport], None] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Re-import whenever a note is added, changed or removed (polling; no extra dependency)."""
    root = Path(folder).expanduser().resolve()
    last: dict[str, float] = {}
    while stop is None or not stop.is_set():
        try:
            now = {str(p): p.stat().st_mtime for p in note_files(root)}
        except OSError:
            now = {}
        if now != last:
            try:
                report = await import_notes(brain, root)
                if on_report:
                    on_report(report)
            except BrainError as exc:
                log.warning("notes import failed: %s", exc)
            last = now
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait() if stop else asyncio.sleep(interval), interval)
