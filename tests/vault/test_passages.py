"""Notes are searched by passage: the paragraph that answers, with its file, line and headings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.pg import backend  # noqa: F401  (runs this module on both backends)

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import InvalidInput
from brainbridge.model import PASSAGE
from brainbridge.vault import import_notes
from brainbridge.vault.passages import MAX_CHARS, split_passages
from cli.runner import BrainCli, clean_env

QUESTION = "what do I need to install before the first day?"
ANSWER = "install Docker Desktop, Python 3.12 and the Tailscale VPN client"
ONBOARDING = f"""---
title: Onboarding
tags: [team]
---
# Onboarding

Welcome to the team! This note covers your first weeks with us.

## Contents
- [[#Welcome]]
- [[#Office]]
- [[#Laptop setup]]
- [[#Accounts]]
- [[#Payroll]]

## Welcome
Your buddy meets you at reception at 9:30 and shows you around.

## Office
The office is on the third floor. Badges are handed out by facilities.

## Laptop setup
Before the first day, {ANSWER} on your laptop; IT cannot do it for you on day one because
the installers need your own admin password.

```bash
brew install --cask docker tailscale
```

## Accounts
### GitHub
Ask Priya to add you to the engineering org.
### Slack
Join the general and oncall channels.

## Payroll
Payroll runs on the 25th. Send your bank details to finance in your first week.
"""
ANSWER_LINE = ONBOARDING.splitlines().index("## Laptop setup") + 2  # 1-based, below it


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    folder = tmp_path / "vault"
    (folder / "notes").mkdir(parents=True)
    (folder / "notes" / "onboarding.md").write_text(ONBOARDING)
    (folder / "notes" / "expenses.md").write_text(
        "# Expenses\nSubmit receipts within 30 days through the finance portal.\n"
    )
    return folder


async def passages(brain: Brain) -> dict[str, dict]:
    """{name: entity dict} of every passage in the brain."""
    found, _ = await brain._run(brain.store.list_entities, PASSAGE, "", 1000)
    return {e.name: e.to_dict() for e in found}


async def test_the_block_holds_the_paragraph_that_answers_with_its_file_and_heading(
    brain: Brain, vault: Path
) -> None:
    await import_notes(brain, vault)
    await brain.wait_for_vectors(60)
    bridge = Bridge(brain)

    result = await bridge.enrich(QUESTION)
    await bridge.drain()

    assert result.block is not None
    items = [line for line in result.block.splitlines() if line.startswith("- **")]
    path = vault.resolve() / "notes" / "onboarding.md"
    assert items[0].startswith(
        f"- **Onboarding § Laptop setup ¶1** (knowledge, Passage, {path}:{ANSWER_LINE})"
    )
    assert ANSWER in items[0] and "brew install --cask docker tailscale" in items[0]
    # The note's heading list (its table of contents) is not what answers.
    assert "Contents" not in result.block and "Office Laptop setup" not in result.block
    assert not any(line.startswith("- **Onboarding** (") for line in items)
    assert ONBOARDING.splitlines()[ANSWER_LINE - 1].startswith("Before the first day")


async def test_search_and_recall_return_the_passage(brain: Brain, vault: Path) -> None:
    await import_notes(brain, vault)

    hits = await brain.search(QUESTION, 3)
    recalled = await brain.recall("Slack channels to join", 3)

    top = hits[0].entity
    assert (top.type, top.name) == (PASSAGE, "Onboarding § Laptop setup ¶1")
    assert top.attributes["rel_path"] == "notes/onboarding.md"
    assert top.attributes["line"] == ANSWER_LINE
    assert recalled["results"][0]["name"] == "Onboarding § Accounts › Slack ¶1"
    assert recalled["results"][0]["description"] == "Join the general and oncall channels."


async def test_reimport_replaces_a_changed_notes_passages(brain: Brain, vault: Path) -> None:
    note = vault / "notes" / "onboarding.md"
    await import_notes(brain, vault)
    first = await passages(brain)
    assert "Onboarding § Payroll ¶1" in first and "Onboarding § Office ¶1" in first

    again = await import_notes(brain, vault)
    assert again.unchanged == 2
    assert await passages(brain) == first  # nothing rewritten

    text = note.read_text().replace("on the 25th", "on the 28th")
    text = text.replace(
        "## Office\nThe office is on the third floor. Badges are handed out by facilities.\n\n", ""
    )
    note.write_text(text.replace("## Payroll", "## Pay"))
    report = await import_notes(brain, vault)

    assert report.updated == ["notes/onboarding.md"]
    now = await passages(brain)
    assert "Onboarding § Office ¶1" not in now  # the paragraph was deleted
    assert "Onboarding § Payroll ¶1" not in now  # the heading was renamed
    assert now["Onboarding § Pay ¶1"]["description"].startswith("Payroll runs on the 28th.")
    # The Laptop setup paragraph moved up three lines, and its passage with it.
    laptop = now["Onboarding § Laptop setup ¶1"]
    assert laptop["attributes"]["line"] == ANSWER_LINE - 3
    assert set(now) == set(first) - {"Onboarding § Office ¶1", "Onboarding § Payroll ¶1"} | {
        "Onboarding § Pay ¶1"
    }
    hits = await brain.search("office third floor badges", 5)
    assert not any("third floor" in h.entity.description for h in hits)


async def test_a_deleted_or_renamed_note_takes_its_passages_along(
    brain: Brain, vault: Path
) -> None:
    note = vault / "notes" / "onboarding.md"
    await import_notes(brain, vault)
    note.write_text(note.read_text().replace("title: Onboarding", "title: Welcome pack"))

    await import_notes(brain, vault)

    names = set(await passages(brain))
    assert names and all(n.startswith("Welcome pack ") for n in names)
    note.unlink()
    await import_notes(brain, vault)
    assert await passages(brain) == {}


async def test_a_short_note_is_its_own_passage(brain: Brain, vault: Path) -> None:
    await import_notes(brain, vault)

    names = set(await passages(brain))

    assert names and not any(n.startswith("expenses") for n in names)
    hits = await brain.search("receipts finance portal", 3)
    assert (hits[0].entity.type, hits[0].entity.name) == ("Document", "expenses")


async def test_a_note_is_never_written_without_its_passages(brain: Brain) -> None:
    note = ("Document", "Handbook", "A handbook.", {"doc_path": "/v/handbook.md"})
    too_long = ("Passage", "Handbook ¶" + "9" * 600, "text", {"line": 3})

    with pytest.raises(InvalidInput):
        await brain._run(
            brain.store.upsert_with_parts,
            [note],
            [(PASSAGE, ("Handbook ¶",), [("Passage", "Handbook ¶1", "ok", {}), too_long])],
        )

    assert await brain.get_entity("Document", "Handbook") is None
    assert await passages(brain) == {}


def test_import_notes_cli_then_search_finds_the_passage(tmp_path: Path, vault: Path) -> None:
    home = tmp_path / "home"
    cli = BrainCli(home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing"))

    cli.ok("import-notes", str(vault))
    data = cli.ok("search", QUESTION, "--json").json()

    top = data["results"][0]
    assert (top["type"], top["name"]) == ("Passage", "Onboarding § Laptop setup ¶1")
    assert top["attributes"]["line"] == ANSWER_LINE


_LINE = st.one_of(
    st.sampled_from(["", "", "# Title", "## Part", "### Deep", "```", "- item one", "> quote"]),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=3000),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_LINE, max_size=40), st.integers(1, 30))
def test_passages_are_bounded_and_start_on_their_line(lines: list[str], first: int) -> None:
    body = "\n".join(lines)

    found = split_passages(body, first, "Title")

    assert all(0 < len(p.text) <= MAX_CHARS for p in found)
    lines = body.split("\n")
    for p in found:
        start = lines[p.line - first]  # an IndexError here is a line past the note's end
        assert start.strip() and not re.match(r" {0,3}#{1,6}[ \t]", start)
    numbered = [(p.headings, p.number) for p in found]
    assert len(set(numbered)) == len(numbered)  # names never collide within a note


async def test_a_long_document_added_directly_is_searched_by_passage(brain: Brain) -> None:
    sections = {
        "Goals": "Cut the gateway's p95 latency below 300 ms for every tenant. " * 6,
        "Rollout": "Enable the new cache for the billing tenant first, then everyone. " * 6,
        "Risks": "A cold cache after a deploy doubles the database load for ten minutes. " * 6,
    }
    text = "\n\n".join(f"## {h}\n{body.strip()}" for h, body in sections.items())

    await brain.upsert_entity("Document", "Cache design", description=text)
    hits = await brain.search("what happens to the database load after a deploy", 3)

    assert hits[0].entity.name == "Cache design § Risks ¶1"
    assert set(await passages(brain)) == {f"Cache design § {h} ¶1" for h in sections}
    await brain.upsert_entity("Document", "Cache design", description="Superseded; see v2.")
    assert await passages(brain) == {}
    await brain.upsert_entity("Document", "Cache design", description=text)
    await brain.delete_entity("Document", "Cache design")
    assert await passages(brain) == {}
