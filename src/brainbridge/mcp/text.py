"""Plain-text renderings of brain results for MCP clients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from brainbridge.model import CHAT_EXCHANGE, Hit, Subgraph, no_longer_holds
from brainbridge.sanitise import inline

if TYPE_CHECKING:
    from brainbridge.forget import Forgetting

MAX_LISTED = 40  # items a forget preview lists before "and N more"

# Long or bookkeeping attributes an agent has no use for in a summary.
_HIDDEN = frozenset({"body", "content_hash", "vault"})


def _name(name: str) -> str:
    """A stored name where it opens an item of the text."""
    return inline(name, opens_line=True)


def hits_text(hits: list[Hit], query: str) -> str:
    if not hits:
        return f"Nothing in the brain matches {query!r}."
    lines = [f"{len(hits)} result{'s' * (len(hits) != 1)} for {query!r}:"]
    for i, h in enumerate(hits, 1):
        e = h.entity
        lines.append(
            f"{i}. {_name(e.name)} ({inline(e.type)}): {inline(e.description, 400)}{_mark(h)}"
        )
    return "\n".join(lines)


def _mark(h: Hit) -> str:
    """' [<what> superseded on <day> by <name>]' for what no longer holds (in part), so an
    agent does not take it for current and can open what replaced it; "" while it holds."""
    gone = no_longer_holds(h.entity)
    return f" [{inline(gone, 300)}]" if gone else ""


def entity_text(sub: Subgraph) -> str:
    root, *rest = sub.nodes
    # An exchange's description opens with our own "User:" label, not with stored text.
    own_label = root.type == CHAT_EXCHANGE
    lines = [
        f"{_name(root.name)} ({inline(root.type)})",
        inline(root.description, opens_line=not own_label),
    ]
    attrs = {k: v for k, v in root.attributes.items() if k not in _HIDDEN}
    if attrs:
        lines.append(
            "Attributes: "
            + "; ".join(f"{inline(str(k))}={inline(str(v), 120)}" for k, v in attrs.items())
        )
    if sub.edges:
        lines.append("Relations:")
        lines += [
            f"- {_name(r.src_name)} -{inline(r.type)}-> {inline(r.dst_name)}" for r in sub.edges
        ]
    if rest:
        lines.append("Nearby: " + ", ".join(f"{inline(n.name)} ({n.type})" for n in rest[:20]))
    return "\n".join(line for line in lines if line)


def context_text(entries: list[dict[str, Any]], project_root: str) -> str:
    if not entries:
        return f"The brain has nothing on the project at {project_root}."
    lines = [f"Brain context for {inline(project_root)}:"]
    for e in entries:
        where = f" [{inline(e['doc_path'])}]" if e.get("doc_path") else ""
        lines.append(f"- {_name(e['title'])} ({inline(e['type'])}){where}: {inline(e['excerpt'])}")
    return "\n".join(lines)


def forget_text(plan: Forgetting, entity_type: str, name: str) -> str:
    """What a forget removed (or, previewed, would remove), for the agent to read."""
    shown = f"{entity_type} '{inline(name)}'"
    others = [e for e in plan.entities if (e.type, e.name) != (entity_type, name)]
    counts: dict[str, int] = {}
    for e in others:
        counts[e.type] = counts.get(e.type, 0) + 1
    extra = ", ".join(f"{n} {t}" for t, n in sorted(counts.items()))
    if plan.done:
        return f"Forgot {shown}" + (f" with {extra}." if extra else ".")
    lines = [f"Would forget {shown}" + (f" with {extra}:" if extra else ":")]
    lines += [f"- {_name(e.name)} ({inline(e.type)})" for e in plan.entities[:MAX_LISTED]]
    if len(plan.entities) > MAX_LISTED:
        lines.append(f"- and {len(plan.entities) - MAX_LISTED} more")
    c = plan.counts
    lines.append(f"({c['relations']} relations, {c['vectors']} vectors, {c['sessions']} sessions)")
    return "\n".join(lines)
