"""`<private>…</private>`: what the user marks private never reaches the brain.

The tags are removed, with what they hold, by the redactor (`redact.redact`), the one
door every stored, spooled, logged or exported text goes through, so no adapter needs
its own call.

Where memory is on at all (`scope_for`, `memory_off`): a `.brainignore` file, the
`[scope]` table of config.toml (exclude globs, opt-in mode, subagents, headless runs).
Standard library only: the hooks run this on their cold path.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_TAG = re.compile(r"<(/?)private\b[^<>]{0,200}>", re.I)
# What stands where a private part was: the words around it must not run together.
GAP = " "


def strip_private(text: str) -> str:
    """`text` without its `<private>` parts. Tags nest; an unclosed one hides everything
    after it (better to keep too little than to keep a secret); a stray closing tag is
    dropped."""
    if "<" not in text or "private" not in text.lower():
        return text
    out: list[str] = []
    depth = 0
    kept_from = 0
    for m in _TAG.finditer(text):
        closing = bool(m.group(1))
        if depth == 0:
            out.append(text[kept_from : m.start()])
            kept_from = m.end()
            if closing:
                continue  # a stray closing tag
            out.append(GAP)
            depth = 1
        elif closing:
            depth -= 1
            kept_from = m.end()
        else:
            depth += 1
    if depth == 0:
        out.append(text[kept_from:])
    return "".join(out)


# ---- Where memory is on: per-project opt-out / opt-in, subagents, headless runs ----

IGNORE_FILE = ".brainignore"  # memory off in this folder and below
REMEMBER_FILE = ".brainremember"  # memory on here when `[scope] mode = "opt-in"`
# Claude Code sets CLAUDE_CODE_ENTRYPOINT in its hooks' environment: "cli" in a terminal,
# "sdk-cli" for `claude -p`, "sdk-py" / "sdk-ts" under the Agent SDK (2.1.x).
HEADLESS_ENTRYPOINTS = frozenset({"sdk-cli", "sdk-py", "sdk-ts"})
_MAX_LEVELS = 40


@dataclass(frozen=True)
class Scope:
    """Whether memory is on for one hook call, and the rule that decided it."""

    on: bool
    reason: str


def memory_off(
    cwd: str,
    payload: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
) -> str | None:
    """Why memory is off for a hook fired in `cwd`, or None when it is on.

    `config` is the brain's parsed config.toml (only its `[scope]` table is read); None
    reads it from the brain folder named by `env` (BRAIN_HOME, else ~/.brain).
    """
    scope = scope_for(cwd, payload, env, config)
    return None if scope.on else scope.reason


def scope_for(
    cwd: str | Path,
    payload: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
) -> Scope:
    """Whether memory is on at `cwd`, checked in this order: a `.brainignore` in the folder
    or above (up to the home folder); `[scope] exclude` globs matching the project root;
    a subagent's hook (payload `agent_id`) with `subagents = false`; a headless run with
    `headless = false`; `mode = "opt-in"` without `include` or a `.brainremember`."""
    from brainbridge.projects.root import project_root

    env = os.environ if env is None else env
    payload = payload or {}
    if config is None:
        config = read_scope_config(_brain_home(env))
    table = scope_table(config)
    here = _resolved(str(cwd) or os.getcwd())
    stop_at = _resolved(env.get("HOME") or str(Path.home()))
    marker = _marker(here, IGNORE_FILE, stop_at)
    if marker is not None:
        return Scope(False, f"{marker} turns memory off here")
    root = project_root(str(here)) or str(here)
    glob = _matching(root, table.get("exclude"), stop_at)
    if glob:
        return Scope(False, f"[scope] exclude = {glob!r} matches {root}")
    agent = payload.get("agent_id")
    if isinstance(agent, str) and agent and table.get("subagents") is False:
        kind = payload.get("agent_type") or "subagent"
        return Scope(False, f"a subagent's hook ({kind}) and [scope] subagents = false")
    entry = env.get("CLAUDE_CODE_ENTRYPOINT", "")
    if entry in HEADLESS_ENTRYPOINTS and table.get("headless") is False:
        return Scope(
            False, f"a headless run (CLAUDE_CODE_ENTRYPOINT={entry}) and [scope] headless = false"
        )
    if str(table.get("mode", "")).lower() == "opt-in":
        glob = _matching(root, table.get("include"), stop_at)
        if glob:
            return Scope(True, f"[scope] include = {glob!r} matches {root} (opt-in mode)")
        marker = _marker(here, REMEMBER_FILE, stop_at)
        if marker is not None:
            return Scope(True, f"{marker} turns memory on here (opt-in mode)")
        return Scope(
            False,
            f'[scope] mode = "opt-in" and {root} is neither in [scope] include nor has a'
            f" {REMEMBER_FILE}",
        )
    return Scope(True, "no rule turns memory off here")


def read_scope_config(home: Path) -> dict[str, Any]:
    """The brain folder's config.toml, parsed only when it mentions `scope` (the hooks'
    cold path); {} when it is missing or unreadable (scope rules never stop a hook: a
    broken file is reported by the settings every other path reads)."""
    try:
        data = (home / "config.toml").read_bytes()
    except OSError:
        return {}
    if b"scope" not in data:
        return {}
    import tomllib

    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def scope_table(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """The `[scope]` table of a parsed config ({} when absent or not a table)."""
    table = config.get("scope")
    return table if isinstance(table, Mapping) else {}


def _brain_home(env: Mapping[str, str]) -> Path:
    home = env.get("BRAIN_HOME") or str(Path(env.get("HOME") or Path.home()) / ".brain")
    return Path(home).expanduser()


def _resolved(path: str) -> Path:
    try:
        return Path(path).expanduser().resolve()
    except (OSError, RuntimeError, ValueError):
        return Path(os.path.abspath(path))


def _marker(here: Path, name: str, stop_at: Path) -> Path | None:
    """The nearest `name` file at or above `here`, up to the home folder (inclusive)."""
    for level, folder in enumerate((here, *here.parents)):
        if level >= _MAX_LEVELS:
            break
        try:
            if (folder / name).exists():
                return folder / name
        except OSError:
            return None
        if folder == stop_at:
            break
    return None


def _matching(root: str, globs: Any, home: Path) -> str | None:
    """The first glob of `globs` matching `root` or a folder above it, or None (`~` is
    `home`)."""
    if isinstance(globs, str):
        globs = [globs]
    if not isinstance(globs, list):
        return None
    from fnmatch import fnmatchcase

    folders = [root, *(str(p) for p in Path(root).parents)]
    for glob in globs:
        if not isinstance(glob, str) or not glob.strip():
            continue
        pattern = glob.strip()
        if pattern == "~" or pattern.startswith("~/"):
            pattern = str(home) + pattern[1:]
        pattern = pattern.rstrip("/") or "/"
        if any(fnmatchcase(folder, pattern) for folder in folders):
            return glob
    return None
