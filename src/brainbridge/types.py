"""Entity types: loading `entity_types.yaml` and validating attributes against it."""

from __future__ import annotations

import re
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any

from brainbridge.errors import SchemaError
from brainbridge.model import (
    CHAT_EXCHANGE,
    CHAT_SESSION,
    FILE,
    JOURNAL_ENTRY,
    OBSERVATION,
    PASSAGE,
)

TYPES_FILE = "entity_types.yaml"
BUILTIN_TYPES = (
    "Person",
    "Project",
    "Document",
    "Decision",
    "Commitment",
    "Fact",
    CHAT_EXCHANGE,
    CHAT_SESSION,
    JOURNAL_ENTRY,
    PASSAGE,
    OBSERVATION,
    FILE,
)
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
_CHECKS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "date": (str, date),
    "list": (list, tuple),
    "object": (dict,),
}


def default_types_yaml() -> str:
    """The text of the bundled default `entity_types.yaml`."""
    return (resources.files("brainbridge") / "data" / TYPES_FILE).read_text("utf-8")


def parse_types(text: str, source: str = TYPES_FILE) -> dict[str, dict[str, Any]]:
    """Parse and check an entity-types document; built-in types are always present.

    Raises: SchemaError with the file name and the offending type or attribute.
    """
    import yaml  # here: opening a brain whose types are already stored needs no YAML

    try:
        raw = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise SchemaError(f"{source}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise SchemaError(f"{source}: expected a mapping of type name to spec")
    defaults = yaml.safe_load(default_types_yaml())
    types: dict[str, dict[str, Any]] = {}
    for name in BUILTIN_TYPES:
        types[name] = _normalise(name, defaults[name], source)
    for name, spec in raw.items():
        types[str(name)] = _normalise(str(name), spec, source)
    return types


def load_types(path: Path) -> dict[str, dict[str, Any]]:
    """Read `path` (or the defaults if it does not exist).

    Raises: SchemaError.
    """
    if not path.exists():
        return parse_types(default_types_yaml())
    return parse_types(path.read_text("utf-8"), str(path))


def new_types(
    current: dict[str, dict[str, Any]], incoming: Any, source: str
) -> dict[str, dict[str, Any]]:
    """The types of `incoming` (name -> spec) that `current` does not define, checked;
    a type already defined keeps its definition.

    Raises: SchemaError.
    """
    if not isinstance(incoming, dict):
        raise SchemaError(f"{source}: expected a mapping of type name to spec")
    return {
        str(name): _normalise(str(name), spec, source)
        for name, spec in incoming.items()
        if str(name) not in current
    }


def append_types(path: Path, added: dict[str, dict[str, Any]]) -> None:
    """Add type definitions to the `entity_types.yaml` at `path` (the defaults first if
    it does not exist), so the next open, which re-reads the file, keeps them."""
    import yaml

    text = path.read_text("utf-8") if path.exists() else default_types_yaml()
    if text and not text.endswith("\n"):
        text += "\n"
    block = yaml.safe_dump(added, sort_keys=False, allow_unicode=True)
    path.write_text(f"{text}# Added by `brain import`:\n{block}", "utf-8")


def _normalise(name: str, spec: Any, source: str) -> dict[str, Any]:
    if not _NAME.match(name):
        raise SchemaError(f"{source}: type name {name!r} must be a letter then letters/digits/_")
    spec = spec or {}
    if not isinstance(spec, dict):
        raise SchemaError(f"{source}: type {name}: expected a mapping")
    attrs = spec.get("attributes") or {}
    if not isinstance(attrs, dict):
        raise SchemaError(f"{source}: type {name}: 'attributes' must be a mapping")
    out_attrs = {}
    for attr, aspec in attrs.items():
        if isinstance(aspec, str):
            aspec = {"type": aspec}
        if not isinstance(aspec, dict):
            raise SchemaError(f"{source}: {name}.{attr}: expected a mapping with 'type'")
        kind = aspec.get("type", "string")
        if kind not in _CHECKS:
            raise SchemaError(
                f"{source}: {name}.{attr}: unknown attribute type {kind!r}"
                f" (use one of {', '.join(_CHECKS)})"
            )
        out_attrs[str(attr)] = {
            k: v for k, v in aspec.items() if k in {"type", "enum", "description"}
        }
    single = spec.get("single_valued") or []
    if not isinstance(single, list) or not all(isinstance(x, str) for x in single):
        raise SchemaError(f"{source}: type {name}: 'single_valued' must be a list of names")
    out: dict[str, Any] = {
        "description": str(spec.get("description", "")),
        "attributes": out_attrs,
        "additional_attributes": bool(spec.get("additional_attributes", True)),
    }
    if single:
        out["single_valued"] = [x.strip().lower() for x in single]
    return out


def validate(
    types: dict[str, dict[str, Any]], entity_type: str, attributes: dict[str, Any]
) -> None:
    """Check an entity's type and attributes against the schema.

    Raises: SchemaError naming the type or attribute and what was expected.
    """
    spec = types.get(entity_type)
    if spec is None:
        known = ", ".join(sorted(types))
        raise SchemaError(
            f"unknown entity type {entity_type!r}; known types: {known}."
            f" Add it to {TYPES_FILE} in the brain folder."
        )
    declared = spec["attributes"]
    for key, value in attributes.items():
        if value is None:
            continue
        aspec = declared.get(key)
        if aspec is None:
            if not spec["additional_attributes"]:
                raise SchemaError(
                    f"{entity_type} has no attribute {key!r} (declared: {', '.join(declared)})"
                )
            continue
        kind = aspec["type"]
        ok = isinstance(value, _CHECKS[kind]) and not (
            kind in {"integer", "number"} and isinstance(value, bool)
        )
        if kind == "date":
            ok = _is_date(value)
        if not ok:
            raise SchemaError(
                f"{entity_type}.{key} must be {kind}, got {type(value).__name__} {value!r:.60}"
            )
        if "enum" in aspec and value not in aspec["enum"]:
            raise SchemaError(f"{entity_type}.{key} must be one of {aspec['enum']}, got {value!r}")


def _is_date(value: Any) -> bool:
    """A real calendar date: a `date` or text starting YYYY-MM-DD (a time may follow)."""
    if isinstance(value, date):
        return True
    if not isinstance(value, str) or not _DATE.match(value):
        return False
    try:
        date.fromisoformat(value[:10])
    except ValueError:
        return False
    return True
