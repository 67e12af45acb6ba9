"""`brain hooks install|uninstall`: merge into Claude Code's settings, never clobber."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from api.seed import seed_folder
from api.served import serve_env
from cli.runner import COMMAND
from hooks.conftest import fresh_session, prompt_payload

THEIRS: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test:*)"]},
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check-bash.sh"}]}
        ],
        "UserPromptSubmit": [
            {
                "hooks": [
                    {"type": "command", "command": "log-prompt", "timeout": 5},
                    {"type": "command", "command": "/old/venv/bin/brain hook prompt"},
                ]
            }
        ],
    },
}


def brain(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**serve_env(cwd / "brain-home"), **(env or {})},
    )


def commands(settings: dict[str, Any], event: str) -> list[str]:
    return [h["command"] for g in settings["hooks"].get(event, []) for h in g["hooks"]]


def test_project_install_merges_is_idempotent_and_uninstalls_only_ours(tmp_path: Path) -> None:
    file = tmp_path / ".claude" / "settings.json"
    file.parent.mkdir()
    file.write_text(json.dumps(THEIRS, indent=4))

    for _ in range(2):
        r = brain("hooks", "install", "--project", cwd=tmp_path)
        assert r.returncode == 0 and str(file) in r.stdout
    settings = json.loads(file.read_text())
    assert settings["model"] == "opus" and settings["permissions"] == THEIRS["permissions"]
    assert commands(settings, "PreToolUse") == ["./check-bash.sh"]
    prompt = commands(settings, "UserPromptSubmit")
    assert prompt[0] == "log-prompt"  # theirs kept, our old copy replaced, not duplicated
    assert len([c for c in prompt if c.endswith("prompt") and "brain" in c]) == 1
    assert commands(settings, "Stop")[0] == "notify-send done"
    assert len(commands(settings, "Stop")) == 2 and len(commands(settings, "SessionStart")) == 1
    ours_stop = settings["hooks"]["Stop"][1]["hooks"][0]
    # Synchronous: `claude -p` kills async hooks; ours only spools the turn and returns.
    assert "async" not in ours_stop and ours_stop["timeout"] == 10
    assert settings["hooks"]["SessionStart"][0]["matcher"] == "startup|resume|clear|compact"

    r = brain("hooks", "uninstall", "--project", cwd=tmp_path)
    assert r.returncode == 0
    after = json.loads(file.read_text())
    assert after["hooks"]["Stop"] == THEIRS["hooks"]["Stop"]
    assert after["hooks"]["PreToolUse"] == THEIRS["hooks"]["PreToolUse"]
    assert after["hooks"]["UserPromptSubmit"] == [
        {"hooks": [{"type": "command", "command": "log-prompt", "timeout": 5}]}
    ]
    assert "SessionStart" not in after["hooks"]


def test_installed_command_is_what_claude_code_can_run(tmp_path: Path) -> None:
    """Run the command string exactly as written into settings.json, through a shell, from
    an environment that knows nothing of the brain: the command pins it."""
    home = seed_folder(tmp_path / "brain-home", with_session=False)
    assert brain("hooks", "install", cwd=tmp_path).returncode == 0
    settings = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    (command,) = commands(settings, "UserPromptSubmit")
    assert command.startswith(f"BRAIN_HOME={home.resolve()} ")
    payload = prompt_payload(
        "What did Acme Robotics agree to sponsor this spring?", fresh_session()
    )
    proc = subprocess.run(
        command,
        shell=True,
        input=json.dumps(payload).encode(),
        capture_output=True,
        timeout=10,
        env={**{k: v for k, v in serve_env(home).items() if k != "BRAIN_HOME"}, "HOME": "/nowhere"},
        cwd=tmp_path,
    )
    assert proc.returncode == 0
    out = json.loads(proc.stdout)
    assert "Acme Robotics" in out["hookSpecificOutput"]["additionalContext"]


def test_portable_install_names_no_path_of_this_machine(tmp_path: Path) -> None:
    r = brain("hooks", "install", "--project", "--portable", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    settings = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    assert commands(settings, "UserPromptSubmit") == ["brain hook prompt"]
    assert commands(settings, "Stop") == ["brain hook stop"]
    assert "claude mcp add --scope project brain -- brain mcp" in r.stdout
    # Installing again without --portable replaces ours rather than adding a second copy.
    assert brain("hooks", "install", "--project", cwd=tmp_path).returncode == 0
    settings = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    (command,) = commands(settings, "UserPromptSubmit")
    assert "-m brainbridge.hooks prompt" in command


def test_user_install_honours_claude_config_dir(tmp_path: Path) -> None:
    config = tmp_path / "claude-config"
    fake_home = tmp_path / "home"
    fake_home.mkdir()
    env = {"CLAUDE_CONFIG_DIR": str(config), "HOME": str(fake_home)}
    r = brain("hooks", "install", "--user", cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr
    settings = json.loads((config / "settings.json").read_text())
    assert commands(settings, "UserPromptSubmit") and commands(settings, "SessionStart")
    assert not (fake_home / ".claude").exists() and not (tmp_path / ".claude").exists()
    assert brain("hooks", "uninstall", "--user", cwd=tmp_path, env=env).returncode == 0
    assert json.loads((config / "settings.json").read_text()) == {}


def test_invalid_settings_give_a_clear_error_and_stay_untouched(tmp_path: Path) -> None:
    file = tmp_path / ".claude" / "settings.json"
    file.parent.mkdir()
    for bad in (b'{"hooks": {,}}', b"[1, 2]", b'{"hooks": []}', b'{"hooks": {"Stop": {}}}'):
        file.write_bytes(bad)
        for action in ("install", "uninstall"):
            r = brain("hooks", action, cwd=tmp_path)
            assert r.returncode != 0, bad
            assert str(file) in r.stderr and "nothing was changed" in r.stderr
            assert "Traceback" not in r.stderr
            assert file.read_bytes() == bad


def test_install_writes_through_a_symlink(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text(json.dumps({"model": "opus"}))
    link = tmp_path / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    assert brain("hooks", "install", cwd=tmp_path).returncode == 0
    assert link.is_symlink()
    assert json.loads(dotfiles.read_text())["model"] == "opus"
    assert commands(json.loads(dotfiles.read_text()), "Stop")


def test_uninstall_without_our_hooks_leaves_the_file_alone(tmp_path: Path) -> None:
    file = tmp_path / ".claude" / "settings.json"
    file.parent.mkdir()
    original = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}'
    file.write_text(original)
    assert brain("hooks", "uninstall", cwd=tmp_path).returncode == 0
    assert file.read_text() == original
