"""`brain doctor` says whether memory is on in the current folder and which rule decides,
and lists brainbridge processes that outlived their work (issue #33)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from api.seed import seed_folder
from api.served import serve_env
from cli.runner import COMMAND


def doctor(cwd: Path, home: Path, **env: str) -> str:
    user = home.parent / "user"
    user.mkdir(exist_ok=True)
    proc = subprocess.run(
        [*COMMAND, "doctor"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=serve_env(home, HOME=str(user), CLAUDE_CONFIG_DIR=str(user / ".claude"), **env),
    )
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


def test_doctor_names_the_rule_that_turns_memory_off_here(tmp_path: Path) -> None:
    home = seed_folder(tmp_path / "brain", with_session=False)
    project = tmp_path / "src" / "app"
    (project / ".git").mkdir(parents=True)
    (project / "api").mkdir()
    assert f"ok      memory is on in {project}: no rule turns memory off here" in doctor(
        project, home
    )

    (project / ".brainignore").touch()
    out = doctor(project / "api", home)
    assert f"memory is off in {project / 'api'}: {project / '.brainignore'} turns memory off" in out
    assert f"→ rm {project / '.brainignore'}" in out
    (project / ".brainignore").unlink()

    (home / "config.toml").write_text(
        '[scope]\nmode = "opt-in"\nsubagents = false\nheadless = false\n', encoding="utf-8"
    )
    out = doctor(project, home)
    assert f'memory is off in {project}: [scope] mode = "opt-in"' in out
    assert "; off for subagents and headless runs" in out
    assert f"→ touch {project / '.brainremember'}" in out
    (project / ".brainremember").touch()
    assert f"memory is on in {project}: {project / '.brainremember'} turns memory on" in doctor(
        project, home
    )

    (home / "config.toml").write_text(f'[scope]\nexclude = ["{tmp_path}/src/*"]\n', "utf-8")
    out = doctor(project, home)
    assert f"memory is off in {project}: [scope] exclude = '{tmp_path}/src/*' matches" in out


def test_doctor_lists_a_process_whose_brain_folder_is_gone(tmp_path: Path) -> None:
    home = seed_folder(tmp_path / "gone-brain", with_session=False)
    # A real MCP server on that brain, its client still attached (stdin open).
    mcp = subprocess.Popen(
        [*COMMAND, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=serve_env(home),
    )
    try:
        other = seed_folder(tmp_path / "brain", with_session=False)
        assert f"pid {mcp.pid}" not in doctor(tmp_path, other)
        shutil.rmtree(home)
        out = doctor(tmp_path, other)
        assert (
            f"note    stray brainbridge MCP server (pid {mcp.pid}): its brain folder {home} is gone"
            in out
        )
        assert f"→ kill {mcp.pid}" in out
    finally:
        mcp.kill()
        mcp.wait()
        assert mcp.stdin is not None
        mcp.stdin.close()
