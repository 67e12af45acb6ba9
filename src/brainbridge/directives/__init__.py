"""The directive bridge: an admin's standing guidance carried into autonomous runs.

`DirectiveBridge(store).add_message(...)` records chat messages; `build(now=...)`
returns a `DirectiveContext` whose `.text` is the budgeted guidance to inject and
whose `.stats` say what the build kept, dropped and cut.

Exports load on first use. The value types live in `brainbridge.model.directives`, below
the stores that keep them.
"""

from __future__ import annotations

from brainbridge.lazy import lazy_exports

_EXPORTS = {
    "DirectiveBridge": "brainbridge.directives.bridge",
    "Budget": "brainbridge.model.directives",
    "Category": "brainbridge.model.directives",
    "DirectiveConfig": "brainbridge.model.directives",
    "DirectiveContext": "brainbridge.model.directives",
    "DirectiveStats": "brainbridge.model.directives",
    "RoomKind": "brainbridge.model.directives",
    "SourceKind": "brainbridge.model.directives",
    "State": "brainbridge.model.directives",
    "classify": "brainbridge.directives.classify",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS)
