"""A full disk and a read-only brain folder: a clear one-line error, hooks that still exit 0,
reads that still answer, and nothing already stored lost.

A full disk is made two ways: a file size limit (RLIMIT_FSIZE, which any user may set, so
it always runs) and, where this user may mount, a real 2 MB tmpfs. A read-only folder is a
read-only bind mount when running as root (root ignores file modes) and `chmod a-w` as
any other user."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from reliability.rig import HOOKS, Rig, entity_lines

STORED = 300  # entities stored before the disk fills or the folder turns read-only


def _file_size_limit(limit: int):  # type: ignore[no-untyped-def]
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def _mount(*args: str) -> bool:
    try:
        return subprocess.run(["mount", *args], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _umount(target: Path) -> None:
    subprocess.run(["umount", str(target)], capture_output=True, timeout=30)


@contextmanager
def _tmpfs(target: Path, size: str) -> Iterator[None]:
    target.mkdir(parents=True)
    if os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(target)):
        pytest.skip("mounting a small tmpfs needs root and a mount namespace that allows it")
    try:
        yield
    finally:
        _umount(target)


def _seed(rig: Rig, tmp_path: Path) -> Path:
    seed = tmp_path / "seed.jsonl"
    seed.write_text(entity_lines("kept", STORED))
    rig.brain("import", str(seed))
    rig.run([*HOOKS, "stop"], input=_stop("Before the disk filled: the Orion launch is May 2."))
    rig.wait_drained()
    return seed


def _stop(prompt: str) -> bytes:
    return json.dumps(
        {
            "session_id": "limits",
            "transcript_path": "",
            "hook_event_name": "Stop",
            "prompt": prompt,
            "last_assistant_message": "Noted.",
        }
    ).encode()


def _nothing_lost(rig: Rig) -> None:
    rig.check()
    missing = {f"kept-{i}" for i in range(STORED)} - rig.names("Topic")
    [(exchanges,)] = rig.rows("SELECT count(*) FROM entities WHERE type = 'Chat_Exchange'")
    rig.figures.lost = len(missing) + (exchanges < 1)
    assert not missing and exchanges >= 1


def _fill(rig: Rig, tmp_path: Path, **popen: object) -> str:
    """Import more than fits; the one-line error it exits with."""
    big = tmp_path / "big.jsonl"
    big.write_text(entity_lines("overflow", 20_000))
    proc = rig.run(rig.argv("import", str(big)), expect=1, **popen)
    err = proc.stderr.decode("utf-8", "replace").strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert "disk is full or a file size limit" in err, err
    hook = rig.run([*HOOKS, "stop"], input=_stop("A turn while the disk is full."), **popen)
    assert hook.stdout == b""
    rig.figures.operations += 2
    return err


def test_a_file_size_limit_stops_an_import_with_a_clear_error_and_loses_nothing(
    rig: Rig, tmp_path: Path
) -> None:
    _seed(rig, tmp_path)
    limit = (rig.home / "brain.db").stat().st_size + 256 * 1024
    _fill(rig, tmp_path, preexec_fn=_file_size_limit(limit))
    _nothing_lost(rig)
    rig.brain("import", str(tmp_path / "big.jsonl"))  # room again: the import completes
    assert len(rig.names("Topic")) == STORED + 20_000


def test_a_full_disk_stops_an_import_with_a_clear_error_and_loses_nothing(
    rig: Rig, tmp_path: Path
) -> None:
    disk = tmp_path / "disk"
    with _tmpfs(disk, "3m"):
        rig.home = disk / "brain"
        rig.env["BRAIN_HOME"] = str(rig.home)
        _seed(rig, tmp_path)
        _fill(rig, tmp_path)
        _nothing_lost(rig)
        assert rig.brain("search", "kept-7", "--json")


@contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    if os.geteuid() == 0:
        if not (_mount("--bind", str(folder), str(folder))):
            pytest.skip("as root a read-only folder needs a bind mount, which is not allowed")
        try:
            if not _mount("-o", "remount,bind,ro", str(folder)):
                pytest.skip("remounting read-only is not allowed here")
            yield
        finally:
            _umount(folder)
        return
    modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")]}
    for p in modes:
        p.chmod(modes[p] & ~0o222)
    try:
        yield
    finally:
        for p, mode in modes.items():
            with suppress(OSError):
                p.chmod(mode)


def test_a_read_only_brain_answers_reads_refuses_writes_clearly_and_loses_nothing(
    rig: Rig, tmp_path: Path
) -> None:
    _seed(rig, tmp_path)
    with _read_only(rig.home):
        refused = rig.run(rig.argv("add", "Person", "Newcomer"), expect=1)
        err = refused.stderr.decode().strip()
        assert len(err.splitlines()) == 1 and "read-only" in err, err
        found = json.loads(rig.brain("search", "kept-7", "--json"))
        assert any(h["name"] == "kept-7" for h in found["results"]), found
        assert json.loads(rig.brain("stats", "--json"))["entities_by_type"]["Topic"] == STORED
        rig.check()
        exported = rig.brain("export").splitlines()
        assert len(exported) > STORED
        prompt = rig.run(
            [*HOOKS, "prompt"],
            input=json.dumps(
                {
                    "session_id": "limits",
                    "hook_event_name": "UserPromptSubmit",
                    "prompt": "When is the Orion launch again, remind me what we agreed?",
                }
            ).encode(),
        )
        assert prompt.returncode == 0
        stop = rig.run([*HOOKS, "stop"], input=_stop("A turn while the brain is read-only."))
        assert stop.stdout == b""
        rig.figures.operations += 7
    _nothing_lost(rig)
