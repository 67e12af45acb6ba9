"""The curator's files under several writer processes: whole lines, nothing lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from brainbridge.curator.files import SessionGuard, add_to_day, append_line, read_day, read_lines

WRITERS = 6
LINES = 150


def run_processes(code: str, *args: str, count: int) -> None:
    """Start `count` Python processes running `code` together and wait for all."""
    procs = [
        subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), str(i), *args])
        for i in range(count)
    ]
    for proc in procs:
        assert proc.wait(timeout=120) == 0


def test_concurrent_appends_from_processes_are_whole_and_all_there(tmp_path: Path) -> None:
    target = tmp_path / "Daily" / ".activity" / "2026-03-14.jsonl"
    run_processes(
        """
        import sys
        from pathlib import Path
        from brainbridge.curator.files import append_line
        writer, path, lines = int(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
        for i in range(lines):
            # Some lines are far longer than PIPE_BUF, where plain O_APPEND gives no promise.
            append_line(path, {"writer": writer, "i": i, "pad": "é" * (i % 7) * 1500})
        """,
        str(target),
        str(LINES),
        count=WRITERS,
    )

    raw = target.read_bytes().splitlines()
    entries = [json.loads(line) for line in raw]  # every line parses: none torn or merged
    assert len(entries) == WRITERS * LINES
    assert {(e["writer"], e["i"]) for e in entries} == {
        (w, i) for w in range(WRITERS) for i in range(LINES)
    }
    for writer in range(WRITERS):  # each writer's lines stay in its own order
        mine = [e["i"] for e in entries if e["writer"] == writer]
        assert mine == sorted(mine)


def test_a_line_torn_by_a_dead_writer_does_not_swallow_the_next(tmp_path: Path) -> None:
    target = tmp_path / "log.jsonl"
    target.write_bytes(b'{"ok": 1}\n{"half": "writ')

    append_line(target, {"ok": 2})

    assert read_lines(target) == [{"ok": 1}, {"ok": 2}]
    assert target.read_bytes().endswith(b'\n{"ok":2}\n')


def test_day_record_stays_valid_under_concurrent_writers(tmp_path: Path) -> None:
    record = tmp_path / "2026-03-14.curator.json"
    run_processes(
        """
        import sys
        from pathlib import Path
        from brainbridge.curator.files import add_to_day
        writer, path = int(sys.argv[1]), Path(sys.argv[2])
        for i in range(40):
            add_to_day(path, {"session_id": f"w{writer}", "i": i}, keep=1000)
        """,
        str(record),
        count=4,
    )

    runs = read_day(record)
    assert len(runs) == 160
    assert json.loads(record.read_text())["date"] == "2026-03-14"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_day_record_keeps_the_latest_runs(tmp_path: Path) -> None:
    record = tmp_path / "2026-03-14.curator.json"
    for i in range(5):
        add_to_day(record, {"i": i}, keep=3)
    assert [r["i"] for r in read_day(record)] == [2, 3, 4]


def test_a_damaged_day_record_reads_as_empty(tmp_path: Path) -> None:
    record = tmp_path / "2026-03-14.curator.json"
    record.write_text("{not json")
    assert read_day(record) == []
    add_to_day(record, {"i": 1})
    assert read_day(record) == [{"i": 1}]


def test_session_guard_excludes_another_process(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
                import sys
                from pathlib import Path
                from brainbridge.curator.files import SessionGuard
                guard = SessionGuard(Path(sys.argv[1]), "s-1")
                assert guard.try_acquire()
                print("held", flush=True)
                sys.stdin.readline()
                """
            ),
            str(tmp_path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        mine = SessionGuard(tmp_path, "s-1")
        assert not mine.try_acquire()
        assert not mine.acquire(timeout=0.2)
        other = SessionGuard(tmp_path, "s-2")
        assert other.try_acquire()  # other sessions are free
        other.release()
    finally:
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
        holder.stdout.close()
    assert mine.acquire(timeout=10)  # released when its holder exits
    mine.release()


def test_session_guard_pending_mark(tmp_path: Path) -> None:
    a, b = SessionGuard(tmp_path, "s-1"), SessionGuard(tmp_path, "s-1")
    assert a.try_acquire()
    assert not b.try_acquire()
    b.mark_pending()
    assert a.has_pending() and a.take_pending()
    assert not a.take_pending()
    a.release()
    assert b.try_acquire()
    b.release()
    assert not any(p.name.endswith(".pending") for p in a.lock_path.parent.iterdir())
    assert os.listdir(a.lock_path.parent)  # only lock files remain
