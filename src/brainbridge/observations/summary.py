"""A session's observations in one line for the curator: "Edited api/auth.py; fixed the
failing test (pytest tests/test_auth.py)"."""

from __future__ import annotations

from collections.abc import Sequence

from brainbridge.model import Entity

MAX_FILES = 4


def work_summary(observations: Sequence[Entity], max_chars: int = 300) -> str:
    """What the agent did, oldest first: files edited, tests fixed or still failing,
    commands that failed; "" when it only looked around."""
    edited: list[str] = []
    parts: list[str] = []
    for obs in sorted(observations, key=lambda e: e.id):
        attrs = obs.attributes
        kind = attrs.get("kind")
        states = [s for s in attrs.get("states") or [] if isinstance(s, str)]
        command = str(attrs.get("command") or "").split("\n", 1)[0][:80]
        error = str(attrs.get("error") or "")
        if kind == "edit":
            edited += [f for f in attrs.get("files") or [] if f not in edited]
        elif kind in ("test", "command") and states:
            what = "test" if kind == "test" else "command"
            if states[-1] != "failed" and "failed" in states:
                parts.append(f"fixed the failing {what} ({command})")
            elif states[-1] == "failed":
                parts.append(f"{command} still fails" + (f": {error}" if error else ""))
            elif kind == "test":
                parts.append(f"tests pass ({command})")
    if edited:
        shown = ", ".join(edited[:MAX_FILES])
        more = len(edited) - MAX_FILES
        parts.insert(0, f"edited {shown}" + (f" and {more} more" if more > 0 else ""))
    text = "; ".join(dict.fromkeys(parts))
    text = text[:1].upper() + text[1:]
    return text if len(text) <= max_chars else text[: max_chars - 1].rsplit(" ", 1)[0] + "…"
