"""`brain doctor`: checks the chain Claude Code relies on and says what to fix.

Brain folder → dependencies → hooks registered (and pointing at this brain) → MCP
registered → server → spool → recent hook failures. Each line is ok, a note (works, but
could be better) or a problem with the command that fixes it; the exit code is 1 when
any problem is found.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import click

from brainbridge.cli.common import App, pass_app
from brainbridge.errors import BrainError
from brainbridge.settings import Settings

OK, NOTE, PROBLEM = "ok", "note", "problem"
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop")
RECENT_FAILURE_S = 24 * 3600


@dataclass(frozen=True)
class Check:
    level: str
    what: str
    fix: str = ""


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts instead of lines.")
@pass_app
def doctor(app: App, as_json: bool) -> None:
    """Check the brain, the Claude Code hooks, MCP, the server and recent hook errors."""
    try:
        settings: Settings | BrainError = app.settings
    except BrainError as exc:  # a bad config.toml is one of the problems to list, not the end
        settings = exc
    home = settings.brain_path if isinstance(settings, Settings) else app.folder()
    checks = diagnose(home, Path.cwd())
    checks.insert(1, _config(settings, home))
    problems = sum(c.level == PROBLEM for c in checks)
    if as_json:
        from brainbridge.cli.output import emit_json

        emit_json({"problems": problems, "checks": [asdict(c) for c in checks]})
        sys.exit(1 if problems else 0)
    marks = {OK: "ok     ", NOTE: "note   ", PROBLEM: "PROBLEM"}
    for check in checks:
        click.echo(f"{marks[check.level]} {check.what}")
        if check.fix:
            click.echo(f"        → {check.fix}")
    click.echo(f"\n{problems} problem(s)" if problems else "\nall good")
    sys.exit(1 if problems else 0)


def diagnose(home: Path, cwd: Path) -> list[Check]:
    """Every check, in the order the chain runs."""
    home = home.expanduser().resolve()
    checks = [_brain(home), _dependencies(), *_hooks(home, cwd), _mcp(home, cwd), _server(home)]
    checks += [c for c in (_spool(home), _failures(home)) if c is not None]
    return [*checks, _scope(home, cwd), *_strays()]


def _brain(home: Path) -> Check:
    from brainbridge.store.location import database_url, redact_url
    from brainbridge.store.sqlite.store import counts_line, entity_counts

    try:
        url = database_url(home)
    except BrainError as exc:
        return Check(PROBLEM, str(exc), f"fix {home / 'config.toml'} or BRAIN_DATABASE_URL")
    if url:
        return _server_brain(home, url, redact_url(url))
    db = home / "brain.db"
    if not db.exists():
        return Check(PROBLEM, f"no brain at {home}", "brain init (or set BRAIN_HOME)")
    import sqlite3

    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=2)
        try:
            rows = dict(conn.execute("SELECT type, COUNT(*) FROM entities GROUP BY type"))
            sessions = conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return Check(PROBLEM, f"brain at {home} cannot be read: {exc}", "restore a backup")
    stats = {**entity_counts(rows), "sessions": sessions}
    return Check(OK, f"brain at {home}: {counts_line(stats)}")


def _server_brain(home: Path, url: str, shown: str) -> Check:
    from brainbridge.store.location import open_store
    from brainbridge.store.sqlite.store import counts_line

    try:
        store = open_store(home, url)
    except BrainError as exc:
        return Check(PROBLEM, str(exc), "is the server running, and the URL right?")
    try:
        stats = store.stats()
    finally:
        store.close()
    return Check(OK, f"brain in {shown}: {counts_line(stats)}")


def _config(settings: Settings | BrainError, home: Path) -> Check:
    """config.toml and BRAIN_* read, and the LLM they name usable."""
    if isinstance(settings, BrainError):
        return Check(PROBLEM, str(settings), f"fix {home / 'config.toml'} or the variable")
    provider = (settings.llm_provider or "").lower()
    if provider in ("", "none", "off"):
        return Check(OK, "settings read; no LLM (the local judge, extractor and curator run)")
    problems = llm_problems(settings)
    if problems:
        what, fix = problems[0]
        more = f" (and {len(problems) - 1} more: brain chat lists them)" if problems[1:] else ""
        return Check(PROBLEM, what + more, fix)
    url = _llm_url(settings)
    return Check(
        OK, f"LLM: {provider}, {settings.llm_model or 'its default model'}{url and f' at {url}'}"
    )


def llm_problems(settings: Settings) -> list[tuple[str, str]]:
    """Every missing step of the LLM setup at once, each with its fix: a provider, its
    SDK, its API key, a local endpoint that answers."""
    provider = (settings.llm_provider or "").lower()
    if provider in ("", "none", "off"):
        return [
            (
                "no LLM provider is configured",
                "export BRAIN_LLM_PROVIDER=anthropic (or openai, ollama)",
            )
        ]
    out = []
    sdk = "anthropic" if provider in ("anthropic", "claude") else "openai"
    if importlib.util.find_spec(sdk) is None:
        out.append(
            (
                f"LLM provider {provider} needs the {sdk} package, not installed in {sys.executable}",
                f"{shlex.quote(sys.executable)} -m pip install {sdk}",
            )
        )
    if not settings.llm_api_key and not settings.llm_base_url and provider != "ollama":
        var = "ANTHROPIC_API_KEY" if sdk == "anthropic" else "OPENAI_API_KEY"
        out.append((f"LLM provider {provider} has no API key", f"export {var}=…"))
    url = _llm_url(settings)
    if url and not _answers(url):
        out.append((f"LLM endpoint {url} does not answer", "start it, or fix base_url"))
    return out


def _llm_url(settings: Settings) -> str:
    if settings.llm_base_url:
        return settings.llm_base_url
    return "http://localhost:11434/v1" if (settings.llm_provider or "").lower() == "ollama" else ""


def _answers(url: str, timeout: float = 1.0) -> bool:
    """Whether something listens at the host and port of `url` (no request is sent)."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((parts.hostname or "localhost", port), timeout=timeout):
            return True
    except OSError:
        return False


def _dependencies() -> Check:
    missing = [m for m in ("mcp", "fastapi", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        return Check(
            PROBLEM,
            f"{', '.join(missing)} not installed in {sys.executable}",
            f"{shlex.quote(sys.executable)} -m pip install brainbridge",
        )
    return Check(OK, "MCP server and HTTP server packages installed")


def _hooks(home: Path, cwd: Path) -> list[Check]:
    from brainbridge.hooks.install import is_ours, read_settings, settings_path

    found: dict[str, list[tuple[Path, dict[str, Any]]]] = {e: [] for e in EVENTS}
    checks = []
    for scope in ("user", "project"):
        path = settings_path(scope, cwd)
        try:
            data = read_settings(path)
        except Exception as exc:
            checks.append(Check(PROBLEM, str(exc), f"fix {path} by hand"))
            continue
        for event, groups in (data.get("hooks") or {}).items():
            for group in groups:
                for hook in group.get("hooks") or [] if isinstance(group, dict) else []:
                    if event in found and is_ours(hook):
                        found[event].append((path, hook))
    missing = [e for e in EVENTS if not found[e]]
    if len(missing) == len(EVENTS):
        return [*checks, Check(PROBLEM, "no brain hooks in Claude Code's settings", _INSTALL)]
    if missing:
        checks.append(Check(PROBLEM, f"brain hooks missing for {', '.join(missing)}", _INSTALL))
    for event, hooks in found.items():
        for path, hook in hooks:
            checks += _hook_command(event, path, hook, home)
    if not missing and all(c.level == OK for c in checks):
        where = sorted({str(p) for hooks in found.values() for p, _ in hooks})
        checks = [Check(OK, f"hooks registered in {', '.join(where)}")]
    return checks


_INSTALL = "brain hooks install --user"


def _hook_command(event: str, path: Path, hook: dict[str, Any], home: Path) -> list[Check]:
    command = str(hook.get("command", ""))
    out = []
    try:
        words = shlex.split(command)
    except ValueError:
        return [Check(PROBLEM, f"{event} hook in {path} is not a valid command", _INSTALL)]
    pinned = next((w.split("=", 1)[1] for w in words if w.startswith("BRAIN_HOME=")), None)
    program = next((w for w in words if "=" not in w), "")
    if pinned is not None and Path(pinned).expanduser().resolve() != home:
        out.append(
            Check(NOTE, f"{event} hook in {path} uses the brain at {pinned}, not {home}", "")
        )
    if program and "/" in program and not Path(program).exists():
        out.append(
            Check(PROBLEM, f"{event} hook in {path} runs {program}, which is gone", _INSTALL)
        )
    if event == "Stop" and hook.get("async"):
        out.append(
            Check(
                PROBLEM,
                f"the Stop hook in {path} is async: `claude -p` and the Agent SDK cancel it"
                " and store nothing",
                _INSTALL,
            )
        )
    return out


def _claude_json() -> Path:
    base = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(base) / ".claude.json" if base else Path.home() / ".claude.json"


def _mcp(home: Path, cwd: Path) -> Check:
    servers: list[tuple[str, dict[str, Any]]] = []
    for label, path, pick in (
        ("user", _claude_json(), lambda d: d.get("mcpServers")),
        (
            "local",
            _claude_json(),
            lambda d: (d.get("projects") or {}).get(str(cwd), {}).get("mcpServers"),
        ),
        ("project", cwd / ".mcp.json", lambda d: d.get("mcpServers")),
    ):
        try:
            data = json.loads(path.read_text("utf-8"))
            entries = pick(data) or {}
        except (OSError, ValueError, AttributeError):
            continue
        for name, spec in entries.items() if isinstance(entries, dict) else []:
            if isinstance(spec, dict) and _is_brain_mcp(spec):
                servers.append((f"{name} ({label})", spec))
    from brainbridge.hooks.install import mcp_add_command

    fix = mcp_add_command("user", home)
    if not servers:
        return Check(PROBLEM, "the brain's MCP server is not registered with Claude Code", fix)
    name, spec = servers[0]
    pinned = (spec.get("env") or {}).get("BRAIN_HOME")
    command = str(spec.get("command", ""))
    if "/" in command and not Path(command).exists():
        return Check(PROBLEM, f"MCP server {name} runs {command}, which is gone", fix)
    if pinned and Path(pinned).expanduser().resolve() != home:
        return Check(NOTE, f"MCP server {name} uses the brain at {pinned}, not {home}")
    return Check(OK, f"MCP server registered: {name}")


def _is_brain_mcp(spec: dict[str, Any]) -> bool:
    """`brain mcp`, or `python -m brainbridge.cli.main mcp`."""
    args = [str(a) for a in spec.get("args") or []]
    program = Path(str(spec.get("command", ""))).name
    return "mcp" in args and ("brain" in program or any("brainbridge" in a for a in args))


def _server(home: Path) -> Check:
    from brainbridge.hooks.runner import read_server_file

    info = read_server_file(home)
    if info is None:
        return Check(NOTE, "brain serve is not running (hooks open the brain themselves)")
    import urllib.request

    try:
        with urllib.request.urlopen(f"{info['url']}/health", timeout=2) as response:
            ok = response.status == 200
    except OSError:
        ok = False
    if ok:
        return Check(OK, f"brain serve answers at {info['url']}")
    return Check(
        NOTE,
        f"server.json points at {info['url']} but nothing answers there (hooks fall back)",
        "brain serve &   (or delete server.json)",
    )


def _spool(home: Path) -> Check | None:
    from brainbridge.hooks.spool import drainer_lock, read_records, spool_dir, spooled

    folder = spool_dir(home)
    # Tool calls (`type`: tool) wait for their turn's Stop to start a drainer: not a problem.
    count = sum(1 for f in spooled(home) for r in read_records(f) if r.get("type") != "tool")
    if not count:
        return None
    with drainer_lock(home) as free:
        if not free:
            return Check(OK, f"{count} turn(s) being stored from the spool")
    return Check(
        PROBLEM,
        f"{count} turn(s) wait in {folder} with no drainer running",
        f"BRAIN_HOME={shlex.quote(str(home))} {shlex.quote(sys.executable)} -m brainbridge.hooks drain",
    )


def _failures(home: Path) -> Check | None:
    from brainbridge.hooks.runner import FAILURE_LOG

    path = home / FAILURE_LOG
    try:
        age = time.time() - path.stat().st_mtime
        tail = path.read_text("utf-8", "replace")[-4000:]
    except OSError:
        return None
    entries = [e for e in tail.split("--- ") if e.strip()]
    if not entries or age > RECENT_FAILURE_S:
        return None
    last = entries[-1].strip().splitlines()
    return Check(
        NOTE,
        f"last hook problem ({last[0]}): {last[-1][:200] if len(last) > 1 else ''}".rstrip(": "),
        f"see {path}",
    )


def _scope(home: Path, cwd: Path) -> Check:
    """Whether the hooks remember anything in `cwd`, and the rule that decides it."""
    from brainbridge.privacy import IGNORE_FILE, REMEMBER_FILE, read_scope_config, scope_for
    from brainbridge.projects.root import project_root

    config = read_scope_config(home)
    scope = scope_for(cwd, {}, os.environ, config)
    if scope.on:
        return Check(OK, f"memory is on in {cwd}: {scope.reason}{_switches(config)}")
    root = project_root(str(cwd)) or str(cwd)
    if IGNORE_FILE in scope.reason:
        fix = f"rm {shlex.quote(scope.reason.split(' turns ')[0])}   (to remember here again)"
    elif "opt-in" in scope.reason:
        fix = f"touch {shlex.quote(str(Path(root) / REMEMBER_FILE))}   (to remember here)"
    else:
        fix = f"edit [scope] in {home / 'config.toml'}   (to remember here again)"
    return Check(NOTE, f"memory is off in {cwd}: {scope.reason}{_switches(config)}", fix)


def _switches(config: dict[str, Any]) -> str:
    from brainbridge.privacy import scope_table

    table = scope_table(config)
    off = [
        f"{k} runs" if k == "headless" else k
        for k in ("subagents", "headless")
        if table.get(k) is False
    ]
    return f"; off for {' and '.join(off)}" if off else ""


def _strays() -> list[Check]:
    """brainbridge processes that outlived their work, each with the command to stop it."""
    from brainbridge.cli.strays import brain_processes

    out = []
    for proc in brain_processes():
        reason = proc.stray_reason()
        if reason:
            out.append(
                Check(
                    NOTE,
                    f"stray brainbridge {proc.role} (pid {proc.pid}): {reason}",
                    f"kill {proc.pid}",
                )
            )
    return out
