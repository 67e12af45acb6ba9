"""`privacy.scope_for`: which rule decides whether memory is on in a folder (issue #33)."""

from __future__ import annotations

from pathlib import Path

from brainbridge.privacy import memory_off, scope_for


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / "pkg" / "deep").mkdir(parents=True)
    return root


def test_a_brainignore_above_the_project_counts_up_to_the_home_folder(tmp_path: Path) -> None:
    home = tmp_path / "me"
    project = _project(home / "clients" / "acme")
    env = {"HOME": str(home)}
    assert memory_off(str(project / "pkg"), {}, env, {}) is None
    (home / "clients" / ".brainignore").touch()
    assert "clients/.brainignore" in (memory_off(str(project / "pkg" / "deep"), {}, env, {}) or "")
    (home / "clients" / ".brainignore").unlink()
    (tmp_path / ".brainignore").touch()  # above the home folder: not looked at
    assert memory_off(str(project), {}, env, {}) is None


def test_exclude_globs_match_the_project_root_or_a_folder_above(tmp_path: Path) -> None:
    project = _project(tmp_path / "work" / "client-x")
    env = {"HOME": str(tmp_path)}
    for glob in (f"{tmp_path}/work/client-*", f"{tmp_path}/work", "~/work/*"):
        scope = scope_for(project / "pkg", {}, env, {"scope": {"exclude": [glob]}})
        assert not scope.on and glob in scope.reason, glob
    kept = scope_for(project, {}, env, {"scope": {"exclude": [f"{tmp_path}/other/*"]}})
    assert kept.on


def test_switches_need_both_the_signal_and_the_setting(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    sub = {"agent_id": "a1", "agent_type": "Explore"}
    headless = {"HOME": str(tmp_path), "CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}
    tty = {"HOME": str(tmp_path), "CLAUDE_CODE_ENTRYPOINT": "cli"}
    off = {"scope": {"subagents": False, "headless": False}}
    assert scope_for(project, sub, tty, {}).on
    assert "subagent" in scope_for(project, sub, tty, off).reason
    assert not scope_for(project, sub, tty, off).on
    assert scope_for(project, {"agent_type": "reviewer"}, tty, off).on  # --agent main thread
    assert "headless" in scope_for(project, {}, headless, off).reason
    assert scope_for(project, {}, tty, off).on


def test_opt_in_mode(tmp_path: Path) -> None:
    project = _project(tmp_path / "p")
    env = {"HOME": str(tmp_path)}
    config = {"scope": {"mode": "opt-in"}}
    assert not scope_for(project, {}, env, config).on
    config["scope"]["include"] = [str(project)]
    assert scope_for(project / "pkg", {}, env, config).on
    del config["scope"]["include"]
    (project / ".brainremember").touch()
    assert scope_for(project / "pkg", {}, env, config).on
    (project / ".brainignore").touch()  # opting out wins
    assert not scope_for(project / "pkg", {}, env, config).on
