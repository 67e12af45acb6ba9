"""One tool call read as a `ToolEvent`: its kind, the files it touched, the command and how
it ended. No LLM and no brain: the PostToolUse hook runs this on the path the agent waits
on, so it imports only the standard library and the redactor.

Claude Code sends PostToolUse with `tool_name`, `tool_input`, `tool_response`, and a
failed call as PostToolUseFailure with `error` instead ("Exit code 1\\n<output>" for a
command). Other agents send the same fields over MCP or HTTP, with their own tool names.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from brainbridge.projects.root import project_root

KINDS = ("read", "edit", "command", "search", "test", "web", "other")
MAX_COMMAND = 300
MAX_ERROR = 240
MAX_FILES = 8

_BY_TOOL = {
    "Read": "read",
    "NotebookRead": "read",
    "Edit": "edit",
    "MultiEdit": "edit",
    "Write": "edit",
    "NotebookEdit": "edit",
    "Bash": "command",
    "Grep": "search",
    "Glob": "search",
    "LS": "search",
    "WebFetch": "web",
    "WebSearch": "web",
}
# Tools that say nothing about the work: the agent's own bookkeeping and our own tools.
_NOISE_TOOLS = frozenset(
    "TodoWrite TodoRead ExitPlanMode EnterPlanMode ToolSearch ListMcpResourcesTool"
    " ReadMcpResourceTool BashOutput KillShell KillBash AskUserQuestion Skill SlashCommand"
    " TaskOutput".split()
)
_OWN_TOOLS = "mcp__brain__"
# Other agents' names for the same tools ("read_file", "run_shell_command", "str_replace").
_BY_WORD = (
    ("test", re.compile(r"test", re.I)),
    ("edit", re.compile(r"edit|write|replace|patch|create_file|apply", re.I)),
    ("read", re.compile(r"read|view|open_file|cat\b", re.I)),
    ("command", re.compile(r"bash|shell|exec|run|command|terminal", re.I)),
    ("search", re.compile(r"grep|search|glob|find|list|ls\b", re.I)),
    ("web", re.compile(r"fetch|web|browse|url|http", re.I)),
)
# Commands that look around without doing anything worth remembering.
_NOISE_COMMANDS = frozenset("ls ll la pwd cd echo clear which whoami true tree date".split())
_TEST = re.compile(
    r"\b(?:pytest|py\.test|unittest|tox|nox|jest|vitest|mocha|rspec|phpunit|ctest)\b"
    r"|\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test\b"
    r"|\b(?:go|cargo|mix|dotnet|gradle|mvn|make|deno|swift)\s+test\b"
    r"|\bmanage\.py\s+test\b"
)
_EXIT = re.compile(r"^Exit code (\d+)\s*$", re.M)
_FAILED_LINE = re.compile(r"^(?:FAILED|ERROR) \S+::")  # pytest's summary of one test
_RAISED = re.compile(r"\b\w*(?:Error|Exception|Failure)\b:")
_ERROR_LINE = re.compile(
    r"\b\w*(?:Error|Exception)\b|\berror(?:\[\w+\])?:|\bfatal:|\bfailed\b|No such file|not found",
    re.I,
)
_PATHLIKE = re.compile(r"^[\w@~.+-][\w@~.+/-]*\.[A-Za-z0-9]{1,8}$|^[\w@~.+-]+(?:/[\w@~.+-]+)+/?$")


@dataclass(frozen=True)
class ToolEvent:
    """One tool call, compact and redacted: what an `Observation` is made of."""

    session_id: str
    project: str  # absolute project root: the git top level of cwd, else cwd
    tool: str
    kind: str
    title: str  # "edited api/auth.py", "ran pytest tests/test_auth.py"
    outcome: str  # "+3 −1 lines", "failed (exit 1)", "passed"
    files: tuple[str, ...] = ()  # project-relative posix paths (absolute when outside)
    command: str | None = None
    exit_code: int | None = None
    error: str | None = None
    failed: bool = False
    at: str = ""
    key: str = ""  # what identifies the call: a replayed spool stores it once
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def fold_key(self) -> str:
        """Calls with the same fold key, one after the other, are one observation."""
        subject = self.files[0] if self.files and self.kind != "test" else self.command
        return f"{self.kind}:{subject or self.title}"

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["files"] = list(self.files)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToolEvent | None:
        """The event a spool line or a hook's request carries; None if it is not one."""
        from brainbridge.redact import redact

        try:
            kind = str(data["kind"])
            files = tuple(str(f) for f in data.get("files") or ())[:MAX_FILES]
            code = data.get("exit_code")
            return cls(
                session_id=str(data.get("session_id") or "claude-code")[:200],
                project=str(data.get("project") or "")[:1000],
                tool=str(data.get("tool") or "")[:100],
                kind=kind if kind in KINDS else "other",
                title=redact(_one_line(str(data["title"]), 200)),
                outcome=redact(_one_line(str(data.get("outcome") or ""), 300)),
                files=files,
                command=_redacted(_clip(data.get("command"), MAX_COMMAND)),
                exit_code=code if isinstance(code, int) and not isinstance(code, bool) else None,
                error=_redacted(_clip(data.get("error"), MAX_ERROR)),
                failed=bool(data.get("failed")),
                at=str(data.get("at") or "")[:40],
                key=str(data.get("key") or "")[:300],
            )
        except (KeyError, TypeError, ValueError):
            return None


def tool_event(payload: dict[str, Any]) -> ToolEvent | None:
    """The event of one PostToolUse / PostToolUseFailure payload, redacted; None for a
    call that is noise (`ls`, a to-do list update, our own brain tools) or not a tool call.
    """
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or not tool or tool in _NOISE_TOOLS or tool.startswith(_OWN_TOOLS):
        return None
    given = payload.get("tool_input")
    args: dict[str, Any] = given if isinstance(given, dict) else {}
    response = payload.get("tool_response")
    cwd = _text(payload.get("cwd")) or os.getcwd()
    root = project_root(cwd)
    error_text = _text(payload.get("error"))
    failed = bool(error_text) or payload.get("hook_event_name") == "PostToolUseFailure"
    kind = _kind(tool, args)
    command = _text(args.get("command")) or _text(args.get("cmd")) or None
    if kind == "command" and command and _TEST.search(command):
        kind = "test"
    exit_code = _exit_code(payload, response, error_text)
    if exit_code not in (None, 0):
        failed = True
    if isinstance(response, dict) and response.get("interrupted"):
        failed = True
    if kind == "command" and command and not failed and _is_noise(command):
        return None
    files = _files(kind, args, response, command, cwd, root)
    error = _error_line(error_text or _stderr(response)) if failed else None
    from brainbridge.redact import redact

    title = _title(kind, tool, args, files, command)
    outcome = _outcome(kind, response, failed, exit_code, error)
    session = _text(payload.get("session_id")) or "claude-code"
    call_id = _text(payload.get("tool_use_id"))
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    if not call_id:
        # No id (another agent): each call is its own, even the same command twice.
        digest = f"{session}\0{tool}\0{command}\0{files}\0{time.time_ns()}".encode()
        call_id = hashlib.sha256(digest).hexdigest()[:24]
    return ToolEvent(
        session_id=session[:200],
        project=root,
        tool=tool[:100],
        kind=kind,
        title=redact(title),
        outcome=redact(outcome),
        files=files,
        command=_redacted(_clip(command, MAX_COMMAND)),
        exit_code=exit_code,
        error=redact(error) if error else None,
        failed=failed,
        at=at,
        key=f"{session[:200]}/tool/{call_id[:80]}",
    )


def relative(path: str, cwd: str, root: str) -> str:
    """`path` relative to the project root, in posix form; absolute when outside it."""
    full = os.path.normpath(path if os.path.isabs(path) else os.path.join(cwd, path))
    if full == root:
        return "."
    if full.startswith(root.rstrip(os.sep) + os.sep):
        return full[len(root.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
    return full.replace(os.sep, "/")


def _kind(tool: str, args: dict[str, Any]) -> str:
    if tool in _BY_TOOL:
        return _BY_TOOL[tool]
    name = tool.rsplit("__", 1)[-1]
    for kind, pattern in _BY_WORD:
        if pattern.search(name):
            return kind
    return "command" if isinstance(args.get("command"), str) else "other"


def _is_noise(command: str) -> bool:
    """A command made only of looking around: `ls`, `pwd`, `cd src && ls -la`."""
    parts = [p.strip() for p in re.split(r"&&|\|\||;|\|", command) if p.strip()]
    return bool(parts) and all(p.split()[0] in _NOISE_COMMANDS for p in parts)


def _exit_code(payload: dict[str, Any], response: Any, error: str) -> int | None:
    for source in (payload, response if isinstance(response, dict) else {}):
        for key in ("exit_code", "exitCode", "returncode"):
            value = source.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
    found = _EXIT.search(error)
    if found:
        return int(found.group(1))
    command_ran = isinstance(payload.get("tool_input"), dict) and "command" in payload["tool_input"]
    if command_ran and isinstance(response, dict) and "stdout" in response:
        return 0 if not response.get("interrupted") else None
    return None


def _files(
    kind: str,
    args: dict[str, Any],
    response: Any,
    command: str | None,
    cwd: str,
    root: str,
) -> tuple[str, ...]:
    paths: list[str] = []
    for key in ("file_path", "notebook_path", "path", "filePath", "file"):
        value = args.get(key)
        if isinstance(value, str) and value and "\x00" not in value:
            paths.append(value)
    edits = args.get("edits")
    if isinstance(edits, list):  # an apply-patch style tool: each edit names its file
        paths += [
            e["file_path"] for e in edits if isinstance(e, dict) and _text(e.get("file_path"))
        ]
    if command and kind in ("command", "test"):
        paths += _command_paths(command)
    if kind == "search" and isinstance(response, dict):
        found = response.get("filenames")
        if isinstance(found, list):
            paths += [f for f in found[:MAX_FILES] if isinstance(f, str)]
    out: list[str] = []
    for p in paths:
        rel = relative(p.split("::", 1)[0], cwd, root)
        if rel not in out and rel != ".":
            out.append(rel)
    return tuple(out[:MAX_FILES])


def _command_paths(command: str) -> list[str]:
    """Paths a command names: `pytest tests/test_auth.py::test_token`, `cat src/a.py`."""
    try:
        tokens = shlex.split(command, posix=True)
    except ValueError:
        tokens = command.split()
    out = []
    for token in tokens[1:]:
        path = token.split("::", 1)[0]
        if path.startswith("-") or "://" in path or "=" in path or not _PATHLIKE.match(path):
            continue
        out.append(path)
    return out


def _title(
    kind: str, tool: str, args: dict[str, Any], files: tuple[str, ...], command: str | None
) -> str:
    subject = files[0] if files else ""
    if len(files) > 1 and kind in ("read", "edit"):
        subject += f" (+{len(files) - 1})"
    if kind == "read":
        return f"read {subject or tool}"
    if kind == "edit":
        return f"{'wrote' if tool == 'Write' else 'edited'} {subject or tool}"
    if kind in ("command", "test") and command:
        return f"ran {_one_line(command, 80)}"
    if kind == "search":
        pattern = _text(args.get("pattern")) or _text(args.get("query"))
        return f"searched for {_one_line(pattern, 60)!r}" if pattern else f"searched with {tool}"
    if kind == "web":
        url = _text(args.get("url"))
        if url:
            return f"fetched {_one_line(url.split('?', 1)[0], 100)}"
        query = _text(args.get("query"))
        return f"searched the web for {_one_line(query, 80)!r}" if query else f"used {tool}"
    return f"used {tool}" + (f" on {subject}" if subject else "")


def _outcome(
    kind: str, response: Any, failed: bool, exit_code: int | None, error: str | None
) -> str:
    if failed:
        if isinstance(response, dict) and response.get("interrupted"):
            return "interrupted"
        code = f" (exit {exit_code})" if exit_code not in (None, 0) else ""
        return f"failed{code}" + (f": {error}" if error else "")
    if kind == "test":
        return "passed"
    if kind == "command":
        return "exit 0" if exit_code == 0 else "done"
    if kind == "edit" and isinstance(response, dict):
        if response.get("type") == "create":
            return "created"
        added, removed = _patch_size(response.get("structuredPatch"))
        return f"+{added} −{removed} lines" if added or removed else "edited"
    if kind == "read" and isinstance(response, dict):
        file = response.get("file")
        lines = file.get("numLines") if isinstance(file, dict) else None
        return f"{lines} line{'s' * (lines != 1)}" if isinstance(lines, int) else "read"
    if kind == "search" and isinstance(response, dict):
        for key, unit in (("numFiles", "files"), ("numMatches", "matches")):
            value = response.get(key)
            if isinstance(value, int):
                return f"{value} {unit[:-1] if value == 1 else unit}" if value else "no matches"
    return "done"


def _patch_size(patch: Any) -> tuple[int, int]:
    added = removed = 0
    for hunk in patch if isinstance(patch, list) else []:
        for line in hunk.get("lines") or [] if isinstance(hunk, dict) else []:
            if isinstance(line, str):
                added += line.startswith("+")
                removed += line.startswith("-")
    return added, removed


def _error_line(text: str) -> str | None:
    """The line of a failure's output that says what went wrong."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not _EXIT.match(ln.strip())]
    if not lines:
        return None
    for line in lines:
        if _FAILED_LINE.match(line):
            return _one_line(line, MAX_ERROR)
    for pattern in (_RAISED, _ERROR_LINE):
        matching = [ln for ln in lines if pattern.search(ln)]
        if matching:
            return _one_line(matching[-1], MAX_ERROR)
    return _one_line(lines[0], MAX_ERROR)


def _stderr(response: Any) -> str:
    if isinstance(response, dict):
        return _text(response.get("stderr")) or _text(response.get("stdout"))
    return response if isinstance(response, str) else ""


def _redacted(text: str | None) -> str | None:
    from brainbridge.redact import redact

    return redact(text) if text else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _clip(value: Any, limit: int) -> str | None:
    return value[:limit] if isinstance(value, str) and value else None


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
