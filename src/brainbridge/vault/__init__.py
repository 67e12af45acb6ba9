"""The notes vault: Markdown folders (Obsidian-style) indexed into the brain.

Names load on first use: `brain_context` (every SessionStart hook) needs only
`parse.excerpt`, not the importer, the watcher or YAML.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_EXPORTS = {
    "ImportReport": "brainbridge.vault.importer",
    "import_notes": "brainbridge.vault.importer",
    "watch_notes": "brainbridge.vault.importer",
    "Note": "brainbridge.vault.parse",
    "excerpt": "brainbridge.vault.parse",
    "parse_note": "brainbridge.vault.parse",
    "slugify": "brainbridge.vault.parse",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'brainbridge.vault' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
