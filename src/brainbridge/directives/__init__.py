"""The directive bridge: an admin's standing guidance carried into autonomous runs.

`DirectiveBridge(store).add_message(...)` records chat messages; `build(now=...)`
returns a `DirectiveContext` whose `.text` is the budgeted guidance to inject and
whose `.stats` say what the build kept, dropped and cut.

Exports load on first use, so the store can import `directives.model` cheaply.
"""

from __future__ import annotations

from brainbridge.lazy import lazy_exports

_EXPORTS = {
    "DirectiveBridge": "brainbridge.directives.bridge",
    "Budget": "brainbridge.directives.model",
    "Category": "brainbridge.directives.model",
    "DirectiveConfig": "brainbridge.directives.model",
    "DirectiveContext": "brainbridge.directives.model",
    "DirectiveStats": "brainbridge.directives.model",
    "RoomKind": "brainbridge.directives.model",
    "SourceKind": "brainbridge.directives.model",
    "State": "brainbridge.directives.model",
    "classify": "brainbridge.directives.classify",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)
