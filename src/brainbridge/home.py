"""The brain folder: where it is and what a fresh one contains."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from brainbridge.errors import InvalidInput
from brainbridge.types import TYPES_FILE, default_types_yaml

DB_FILE = "brain.db"
CONFIG_FILE = "config.toml"

DEFAULT_CONFIG = """\
# brainbridge settings. Environment variables override these.
[llm]
# provider = "anthropic"        # or "openai" for any OpenAI-compatible server (Ollama, vLLM)
# model = "claude-haiku-4-5"
# base_url = "http://localhost:11434/v1"

[search]
# embedder = "auto"             # "minilm", "hashing" or "none"

[bridge]
# budget_tokens = 1500
"""


def brain_home(env: Mapping[str, str] | None = None) -> Path:
    """`$BRAIN_HOME`, else `~/.brain`."""
    env = os.environ if env is None else env
    return Path(env.get("BRAIN_HOME") or Path.home() / ".brain").expanduser()


def init_home(path: Path) -> list[Path]:
    """Create the brain folder layout without touching existing files; return what was made."""
    made = []
    for folder in (path, path / "Daily", path / "Daily" / ".activity"):
        if not folder.exists():
            folder.mkdir(parents=True, exist_ok=True)  # another process may race us here
            made.append(folder)
    for name, text in ((TYPES_FILE, default_types_yaml()), (CONFIG_FILE, DEFAULT_CONFIG)):
        target = path / name
        if target.exists():
            continue
        # Write aside, then link into place: readers never see half a file, and a
        # file another process created first is kept.
        tmp = path / f".{name}.{os.getpid()}.tmp"
        tmp.write_text(text, "utf-8")
        try:
            os.link(tmp, target)
            made.append(target)
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    return made


def read_config(file: Path) -> dict[str, Any]:
    """The parsed TOML at `file`, or {} if there is none.

    Raises: InvalidInput naming the file and the position of a syntax error.
    """
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise InvalidInput(f"cannot read {file}: {exc.strerror or exc}") from exc
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{file}: not valid UTF-8 (byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{file}: not valid TOML: {exc}") from exc
