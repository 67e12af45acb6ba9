"""Export and import a brain as JSON Lines, exactly round-trippable."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from brainbridge.errors import BrainError, InvalidInput, NotFound
from brainbridge.store.sqlite.store import SqliteStore
from brainbridge.types import validate

FORMAT = "brainbridge-jsonl/1"


def export_lines(store: SqliteStore) -> Iterator[str]:
    """A header line, then one line per entity, one per relation, one per merge (with what
    undoing it needs)."""
    yield json.dumps({"kind": "header", "format": FORMAT})
    for ent in store.iter_entities():
        yield json.dumps({"kind": "entity", **ent.to_dict()}, ensure_ascii=False, sort_keys=True)
    for rel in store.iter_relations():
        yield json.dumps({"kind": "relation", **rel.to_dict()}, ensure_ascii=False, sort_keys=True)
    for merge in store.export_merges():
        yield json.dumps({"kind": "merge", **merge}, ensure_ascii=False, sort_keys=True)


def import_lines(
    store: SqliteStore,
    lines: Iterable[str],
    types: dict[str, dict[str, Any]],
    progress: Callable[[int], None] | None = None,
    batch: int = 2000,
) -> dict[str, int]:
    """Load exported lines; entities are searchable by BM25 as soon as this returns.

    Raises: InvalidInput naming the line number of the first bad line (lines before it are kept).
    """
    counts = {"entities": 0, "relations": 0, "merges": 0}
    pending: list[dict[str, Any]] = []

    def flush() -> None:
        store.restore_many(pending)
        counts["entities"] += len(pending)
        if progress:
            progress(len(pending))
        pending.clear()

    n = 0
    for n, line in _numbered(lines):
        if line is None:
            flush()
            raise InvalidInput(f"line {n}: cannot be read (not UTF-8 text?)")
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            flush()
            raise InvalidInput(f"line {n}: not valid JSON ({exc.msg})") from exc
        kind = row.get("kind") if isinstance(row, dict) else None
        try:
            if kind == "entity":
                _check_entity_row(row)
                validate(types, row["type"], row.get("attributes") or {})
                pending.append(row)
                if len(pending) >= batch:
                    flush()
            elif kind == "relation":
                flush()
                store.relate(
                    (row["src"]["type"], row["src"]["name"]),
                    row["type"],
                    (row["dst"]["type"], row["dst"]["name"]),
                    row.get("attributes") or {},
                    created_at=row.get("created_at"),
                )
                counts["relations"] += 1
                if progress:
                    progress(1)
            elif kind == "merge":
                flush()
                counts["merges"] += store.restore_merge(row)
            elif kind != "header":
                raise InvalidInput(f"unknown kind {kind!r}")
        except (KeyError, TypeError, AttributeError) as exc:
            flush()
            raise InvalidInput(f"line {n}: missing or malformed field {exc}") from exc
        except BrainError as exc:
            flush()
            # In an import file a relation to a missing entity is bad input, not a lookup miss.
            kind_of = InvalidInput if isinstance(exc, NotFound) else type(exc)
            raise kind_of(f"line {n}: {exc}") from exc
    flush()
    return counts


def _check_entity_row(row: dict[str, Any]) -> None:
    """Raises: InvalidInput for a row that could not be stored, before it joins a batch."""
    for key in ("type", "name"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise InvalidInput(f"entity {key} must be a non-empty string")
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
