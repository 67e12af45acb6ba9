"""PostToolUse / PostToolUseFailure payloads as Claude Code 2.1 sends them (captured from
the real CLI against the fake Anthropic server, paths made parameters)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SESSION = "76bcd7b5-abad-41b3-9ba5-ed02aa4ef4dc"
_calls = iter(range(1, 10_000))


def _base(project: Path, event: str, session: str) -> dict[str, Any]:
    return {
        "session_id": session,
        "transcript_path": f"/home/dev/.claude/projects/-proj/{session}.jsonl",
        "cwd": str(project),
        "prompt_id": "42383e89-daaa-4b23-b9ef-e1452b1a75a7",
        "permission_mode": "default",
        "effort": {"level": "medium"},
        "hook_event_name": event,
        "tool_use_id": f"toolu_fake{next(_calls):06d}",
        "duration_ms": 19,
    }


def read(project: Path, rel: str, text: str = "x = 1\n", session: str = SESSION) -> dict[str, Any]:
    path = str(project / rel)
    return {
        **_base(project, "PostToolUse", session),
        "tool_name": "Read",
        "tool_input": {"file_path": path},
        "tool_response": {
            "type": "text",
            "file": {
                "filePath": path,
                "content": text,
                "numLines": len(text.splitlines()),
                "startLine": 1,
                "totalLines": len(text.splitlines()),
            },
        },
    }


def edit(project: Path, rel: str, old: str, new: str, session: str = SESSION) -> dict[str, Any]:
    path = str(project / rel)
    return {
        **_base(project, "PostToolUse", session),
        "tool_name": "Edit",
        "tool_input": {
            "file_path": path,
            "old_string": old,
            "new_string": new,
            "replace_all": False,
        },
        "tool_response": {
            "filePath": path,
            "oldString": old,
            "newString": new,
            "originalFile": f"def add(a, b):\n    return {old}\n",
            "structuredPatch": [
                {
                    "oldStart": 1,
                    "oldLines": 2,
                    "newStart": 1,
                    "newLines": 2,
                    "lines": [" def add(a, b):", f"-    return {old}", f"+    return {new}"],
                }
            ],
            "userModified": False,
            "replaceAll": False,
        },
    }


def bash(project: Path, command: str, stdout: str = "", session: str = SESSION) -> dict[str, Any]:
    return {
        **_base(project, "PostToolUse", session),
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run it"},
        "tool_response": {
            "stdout": stdout,
            "stderr": "",
            "interrupted": False,
            "isImage": False,
            "noOutputExpected": False,
        },
    }


def bash_failed(
    project: Path, command: str, output: str, code: int = 1, session: str = SESSION
) -> dict[str, Any]:
    return {
        **_base(project, "PostToolUseFailure", session),
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run it"},
        "error": f"Exit code {code}\n{output}",
        "is_interrupt": False,
    }


def grep(project: Path, pattern: str, found: list[str], session: str = SESSION) -> dict[str, Any]:
    return {
        **_base(project, "PostToolUse", session),
        "tool_name": "Grep",
        "tool_input": {"pattern": pattern, "path": str(project)},
        "tool_response": {
            "mode": "files_with_matches",
            "filenames": found,
            "numFiles": len(found),
            "totalFiles": len(found),
        },
    }


def todo(project: Path, session: str = SESSION) -> dict[str, Any]:
    return {
        **_base(project, "PostToolUse", session),
        "tool_name": "TodoWrite",
        "tool_input": {"todos": [{"content": "fix add", "status": "in_progress"}]},
        "tool_response": {"oldTodos": [], "newTodos": []},
    }


PYTEST_FAILED = """============================= test session starts ==============================
collected 2 items

tests/test_auth.py .F                                                    [100%]

=================================== FAILURES ===================================
_________________________________ test_token ___________________________________

    def test_token():
>       assert make_token("ana") == "tok-ana"
E       AssertionError: assert 'tok-' == 'tok-ana'

tests/test_auth.py:9: AssertionError
=========================== short test summary info ============================
FAILED tests/test_auth.py::test_token - AssertionError: assert 'tok-' == 'tok-ana'
========================= 1 failed, 1 passed in 0.03s ==========================
"""
