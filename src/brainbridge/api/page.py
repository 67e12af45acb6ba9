"""The web app's files (`api/web/`: one page, its script and its style), read once.

No build step and nothing from npm: plain HTML, CSS and a JavaScript module that talks to
the same JSON API as everything else, so `pip install` is the whole install.
"""

from __future__ import annotations

import functools
from importlib import resources


@functools.cache
def web_file(name: str) -> str:
    """The text of `api/web/<name>`."""
    return (resources.files("brainbridge.api") / "web" / name).read_text("utf-8")
