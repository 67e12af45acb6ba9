"""The reliability suite (tests/reliability) run long: writers on every front at once,
kill -9 at random moments during import, index, observe and curate, a full disk and a
read-only folder. Reports what each part did and found; errors and records lost must be 0.

Run: python -m benchmarks --only soak   (--quick runs the suite at CI size)
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_LABELS = {
    "test_cli_hooks_mcp_and_http_writing_at_once_lose_nothing": "writers: CLI + hooks + MCP + HTTP at once",
    "test_import_killed_at_random_then_run_again_stores_each_line_once": "kill -9 during import",
    "test_index_killed_at_random_then_run_again_gives_every_entity_one_vector": "kill -9 during index",
    "test_drainer_killed_at_random_then_run_again_stores_each_turn_once": "kill -9 during observe (Stop drainer)",
    "test_curate_killed_at_random_then_run_again_titles_the_session": "kill -9 during curate",
    "test_a_file_size_limit_stops_an_import_with_a_clear_error_and_loses_nothing": "full disk (file size limit)",
    "test_a_full_disk_stops_an_import_with_a_clear_error_and_loses_nothing": "full disk (2 MB tmpfs)",
    "test_a_read_only_brain_answers_reads_refuses_writes_clearly_and_loses_nothing": "read-only folder",
}


def run(quick: bool = False) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "soak.json"
        argv = [
            sys.executable,
            "-m",
            "pytest",
            "tests/reliability",
            "-n0",  # one process: the figures in one report, the load the soak sets
            "-p",
            "no:cacheprovider",
            "--soak-report",
            str(report),
            *([] if quick else ["--soak"]),
        ]
        proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=3600)
        rows = json.loads(report.read_text()) if report.exists() else []
    tail = proc.stdout.strip().splitlines()[-1:] if proc.stdout.strip() else ["(no output)"]
    lines = [
        f"`{' '.join(['pytest', 'tests/reliability', *([] if quick else ['--soak'])])}`: {tail[0]}",
        "",
        "| part | processes | operations | kills | errors | records lost |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        label = _LABELS.get(r["test"], r["test"])
        lines.append(
            f"| {label} | {r['processes']} | {r['operations']} | {r['kills']} | {r['errors']} "
            f"| {r['lost']} |"
        )
    total = {
        k: sum(r[k] for r in rows) for k in ("processes", "operations", "kills", "errors", "lost")
    }
    lines.append(
        f"| **all** | {total['processes']} | {total['operations']} | {total['kills']} "
        f"| {total['errors']} | {total['lost']} |"
    )
    missing = sorted(set(_LABELS) - {r["test"] for r in rows})
    if missing:
        lines += ["", "Not run here (skipped or failed): " + ", ".join(_LABELS[m] for m in missing)]
    if proc.returncode != 0:
        lines += ["", "```", *proc.stdout.strip().splitlines()[-30:], "```"]
    lines += [
        "",
        "Operations: entities, relations and turns written (writers); runs started (kills); "
        "writes attempted against the limit (full disk, read-only). After every kill the brain "
        "passed `brain check`; the job run again stored exactly what one clean run stores.",
    ]
    return "\n".join(lines)
