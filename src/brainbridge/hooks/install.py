"""Adding our hooks to Claude Code's settings.json, and taking only ours out again."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

from brainbridge.errors import InvalidInput

ENTRY = "-m brainbridge.hooks"
# Ours: "<python> -m brainbridge.hooks KIND", or "<…brain> hook KIND" as written by hand
# or by earlier versions.
_OURS = re.compile(
    r"-m brainbridge\.hooks\s"
    r"|(?:(?:^|[/\\\s\"'])brain(?:\.exe)?|brainbridge\.cli\.main)[\"']?\s(?:.*\s)?"
    r"hook\s+(?:session-start|prompt|stop|tool|pre-compact)\b"
)
PROMPT_TIMEOUT = 10
# Synchronous: `claude -p` kills async hooks at exit. It only spools the turn and starts a
# detached drainer (hooks/spool.py), which is what the client waits for.
STOP_TIMEOUT = 10
# Each tool call (PostToolUse, PostToolUseFailure for a failed one) and a compaction only
# spool what they saw (hooks/observe.py): synchronous too, and safe if made async.
TOOL_TIMEOUT = 10


PORTABLE = "brain hook"


def hook_command(home: Path | None = None, portable: bool = False) -> str:
    """How Claude Code should start our hooks.

    By default: this interpreter with the lean hook entry (`python -m brainbridge.hooks`
    starts faster than the `brain` command, and an absolute path works whatever PATH
    Claude Code runs with), with `BRAIN_HOME` set to `home` when given, so a Claude Code
    started from another environment still uses this brain. `portable`: `brain hook`,
    for project settings that are committed and run on other machines (each finds
    `brain` on its PATH and its own brain folder).
    """
    if portable:
        return PORTABLE
    command = f"{shlex.quote(sys.executable)} {ENTRY}"
    return f"BRAIN_HOME={shlex.quote(str(home))} {command}" if home else command


def mcp_add_command(scope: str, home: Path | None) -> str:
    """The `claude mcp add` line for this install's `brain mcp`, pinned to `home` (None: the
    portable form, `brain` from PATH on the brain of $BRAIN_HOME or ~/.brain)."""
    if home is None:
        return f"claude mcp add --scope {scope} brain -- brain mcp"
    brain = shlex.quote(str(Path(sys.executable).with_name("brain")))
    return f"claude mcp add --scope {scope} brain -e BRAIN_HOME={shlex.quote(str(home))} -- {brain} mcp"


def our_hooks(command: str) -> dict[str, list[dict[str, Any]]]:
    """The settings.json `hooks` entries: SessionStart, UserPromptSubmit, Stop, the tool
    calls (PostToolUse, PostToolUseFailure) and PreCompact."""
    tool = [{"type": "command", "command": f"{command} tool", "timeout": TOOL_TIMEOUT}]
    return {
        "SessionStart": [
            {
                "matcher": "startup|resume|clear|compact",
                "hooks": [
                    {
                        "type": "command",
                        "command": f"{command} session-start",
                        "timeout": PROMPT_TIMEOUT,
                    }
                ],
            }
        ],
        "UserPromptSubmit": [
            {
                "hooks": [
                    {"type": "command", "command": f"{command} prompt", "timeout": PROMPT_TIMEOUT}
                ]
            }
        ],
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": f"{command} stop",
                        "timeout": STOP_TIMEOUT,
                    }
                ]
            }
        ],
        "PostToolUse": [{"matcher": "*", "hooks": tool}],
        "PostToolUseFailure": [{"matcher": "*", "hooks": [dict(h) for h in tool]}],
        "PreCompact": [
            {
                "matcher": "manual|auto",
                "hooks": [
                    {
                        "type": "command",
                        "command": f"{command} pre-compact",
                        "timeout": STOP_TIMEOUT,
                    }
                ],
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


def read_settings(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text("utf-8-sig") or "{}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidInput(
            f"{path} is not valid JSON ({exc}); fix it first, nothing was changed"
        ) from exc
    if not isinstance(data, dict):
        raise InvalidInput(f"{path} does not hold a JSON object; nothing was changed")
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise InvalidInput(f'{path}: "hooks" is not a JSON object; nothing was changed')
    for event, groups in (hooks or {}).items():
        if not isinstance(groups, list):
            raise InvalidInput(f"{path}: hooks.{event} is not a list; nothing was changed")
    return data


def is_ours(hook: Any) -> bool:
    cmd = hook.get("command", "") if isinstance(hook, dict) else ""
    return isinstance(cmd, str) and _OURS.search(cmd + " ") is not None


def _strip(hooks: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """`hooks` without our commands; groups left empty by that go, anything else stays."""
    out: dict[str, list[Any]] = {}
    for event, groups in hooks.items():
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(is_ours(h) for h in inner):
                kept.append(group)
                continue
            remaining = [h for h in inner if not is_ours(h)]
            if remaining:
                kept.append({**group, "hooks": remaining})
        if kept or not groups:
            out[event] = kept
    return out


def _write(path: Path, data: dict[str, Any]) -> None:
    # Settings are often symlinks into a dotfiles repository: write through the link.
    target = path.resolve() if path.is_symlink() else path
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    os.replace(tmp, target)


def install(scope: str = "project", cwd: Path | None = None, command: str | None = None) -> Path:
    """Merge our hooks into the settings file (replacing older copies of ours); return its path.

    `command` is what `hook_command` returns (default: this interpreter, unpinned).
    Raises: InvalidInput if the existing file is not valid JSON of the expected shape
    (the file is left untouched).
    """
    path = settings_path(scope, cwd)
    data = read_settings(path)
    hooks = _strip(data.get("hooks") or {})
    for event, groups in our_hooks(command or hook_command()).items():
        hooks.setdefault(event, []).extend(groups)
    data["hooks"] = hooks
    _write(path, data)
    return path


def uninstall(scope: str = "project", cwd: Path | None = None) -> Path:
    """Remove only our hooks from the settings file; return its path.

    Raises: InvalidInput if the existing file is not valid JSON of the expected shape.
    """
    path = settings_path(scope, cwd)
    if not path.exists():
        return path
    data = read_settings(path)
    before = data.get("hooks")
    if not before:
        return path
    hooks = _strip(before)
    if hooks == before:
        return path
    if hooks:
        data["hooks"] = hooks
    else:
        data.pop("hooks", None)
    _write(path, data)
    return path
