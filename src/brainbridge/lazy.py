"""Package attributes that load their module on first use (PEP 562 `__getattr__`).

Hooks and `brain mcp` start a fresh interpreter for every event: a package that
imported everything it exports would make each of them pay for all of it.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # `typing` itself costs ~10 ms on these paths
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def lazy_exports(package: str, exports: dict[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` that imports `exports[name]` when asked."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return __getattr__
