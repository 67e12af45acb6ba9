"""Indexing a folder of Markdown notes into the brain, incrementally."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from brainbridge.errors import BrainError, InvalidInput, NotFound, SchemaError
from brainbridge.model import CHAT_EXCHANGE, PASSAGE, Entity, EntityRow
from brainbridge.redact import redact
from brainbridge.types import validate
from brainbridge.vault.parse import Note, NotText, clean_path, excerpt, parse_note, slugify
from brainbridge.vault.passages import name_prefixes, passage_name, split_passages

if TYPE_CHECKING:
    from brainbridge.brain import Brain

log = logging.getLogger(__name__)

DEFAULT_TYPE = "Document"
LINK = "links_to"
PENDING = "pending"  # content_hash of a note whose links are not stored yet
SKIP_DIRS = {".git", ".obsidian", ".trash", "node_modules", ".venv"}
SUMMARY_CHARS = 400
# Passages cover a note's first 200,000 characters (a few hundred passages): a multi-megabyte
# log pasted into a vault would otherwise become thousands of entities.
MAX_PASSAGE_TEXT = 200_000
_HEADING_LINE = re.compile(r"^ {0,3}#{1,6}[ \t].*$", re.M)


@dataclass
class ImportReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    deleted: list[str] = field(default_factory=list)
    renamed: list[dict[str, str]] = field(default_factory=list)
    links: int = 0
    unresolved_links: int = 0
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "deleted": self.deleted,
            "renamed": self.renamed,
            "links": self.links,
            "unresolved_links": self.unresolved_links,
            "warnings": self.warnings,
        }


@dataclass(frozen=True)
class _Planned:
    """A note with the entity it becomes."""

    note: Note
    type: str
    name: str
    attrs: dict[str, Any]

    @property
    def key(self) -> tuple[str, str]:
        return (self.type, self.name)


def note_files(root: Path) -> list[Path]:
    """Every .md file under `root`, skipping tool folders, in a stable order."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        out += [Path(dirpath) / f for f in sorted(filenames) if f.lower().endswith(".md")]
    return out


async def import_notes(
    brain: Brain, folder: str | Path, progress: Callable[[int, int], None] | None = None
) -> ImportReport:
    """Index the notes under `folder`: new and changed files are (re)written, deleted ones removed.
    `progress(written, to_write)` follows each batch of notes as it is committed.

    Raises: NotFound if the folder does not exist.
    """
    root = Path(folder).expanduser().resolve()
    if not root.is_dir():
        raise NotFound(f"notes folder {root} does not exist")
    report = ImportReport()
    vault_key = clean_path(root)
    existing: dict[str, Entity] = {
        str(e.attributes.get("doc_path")): e
        for e in await brain._run(brain.store.entities_with_attribute, "vault", vault_key)
    }
    notes: list[Note] = []
    for path in note_files(root):
        try:
            note = parse_note(path, root)
        except OSError as exc:
            report.warnings.append(f"{clean_path(path)}: cannot read ({exc.strerror})")
            existing.pop(clean_path(path), None)  # unreadable for now, not deleted
            continue
        except NotText as exc:
            rel = clean_path(path.relative_to(root).as_posix())
            report.warnings.append(f"{rel}: {exc}")
            existing.pop(rel, None)  # kept as it was, not deleted
            continue
        if note.warning:
            report.warnings.append(f"{note.rel_path}: {note.warning}")
        notes.append(note)
    planned = _plan(brain, notes, vault_key, report)

    changed: list[_Planned] = []
    stale: list[Entity] = []  # entities whose note now has another type or name
    for p in planned:
        old = existing.pop(p.attrs["doc_path"], None)
        same_entity = old is not None and (old.type, old.name) == p.key
        if (
            old is not None
            and same_entity
            and old.attributes.get("content_hash") == p.note.content_hash
        ):
            report.unchanged += 1
            continue
        changed.append(p)
        (report.updated if old is not None else report.added).append(p.note.rel_path)
        if old is not None and not same_entity:
            stale.append(old)
    keys = {p.key for p in planned}
    by_hash = {p.note.content_hash: p for p in changed if p.note.rel_path in report.added}
    for gone in existing.values():
        old_rel = str(gone.attributes.get("rel_path") or gone.attributes.get("doc_path"))
        moved = by_hash.pop(str(gone.attributes.get("content_hash")), None)
        if moved is None and (gone.type, gone.name) in keys:
            moved = next((p for p in changed if p.key == (gone.type, gone.name)), None)
        if moved is not None and moved.note.rel_path in report.added:
            report.added.remove(moved.note.rel_path)
            report.renamed.append({"from": old_rel, "to": moved.note.rel_path})
        else:
            report.deleted.append(old_rel)
        stale.append(gone)
    for ent in stale:
        # A note that keeps its entity under a new path updates it in place.
        if (ent.type, ent.name) not in keys:
            await brain.delete_entity(ent.type, ent.name)  # its passages too

    # A note counts as done (its content hash stored) only once its links are stored:
    # written first with a pending hash, so a process killed before or while linking
    # leaves it "changed" and the next run links it, and every note linking to it, again.
    # A note and its passages go in one transaction: never one without the other.
    passages = PASSAGE in brain.types
    summaries = [redact(_summary(p.note.body)) for p in changed]
    for i in range(0, len(changed), 500):
        batch = changed[i : i + 500]
        rows = [
            (p.type, p.name, summary, _pending(p.attrs))
            for p, summary in zip(batch, summaries[i : i + 500], strict=True)
        ]
        parts = [_passages(p) for p in batch] if passages else []
        await brain._run(_write, brain, rows, parts, progress, (i + len(batch), len(changed)))
        brain._written()
    await _link(brain, planned, {p.note.rel_path for p in changed}, report)
    done = [(p.type, p.name, d, p.attrs) for p, d in zip(changed, summaries, strict=True)]
    for i in range(0, len(done), 500):
        await brain.upsert_many(done[i : i + 500])
    return report


def _write(
    brain: Brain,
    rows: list[EntityRow],
    parts: list[Any],
    progress: Callable[[int, int], None] | None,
    done: tuple[int, int],
) -> None:
    # In the brain's worker thread: a batch that commits is counted, even when Ctrl-C has
    # already cancelled the import waiting for it.
    brain.store.upsert_with_parts(rows, parts)
    if progress:
        progress(*done)


def _pending(attrs: dict[str, Any]) -> dict[str, Any]:
    """The attributes with a content hash that matches no file: "written, not yet linked"."""
    return {**attrs, "content_hash": PENDING}


def _summary(body: str) -> str:
    """A note's description: its first words of prose; its headings are no summary."""
    return excerpt(_HEADING_LINE.sub("", body), SUMMARY_CHARS)


def _passages(p: _Planned) -> tuple[str, tuple[str, ...], list[EntityRow]]:
    """The note's passages as entity rows, "<note> § <headings> ¶n", with where they are.

    A note that is one short passage is its own passage: its description holds it all.
    Passages cover the first MAX_PASSAGE_TEXT characters.
    """
    found = split_passages(p.note.body[:MAX_PASSAGE_TEXT], p.note.body_line, p.note.title)
    if len(found) == 1 and len(found[0].text) <= SUMMARY_CHARS:
        found = []
    # Bookkeeping only (the name holds the note and headings): every text attribute
    # would cost a pass of the secret scanner, which is most of an import's time.
    rows: list[EntityRow] = [
        (
            PASSAGE,
            passage_name(p.name, part),
            part.text,
            {"doc_path": p.attrs["doc_path"], "rel_path": p.note.rel_path, "line": part.line},
        )
        for part in found
    ]
    return (PASSAGE, name_prefixes(p.name), rows)


def _plan(brain: Brain, notes: list[Note], vault_key: str, report: ImportReport) -> list[_Planned]:
    """Type, name and attributes per note; notes sharing a title are told apart by path."""
    typed = [(n, _type(brain.types, n)) for n in notes]
    counts = Counter((t, n.title) for n, t in typed)
    planned = []
    for note, etype in typed:
        name = note.title
        if counts[(etype, name)] > 1:
            name = f"{note.title} ({note.rel_path.removesuffix('.md')})"
        attrs = _attrs(note, vault_key, extra=True)
        try:
            validate(brain.types, etype, attrs)
        except SchemaError as exc:
            report.warnings.append(f"{note.rel_path}: {exc}; frontmatter attributes ignored")
            attrs = _attrs(note, vault_key, extra=False)
            try:
                validate(brain.types, etype, attrs)
            except SchemaError as exc2:
                report.warnings.append(f"{note.rel_path}: not imported: {exc2}")
                continue
        planned.append(_Planned(note, etype, name, attrs))
    return planned


def _type(types: dict[str, Any], note: Note) -> str:
    """The frontmatter type when the brain knows it (any case), else Document."""
    if note.type:
        wanted = note.type.lower()
        for known in types:
            if known.lower() == wanted and known != CHAT_EXCHANGE:
                return known
    return DEFAULT_TYPE


def _attrs(note: Note, vault_key: str, extra: bool) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "slug": note.slug,
        "doc_path": clean_path(note.path),
        "vault": vault_key,
        "rel_path": note.rel_path,
        "content_hash": note.content_hash,
        "body": redact(note.body[:20_000]),
        "tags": list(note.tags),
        "aliases": list(note.aliases),
    }
    for key, value in note.extra.items() if extra else ():
        attrs.setdefault(key, redact(value) if isinstance(value, str) else value)
    return attrs


def _index(planned: list[_Planned]) -> list[dict[str, _Planned]]:
    """Link lookup tables, most specific first: vault path, path suffix or file name, title."""
    by_path: dict[str, _Planned] = {}
    by_suffix: dict[str, _Planned] = {}
    by_name: dict[str, _Planned] = {}
    # Shorter paths first: Obsidian resolves a bare file name to the shallowest match.
    for p in sorted(planned, key=lambda p: (p.note.rel_path.count("/"), p.note.rel_path)):
        rel = p.note.rel_path.lower()
        by_path.setdefault(rel.removesuffix(".md"), p)
        parts = PurePosixPath(rel.removesuffix(".md")).parts
        for i in range(1, len(parts)):
            by_suffix.setdefault("/".join(parts[i:]), p)
        names: Iterable[str] = (p.note.title, p.name, *p.note.aliases, p.note.slug)
        for key in names:
            by_name.setdefault(key.lower(), p)
            by_name.setdefault(slugify(key), p)
    return [by_path, by_suffix, by_name]


def _resolve(tables: list[dict[str, _Planned]], target: str) -> _Planned | None:
    key = target.strip().lower().removesuffix(".md")
    for table in tables:
        if key in table:
            return table[key]
    return tables[-1].get(slugify(key))


async def _link(
    brain: Brain, planned: list[_Planned], changed: set[str], report: ImportReport
) -> None:
    """Relations for the links of changed notes and of every note linking to a changed one.

    A changed note may be new (resolving links that were dangling) or re-created under a
    new name (its incoming relations went with the old entity), so both ends count.
    """
    tables = _index(planned)
    for p in planned:
        targets = [(t, _resolve(tables, t)) for t in p.note.links]
        if p.note.rel_path not in changed and not any(
            dst is not None and dst.note.rel_path in changed for _, dst in targets
        ):
            continue
        if p.note.rel_path in changed:
            # Links taken out of the note must leave the graph too.
            try:
                await brain.unrelate(p.key, LINK)
            except (NotFound, InvalidInput) as exc:
                log.debug("old links of %s kept: %s", p.note.rel_path, exc)
        for target, dst in targets:
            if dst is None:
                report.unresolved_links += 1
                continue
            if dst is p:
                continue
            try:
                await brain.relate(p.key, LINK, dst.key)
                report.links += 1
            except (NotFound, InvalidInput) as exc:
                log.debug("link %s -> %s skipped: %s", p.note.rel_path, target, exc)


async def watch_notes(
    brain: Brain,
    folder: str | Path,
    interval: float = 1.0,
    on_report: Callable[[ImportReport], None] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Re-import whenever a note is added, changed or removed (polling; no extra dependency)."""
    root = Path(folder).expanduser().resolve()
    last: dict[str, tuple[int, int]] | None = None
    while stop is None or not stop.is_set():
        try:
            now = {str(p): _stamp(p) for p in note_files(root)}
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


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return (st.st_mtime_ns, st.st_size)
