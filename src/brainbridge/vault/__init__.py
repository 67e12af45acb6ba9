"""The notes vault: Markdown folders (Obsidian-style) indexed into the brain.

Names load on first use: `brain_context` (every SessionStart hook) needs only
`parse.excerpt`, not the importer, the watcher or YAML.
"""

from __future__ import annotations

from brainbridge.lazy import lazy_exports

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


__getattr__ = lazy_exports(__name__, _EXPORTS)
