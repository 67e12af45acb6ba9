"""Plain-text renderings of brain results for MCP clients."""

from __future__ import annotations

from typing import Any

from brainbridge.model import CHAT_EXCHANGE, Hit, Subgraph
from brainbridge.sanitise import inline

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
        lines.append(f"{i}. {_name(e.name)} ({inline(e.type)}): {inline(e.description, 400)}")
    return "\n".join(lines)


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
