"""Exit codes, argument parsing and Ctrl-C: the contract scripts rely on."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brainbridge.cli.common import exit_code, parse_attrs, split_ref
from brainbridge.cli.main import COMMANDS, OPTIONAL_COMMANDS
from brainbridge.cli.main import cli as brain_group
from brainbridge.errors import BrainError, InvalidInput, LLMError, NotFound, SchemaError, StoreBusy
from cli.runner import COMMAND, BrainCli

TYPES = {"Person": {}, "Chat_Exchange": {}}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (InvalidInput("x"), 2),
        (SchemaError("x"), 2),
        (NotFound("x"), 3),
        (StoreBusy("x"), 4),
        (LLMError("x"), 1),
        (BrainError("x"), 1),
    ],
)
def test_each_kind_of_error_has_its_exit_code(error: BrainError, code: int) -> None:
    assert exit_code(error) == code


@given(value=json_values)
def test_attr_values_that_are_json_come_back_as_json(value: object) -> None:
    assert parse_attrs((f"k={json.dumps(value)}",)) == {"k": value}


@given(text=st.text())
def test_attr_values_are_strict_json_or_the_text_itself(text: str) -> None:
    value = parse_attrs((f"key={text}",))["key"]
    json.dumps(value, allow_nan=False)  # never NaN or Infinity
    if value != text:
        assert json.loads(text) == value


@given(name=st.text(min_size=1))
def test_type_prefix_splits_only_for_known_types(name: str) -> None:
    assert split_ref(f"Person:{name}", TYPES) == ("Person", name)
    assert split_ref(f"Chat_Exchange:{name}", TYPES) == ("Chat_Exchange", name)
    if ":" not in name or name.partition(":")[0] not in TYPES:
        assert split_ref(name, TYPES) == name


def test_every_builtin_command_is_registered() -> None:
    for name in COMMANDS:
        assert brain_group.get_command(None, name) is not None, name  # type: ignore[arg-type]
    listed = brain_group.list_commands(None)  # type: ignore[arg-type]
    assert set(COMMANDS) <= set(listed)
    assert set(listed) - set(COMMANDS) <= set(OPTIONAL_COMMANDS)


def test_help_lists_the_commands(cli: BrainCli) -> None:
    out = cli.ok("--help").out
    for name in (
        "init",
        "demo",
        "add",
        "relate",
        "show",
        "search",
        "recall",
        "types",
        "stats",
        "export",
        "import",
        "index",
        "delete",
    ):
        assert f"  {name} " in out, name
    assert "0.1.0" in cli.ok("--version").out


def _stop(proc: subprocess.Popen[bytes]) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err.decode()


def test_ctrl_c_stops_a_long_index_run_cleanly(cli: BrainCli, tmp_path: Path) -> None:
    file = tmp_path / "many.jsonl"
    rows = (
        json.dumps(
            {"kind": "entity", "type": "Topic", "name": f"topic {i}", "description": "t" * 40}
        )
        for i in range(30_000)
    )
    file.write_text("\n".join(rows))
    cli.ok("import", str(file), "--no-embed")
    proc = subprocess.Popen([*COMMAND, "index"], env=cli.env, stderr=subprocess.PIPE)
    # Interrupt once the first vectors are written: a fixed delay raced a fast machine,
    # which finished all 30k before the signal came.
    db = sqlite3.connect(cli.home / "brain.db")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]:
            break
        time.sleep(0.005)
    db.close()
    code, err = _stop(proc)
    assert code == 130
    assert err.strip().splitlines()[-1].startswith("brain: interrupted: kept")
    assert "Traceback" not in err
    # It stopped part-way instead of finishing first, and the brain still works.
    stats = cli.ok("stats", "--json").json()
    assert stats["entities"] == 30_000
    assert stats["pending_vectors"] > 0
