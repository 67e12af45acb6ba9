"""`brain demo`: a sample brain loaded, searched and recalled, offline, in one command."""

from __future__ import annotations

from pathlib import Path

from cli.runner import BrainCli, clean_env


def test_demo_loads_the_sample_and_shows_searches_and_a_recall(
    cli: BrainCli, tmp_path: Path
) -> None:
    folder = tmp_path / "demo"
    result = cli.ok("demo", str(folder), env={"COLUMNS": "160"})  # names unfolded in tables
    assert f"Demo brain at {folder}" in result.out
    assert "Loaded 23 entities, 15 past chat exchanges" in result.out
    for expected in ("Offline sync conflicts", "Acme Freight", "Q4 Board Update", "Recall for"):
        assert expected in result.out, expected
    assert "bm25" in result.out and "vector" in result.out
    assert f"brain --brain {folder} search" in result.out

    stats = cli.ok("--brain", str(folder), "stats", "--json").json()
    assert stats["entities_by_type"]["Chat_Exchange"] == 15
    assert stats["entities_by_type"]["Person"] == 6
    assert stats["pending_vectors"] == 0 and stats["relations"] > 30


def test_demo_exchanges_have_the_bridge_shape(cli: BrainCli, tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    cli.ok("demo", str(folder), "--json")
    shown = cli.ok("--brain", str(folder), "show", "8b2d6e40:ex:1", "--json").json()
    ex = shown["entity"]
    assert ex["type"] == "Chat_Exchange"
    attrs = ex["attributes"]
    assert attrs["session_id"].startswith("8b2d6e40") and attrs["exchange_number"] == 1
    assert ex["description"] == (
        f"User: {attrs['user_message'][:300]} | AI: {attrs['ai_response'][:500]}"
    )
    assert {n["name"] for n in shown["nodes"]} >= {"Offline sync conflicts", "Acme Freight"}


def test_demo_json_and_a_second_run_in_the_same_folder(cli: BrainCli, tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    first = cli.ok("demo", str(folder), "--json").json()
    assert first["loaded"] == {"entities": 23, "exchanges": 15, "relations": 49, "vectors": 38}
    assert first["embedder"] == "hashing"
    assert len(first["searches"]) == 3
    assert all(s["results"] for s in first["searches"])
    assert first["recall"]["count"] > 0
    # The bridge on one message of each kind, with the local judge (no LLM).
    judged = {b["message"]: b for b in first["bridge"]}
    assert [b["judgment"] for b in first["bridge"]] == ["enrich", "step_back", "pass_through"]
    block = judged["Drivers still lose stops after syncing, any new ideas?"]["block"]
    assert block.startswith("## Brain Context") and "Offline sync conflicts" in block
    assert all(b["reasons"] for b in first["bridge"])
    again = cli.ok("demo", str(folder), "--json").json()
    assert again["loaded"]["vectors"] == 0  # nothing new to embed
    stats = cli.ok("--brain", str(folder), "stats", "--json").json()
    assert stats["entities"] == 38


def test_demo_without_a_folder_cleans_up_after_itself(cli: BrainCli, tmp_path: Path) -> None:
    """Each run used to leave a brain-demo-* folder behind; now it is gone unless kept (#35)."""
    result = cli.ok("demo", "--json").json()
    folder = Path(result["path"])
    assert folder.parent == tmp_path and folder.name.startswith("brain-demo-")
    assert result["kept"] is False and not folder.exists()
    assert not cli.home.exists()  # the user's own brain is never touched
    text = cli.ok("demo").out
    assert "brain demo --keep" in text and "Try your own questions" not in text
    assert not list(tmp_path.glob("brain-demo-*"))


def test_demo_keep_leaves_the_brain_to_try(cli: BrainCli, tmp_path: Path) -> None:
    result = cli.ok("demo", "--keep", "--json").json()
    folder = Path(result["path"])
    assert result["kept"] is True and (folder / "brain.db").is_file()
    assert cli.ok("--brain", str(folder), "show", "Maya Chen").code == 0


def test_demo_refuses_a_folder_holding_another_brain(cli: BrainCli) -> None:
    cli.ok("add", "Person", "Ada")
    result = cli("demo", str(cli.home))
    assert result.code == 2 and "already holds a brain with 1 entities" in result.err
    assert cli.ok("stats", "--json").json()["entities"] == 1


def test_demo_with_the_default_local_model(tmp_path: Path) -> None:
    env = clean_env(BRAIN_HOME=str(tmp_path / "home"), TMPDIR=str(tmp_path))
    cli = BrainCli(tmp_path / "home", env)
    result = cli.ok("demo", str(tmp_path / "demo"))
    assert "with minilm-l6-int8" in result.out
    assert "vector" in result.out
    found = cli.ok(
        "--brain", str(tmp_path / "demo"), "search", "who designs the driver app", "--json"
    )
    top = found.json()["results"][0]
    assert top["name"] == "Jonas Weber" and "vector" in top["retrievers"]
