"""Running the real `brain` console script in a subprocess with a private environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCRIPT = Path(sys.executable).parent / "brain"
# The installed console script when there is one; `python -m` otherwise (same code path).
COMMAND = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "brainbridge.cli.main"]


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)


class BrainCli:
    """`brain` with a private environment: its own BRAIN_HOME and, by default, hashing vectors."""

    def __init__(self, home: Path, env: dict[str, str]) -> None:
        self.home = home
        self.env = env

    def __call__(
        self,
        *args: str,
        input: str | bytes | None = None,
        env: dict[str, str] | None = None,
        command: list[str] | None = None,
        timeout: float = 120,
    ) -> Result:
        data = input.encode("utf-8") if isinstance(input, str) else input
        proc = subprocess.run(
            [*(command or COMMAND), *args],
            input=data,
            capture_output=True,
            env={**self.env, **(env or {})},
            timeout=timeout,
        )
        result = Result(
            proc.returncode,
            proc.stdout.decode("utf-8"),
            proc.stderr.decode("utf-8", "replace"),
        )
        # Expected failures are one line on stderr, never a traceback.
        assert "Traceback" not in result.err, result.err
        return result

    def ok(self, *args: str, **kwargs: Any) -> Result:
        """Run and require exit code 0."""
        result = self(*args, **kwargs)
        assert result.code == 0, f"brain {' '.join(args)!r} exited {result.code}: {result.err}"
        return result


def clean_env(**extra: str) -> dict[str, str]:
    """The test process's environment without brain settings, provider keys or terminal size.

    BRAIN_DATABASE_URL stays: on the postgres backend it is the test's database (tests/pg.py).
    """
    drop = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "COLUMNS", "LINES", "TMPDIR")
    env = {
        k: v
        for k, v in os.environ.items()
        if (k == "BRAIN_DATABASE_URL" or not k.startswith("BRAIN_")) and k not in drop
    }
    return {**env, **extra}
