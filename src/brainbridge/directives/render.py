"""The injected text: two layers under hard character budgets, cut only between items.

Layer 1 (short-term): directives and objectives in force, high priority first, then
the most recently stated — the `directives` budget. People and trust claims have
their own `identity` budget. Layer 2 (continuity): where the guidance came from and
what happened to older intent (superseded, completed, expired, with dates) and what is
scheduled to start — the `continuity`
budget. Each section stops at the first item that does not fit; what was left out is
counted per section in the truncation reasons. Output depends only on the items,
the source, `now` and the budget, so the same input always gives the same bytes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import TypeVar

from brainbridge.model.directives import GUIDANCE, Budget, Category, Item, Source, State
from brainbridge.redact import redact_pii
from brainbridge.sanitise import inline

T = TypeVar("T")

HEAD_DIRECTIVES = "Standing guidance from your admin (newest first; ! = high priority):"
HEAD_PEOPLE = "People and trust, as your admin stated:"
SNIPPET = 48
_TRUST_FIRST = {Category.TRUST: 0, Category.ROLE: 1, Category.CONTACT: 2}


def display_text(text: str, limit: int) -> tuple[str, bool]:
    """One line of `text` through the sanitiser, secrets and personal data redacted, clipped."""
    flat = inline(text, opens_line=True, redact=redact_pii)
    if len(flat) <= limit:
        return flat, False
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:  # end on a word when one is near
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…", True


def _section(
    head: str, items: Sequence[T], line: Callable[[T], str], budget: int
) -> tuple[list[str], int]:
    """`head` and the lines of as many `items` as fit in `budget` chars (newlines counted),
    and how many items were left out. Lines are made only for items that are tried."""
    if not items or budget < len(head):
        return [], len(items)
    out = [head]
    used = len(head)
    for i, item in enumerate(items):
        text = line(item)
        if used + 1 + len(text) > budget:
            return out, len(items) - i
        out.append(text)
        used += 1 + len(text)
    return out, 0


def _directive_line(item: Item, budget: Budget, clipped: Counter[str]) -> str:
    text, cut = display_text(item.message.text, budget.item_max)
    clipped["item_clipped"] += cut
    kind = "Objective: " if item.category is Category.OBJECTIVE else ""
    tags = [f"#{item.id}"]
    if item.replaces:
        olds = ",".join(f"#{i}" for i in item.replaces)
        # The old wording stays out of this line (an agent could read it as current);
        # it is in the continuity note "#old superseded by #new".
        tags.append(f"CONFLICT: replaces {olds}")
    elif item.conflict:  # a replacement whose target was unclear: "may replace #3 or #5 …"
        tags.append(f"CONFLICT: {item.conflict}")
    if item.ends is not None:
        tags.append(f"until {item.ends:%a %Y-%m-%d}")
    if item.note.startswith("until #"):  # replaced from a later start: "until #9 takes over on …"
        tags.append(item.note)
    bang = "! " if item.priority else ""
    return f"- {bang}{item.last_seen:%Y-%m-%d} {kind}{text} [{'; '.join(tags)}]"


def _people_line(item: Item, budget: Budget, clipped: Counter[str]) -> str:
    text, cut = display_text(item.message.text, budget.item_max)
    clipped["item_clipped"] += cut
    extra = f"; replaces {','.join(f'#{i}' for i in item.replaces)}" if item.replaces else ""
    return f"- {text} [#{item.id}{extra}]"


def _history_line(item: Item) -> str:
    snippet, _ = display_text(item.message.text, SNIPPET)
    if item.state is State.SUPERSEDED:
        what = item.note.split(" (", 1)[0]  # "superseded by #n"
    elif item.state is State.COMPLETED:
        what = "completed"
    elif item.state is State.SCHEDULED:
        what = f"starts {item.starts:%a %Y-%m-%d}" if item.starts else "scheduled"
    elif item.ends is not None:  # guidance with a stated end expires only by passing it
        what = f"expired: ended {item.ends:%a %Y-%m-%d}"
    else:
        what = "expired"
    return f"- #{item.id} {what}: {snippet}"


def _note_line(note: Item | str) -> str:
    return note if isinstance(note, str) else _history_line(note)


def render(
    items: tuple[Item, ...], source: Source, now: datetime, budget: Budget
) -> tuple[str, dict[str, int]]:
    """The guidance text and the truncation counts (reason -> items left out)."""
    truncated: Counter[str] = Counter()
    active = [i for i in items if i.state is State.ACTIVE]
    guidance = sorted(
        (i for i in active if i.category in GUIDANCE),
        key=lambda i: (-i.priority, -i.last_seen.timestamp(), -i.id),
    )
    people = sorted(
        (i for i in active if i.category in _TRUST_FIRST),
        key=lambda i: (_TRUST_FIRST[i.category], -i.message.at.timestamp(), -i.id),
    )
    # Notes that explain a CONFLICT mark shown above come first, then the newest.
    shown = {i.id for i in active}
    # Then what is about to start, then the newest.
    history = sorted(
        (i for i in items if i.state is not State.ACTIVE),
        key=lambda i: (i.superseded_by not in shown, i.state is not State.SCHEDULED, -i.id),
    )
    if not guidance and not people and not history:
        return "", {}

    sections: list[str] = []

    def room(size: int) -> int:
        return size - 1 if sections else size  # the newline joining it to the text above

    lines, left = _section(
        HEAD_DIRECTIVES,
        guidance,
        partial(_directive_line, budget=budget, clipped=truncated),
        room(budget.directives),
    )
    truncated["directives_budget"] += left
    if lines:
        sections.append("\n".join(lines))
    lines, left = _section(
        HEAD_PEOPLE,
        people,
        partial(_people_line, budget=budget, clipped=truncated),
        room(budget.identity),
    )
    truncated["identity_budget"] += left
    if lines:
        sections.append("\n".join(lines))

    head = f"Continuity (source: {inline(source.label)}; as of {now:%Y-%m-%d %H:%M} UTC):"
    hidden = truncated["directives_budget"] + truncated["identity_budget"]
    notes: list[Item | str] = []
    if hidden:
        notes.append(f"- {hidden} more {'item' if hidden == 1 else 'items'} not shown (budget)")
    notes += history or ["- nothing superseded, completed or expired"]
    lines, _ = _section(head, notes, _note_line, room(budget.continuity))
    # Count the history items left out; the summary lines are no items.
    truncated["continuity_budget"] += sum(
        isinstance(n, Item) for n in notes[max(0, len(lines) - 1) :]
    )
    if lines:
        sections.append("\n".join(lines))
    return "\n".join(sections), {k: v for k, v in sorted(truncated.items()) if v}
