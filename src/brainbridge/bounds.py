"""The one set of bounds on numbers and nesting that outside input must respect.

Every door (HTTP bodies, query and path parameters, MCP tool arguments, hook payloads)
checks against these, so a number no database column can hold or a JSON value nested
deep enough to exhaust the parser's stack is refused with a clear message at the edge,
never a 500 or a hang deeper in. Stdlib only: hooks import it cold.
"""

from __future__ import annotations

import json

from brainbridge.errors import InvalidInput

TYPE_CHECKING = False  # typing is not imported: `brain mcp` answers before it would load
if TYPE_CHECKING:
    from typing import Any

# Exchange numbers, ids, offsets and limits: far above any real brain, far below the
# 64-bit columns they land in (and their neighbours, n ± a few, stay in range too).
MAX_NUMBER = 2**31 - 1
# Attributes, hook payloads, tool arguments: real ones nest three or four levels.
MAX_DEPTH = 32
# The largest integer SQLite and PostgreSQL (bigint) store.
MAX_STORED = 2**63 - 1


class TooDeep(InvalidInput):
    """A JSON value nests deeper than MAX_DEPTH levels."""


def depth_of(value: Any, stop: int = MAX_DEPTH + 1) -> int:
    """How deeply lists and dicts nest in `value` (a scalar is 0), counted up to `stop`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list | tuple):
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest >= stop:
            return deepest
        stack.extend((child, level) for child in item)
    return deepest


def check_depth(value: Any, what: str = "the input") -> Any:
    """`value` itself when it nests at most MAX_DEPTH levels.

    Raises: TooDeep when it nests deeper.
    """
    if depth_of(value) > MAX_DEPTH:
        raise TooDeep(f"{what} nests deeper than {MAX_DEPTH} levels")
    return value


def load_json(raw: str | bytes, what: str = "the body") -> Any:
    """Parse JSON nested at most MAX_DEPTH levels.

    Raises: TooDeep when it nests deeper; InvalidInput for text that is not JSON.
    """
    try:
        value = json.loads(raw)
    except RecursionError:
        raise TooDeep(f"{what} nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise InvalidInput(f"{what} is not valid JSON ({exc})") from None
    return check_depth(value, what)
