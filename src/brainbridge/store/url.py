"""The PostgreSQL database a brain folder names, if any: `BRAIN_DATABASE_URL`, else
`[database] url` in the folder's config.toml; writing it there, showing it without its
password. Configuration only: opening the database is `store/location.py`."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from brainbridge.errors import InvalidInput
from brainbridge.home import CONFIG_FILE, read_config

log = logging.getLogger(__name__)

ENV = "BRAIN_DATABASE_URL"
SCHEMES = ("postgresql://", "postgres://")


def database_url(folder: Path, env: Mapping[str, str] | None = None) -> str | None:
    """The PostgreSQL URL this brain uses, or None for the SQLite file in `folder`.

    Raises: InvalidInput for a URL that is not a postgresql:// one.
    """
    env = os.environ if env is None else env
    url = env.get(ENV, "").strip()
    source = f"environment variable {ENV}"
    if not url:
        try:
            config = read_config(folder / CONFIG_FILE)
        except InvalidInput as exc:
            # As for every other setting, a config.toml that cannot be read leaves the
            # defaults (the hooks must not fail); the CLI reports the file itself.
            log.warning("%s; the brain file is used", exc)
            config = {}
        table = config.get("database") or {}
        url = str(table.get("url") or "").strip() if isinstance(table, dict) else ""
        source = f"{folder / CONFIG_FILE}: database.url"
    if not url:
        return None
    if not url.startswith(SCHEMES):
        raise InvalidInput(f"{source} must start with postgresql:// (got {url.split(':')[0]}:)")
    return url


def redact_url(url: str) -> str:
    """A database URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if not parts.password:  # none, or empty (`postgres:@`): nothing to hide
        return url
    user = f"{parts.username}:***@" if parts.username else ":***@"
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=user + host))


def remember_url(folder: Path, url: str) -> Path:
    """Write `[database] url` into the folder's config.toml (replacing one set before), so
    every entry point opened on this folder uses the database. The file is made readable
    by its owner only when the URL holds a password.

    Raises: InvalidInput for a URL that is not a postgresql:// one.
    """
    if not url.startswith(SCHEMES):
        raise InvalidInput(
            f"a database URL must start with postgresql:// (got {url.split(':')[0]}:)"
        )
    file = folder / CONFIG_FILE
    lines = file.read_text("utf-8").splitlines() if file.exists() else []
    entry = f"url = {json.dumps(url)}"
    start = next((i for i, line in enumerate(lines) if line.strip() == "[database]"), None)
    if start is None:
        lines += ["", "[database]", entry]
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")),
            len(lines),
        )
        body = [line for line in lines[start + 1 : end] if not line.strip().startswith("url")]
        lines[start + 1 : end] = [entry, *body]
    file.write_text("\n".join(lines).lstrip("\n") + "\n", "utf-8")
    if urlsplit(url).password:
        file.chmod(0o600)
    return file
