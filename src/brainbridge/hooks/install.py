"""Adding our hooks to Claude Code's settings.json, and taking only ours out again."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from brainbridge.errors import InvalidInput

MARKER = " hook "  # every command of ours is "<brain executable> hook <kind>"


def brain_command() -> str:
    """How Claude Code should start `brain`: the executable on PATH, else this interpreter."""
    found = shutil.which("brain")
    if found:
        return found
    return f"{sys.executable} -m brainbridge.cli.main"


def our_hooks(command: str) -> dict[str, list[dict[str, Any]]]:
    return {
        "SessionStart": [
            {
                "matcher": "startup|resume|clear|compact",
                "hooks": [
                    {"type": "command", "command": f"{command} hook session-start", "timeout": 10}
                ],
            }
        ],
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": f"{command} hook prompt", "timeout": 10}]}
        ],
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": f"{command} hook stop",
                        "async": True,
                        "timeout": 120,
                    }
                ]
            }
        ],
    }


def settings_path(scope: str, cwd: Path | None = None) -> Path:
    if scope == "project":
        return (cwd or Path.cwd()) / ".claude" / "settings.json"
    if scope == "user":
        return (
            Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude") / "settings.json"
        )
    raise InvalidInput(f"scope must be 'project' or 'user', not {scope!r}")


def _load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text("utf-8") or "{}")
    except ValueError as exc:
        raise InvalidInput(
            f"{path} is not valid JSON ({exc}); fix it first, nothing was changed"
        ) from exc
    if not isinstance(data, dict):
        raise InvalidInput(f"{path} does not hold a JSON object; nothing was changed")
    return data


def _is_ours(hook: Any) -> bool:
    cmd = hook.get("command", "") if isinstance(hook, dict) else ""
    return MARKER in cmd and ("brain" in cmd.split(MARKER)[0])


def _strip(hooks: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for event, groups in hooks.items():
        kept = []
        for group in groups if isinstance(groups, list) else []:
            inner = (
                [h for h in group.get("hooks", []) if not _is_ours(h)]
                if isinstance(group, dict)
                else []
            )
            if inner:
                kept.append({**group, "hooks": inner})
            elif isinstance(group, dict) and not group.get("hooks"):
                kept.append(group)
        if kept:
            out[event] = kept
    return out


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    os.replace(tmp, path)


def install(scope: str = "project", cwd: Path | None = None, command: str | None = None) -> Path:
    """Merge our hooks into the settings file (replacing older copies of ours); return its path.

    Raises: InvalidInput if the existing file is not a JSON object.
    """
    path = settings_path(scope, cwd)
    data = _load(path)
    hooks = _strip(data.get("hooks") or {})
    for event, groups in our_hooks(command or brain_command()).items():
        hooks.setdefault(event, []).extend(groups)
    data["hooks"] = hooks
    _write(path, data)
    return path


def uninstall(scope: str = "project", cwd: Path | None = None) -> Path:
    """Remove only our hooks from the settings file; return its path.

    Raises: InvalidInput if the existing file is not a JSON object.
    """
    path = settings_path(scope, cwd)
    if not path.exists():
        return path
    data = _load(path)
    hooks = _strip(data.get("hooks") or {})
    if hooks:
        data["hooks"] = hooks
    else:
        data.pop("hooks", None)
    _write(path, data)
    return path
