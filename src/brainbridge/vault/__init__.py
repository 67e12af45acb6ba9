"""The notes vault: Markdown folders (Obsidian-style) indexed into the brain."""

from brainbridge.vault.importer import ImportReport, import_notes, watch_notes
from brainbridge.vault.parse import Note, excerpt, parse_note, slugify

__all__ = [
    "ImportReport",
    "Note",
    "excerpt",
    "import_notes",
    "parse_note",
    "slugify",
    "watch_notes",
]
