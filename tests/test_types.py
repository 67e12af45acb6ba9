"""Entity types: the bundled defaults, parsing `entity_types.yaml`, validating attributes."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
import yaml

from brainbridge.errors import SchemaError
from brainbridge.types import BUILTIN_TYPES, default_types_yaml, load_types, parse_types, validate


@pytest.fixture(scope="module")
def types() -> dict[str, dict[str, object]]:
    return parse_types(default_types_yaml())


def test_defaults_hold_every_builtin_type(types: dict[str, dict[str, object]]) -> None:
    assert set(BUILTIN_TYPES) <= set(types)
    assert types["Chat_Exchange"]["attributes"]["exchange_number"] == {"type": "integer"}


def test_missing_file_means_the_defaults(tmp_path: Path) -> None:
    assert load_types(tmp_path / "entity_types.yaml") == parse_types(default_types_yaml())


def test_builtin_types_survive_a_file_that_omits_them() -> None:
    types = parse_types("Recipe:\n  attributes:\n    servings: integer\n")
    assert set(BUILTIN_TYPES) <= set(types)
    assert types["Recipe"]["attributes"] == {"servings": {"type": "integer"}}
    validate(types, "Recipe", {"servings": 4})
    with pytest.raises(SchemaError, match="servings"):
        validate(types, "Recipe", {"servings": "four"})


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("Person: [unclosed", "not valid YAML"),
        ("- just\n- a list\n", "mapping"),
        ("9Lives: {}\n", "9Lives"),
        ("Has Space: {}\n", "Has Space"),
        ("Recipe: [1, 2]\n", "Recipe"),
        ("Recipe:\n  attributes: [a, b]\n", "attributes"),
        ("Recipe:\n  attributes:\n    servings: {type: float}\n", "float"),
        ("Recipe:\n  attributes:\n    servings: 3\n", "servings"),
    ],
)
def test_bad_type_files_are_schema_errors_naming_the_problem(text: str, complaint: str) -> None:
    with pytest.raises(SchemaError, match="my_types.yaml") as err:
        parse_types(text, "my_types.yaml")
    assert complaint in str(err.value)


def test_empty_file_means_just_the_builtins() -> None:
    assert set(parse_types("")) == set(BUILTIN_TYPES)


def test_undeclared_attributes_are_allowed_unless_the_type_forbids_them() -> None:
    types = parse_types("Strict:\n  additional_attributes: false\n  attributes: {a: string}\n")
    validate(types, "Person", {"favourite_colour": "teal"})
    validate(types, "Strict", {"a": "ok"})
    with pytest.raises(SchemaError, match="'b'"):
        validate(types, "Strict", {"b": "nope"})


def test_none_values_are_deletions_and_never_type_checked(
    types: dict[str, dict[str, object]],
) -> None:
    validate(types, "Decision", {"decided_on": None})


@pytest.mark.parametrize(
    ("entity_type", "attributes"),
    [
        ("Decision", {"decided_on": "2024-05-01"}),
        ("Chat_Exchange", {"exchange_number": 3, "session_id": "abc"}),
        ("Project", {"status": "active"}),
        ("Person", {"aliases": ["Bob", "Bobby"]}),
        ("Commitment", {"due": "2025-01-31", "status": "open"}),
    ],
)
def test_well_typed_attributes_pass(
    types: dict[str, dict[str, object]], entity_type: str, attributes: dict[str, object]
) -> None:
    validate(types, entity_type, attributes)


def test_unknown_type_names_the_known_ones(types: dict[str, dict[str, object]]) -> None:
    with pytest.raises(SchemaError, match="unknown entity type 'Spaceship'") as err:
        validate(types, "Spaceship", {})
    assert all(name in str(err.value) for name in BUILTIN_TYPES)
    assert "entity_types.yaml" in str(err.value)


@pytest.mark.parametrize("bad", ["2024-99-99", "2024-02-30"])
def test_impossible_dates_are_rejected(types: dict[str, dict[str, object]], bad: str) -> None:
    with pytest.raises(SchemaError, match="decided_on"):
        validate(types, "Decision", {"decided_on": bad})


def test_a_python_date_is_a_date(types: dict[str, dict[str, object]]) -> None:
    validate(types, "Decision", {"decided_on": datetime.date(2024, 5, 1)})


def test_default_file_is_valid_yaml_with_a_comment_header() -> None:
    text = default_types_yaml()
    assert text.startswith("#")
    assert isinstance(yaml.safe_load(text), dict)
