"""`kill -9` at random moments during import, index, observe (the Stop hook's drainer) and
curate: after every kill the brain passes `brain check`, and running the job again ends
with exactly what one clean run stores: nothing lost, nothing twice.

Each test first rehearses the job on a scratch brain to learn how long it runs, then kills
it at random moments inside that span."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from brainbridge.hooks.spool import append, turn_record
from reliability.rig import HOOKS, Rig, entity_lines

DRAIN = [*HOOKS, "drain"]


def _rounds(soak: bool) -> int:
    return 12 if soak else 3


def _turns(session: str, first: int, count: int) -> list[dict[str, Any]]:
    records = []
    for i in range(first, first + count):
        rec = turn_record(
            {
                "session_id": session,
                "prompt": f"Turn {i}: we decided the Vega launch moves to week {i} of the plan",
                "last_assistant_message": f"Noted: the Vega launch is now in week {i}.",
                "cwd": "/home/dev/src/app",
            }
        )
        assert rec is not None
        records.append(rec)
    return records


def _spool(home: Path, records: list[dict[str, Any]]) -> None:
    for rec in records:
        append(home, rec)


def _import_file(folder: Path, prefix: str, count: int) -> Path:
    """Entities `{prefix}-{i}` and a relation from every tenth to the one before it."""
    relations = "".join(
        json.dumps(
            {
                "kind": "relation",
                "type": "follows",
                "src": {"type": "Topic", "name": f"{prefix}-{i}"},
                "dst": {"type": "Topic", "name": f"{prefix}-{i - 1}"},
            }
        )
        + "\n"
        for i in range(1, count, 10)
    )
    path = folder / f"{prefix}.jsonl"
    path.write_text(entity_lines(prefix, count) + relations)
    return path


def test_import_killed_at_random_then_run_again_stores_each_line_once(
    rig: Rig, tmp_path: Path, soak: bool
) -> None:
    # Each round kills the import of a new file, so every kill lands mid-way (an import
    # of lines already stored is quicker than the rehearsal).
    count, rounds = (20_000 if soak else 5_000), _rounds(soak)
    files = [_import_file(tmp_path, f"t{r}", count) for r in range(rounds)]
    took = rig.timed(rig.argv("import", str(files[0])), tmp_path / "rehearsal")
    rng = random.Random(20)
    rig.brain("init")
    for path in files:
        rig.kill_during(rig.argv("import", str(path)), rng, took * 0.3, took * 0.95)
        rig.check()
        rig.figures.operations += 1
    for _ in range(2):  # the first run finishes each file, the second stores nothing new
        for path in files:
            rig.brain("import", str(path))
            rig.figures.operations += 1
    rig.check()

    assert rig.figures.kills >= 1
    names = rig.names("Topic")
    want = {f"t{r}-{i}" for r in range(rounds) for i in range(count)}
    rig.figures.lost = len(want - names)
    assert names == want
    [(edges,)] = rig.rows("SELECT count(*) FROM relations")
    assert edges == rounds * len(range(1, count, 10))


def test_index_killed_at_random_then_run_again_gives_every_entity_one_vector(
    rig: Rig, tmp_path: Path, soak: bool
) -> None:
    # A new batch waits for vectors before each kill, so every run has enough left to do.
    count, rounds = (6_000 if soak else 1_500), _rounds(soak)
    rehearsal = tmp_path / "rehearsal"
    no_vectors = {"BRAIN_EMBEDDER": "none"}
    batches = [tmp_path / f"v{r}.jsonl" for r in range(rounds)]
    for r, path in enumerate(batches):
        path.write_text(entity_lines(f"v{r}", count))
    rig.run(rig.argv("import", str(batches[0])), env={**no_vectors, "BRAIN_HOME": str(rehearsal)})
    rig.env["BRAIN_EMBEDDER"] = "minilm"  # the real model: slow enough for a kill mid-way
    took = rig.timed(rig.argv("index"), rehearsal)
    rng = random.Random(21)
    for path in batches:
        rig.brain("import", str(path), env=no_vectors)
        rig.kill_during(rig.argv("index"), rng, took * 0.3, took * 0.95)
        rig.check()
        rig.figures.operations += 1
    rig.brain("index")
    rig.figures.operations += 1
    rig.check()

    assert rig.figures.kills >= 1
    [(entities, vectors)] = rig.rows(
        "SELECT (SELECT count(*) FROM entities), (SELECT count(*) FROM vectors)"
    )
    rig.figures.lost = entities - vectors
    assert entities == count * rounds and vectors == entities
    assert json.loads(rig.brain("stats", "--json"))["pending_vectors"] == 0


def test_drainer_killed_at_random_then_run_again_stores_each_turn_once(
    rig: Rig, tmp_path: Path, soak: bool
) -> None:
    batch = 60 if soak else 25
    rehearsal = tmp_path / "rehearsal"
    rig.run(rig.argv("init"), env={"BRAIN_HOME": str(rehearsal)})
    _spool(rehearsal, _turns("rehearsal", 0, batch))
    took = rig.timed(DRAIN, rehearsal)
    rig.brain("init")
    rng = random.Random(22)
    spooled: list[dict[str, Any]] = []
    for r in range(_rounds(soak)):
        records = _turns(f"sess-{r % 2}", r * batch, batch)
        _spool(rig.home, records)
        spooled += records
        rig.kill_during(DRAIN, rng, took * 0.3, took * 0.95)
        rig.check()
        rig.figures.operations += 1
    rig.run(DRAIN)
    _spool(rig.home, spooled)  # every turn spooled again (replayed Stops): stored once
    rig.run(DRAIN)
    rig.figures.operations += len(spooled) * 2
    rig.check()

    assert rig.figures.kills >= 1
    stored = [
        key
        for (key,) in rig.rows(
            "SELECT json_extract(attributes, '$.turn_key') FROM entities"
            " WHERE type = 'Chat_Exchange'"
        )
    ]
    rig.figures.lost = len({r["key"] for r in spooled} - set(stored))
    twice = rig.rows(
        "SELECT name, json_extract(attributes, '$.turn_key'), created_at FROM entities"
        " WHERE type = 'Chat_Exchange' AND json_extract(attributes, '$.turn_key') IN"
        " (SELECT json_extract(attributes, '$.turn_key') FROM entities"
        "  WHERE type = 'Chat_Exchange' GROUP BY 1 HAVING count(*) > 1)"
    )
    assert twice == []
    assert len(stored) == len(set(stored)) == len(spooled)


def test_curate_killed_at_random_then_run_again_titles_the_session(
    rig: Rig, tmp_path: Path, soak: bool
) -> None:
    session = "kitchen-quotes"
    records = []
    for i in range(40):
        rec = turn_record(
            {
                "session_id": session,
                "prompt": f"Quote {i}: Baker & Sons asked {18 + i % 5}k for the kitchen; "
                "we need to sign the contract by Thursday",
                "last_assistant_message": "Baker & Sons is the cheapest that includes plumbing.",
            }
        )
        assert rec is not None
        records.append(rec)
    rehearsal = tmp_path / "rehearsal"
    for home in (rehearsal, rig.home):
        rig.run(rig.argv("init"), env={"BRAIN_HOME": str(home)})
        _spool(home, records)
        rig.run(DRAIN, env={"BRAIN_HOME": str(home)})
    took = rig.timed(rig.argv("curate", session, "--local"), rehearsal)
    rng = random.Random(23)
    for _ in range(_rounds(soak)):
        rig.kill_during(rig.argv("curate", session, "--local"), rng, took * 0.3, took * 0.95)
        rig.check()
        rig.figures.operations += 1
    result = json.loads(rig.brain("curate", session, "--local", "--json"))
    rig.figures.operations += 1
    rig.check()

    assert rig.figures.kills >= 1
    [row] = [s for s in json.loads(rig.brain("sessions", "--json")) if s["id"] == session]
    assert row["title"] and row["summary"] and row["title"] == result["title"]
    [(exchanges,)] = rig.rows("SELECT count(*) FROM entities WHERE type = 'Chat_Exchange'")
    rig.figures.lost = len(records) - exchanges
    assert exchanges == len(records)
