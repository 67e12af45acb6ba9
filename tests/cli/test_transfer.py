"""`brain export | import`: exact round trips, and bad files that keep what came before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brainbridge.transfer import FORMAT
from cli.runner import BrainCli

HEADER = json.dumps({"kind": "header", "format": FORMAT})


def entity_line(name: str, etype: str = "Person", **extra: object) -> str:
    return json.dumps({"kind": "entity", "type": etype, "name": name, **extra})


def test_export_then_import_round_trips_byte_for_byte(
    cli: BrainCli, other: BrainCli, tmp_path: Path
) -> None:
    cli.ok(
        "add",
        "Person",
        "Zoë Ångström 🚀",
        "-d",
        'Line one\nline two\ttab "quoted"',
        "-a",
        'nested={"a": [1, 2.5, null, true], "b": {"c": "ü"}}',
        "-a",
        "n=-3",
    )
    cli.ok("add", "Project", "Ω", "-a", "status=active")
    cli.ok(
        "add",
        "Chat_Exchange",
        "3f9c2a71:ex:1",
        "-d",
        "User: hi | AI: hello",
        "-a",
        "exchange_number=1",
        "-a",
        "session_id=3f9c2a71-0000",
    )
    cli.ok("relate", "Zoë Ångström 🚀", "leads", "Ω", "-a", "since=2024")
    cli.ok("relate", "3f9c2a71:ex:1", "mentions", "Project:Ω")

    exported = cli.ok("export").out
    assert exported.splitlines()[0] == HEADER
    assert len(exported.splitlines()) == 1 + 1 + 3 + 2  # header, types, entities, relations
    file = tmp_path / "brain.jsonl"
    written = cli.ok("export", str(file))
    assert "Exported 7 lines" in written.err
    assert file.read_bytes() == exported.encode("utf-8")

    imported = other.ok("import", str(file), "--json").json()
    assert imported == {
        "entities": 3,
        "relations": 2,
        "merges": 0,
        "embedded": 3,
        "skipped": [],
    }
    assert other.ok("export").out.encode("utf-8") == file.read_bytes()


def test_import_from_stdin_and_into_an_existing_brain(cli: BrainCli, other: BrainCli) -> None:
    cli.ok("add", "Person", "Ada", "-a", "role=mathematician")
    dump = cli.ok("export").out
    other.ok("add", "Person", "Grace")
    result = other.ok("import", "-", input=dump)
    assert "Imported 1 entities and 0 relations from stdin" in result.err
    names = [r["name"] for r in map(json.loads, other.ok("export").out.splitlines()[2:])]
    assert names == ["Grace", "Ada"]


def test_import_embeds_unless_told_not_to(cli: BrainCli, tmp_path: Path) -> None:
    file = tmp_path / "in.jsonl"
    file.write_text("\n".join([HEADER, entity_line("Ada"), entity_line("Grace")]) + "\n")
    assert cli.ok("import", str(file), "--no-embed", "--json").json()["embedded"] == 0
    assert cli.ok("stats", "--json").json()["pending_vectors"] == 2
    assert cli.ok("import", str(file), "--json").json()["embedded"] == 2
    assert cli.ok("stats", "--json").json()["pending_vectors"] == 0


def test_a_malformed_line_is_named_and_earlier_lines_are_kept(
    cli: BrainCli, tmp_path: Path
) -> None:
    file = tmp_path / "bad.jsonl"
    file.write_text("\n".join([HEADER, entity_line("Ada"), "{not json", entity_line("Grace")]))
    result = cli("import", str(file))
    assert result.code == 2
    assert f"{file}: line 3: not valid JSON" in result.err
    assert cli.ok("show", "Ada").code == 0
    assert cli("show", "Grace").code == 3


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (entity_line("X", etype="Spaceship"), "unknown entity type 'Spaceship'"),
        (entity_line("X", etype="Decision", attributes={"decided_on": 5}), "must be date"),
        (json.dumps({"kind": "entity", "type": "Person"}), "name"),
        (json.dumps({"kind": "gadget"}), "unknown kind 'gadget'"),
        (json.dumps([1, 2]), "line 2"),
        (
            json.dumps(
                {
                    "kind": "relation",
                    "src": {"type": "Person", "name": "Ada"},
                    "type": "knows",
                    "dst": {"type": "Person", "name": "Nobody"},
                }
            ),
            "Nobody",
        ),
    ],
)
def test_bad_rows_exit_2_naming_line_and_problem(
    cli: BrainCli, tmp_path: Path, line: str, message: str
) -> None:
    file = tmp_path / "bad.jsonl"
    file.write_text(entity_line("Ada") + "\n" + line + "\n")
    result = cli("import", str(file))
    assert result.code == 2, result.err
    assert "line 2" in result.err and message in result.err
    assert cli.ok("show", "Ada").code == 0


def test_invalid_utf8_is_named_and_earlier_lines_are_kept(cli: BrainCli, tmp_path: Path) -> None:
    file = tmp_path / "latin1.jsonl"
    file.write_bytes(
        b"\n".join(
            [
                entity_line("Ada").encode(),
                entity_line("Grace").encode(),
                b'{"kind": "entity", "type": "Person", "name": "Jos\xe9"}',
                entity_line("Linus").encode(),
            ]
        )
    )
    result = cli("import", str(file))
    assert result.code == 2
    assert "line 3: not valid UTF-8" in result.err and "0xe9" in result.err
    names = [json.loads(x)["name"] for x in cli.ok("export").out.splitlines()[2:]]
    assert names == ["Ada", "Grace"]


def test_a_missing_file_exits_3(cli: BrainCli, tmp_path: Path) -> None:
    result = cli("import", str(tmp_path / "nope.jsonl"))
    assert result.code == 3 and "nope.jsonl: no such file" in result.err


def test_export_to_an_unwritable_place_fails_cleanly(cli: BrainCli, tmp_path: Path) -> None:
    cli.ok("init")
    result = cli("export", str(tmp_path / "no" / "such" / "dir" / "out.jsonl"))
    assert result.code == 2 and "cannot write" in result.err


RECIPE_TYPES = """Recipe:
  description: A dish and how to cook it.
  attributes:
    cuisine: {type: string, enum: [italian, thai]}
    minutes: {type: integer}
  additional_attributes: false
"""


def test_custom_entity_types_travel_with_the_export(
    cli: BrainCli, other: BrainCli, tmp_path: Path
) -> None:
    cli.ok("init")
    types_file = cli.home / "entity_types.yaml"
    types_file.write_text(types_file.read_text("utf-8") + RECIPE_TYPES, "utf-8")
    cli.ok("add", "Recipe", "Pad kra pao", "-a", "cuisine=thai", "-a", "minutes=20")
    cli.ok("add", "Person", "Nok")
    cli.ok("relate", "Person:Nok", "cooks", "Recipe:Pad kra pao")
    dump = tmp_path / "brain.jsonl"
    cli.ok("export", str(dump))

    done = other.ok("import", str(dump), "--json").json()
    assert (done["entities"], done["relations"]) == (2, 1)
    # The types stay after the import: a later open re-reads entity_types.yaml.
    other.ok("add", "Recipe", "Risotto", "-a", "cuisine=italian", "-a", "minutes=35")
    refused = other("add", "Recipe", "Soup", "-a", "cuisine=french")
    assert refused.code != 0 and "cuisine" in refused.err
    rows = [json.loads(line) for line in other.ok("export").out.splitlines()]
    recipes = {r["name"] for r in rows if r["kind"] == "entity" and r["type"] == "Recipe"}
    assert recipes == {"Pad kra pao", "Risotto"}
