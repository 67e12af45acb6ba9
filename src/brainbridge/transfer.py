"""Export and import a brain as JSON Lines, exactly round-trippable: entities, relations,
merges, the history (sessions, bridge log, curator runs, directives), the daily activity
log and, when asked, the vectors."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from brainbridge.errors import BrainError, InvalidInput, NotFound, StoreBusy
from brainbridge.ports import Store
from brainbridge.redact import redact, redact_value
from brainbridge.store.sqlite.records import BY_KIND, COMPLETION
from brainbridge.store.sqlite.store import clean_attributes, stored_name
from brainbridge.types import BUILTIN_TYPES, new_types, validate

FORMAT = "brainbridge-jsonl/2"
# What this version reads: /1 held entities, relations and merges; /2 adds the history
# (sessions, bridge log, curator runs, directives), the activity log and, optionally, vectors,
# and the brain's entity types (a "types" line after the header; older /2 files have none).
READS = ("brainbridge-jsonl/1", FORMAT)


@dataclass
class Imported:
    """What an import stored, and the lines it skipped (with --skip-bad)."""

    counts: dict[str, int] = field(
        default_factory=lambda: {"entities": 0, "relations": 0, "merges": 0}
    )
    skipped: list[tuple[int, str]] = field(default_factory=list)
    # Entity types the export defined and this brain did not: the brain's
    # entity_types.yaml must learn them too (Brain.import_all).
    types_added: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, kind: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n


def export_lines(store: Store, folder: Path | None = None, vectors: bool = False) -> Iterator[str]:
    """A header line; the entities, relations and merges (with what undoing a merge needs);
    the history records; the daily activity log in `folder`; with `vectors`, every vector."""
    yield json.dumps({"kind": "header", "format": FORMAT})
    # The brain's own entity types come first: its entities validate against them.
    custom = {n: spec for n, spec in store.get_types().items() if n not in BUILTIN_TYPES}
    yield _line({"kind": "types", "types": custom})
    for ent in store.iter_entities():
        # Redacted again on the way out: a brain written before redaction covered every
        # way in may still hold a pasted key (text already redacted stays as it is).
        row = ent.to_dict()
        row["name"] = redact(row["name"])
        row["description"] = redact(row["description"])
        row["attributes"] = clean_attributes(row["attributes"])
        yield _line({"kind": "entity", **row})
    for rel in store.iter_relations():
        yield _line({"kind": "relation", **redact_value(rel.to_dict())})  # names as above
    for merge in store.export_merges():
        yield _line({"kind": "merge", **merge})
    for record in store.export_records():
        yield _line(record)
    if folder is not None:
        from brainbridge.curator.files import ACTIVITY_DIR, read_lines

        for path in sorted((folder / ACTIVITY_DIR).glob("????-??-??.jsonl")):
            for entry in read_lines(path):
                # Unsorted: the entry keeps its key order, so it is written back byte for byte.
                row = {"kind": "activity", "day": path.stem, "entry": redact_value(entry)}
                yield json.dumps(row, ensure_ascii=False)
    if vectors:
        for (etype, name), model, blob, parts in store.iter_vectors():
            row = {
                "kind": "vector",
                "entity": {"type": etype, "name": redact(name)},
                "model": model,
                "vector": base64.b64encode(blob).decode("ascii"),
            }
            if parts is not None:
                row["parts"] = base64.b64encode(parts).decode("ascii")
            yield _line(row)


def _line(row: dict[str, Any]) -> str:
    return json.dumps(row, ensure_ascii=False, sort_keys=True)


def import_lines(
    store: Store,
    lines: Iterable[str],
    types: dict[str, dict[str, Any]],
    progress: Callable[[int], None] | None = None,
    batch: int = 2000,
    folder: Path | None = None,
    skip_bad: bool = False,
) -> Imported:
    """Load exported lines; entities are searchable by BM25 as soon as this returns.
    Importing the same lines again adds nothing; an interrupted import can simply be re-run.

    Raises: InvalidInput naming the line number of the first bad line (lines before it are
    kept), unless `skip_bad`, which goes on and lists the bad lines in the result.
    """
    done = Imported()
    pending: list[dict[str, Any]] = []

    def flush() -> None:
        store.restore_many(pending)
        done.add("entities", len(pending))
        if progress:
            progress(len(pending))
        pending.clear()

    def apply(row: Any) -> None:
        kind = row.get("kind") if isinstance(row, dict) else None
        if kind == "entity":
            _check_entity_row(row)
            validate(types, row["type"], row.get("attributes") or {})
            pending.append(row)
            if len(pending) >= batch:
                flush()
            return
        flush()
        if kind == "header":
            if row.get("format", FORMAT) not in READS:
                raise InvalidInput(
                    f"export format {row.get('format')!r} is not one this brainbridge reads"
                    f" ({', '.join(READS)}); upgrade brainbridge to import it"
                )
            return
        if kind == "relation":
            store.relate(
                (row["src"]["type"], row["src"]["name"]),
                row["type"],
                (row["dst"]["type"], row["dst"]["name"]),
                row.get("attributes") or {},
                created_at=row.get("created_at"),
            )
            done.add("relations")
        elif kind == "types":
            added = new_types(types, row["types"], "the export's entity types")
            if added:
                store.put_types({**types, **added})
                types.update(added)
                done.types_added.update(added)
                done.add("types", len(added))
        elif kind == "merge":
            done.add("merges", store.restore_merge(row))
        elif kind in BY_KIND or kind == COMPLETION:
            done.add(kind if store.restore_record(row) else "already there")
        elif kind == "activity":
            done.add("activity" if _restore_activity(folder, row) else "already there")
        elif kind == "vector":
            _restore_vector(store, row)
            done.add("vectors")
        else:
            raise InvalidInput(f"unknown kind {kind!r}")
        if progress:
            progress(1)

    for n, line in _numbered(lines):
        if line is None:
            flush()
            raise InvalidInput(f"line {n}: cannot be read (not UTF-8 text?)")
        if not line.strip():
            continue
        try:
            try:
                apply(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"not valid JSON ({exc.msg})") from exc
            except (KeyError, TypeError, AttributeError, ValueError) as exc:
                raise InvalidInput(f"missing or malformed field {exc}") from exc
        except BrainError as exc:
            if skip_bad and not _fatal(exc):
                done.skipped.append((n, str(exc)))
                continue
            try:
                flush()
            finally:
                # In an import file a relation to a missing entity is bad input, not a lookup miss.
                kind_of = InvalidInput if isinstance(exc, NotFound) else type(exc)
                raise kind_of(f"line {n}: {exc}") from exc
    flush()
    return done


def _fatal(exc: BrainError) -> bool:
    """Errors that no later line can avoid: a locked database, an unreadable format."""
    return isinstance(exc, StoreBusy) or "export format" in str(exc)


def _restore_activity(folder: Path | None, row: dict[str, Any]) -> bool:
    """Append an activity entry to its day's log unless it is there already."""
    from brainbridge.curator.files import activity_file, append_line, read_lines

    if folder is None:
        return False
    day = date.fromisoformat(str(row["day"]))
    entry = row["entry"]
    if not isinstance(entry, dict):
        raise InvalidInput("activity: entry must be an object")
    path = activity_file(folder, day)
    if entry in read_lines(path):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    append_line(path, entry)
    return True


def _restore_vector(store: Store, row: dict[str, Any]) -> None:
    entity = store.get_entity(row["entity"]["type"], row["entity"]["name"])
    if entity is None:
        raise InvalidInput("vector: its entity is not in the brain")
    try:
        blob = base64.b64decode(row["vector"], validate=True)
        parts = base64.b64decode(row["parts"], validate=True) if "parts" in row else None
    except (binascii.Error, TypeError) as exc:
        raise InvalidInput("vector: not base64") from exc
    if not isinstance(row["model"], str) or not row["model"] or len(blob) % 4:
        raise InvalidInput("vector: needs a model name and float32 values")
    if parts is not None and (not blob or not parts or len(parts) % len(blob)):
        raise InvalidInput("vector: parts must be whole vectors of the same size")
    store.put_vectors(
        row["model"], [(entity.id, blob)], parts={entity.id: parts} if parts else None
    )


def _check_entity_row(row: dict[str, Any]) -> None:
    """Raises: InvalidInput for a row that could not be stored, before it joins a batch."""
    for key in ("type", "name"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise InvalidInput(f"entity {key} must be a non-empty string")
    if not stored_name(row["name"]):  # only control characters, or only a <private> part
        raise InvalidInput("entity name is empty once cleaned")
    if not isinstance(row.get("attributes") or {}, dict):
        raise InvalidInput("entity attributes must be an object")
    if not isinstance(row.get("description") or "", str):
        raise InvalidInput("entity description must be a string")


def _numbered(lines: Iterable[str]) -> Iterator[tuple[int, str | None]]:
    """(line number, text) pairs; (n, None) once when reading fails, so earlier rows are kept."""
    it = iter(lines)
    n = 0
    while True:
        n += 1
        try:
            line = next(it)
        except StopIteration:
            return
        except (UnicodeDecodeError, OSError):
            yield n, None
            return
        yield n, line
