"""A tool call read as an event: kind, project-relative files, command, exit status, the
error line, noise dropped, secrets redacted. Payloads as Claude Code sends them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from brainbridge.observations.calls import ToolEvent, project_root, tool_event
from observations import payloads as p


def _event(payload: dict[str, Any]) -> ToolEvent:
    event = tool_event(payload)
    assert event is not None
    return event


def test_read_edit_and_search_name_project_relative_files(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    sub = tmp_path / "api"
    sub.mkdir()
    read = _event({**p.read(tmp_path, "api/auth.py"), "cwd": str(sub)})
    assert (read.kind, read.files, read.title) == ("read", ("api/auth.py",), "read api/auth.py")
    assert read.project == str(tmp_path)  # the git top level, not the folder it ran in

    edit = _event(p.edit(tmp_path, "api/auth.py", "a - b", "a + b"))
    assert (edit.kind, edit.title, edit.outcome) == ("edit", "edited api/auth.py", "+1 −1 lines")

    search = _event(p.grep(tmp_path, "make_token", ["api/auth.py"]))
    assert search.kind == "search" and search.files == ("api/auth.py",)
    assert search.outcome == "1 file"


def test_a_failing_test_run_keeps_its_exit_status_and_the_line_that_says_why(
    tmp_path: Path,
) -> None:
    failed = _event(
        p.bash_failed(tmp_path, "pytest tests/test_auth.py::test_token -q", p.PYTEST_FAILED)
    )
    assert failed.kind == "test" and failed.failed and failed.exit_code == 1
    assert failed.files == ("tests/test_auth.py",)
    assert failed.error == (
        "FAILED tests/test_auth.py::test_token - AssertionError: assert 'tok-' == 'tok-ana'"
    )
    assert failed.outcome.startswith("failed (exit 1): FAILED tests/test_auth.py::test_token")

    passed = _event(p.bash(tmp_path, "pytest tests/test_auth.py::test_token -q", "1 passed"))
    assert (passed.kind, passed.failed, passed.exit_code, passed.outcome) == (
        "test",
        False,
        0,
        "passed",
    )
    assert passed.fold_key == failed.fold_key  # the same task: they fold

    build = _event(p.bash_failed(tmp_path, "npm run build", "src/a.ts(3,1): error TS2304: x"))
    assert build.kind == "command" and build.error == "src/a.ts(3,1): error TS2304: x"


def test_looking_around_and_bookkeeping_are_noise(tmp_path: Path) -> None:
    assert tool_event(p.bash(tmp_path, "ls -la")) is None
    assert tool_event(p.bash(tmp_path, "cd src && pwd")) is None
    assert tool_event(p.todo(tmp_path)) is None
    brain_tool = {**p.todo(tmp_path), "tool_name": "mcp__brain__search"}
    assert tool_event(brain_tool) is None
    assert tool_event({**p.bash(tmp_path, "ls"), "tool_name": None}) is None
    # A command that looks around but fails says something.
    assert tool_event(p.bash_failed(tmp_path, "ls missing/", "No such file or directory"))


def test_secrets_in_a_command_or_its_error_are_redacted(tmp_path: Path) -> None:
    key = "sk-ant-api03-" + "Zq8Xr2Lm9Pw4Tn7Vb1Kc6Hd3Fg5Js0Ay" * 2
    event = _event(
        p.bash_failed(tmp_path, f"curl -H 'x-api-key: {key}' https://api.x", f"401 for {key}")
    )
    assert key not in repr(event.to_dict())
    restored = ToolEvent.from_dict({**event.to_dict(), "command": f"echo {key}"})
    assert restored is not None and key not in (restored.command or "")


def test_another_agents_tool_names_are_read_too(tmp_path: Path) -> None:
    shell = {
        "session_id": "s1",
        "cwd": str(tmp_path),
        "tool_name": "run_shell_command",
        "tool_input": {"command": "cargo test"},
        "exit_code": 101,
        "error": "test result: FAILED. 3 passed; 1 failed",
    }
    event = _event(shell)
    assert (event.kind, event.exit_code, event.failed) == ("test", 101, True)
    write = _event({**shell, "tool_name": "write_file", "tool_input": {"path": "src/lib.rs"}})
    assert write.kind == "edit" and write.files == ("src/lib.rs",)


def test_project_root_is_the_folder_without_a_repository(tmp_path: Path) -> None:
    assert project_root(str(tmp_path / "a" / "b")) == str(tmp_path / "a" / "b")


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(
    tool=st.sampled_from(["Read", "Edit", "Bash", "Grep", "WebFetch", "x", "", 3]),
    args=_json,
    response=_json,
    error=st.one_of(st.none(), st.text(max_size=60)),
)
def test_any_payload_reads_as_an_event_or_none_never_an_error(
    tool: Any, args: Any, response: Any, error: Any
) -> None:
    payload = {"tool_name": tool, "tool_input": args, "tool_response": response, "error": error}
    event = tool_event({**payload, "cwd": "/tmp/project", "session_id": "s"})
    if event is not None:
        assert ToolEvent.from_dict(event.to_dict()) is not None
