"""A key typed in a prompt is redacted in the bridge log (its queries quote the prompt) and
in `brain export`, not only in the stored exchange (issue #31)."""

from __future__ import annotations

import json
import random
import sqlite3
import string
import subprocess
from contextlib import closing
from pathlib import Path

import pytest

from api.served import serve_env
from cli.runner import COMMAND
from hooks.conftest import fresh_session, prompt_payload, run_hook

_RNG = random.Random(31)
_ALNUM = string.ascii_letters + string.digits


def _random(n: int) -> str:
    return "".join(_RNG.choice(_ALNUM) for _ in range(n))


# Synthetic keys of the providers' published shapes (random characters, never real keys).
KEYS = {
    "github": "ghp_" + _random(36),
    "openai": "sk-proj-" + _random(48),
    "anthropic": "sk-ant-api03-" + _random(93) + "AA",
    "stripe": "sk_live_" + _random(24),
    "google": "AIza" + _random(35),
}


@pytest.mark.parametrize("provider", sorted(KEYS))
def test_a_key_in_a_prompt_is_not_kept_in_the_bridge_log_nor_exported(
    seeded_home: Path, provider: str
) -> None:
    key = KEYS[provider]
    session = fresh_session()
    prompt = f"Why does the Acme Robotics deploy fail with {key} as the key for the cohort?"
    run_hook("prompt", prompt_payload(prompt, session), seeded_home)

    with closing(sqlite3.connect(seeded_home / "brain.db")) as conn:
        logged = [
            r[0]
            for r in conn.execute("SELECT entry FROM bridge_log WHERE session_id = ?", (session,))
        ]
    assert logged, "the prompt hook logged its turn"
    assert any(json.loads(e).get("queries") for e in logged), logged
    assert key not in "".join(logged)

    exported = subprocess.run(
        [*COMMAND, "export"], capture_output=True, env=serve_env(seeded_home), timeout=120
    )
    assert exported.returncode == 0, exported.stderr
    assert session in exported.stdout.decode()
    assert key not in exported.stdout.decode()
