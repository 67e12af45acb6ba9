"""brainbridge processes left running: what `brain doctor` lists with the command to stop
them (issue #33: no process outlives its work).

Read from /proc (Linux); elsewhere nothing is listed. A process is a stray when the brain
folder it serves is gone, when a spool drainer (seconds of work) has run for over
`STRAY_AFTER_S`, or when an MCP server's client is gone (it was adopted by init).
`brain serve` is meant to run for days and is a stray only when its folder is gone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
STRAY_AFTER_S = 12 * 3600


@dataclass(frozen=True)
class BrainProcess:
    """One running brainbridge process."""

    pid: int
    role: str  # drainer | server | MCP server
    brain: Path
    age_s: float
    orphaned: bool  # adopted by init: whoever started it has exited

    def stray_reason(self) -> str | None:
        """Why this process should not be running any more, or None."""
        if not self.brain.is_dir():
            return f"its brain folder {self.brain} is gone"
        if self.role == "drainer" and self.age_s > STRAY_AFTER_S:
            return f"a spool drainer running for {self.age_s / 3600:.0f} h"
        if self.role == "MCP server" and self.orphaned:
            return "an MCP server whose client has exited"
        return None


def brain_processes() -> list[BrainProcess]:
    """Every brainbridge drainer and server this user can see, but this process."""
    if not PROC.is_dir():
        return []
    found = []
    uptime = _uptime()
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            args = (entry / "cmdline").read_bytes().decode("utf-8", "replace").split("\0")
            role = _role(args)
            if role is None:
                continue
            env = _environ(entry)
            cwd = os.readlink(entry / "cwd")
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile, or another user's
        ppid, started = int(stat[1]), int(stat[19]) / tick
        found.append(
            BrainProcess(int(entry.name), role, _brain(args, env, cwd), uptime - started, ppid == 1)
        )
    return sorted(found, key=lambda p: p.pid)


def _role(args: list[str]) -> str | None:
    words = [a for a in args if a]
    if "brainbridge.hooks" in words and "drain" in words:
        return "drainer"
    ours = any(w in ("brainbridge.cli", "brainbridge") or Path(w).name == "brain" for w in words)
    if not ours:
        return None
    if "serve" in words:
        return "server"
    if "mcp" in words:
        return "MCP server"
    return None


def _environ(entry: Path) -> dict[str, str]:
    pairs = (entry / "environ").read_bytes().decode("utf-8", "replace").split("\0")
    return dict(p.split("=", 1) for p in pairs if "=" in p)


def _brain(args: list[str], env: dict[str, str], cwd: str) -> Path:
    """The brain folder a process serves: `--brain`, else BRAIN_HOME, else ~/.brain."""
    named = env.get("BRAIN_HOME") or str(Path(env.get("HOME") or Path.home()) / ".brain")
    for i, word in enumerate(args):
        if word == "--brain" and i + 1 < len(args):
            named = args[i + 1]
        elif word.startswith("--brain="):
            named = word.split("=", 1)[1]
    home = env.get("HOME") or str(Path.home())
    path = Path(named.replace("~", home, 1) if named.startswith("~") else named)
    return path if path.is_absolute() else Path(cwd) / path


def _uptime() -> float:
    try:
        return float((PROC / "uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
