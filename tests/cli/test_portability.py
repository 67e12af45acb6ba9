"""Nothing lost on the way to another machine: `brain export | import` carries every kind of
record, `brain backup` copies a brain that is being written, `brain restore` puts it back
and `brain check` says whether it is sound (and rebuilds the full-text index when not)."""

from __future__ import annotations

import asyncio
import base64
import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

from brainbridge.brain import Brain
from brainbridge.bridge.bridge import Bridge
from brainbridge.curator import Curator
from cli.runner import BrainCli, clean_env

WRITER = Path(__file__).parent.parent / "store" / "writer_process.py"

# Each table as rows without surrogate ids: what must compare equal after a round trip.
TABLES = {
    "entities": "SELECT type, name, description, attributes, created_at, updated_at FROM entities",
    "relations": "SELECT s.type, s.name, r.type, d.type, d.name, r.attributes, r.created_at"
    " FROM relations r JOIN entities s ON s.id = r.src_id JOIN entities d ON d.id = r.dst_id",
    "sessions": "SELECT * FROM sessions",
    "bridge_log": "SELECT session_id, turn, entry, created_at FROM bridge_log",
    "curator_runs": "SELECT session_id, trigger, started_at, finished_at, tool_calls, actions,"
    " error FROM curator_runs",
    "directive_rooms": "SELECT * FROM directive_rooms",
    "directive_messages": "SELECT room_id, author, author_is_owner, at, text, category,"
    " priority, reason, classified_by FROM directive_messages",
    "directive_completions": "SELECT m.room_id, m.at, m.text, c.at, c.note"
    " FROM directive_completions c JOIN directive_messages m ON m.id = c.message_id",
    "merges": "SELECT entity_type, keep_name, other_name, score, reason, status, created_at,"
    " decided_at FROM merges",
}


def tables(home: Path) -> dict[str, list[tuple[Any, ...]]]:
    with closing(sqlite3.connect(home / "brain.db")) as conn:
        return {name: sorted(map(tuple, conn.execute(sql))) for name, sql in TABLES.items()}


def activity(home: Path) -> dict[str, list[str]]:
    folder = home / "Daily" / ".activity"
    return {p.name: p.read_text("utf-8").splitlines() for p in sorted(folder.glob("*.jsonl"))}


async def _chat(home: Path) -> None:
    brain = await Brain.open(home, embedder=None, background_indexing=False)
    try:
        bridge, curator = Bridge(brain), Curator(brain)
        turns = [
            ("We're redoing the kitchen and I need to compare contractor quotes.", "Sure."),
            ("OK, we'll go with Baker & Sons, contract signed by Thursday.", "Noted."),
        ]
        for n, (user, ai) in enumerate(turns, start=1):
            await bridge.observe_now("kitchen-1", n, user, ai)
            await curator.after_observe("kitchen-1", n)
        await curator.drain()
    finally:
        await brain.close()


def a_brain_with_everything(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Ada Lovelace", "-a", 'aliases=["Ada"]')
    cli.ok("add", "Person", "A. Lovelace")
    cli.ok("add", "Project", "Engine")
    cli.ok("relate", "Ada Lovelace", "works_on", "Engine")
    cli.ok("merge", "Ada Lovelace", "A. Lovelace")
    cli.ok("invalidate", "Project:Engine", "--on", "2026-08-01")
    asyncio.run(_chat(cli.home))
    room = ("--room", "ops", "--author", "ana")
    cli.ok("directives", "add-message", *room, "--canonical", "Always post notes in #releases.")
    cli.ok("directives", "add-message", *room, "Please migrate the billing DB by Friday.")
    cli.ok("directives", "complete", "2")


def test_every_kind_of_record_survives_export_and_import(
    cli: BrainCli, other: BrainCli, tmp_path: Path
) -> None:
    a_brain_with_everything(cli)
    before = tables(cli.home)
    assert all(before[name] for name in TABLES), {k: len(v) for k, v in before.items()}
    dump = tmp_path / "brain.jsonl"
    cli.ok("export", str(dump))

    first = other.ok("import", str(dump), "--json").json()
    assert tables(other.home) == before
    assert activity(other.home) == activity(cli.home) != {}
    assert first["session"] == 1 and first["directive_completion"] == 1

    again = other.ok("import", str(dump), "--json").json()  # idempotent, so resumable
    assert tables(other.home) == before
    assert activity(other.home) == activity(cli.home)
    assert "session" not in again and again["already there"] > 0
    assert "Kitchen" in other.ok("sessions", "--json").out
    assert "completed" in other.ok("directives", "list").out


def test_vectors_travel_when_asked(cli: BrainCli, other: BrainCli, tmp_path: Path) -> None:
    cli.ok("add", "Person", "Grace Hopper", "-d", "wrote the first compiler")
    cli.ok("add", "Topic", "Ada", "-d", "Ada wrote the first program. She worked with Babbage.")
    cli.ok("index")
    dump = tmp_path / "v.jsonl"
    cli.ok("export", str(dump), "--vectors")
    rows = [json.loads(line) for line in dump.read_text("utf-8").splitlines()]
    assert [r["kind"] for r in rows].count("vector") == 2
    assert [r["entity"]["name"] for r in rows if "parts" in r] == ["Ada"]  # two sentences
    other.ok("import", str(dump), "--no-embed")
    query = "SELECT COUNT(*), COUNT(parts), SUM(LENGTH(parts)) FROM vectors"
    with closing(sqlite3.connect(cli.home / "brain.db")) as conn:
        exported = conn.execute(query).fetchone()
    with closing(sqlite3.connect(other.home / "brain.db")) as conn:
        assert conn.execute(query).fetchone() == exported == (2, 1, 2 * 4 * 384)


def test_sentence_vectors_that_do_not_fit_their_vector_are_refused(
    other: BrainCli, tmp_path: Path
) -> None:
    def vector(whole: bytes, parts: bytes) -> str:
        return json.dumps(
            {
                "kind": "vector",
                "entity": {"type": "Person", "name": "Ada"},
                "model": "m",
                "vector": base64.b64encode(whole).decode(),
                "parts": base64.b64encode(parts).decode(),
            }
        )

    dump = tmp_path / "parts.jsonl"
    lines = [
        json.dumps({"kind": "header", "format": "brainbridge-jsonl/1"}),
        json.dumps({"kind": "entity", "type": "Person", "name": "Ada"}),
        vector(b"\0" * 16, b"\0" * 20),  # one vector and a quarter
        vector(b"", b"\0" * 16),  # sentences of an empty vector
    ]
    dump.write_text("\n".join(lines) + "\n", "utf-8")
    result = other("import", str(dump), "--skip-bad", "--no-embed", "--json")
    assert result.code == 2, result.err
    assert [s["line"] for s in json.loads(result.out)["skipped"]] == [3, 4]
    assert "parts must be whole vectors" in result.out


def test_skip_bad_goes_on_and_lists_the_bad_lines(other: BrainCli, tmp_path: Path) -> None:
    dump = tmp_path / "bad.jsonl"
    dump.write_text(
        "\n".join(
            [
                json.dumps({"kind": "header", "format": "brainbridge-jsonl/1"}),
                json.dumps({"kind": "entity", "type": "Person", "name": "Ada"}),
                "{not json",
                json.dumps({"kind": "session", "id": "s1"}),  # no timestamps
                json.dumps({"kind": "entity", "type": "Person", "name": "Grace"}),
            ]
        )
        + "\n",
        "utf-8",
    )
    stopped = other("import", str(dump))
    assert stopped.code == 2 and "line 3: not valid JSON" in stopped.err
    result = other("import", str(dump), "--skip-bad", "--json")
    assert result.code == 2
    report = json.loads(result.out)
    assert [s["line"] for s in report["skipped"]] == [3, 4]
    assert report["entities"] == 2  # Ada and Grace, both sides of the bad lines
    assert "Grace" in other.ok("show", "Grace").out


def test_an_export_from_a_newer_format_is_refused_and_an_older_one_loads(
    other: BrainCli, tmp_path: Path
) -> None:
    newer = tmp_path / "newer.jsonl"
    newer.write_text(json.dumps({"kind": "header", "format": "brainbridge-jsonl/9"}) + "\n")
    result = other("import", str(newer))
    assert result.code == 2 and "brainbridge-jsonl/9" in result.err
    older = tmp_path / "older.jsonl"
    older.write_text(
        json.dumps({"kind": "header", "format": "brainbridge-jsonl/1"})
        + "\n"
        + json.dumps({"kind": "entity", "type": "Person", "name": "Ada"})
        + "\n"
    )
    other.ok("import", str(older))


def test_a_backup_taken_while_four_writers_run_restores_to_a_sound_brain(
    cli: BrainCli, other: BrainCli, tmp_path: Path
) -> None:
    cli.ok("init")
    gate = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, str(WRITER), str(cli.home), str(gate), str(w), "300", "50"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(4)
    ]
    gate.touch()
    backups = []
    try:
        for i in range(3):
            target = tmp_path / f"backup-{i}.db"
            cli.ok("backup", str(target))
            backups.append(target)
    finally:
        for p in procs:
            _, err = p.communicate(timeout=240)
            assert p.returncode == 0, err[-2000:]
    for target in backups:
        other.ok("restore", str(target), "--yes")
        assert other.ok("check").code == 0
        with closing(sqlite3.connect(other.home / "brain.db")) as conn:
            count = conn.execute("SELECT COUNT(*) FROM entities").fetchone()[0]
        assert 0 <= count <= 4 * 300 + 1
    # The last backup after the writers finished holds all of it.
    final = tmp_path / "final.db"
    cli.ok("backup", str(final))
    other.ok("restore", str(final), "--yes")
    assert tables(other.home)["entities"] == tables(cli.home)["entities"]
    assert (other.home / "brain.db.before-restore").is_file()


def test_restore_refuses_what_is_not_a_brain_and_keeps_the_brain(
    cli: BrainCli, tmp_path: Path
) -> None:
    cli.ok("add", "Person", "Ada")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    result = cli("restore", str(junk), "--yes")
    assert result.code == 2 and "not a usable database" in result.err
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    result = cli("restore", str(empty), "--yes")
    assert result.code == 2 and "not a brainbridge backup" in result.err
    assert "Ada" in cli.ok("show", "Ada").out


def test_check_finds_a_damaged_text_index_and_repair_rebuilds_it(cli: BrainCli) -> None:
    for name in ("Ada", "Grace", "Edsger"):
        cli.ok("add", "Person", name, "-d", f"{name} wrote programs")
    assert cli.ok("check").code == 0
    with closing(sqlite3.connect(cli.home / "brain.db")) as conn:
        conn.execute("DELETE FROM entities_fts WHERE rowid = (SELECT MIN(rowid) FROM entities_fts)")
        conn.commit()
    damaged = cli("check", "--json")
    assert damaged.code == 1
    failed = [c["check"] for c in damaged.json()["checks"] if not c["ok"]]
    assert failed == ["entities_fts matches the entities"]
    repaired = cli.ok("check", "--repair", "--json").json()
    assert repaired["repaired"] and all(c["ok"] for c in repaired["checks"])
    with closing(sqlite3.connect(cli.home / "brain.db")) as conn:
        hits = conn.execute("SELECT COUNT(*) FROM entities_fts WHERE entities_fts MATCH 'programs'")
        assert hits.fetchone()[0] == 3


def test_check_and_backup_of_a_missing_brain_say_so_and_create_nothing(
    tmp_path: Path,
) -> None:
    home = tmp_path / "nowhere"
    cli = BrainCli(home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing"))
    for args in (("check",), ("backup", str(tmp_path / "b.db"))):
        result = cli(*args)
        assert result.code == 3 and "no brain database" in result.err
    assert not home.exists()


def test_read_only_commands_on_a_missing_brain_say_so_and_create_nothing(
    tmp_path: Path,
) -> None:
    """A mistyped folder is no empty brain: each reading command says there is no brain
    there and how to make one, in one line, exit 3 (#35)."""
    home = tmp_path / "nowhere"
    cli = BrainCli(home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing"))
    for args in (
        ("search", "Ada"),
        ("recall", "Ada"),
        ("stats",),
        ("sessions",),
        ("export",),
        ("types",),
        ("merges",),
        ("directives", "show"),
        ("directives", "list"),
        ("context", str(tmp_path)),
    ):
        result = cli(*args)
        assert result.code == 3, (args, result.err)
        assert f"no brain at {home}" in result.err and f"brain --brain {home} init" in result.err
        assert len(result.err.strip().splitlines()) == 1, result.err
    assert cli("show", "Ada").code == 3
    assert not home.exists()
