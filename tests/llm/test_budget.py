"""The LLM call caps hold when several processes count at once (hooks, drainers and a
server share one brain folder)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from brainbridge.llm.budget import CALLS_FILE, CallBudget, call_budget

TAKE = """
import sys
from pathlib import Path
from brainbridge.llm.budget import CallBudget
budget = CallBudget(Path(sys.argv[1]), per_hour=int(sys.argv[2]), per_day=1000)
print(sum(budget.take() is None for _ in range(int(sys.argv[3]))))
"""


def test_concurrent_processes_never_send_more_than_the_cap(tmp_path: Path) -> None:
    file = tmp_path / CALLS_FILE
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", TAKE, str(file), "25", "10"], stdout=subprocess.PIPE, text=True
        )
        for _ in range(6)
    ]
    sent = sum(int(p.communicate(timeout=120)[0]) for p in procs)
    assert sent == 25
    usage = CallBudget(file, per_hour=25).usage()
    assert usage["last_hour"] == 25 and usage["capped_24h"] == 35


def test_calls_older_than_an_hour_free_the_hourly_cap(tmp_path: Path) -> None:
    budget = CallBudget(tmp_path / CALLS_FILE, per_hour=1, per_day=2)
    assert budget.take(now=1_000_000.0) is None
    assert "hourly cap of 1" in (budget.take(now=1_000_010.0) or "")
    assert budget.take(now=1_003_700.0) is None
    assert "daily cap of 2" in (budget.take(now=1_007_400.0) or "")


def test_unusable_cap_values_take_the_defaults(tmp_path: Path) -> None:
    budget = call_budget(tmp_path, {"max_calls_per_hour": "ten", "max_calls_per_day": 0})
    assert budget.per_hour == CallBudget(tmp_path).per_hour and budget.per_day == 0
    assert budget.take() is not None  # 0: no background LLM call at all
