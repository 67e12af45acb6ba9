"""Plain-text renderings of brain results for MCP clients."""

from __future__ import annotations

from typing import Any

from brainbridge.model import Hit, Subgraph

# Long or bookkeeping attributes an agent has no use for in a summary.
_HIDDEN = frozenset({"body", "content_hash", "vault"})


def hits_text(hits: list[Hit], query: str) -> str:
    if not hits:
        return f"Nothing in the brain matches {query!r}."
    lines = [f"{len(hits)} result{'s' * (len(hits) != 1)} for {query!r}:"]
    for i, h in enumerate(hits, 1):
        e = h.entity
        lines.append(f"{i}. {e.name} ({e.type}): {e.description[:400]}")
    return "\n".join(lines)


def entity_text(sub: Subgraph) -> str:
    root, *rest = sub.nodes
    lines = [f"{root.name} ({root.type})", root.description]
    attrs = {k: v for k, v in root.attributes.items() if k not in _HIDDEN}
    if attrs:
        lines.append("Attributes: " + "; ".join(f"{k}={str(v)[:120]}" for k, v in attrs.items()))
    if sub.edges:
        lines.append("Relations:")
        lines += [f"- {r.src_name} -{r.type}-> {r.dst_name}" for r in sub.edges]
    if rest:
        lines.append("Nearby: " + ", ".join(f"{n.name} ({n.type})" for n in rest[:20]))
    return "\n".join(line for line in lines if line)


def context_text(entries: list[dict[str, Any]], project_root: str) -> str:
    if not entries:
        return f"The brain has nothing on the project at {project_root}."
    lines = [f"Brain context for {project_root}:"]
    for e in entries:
        where = f" [{e['doc_path']}]" if e.get("doc_path") else ""
        lines.append(f"- {e['title']} ({e['type']}){where}: {e['excerpt']}")
    return "\n".join(lines)
