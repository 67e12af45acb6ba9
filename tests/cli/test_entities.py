"""`brain init | add | relate | show | delete | types | stats` as a user runs them."""

from __future__ import annotations

import sys

from cli.runner import BrainCli


def test_init_creates_the_brain_folder_and_says_so(cli: BrainCli) -> None:
    first = cli.ok("init")
    assert str(cli.home) in first.out
    for name in ("brain.db", "entity_types.yaml", "config.toml", "Daily"):
        assert (cli.home / name).exists(), name
    again = cli.ok("init", "--json").json()
    assert again == {"path": str(cli.home), "created": [], "entities": 0, "relations": 0}


def test_a_writing_command_creates_a_missing_brain_folder_a_reading_one_does_not(
    cli: BrainCli,
) -> None:
    nested = cli.home.parent / "not" / "there" / "yet"
    stats = cli("--brain", str(nested), "stats", "--json")
    assert stats.code == 3 and f"no brain at {nested}" in stats.err
    # The advice given works as written (it said `brain init --brain X`, which is no option).
    assert f"`brain --brain {nested} init`" in stats.err
    assert not nested.exists()
    cli.ok("--brain", str(nested), "add", "Person", "Ada")
    assert (nested / "brain.db").is_file()


def test_python_dash_m_runs_the_same_cli(cli: BrainCli) -> None:
    result = cli.ok(
        "add", "Person", "Grace Hopper", command=[sys.executable, "-m", "brainbridge.cli.main"]
    )
    assert "Person:Grace Hopper" in result.out


def test_add_show_relate_for_people(cli: BrainCli) -> None:
    added = cli.ok(
        "add",
        "Person",
        "Ada Lovelace",
        "-d",
        "Wrote the first program.",
        "-a",
        "role=mathematician",
        "-a",
        "born=1815",
        "-a",
        'aliases=["Ada", "Countess"]',
    )
    assert "Added Person:Ada Lovelace" in added.out
    assert "\x1b[" not in added.out  # no colour codes when stdout is not a terminal
    cli.ok("add", "Project", "Analytical Engine", "-a", "status=idea")
    related = cli.ok("relate", "Ada Lovelace", "works_on", "Project:Analytical Engine")
    assert "works_on" in related.out and "Project:Analytical Engine" in related.out

    shown = cli.ok("show", "Ada Lovelace")
    for text in (
        "Person:Ada Lovelace",
        "Wrote the first program.",
        "mathematician",
        "1815",
        "works_on",
        "Analytical Engine",
    ):
        assert text in shown.out, text

    updated = cli.ok("add", "Person", "Ada Lovelace", "-a", "role=programmer")
    assert "Updated Person:Ada Lovelace" in updated.out


def test_add_show_relate_as_json(cli: BrainCli) -> None:
    ada = cli.ok(
        "add",
        "Person",
        "Ada Lovelace",
        "--json",
        "-a",
        "born=1815",
        "-a",
        'aliases=["Ada"]',
        "-a",
        "role=mathematician",
        "-a",
        "note=[oops",
    ).json()
    # A value that parses as JSON is taken as JSON; anything else stays text.
    assert ada["attributes"] == {
        "born": 1815,
        "aliases": ["Ada"],
        "role": "mathematician",
        "note": "[oops",
    }
    cli.ok("add", "Project", "Analytical Engine", "-d", "A mechanical computer.")
    rel = cli.ok("relate", "Person:Ada Lovelace", "works_on", "Analytical Engine", "--json").json()
    assert rel["src"] == {"type": "Person", "name": "Ada Lovelace"}
    assert rel["dst"] == {"type": "Project", "name": "Analytical Engine"}

    shown = cli.ok("show", "Person:Ada Lovelace", "--json").json()
    assert shown["entity"]["attributes"]["born"] == 1815
    assert [(n["type"], n["name"]) for n in shown["nodes"]] == [
        ("Person", "Ada Lovelace"),
        ("Project", "Analytical Engine"),
    ]
    assert [e["type"] for e in shown["edges"]] == ["works_on"]
    alone = cli.ok("show", "Ada Lovelace", "--hops", "0", "--json").json()
    assert [n["name"] for n in alone["nodes"]] == ["Ada Lovelace"]


def test_chat_exchange_names_with_colons_resolve(cli: BrainCli) -> None:
    cli.ok(
        "add",
        "Chat_Exchange",
        "3f9c2a71:ex:1",
        "-d",
        "User: hi | AI: hello",
        "-a",
        "exchange_number=1",
        "-a",
        "session_id=3f9c2a71-aaaa",
    )
    bare = cli.ok("show", "3f9c2a71:ex:1", "--json").json()
    typed = cli.ok("show", "Chat_Exchange:3f9c2a71:ex:1", "--json").json()
    assert bare["entity"] == typed["entity"]
    assert typed["entity"]["attributes"]["exchange_number"] == 1


def test_a_name_two_entities_share_needs_the_type(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Mercury")
    cli.ok("add", "Project", "Mercury")
    result = cli("show", "Mercury")
    assert result.code == 2
    assert "ambiguous" in result.err and "Person:Mercury" in result.err
    assert cli.ok("show", "Project:Mercury", "--json").json()["entity"]["type"] == "Project"


def test_delete_removes_the_entity_and_its_relations(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Ada")
    cli.ok("add", "Project", "Engine")
    cli.ok("relate", "Ada", "works_on", "Engine")
    deleted = cli.ok("delete", "Person:Ada")
    assert "Deleted Person:Ada and 1 relation" in deleted.out
    assert cli("show", "Ada").code == 3
    assert cli.ok("show", "Engine", "--json").json()["edges"] == []
    again = cli("delete", "Person:Ada")
    assert again.code == 3 and "no Person named 'Ada'" in again.err


def test_show_takes_the_one_name_like_the_one_asked_for(cli: BrainCli) -> None:
    # Found by a new user: the README's `brain show kev` and "helen park" for "Dr. Helen
    # Park" failed, each with the one right name as a hint.
    cli.ok("add", "Person", "Kevin Lee", "-d", "Runs the spring founder cohort")
    cli.ok("add", "Person", "Dr. Helen Park", "-d", "Dentist")
    for asked, shown in (("kevin", "Kevin Lee"), ("helen park", "Dr. Helen Park")):
        result = cli.ok("show", asked)
        assert f"Person:{shown}" in result.out and f"showing {shown!r}" in result.err
    cli.ok("add", "Person", "Kevin Marsh")
    assert cli("show", "kevin").code == 3  # two Kevins: no guess


def test_missing_entities_exit_3(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Ada")
    result = cli("relate", "Ada", "knows", "Person:Nobody")
    assert result.code == 3
    assert result.err.startswith("brain: error:") and "Nobody" in result.err


def test_types_lists_and_syncs_entity_types(cli: BrainCli) -> None:
    cli.ok("init")  # `types` alone only reads: it would not write entity_types.yaml
    listed = cli.ok("types")
    assert "Person" in listed.out and "Chat_Exchange" in listed.out and "decided_on" in listed.out
    spec = cli.ok("types", "--json").json()
    assert spec["Project"]["attributes"]["status"]["enum"] == ["active", "paused", "done", "idea"]

    yaml_file = cli.home / "entity_types.yaml"
    yaml_file.write_text(
        yaml_file.read_text() + "Recipe:\n  description: A dish.\n  attributes:\n"
        "    serves: {type: integer}\n"
    )
    synced = cli.ok("types", "--sync")
    assert "Recipe" in synced.out and "serves" in synced.out
    assert cli.ok("add", "Recipe", "Pancakes", "-a", "serves=4", "--json").json()["attributes"] == {
        "serves": 4
    }
    bad = cli("add", "Recipe", "Soup", "-a", "serves=many")
    assert bad.code == 2 and "Recipe.serves must be integer" in bad.err


def test_stats_counts_and_pending_vectors(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Ada", "-d", "mathematician")
    cli.ok("add", "Person", "Grace", "-d", "admiral and programmer")
    cli.ok("add", "Project", "Engine")
    cli.ok("relate", "Ada", "works_on", "Engine")
    stats = cli.ok("stats", "--json").json()
    assert stats["entities"] == 3
    assert stats["entities_by_type"] == {"Person": 2, "Project": 1}
    assert stats["relations"] == 1
    # `add` never loads a model: vectors wait for `brain index` (or `brain serve`).
    assert (stats["vectors"], stats["pending_vectors"]) == (0, 3)
    human = cli.ok("stats")
    assert "Person" in human.out and "pending vectors" in human.out

    # A search answers at once from words and says the vectors are catching up (#35).
    searched = cli.ok("search", "programmer", "--json")
    assert searched.json()["count"] >= 1 and "3 entries have no vector yet" in searched.err
    cli.ok("index")
    after = cli.ok("stats", "--json").json()
    assert (after["vectors"], after["pending_vectors"]) == (3, 0)


def test_commands_that_do_not_search_never_load_the_embedder(cli: BrainCli) -> None:
    broken = {"BRAIN_EMBEDDER": "word2vec"}
    cli.ok("add", "Person", "Ada", env=broken)
    cli.ok("add", "Project", "Engine", env=broken)
    cli.ok("relate", "Ada", "works_on", "Engine", env=broken)
    cli.ok("show", "Ada", env=broken)
    cli.ok("types", env=broken)
    cli.ok("export", env=broken)
    cli.ok("delete", "Engine", env=broken)
    result = cli("search", "Ada", env=broken)
    assert result.code == 2 and "unknown embedder 'word2vec'" in result.err
