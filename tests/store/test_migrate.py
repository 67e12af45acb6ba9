"""`brain migrate`: a personal brain file into PostgreSQL and back, nothing lost or changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.store.postgres.embedded import EmbeddedServer
from cli.runner import BrainCli, clean_env


async def _personal_brain(folder: Path) -> None:
    """A file brain holding every kind of record an export carries."""
    brain = await Brain.open(folder, embedder="hashing", database_url="")
    try:
        await brain.upsert_entity("Person", "Jessica Moreno", {"aliases": ["Jess"]}, "my manager")
        await brain.upsert_entity("Person", "Oskar Lindqvist", description="runs the Oslo office")
        await brain.upsert_entity("Person", "Oscar Lindqvist", {"team": "infra"})
        await brain.merge(("Person", "Oskar Lindqvist"), ("Person", "Oscar Lindqvist"))
        await brain.upsert_entity("Project", "Atlas", description="the campus map, due in May")
        await brain.relate("Jessica Moreno", "owns", "Atlas")
        await brain.upsert_entity(
            "Fact", "User's home: Austin", {"subject": "User", "valid_from": "2026-01-20"}
        )
        await brain.invalidate(("Fact", "User's home: Austin"), on="2026-08-01", by="s1:ex:2")
        bridge = Bridge(brain)
        await bridge.observe_now(
            "s1", 1, "When is the Atlas map due? I keep forgetting", "In May, Jessica said."
        )
        await bridge.drain()
        assert await brain.wait_for_vectors(30)
    finally:
        await brain.close()


def _records(cli: BrainCli, env: dict[str, str]) -> list[dict[str, Any]]:
    """The brain's export, every line, without surrogate ids (a copy numbers rows anew)."""
    out = cli.ok("export", "--vectors", env=env).out
    rows = []
    for line in out.splitlines():
        row = json.loads(line)
        row.pop("id", None)
        rows.append(row)
    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))


async def test_a_file_brain_moves_to_postgres_and_back_exactly(
    tmp_path: Path, pg_server: EmbeddedServer
) -> None:
    home = tmp_path / "brain"
    await _personal_brain(home)
    cli = BrainCli(home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing"))
    on_file = _records(cli, {})
    assert {r["kind"] for r in on_file} >= {"entity", "relation", "merge", "session", "vector"}

    with pg_server.fresh_database() as url:
        moved = cli.ok("migrate", "--to", url, "--json").json()
        assert moved["matches"] is True
        assert moved["records"]["vector"] == sum(r["kind"] == "vector" for r in on_file)
        in_postgres = {"BRAIN_DATABASE_URL": url}
        assert _records(cli, in_postgres) == on_file
        found = cli.ok("search", "campus map", "--json", env=in_postgres).json()
        ranked = [(h["name"], h["score"], h["retrievers"]) for h in found["results"]]
        assert ranked[:1] and ranked[0][0] == "Atlas", ranked  # the whole ranking if not
        again = cli.ok("migrate", "--to", url, "--json").json()  # re-running adds nothing
        assert again["records"] == moved["records"]

        back = tmp_path / "back"
        cli.ok("migrate", "--to", str(back), env=in_postgres)
        assert _records(cli, {"BRAIN_HOME": str(back)}) == on_file

    refused = cli("migrate", "--to", str(home))
    assert refused.code != 0 and "this brain itself" in refused.err


def test_init_with_a_database_url_puts_every_command_on_that_database(
    tmp_path: Path, pg_server: EmbeddedServer
) -> None:
    home = tmp_path / "team-brain"
    cli = BrainCli(home, clean_env(BRAIN_HOME=str(home), BRAIN_EMBEDDER="hashing"))
    with pg_server.fresh_database() as url:
        cli.ok("init", "--database-url", url)
        assert f"url = {json.dumps(url)}" in (home / "config.toml").read_text()
        cli.ok("add", "Project", "Atlas", "-d", "the campus map, due in May")
        stats = cli.ok("stats", "--json").json()
        assert stats["database"].startswith("postgresql://") and stats["entities"] == 1
        assert not (home / "brain.db").exists()
        refused = cli("backup", str(tmp_path / "copy.db"))
        assert refused.code != 0 and "brain file" in refused.err
    gone = cli("search", "campus")  # the database was dropped: one clear line, no traceback
    assert gone.code != 0 and "cannot open the brain's database" in gone.err
