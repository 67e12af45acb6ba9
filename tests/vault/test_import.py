"""Importing an Obsidian-style vault: entities, links, warnings, incremental re-import."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from brainbridge.brain import Brain
from brainbridge.errors import NotFound
from brainbridge.vault import import_notes
from vault.sample_vault import snapshot, write_vault

DRIFT = "Config drift between staging and prod"
ALL_NOTES = {
    "LiteLLM.md",
    "people/Priya Raman.md",
    "Config drift.md",
    "ops/budget-alerts.md",
    "ops/Runbooks/Restart the proxy.md",
    "Daily/2024-05-02.md",
    "Broken frontmatter.md",
    "Weird type.md",
    "empty.md",
    "Café notes.md",
    "logs/huge.md",
}
LINKS = {
    ("LiteLLM", "Priya Raman"),  # [[Priya Raman|Priya]]
    ("LiteLLM", DRIFT),  # [[Config drift#Symptoms]]
    ("LiteLLM", "Budget alerts"),  # [budget alerts](ops/budget-alerts.md)
    ("Priya Raman", "LiteLLM"),
    (DRIFT, "Budget alerts"),  # [[ops/Budget alerts]]: by slug
    ("Budget alerts", "LiteLLM"),  # [hub](../LiteLLM.md)
    ("Budget alerts", "Restart the proxy"),  # [[Runbooks/Restart the proxy]]: path suffix
    ("2024-05-02", "Priya Raman"),
    ("2024-05-02", DRIFT),
    ("Café notes", "LiteLLM"),
}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path / "vault")


async def test_every_note_becomes_an_entity_with_type_slug_and_path(
    brain: Brain, vault: Path
) -> None:
    report = await import_notes(brain, vault)

    assert set(report.added) == ALL_NOTES  # not .obsidian/, not the .png
    assert (report.updated, report.deleted, report.unchanged) == ([], [], 0)
    entities, _ = await snapshot(brain)
    assert len(entities) == len(ALL_NOTES)
    kinds = {name: e["type"] for name, e in entities.items()}
    assert kinds["LiteLLM"] == "Project"
    assert kinds["Priya Raman"] == "Person"
    assert kinds[DRIFT] == "Decision"
    assert kinds["Weird type"] == "Document"  # `type: Spaceship` is not a brain type
    assert kinds["Budget alerts"] == "Document"  # no type at all
    slugs = {name: e["attributes"]["slug"] for name, e in entities.items()}
    assert slugs["LiteLLM"] == "litellm"
    assert slugs[DRIFT] == "config-drift"
    assert slugs["Restart the proxy"] == "ops-runbooks-restart-the-proxy"
    assert slugs["2024-05-02"] == "daily-2024-05-02"
    for e in entities.values():
        doc = Path(e["attributes"]["doc_path"])
        assert doc.is_absolute() and doc.is_file() and doc.is_relative_to(vault.resolve())


async def test_frontmatter_becomes_attributes_and_the_body_a_description(
    brain: Brain, vault: Path
) -> None:
    await import_notes(brain, vault)
    entities, _ = await snapshot(brain)

    hub = entities["LiteLLM"]
    assert hub["attributes"]["tags"] == ["infra", "llm"]
    assert hub["attributes"]["aliases"] == ["litellm proxy", "LLM gateway"]
    assert hub["attributes"]["status"] == "active"
    # A summary of prose: the note's headings are not repeated in it.
    assert hub["description"].startswith("The LLM gateway in front of every model call.")
    assert "[[" not in hub["description"] and "](" not in hub["description"]
    assert entities["Budget alerts"]["attributes"]["tags"] == ["ops", "alerts"]
    assert entities["Priya Raman"]["attributes"]["role"] == "site reliability engineer"
    # Code keeps its words: underscores and names are content, not Markdown.
    assert "max_tokens" in entities[DRIFT]["description"]


async def test_links_become_relations_whatever_their_form(brain: Brain, vault: Path) -> None:
    report = await import_notes(brain, vault)

    _, links = await snapshot(brain)
    assert links == LINKS
    assert report.links == len(LINKS)
    assert report.unresolved_links == 1  # [[Unwritten idea]]; the https link is not a note


async def test_broken_frontmatter_warns_for_that_file_and_the_rest_imports(
    brain: Brain, vault: Path
) -> None:
    report = await import_notes(brain, vault)

    broken = [w for w in report.warnings if "frontmatter" in w]
    assert len(broken) == 1 and broken[0].startswith("Broken frontmatter.md: ")
    entities, _ = await snapshot(brain)
    note = entities["Broken frontmatter"]  # the title falls back to the file name
    assert note["type"] == "Document"
    assert note["description"] == "The body still counts even though the YAML above is broken."


async def test_a_note_that_is_not_utf8_is_read_as_windows_1252(brain: Brain, vault: Path) -> None:
    report = await import_notes(brain, vault)

    assert any(w.startswith("Café notes.md: not UTF-8") for w in report.warnings)
    entities, _ = await snapshot(brain)
    assert "Café au lait, crème brûlée" in entities["Café notes"]["description"]


async def test_empty_and_huge_notes_import(brain: Brain, vault: Path) -> None:
    await import_notes(brain, vault)
    entities, _ = await snapshot(brain)

    assert entities["empty"]["description"] == ""
    huge = entities["Huge log"]
    assert len(huge["attributes"]["body"]) == 20_000
    assert len(huge["description"]) <= 400
    hits = await brain.search("huge log start", 3)
    # The note or, as a question is answered by a passage, its first passage.
    assert hits and hits[0].entity.attributes["rel_path"] == "logs/huge.md"


async def test_a_note_file_name_that_is_not_utf8_imports_once(brain: Brain, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "other.md").write_bytes(b"see [[caf\xe9]]")
    Path(os.fsdecode(bytes(vault) + b"/caf\xe9.md")).write_text("latin-1 name")

    first = await import_notes(brain, vault)
    again = await import_notes(brain, vault)

    assert sorted(first.added) == ["café.md", "other.md"]
    assert first.links == 1 and first.unresolved_links == 0
    assert (again.added, again.deleted, again.unchanged) == ([], [], 2)
    _, links = await snapshot(brain)
    assert links == {("other", "café")}


async def test_reimport_touches_only_changed_files(brain: Brain, vault: Path) -> None:
    await import_notes(brain, vault)
    before, links_before = await snapshot(brain)

    again = await import_notes(brain, vault)
    assert (again.added, again.updated, again.deleted, again.unchanged) == ([], [], [], 11)
    assert again.links == 0

    note = vault / "ops" / "budget-alerts.md"
    note.write_text(note.read_text().replace("80 %", "90 %"))
    edited = await import_notes(brain, vault)

    assert edited.updated == ["ops/budget-alerts.md"]
    assert (edited.added, edited.deleted, edited.unchanged) == ([], [], 10)
    after, links_after = await snapshot(brain)
    assert "90 %" in after["Budget alerts"]["description"]
    assert after["Budget alerts"]["attributes"]["slug"] == "ops-budget-alerts"  # stable
    untouched = {n: e["updated_at"] for n, e in after.items() if n != "Budget alerts"}
    assert untouched == {n: e["updated_at"] for n, e in before.items() if n != "Budget alerts"}
    assert links_after == links_before


async def test_slugs_are_the_same_in_another_brain(make_brain, vault: Path, tmp_path: Path) -> None:
    one = await make_brain(tmp_path / "one")
    two = await make_brain(tmp_path / "two")
    await import_notes(one, vault)
    await import_notes(two, vault)

    slugs = [
        {n: e["attributes"]["slug"] for n, e in (await snapshot(b))[0].items()} for b in (one, two)
    ]
    assert slugs[0] == slugs[1]


async def test_a_deleted_note_takes_its_entity_and_relations_with_it(
    brain: Brain, vault: Path
) -> None:
    await import_notes(brain, vault)
    (vault / "people" / "Priya Raman.md").unlink()

    report = await import_notes(brain, vault)

    assert report.deleted == ["people/Priya Raman.md"]
    assert report.unchanged == 10
    entities, links = await snapshot(brain)
    assert "Priya Raman" not in entities
    assert not {pair for pair in links if "Priya Raman" in pair}
    assert links == {p for p in LINKS if "Priya Raman" not in p}
    # Links to it dangle now; importing again changes nothing.
    assert (await import_notes(brain, vault)).unchanged == 10


async def test_moving_a_note_keeps_its_entity_and_relations(brain: Brain, vault: Path) -> None:
    await import_notes(brain, vault)
    before, _ = await snapshot(brain)
    (vault / "team").mkdir()
    shutil.move(vault / "people" / "Priya Raman.md", vault / "team" / "Priya Raman.md")

    report = await import_notes(brain, vault)

    assert report.renamed == [{"from": "people/Priya Raman.md", "to": "team/Priya Raman.md"}]
    assert (report.added, report.deleted) == ([], [])
    after, links = await snapshot(brain)
    priya = after["Priya Raman"]
    assert priya["created_at"] == before["Priya Raman"]["created_at"]  # the same entity
    assert priya["attributes"]["doc_path"] == str(vault.resolve() / "team" / "Priya Raman.md")
    assert priya["attributes"]["slug"] == "team-priya-raman"
    assert links == LINKS


async def test_renaming_a_note_and_its_links_as_obsidian_does(brain: Brain, vault: Path) -> None:
    await import_notes(brain, vault)
    runbooks = vault / "ops" / "Runbooks"
    (runbooks / "Restart the proxy.md").rename(runbooks / "Restart the gateway.md")
    alerts = vault / "ops" / "budget-alerts.md"
    alerts.write_text(alerts.read_text().replace("Restart the proxy", "Restart the gateway"))

    report = await import_notes(brain, vault)

    assert report.renamed == [
        {"from": "ops/Runbooks/Restart the proxy.md", "to": "ops/Runbooks/Restart the gateway.md"}
    ]
    assert report.updated == ["ops/budget-alerts.md"]
    entities, links = await snapshot(brain)
    assert "Restart the proxy" not in entities and "Restart the gateway" in entities
    assert ("Budget alerts", "Restart the gateway") in links
    assert not any("Restart the proxy" in pair for pair in links)


async def test_a_new_title_keeps_links_from_notes_that_did_not_change(
    brain: Brain, vault: Path
) -> None:
    await import_notes(brain, vault)
    note = vault / "Config drift.md"
    note.write_text(note.read_text().replace(f"title: {DRIFT}", "title: Proxy config drift"))

    report = await import_notes(brain, vault)

    assert report.updated == ["Config drift.md"] and report.unchanged == 10
    entities, links = await snapshot(brain)
    assert DRIFT not in entities and entities["Proxy config drift"]["type"] == "Decision"
    renamed = {tuple("Proxy config drift" if x == DRIFT else x for x in pair) for pair in LINKS}
    assert links == renamed  # LiteLLM and the daily note still point at it


async def test_a_new_note_picks_up_links_that_were_waiting_for_it(
    brain: Brain, vault: Path
) -> None:
    first = await import_notes(brain, vault)
    assert first.unresolved_links == 1
    (vault / "Unwritten idea.md").write_text("Now it is written.\n")

    report = await import_notes(brain, vault)

    assert report.added == ["Unwritten idea.md"]
    _, links = await snapshot(brain)
    assert ("2024-05-02", "Unwritten idea") in links


async def test_notes_with_the_same_title_stay_apart_and_stable(
    brain: Brain, tmp_path: Path
) -> None:
    vault = tmp_path / "vault"
    for folder in ("alpha", "beta"):
        (vault / folder).mkdir(parents=True)
        (vault / folder / "README.md").write_text(f"The {folder} readme.\n")
    (vault / "index.md").write_text("[[alpha/README]] and [[beta/README]]\n")

    first = await import_notes(brain, vault)
    second = await import_notes(brain, vault)
    third = await import_notes(brain, vault)

    assert len(first.added) == 3
    assert (second.added, second.updated, second.unchanged) == ([], [], 3)
    assert (third.added, third.updated, third.unchanged) == ([], [], 3)
    entities, links = await snapshot(brain)
    assert entities["README (alpha/README)"]["description"] == "The alpha readme."
    assert entities["README (beta/README)"]["description"] == "The beta readme."
    assert links == {("index", "README (alpha/README)"), ("index", "README (beta/README)")}

    (vault / "beta" / "README.md").unlink()
    alone = await import_notes(brain, vault)
    entities, links = await snapshot(brain)
    assert set(entities) == {"README", "index"}
    assert alone.deleted == ["beta/README.md"]
    assert links == {("index", "README")}


async def test_a_link_removed_from_a_note_is_removed_from_the_graph(
    brain: Brain, vault: Path
) -> None:
    await import_notes(brain, vault)
    note = vault / "people" / "Priya Raman.md"
    note.write_text(note.read_text().replace("See [[LiteLLM]].", "On call this week."))

    await import_notes(brain, vault)

    _, links = await snapshot(brain)
    assert ("Priya Raman", "LiteLLM") not in links


async def test_frontmatter_the_schema_rejects_is_dropped_with_a_warning(
    brain: Brain, tmp_path: Path
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "gateway.md").write_text("---\ntype: project\nstatus: someday\n---\nA gateway.\n")
    (vault / "pick.md").write_text("---\ntype: Decision\ndecided_on: 2024-05-02\n---\nUse it.\n")

    report = await import_notes(brain, vault)

    assert set(report.added) == {"gateway.md", "pick.md"}
    assert len(report.warnings) == 1 and report.warnings[0].startswith("gateway.md: ")
    assert "status" in report.warnings[0]
    entities, _ = await snapshot(brain)
    assert entities["gateway"]["type"] == "Project"  # the type matches in any case
    assert "status" not in entities["gateway"]["attributes"]
    assert entities["pick"]["attributes"]["decided_on"] == "2024-05-02"  # a YAML date


async def test_chat_exchange_is_never_a_note_type(brain: Brain, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "log.md").write_text("---\ntype: Chat_Exchange\n---\nNot a chat.\n")

    await import_notes(brain, vault)

    entities, _ = await snapshot(brain)
    assert entities["log"]["type"] == "Document"


async def test_a_missing_folder_is_not_found(brain: Brain, tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="does not exist"):
        await import_notes(brain, tmp_path / "nowhere")


async def test_an_emptied_vault_removes_its_notes_only(brain: Brain, vault: Path) -> None:
    await brain.upsert_entity("Person", "Kevin Lee", description="Not from any note")
    await import_notes(brain, vault)
    shutil.rmtree(vault)
    vault.mkdir()

    report = await import_notes(brain, vault)

    assert len(report.deleted) == len(ALL_NOTES)
    entities, links = await snapshot(brain)
    assert set(entities) == {"Kevin Lee"} and links == set()


async def test_a_binary_file_named_md_is_skipped_with_a_warning(brain: Brain, vault: Path) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 20
    (vault / "screenshot.md").write_bytes(png)
    report = await import_notes(brain, vault)

    assert "screenshot.md: binary content, not a note; skipped" in report.warnings
    entities, _ = await snapshot(brain)
    assert "screenshot" not in entities and "Café notes" in entities
