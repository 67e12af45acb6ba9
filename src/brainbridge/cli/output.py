"""Rendering for people (rich tables, plain when piped) and for machines (JSON)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, ConsoleOptions, RenderableType, RenderHook, RenderResult
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from brainbridge.model import no_longer_holds
from brainbridge.sanitise import printable

if TYPE_CHECKING:
    from brainbridge.model import Entity, Hit, Subgraph

_out: Console | None = None
_err: Console | None = None


class _Printable:
    """A renderable whose text reaches the terminal with control characters escaped."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            if segment.control:  # rich's own cursor moves (progress bars) stay as they are
                yield segment
            else:
                yield Segment(printable(segment.text), segment.style)


class _Escaping(RenderHook):
    """Stored names and texts may hold terminal escapes or bidi overrides: a console with
    this hook shows them as `\\x1b`, `\\u202e` instead of acting on them."""

    def process_renderables(self, renderables: list[Any]) -> list[Any]:
        return [_Printable(r) for r in renderables]


def _console(**options: Any) -> Console:
    console = Console(highlight=False, **options)
    console.push_render_hook(_Escaping())
    return console


def out() -> Console:
    """The stdout console; rich drops colour and styles when stdout is not a terminal."""
    global _out
    if _out is None:
        _out = _console(soft_wrap=False)
    return _out


def err() -> Console:
    """The stderr console, for notes, hints and progress bars."""
    global _err
    if _err is None:
        _err = _console(stderr=True)
    return _err


def say(text: Text | str) -> None:
    """One message line on stdout, never wrapped (paths and commands stay copyable)."""
    out().print(text, soft_wrap=True)


def note(message: str) -> None:
    """A one-line remark on stderr (never mixed into data on stdout)."""
    err().print(Text(message, style="dim"), soft_wrap=True)


def emit_json(data: Any) -> None:
    """Write `data` as JSON (UTF-8 whatever the locale) to stdout."""
    write_utf8(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def write_utf8(text: str) -> None:
    """Write text to stdout as UTF-8 bytes."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8", "replace"))
    sys.stdout.buffer.flush()


def clip(text: str, limit: int) -> str:
    """One line of at most `limit` characters, cut after a whole word with an ellipsis."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    # A word is kept whole unless it alone fills most of the room (a long id or URL).
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + "…"


# Below this width a table of several text columns leaves each a few characters: such
# listings print one record per item instead, its fields on lines of their own.
NARROW = 100


def narrow() -> bool:
    """Whether the terminal is too narrow for a listing's table."""
    return out().width < NARROW


def record(head: Text, *lines: Text) -> RenderableType:
    """One item of a listing on a narrow terminal: a bold head, then its fields indented."""
    from rich.console import Group
    from rich.padding import Padding

    return Group(head, *(Padding(line, (0, 0, 0, 2)) for line in lines if line.plain))


def ref(entity: Entity) -> Text:
    """`Type:Name`, with the type dimmed."""
    text = Text(f"{entity.type}:", style="dim")
    text.append(entity.name, style="bold")
    return text


def hits_table(hits: Sequence[Hit], title: str | None = None) -> Table:
    """Ranked hits with score and the retrievers that found each one."""
    table = Table(title=title, title_justify="left", expand=True, box=box.SIMPLE_HEAD)
    table.add_column("#", justify="right", style="dim")
    widest = max((len(w) for h in hits for w in (h.entity.type, h.entity.name)), default=6)
    table.add_column("entity", overflow="fold", width=min(widest, 22))
    table.add_column("description", overflow="fold", ratio=1, min_width=24)
    table.add_column("score", justify="right")
    table.add_column("found by", style="magenta", no_wrap=True)
    for i, hit in enumerate(hits, start=1):
        ent = hit.entity
        label = Text(ent.type, style="cyan").append("\n").append(ent.name, style="bold")
        shown = Text(clip(ent.description, 100))
        if gone := no_longer_holds(ent):
            shown.append(f" [{clip(gone, 300)}]", style="yellow")
        table.add_row(
            str(i),
            label,
            shown,
            f"{hit.score:.4f}",
            Text("\n".join(hit.retrievers)),
        )
    return table


def print_hits(hits: Sequence[Hit], query: str, title: str | None = None) -> None:
    """A hits table, or a line saying nothing cleared the relevance floor."""
    if not hits:
        say(Text(f"No results for {clip(query, 80)!r}.", style="yellow"))
        return
    out().print(hits_table(hits, title))


def entity_table(entity: Entity) -> Table:
    """Every field of one entity, attributes included."""
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="dim", no_wrap=True)
    table.add_column(overflow="fold")
    table.add_row("entity", ref(entity))
    table.add_row("description", Text(entity.description or "—"))
    for key, value in sorted(entity.attributes.items()):
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        table.add_row(Text(key), Text(clip(shown, 600)))
    table.add_row("created", entity.created_at)
    table.add_row("updated", entity.updated_at)
    return table


def subgraph_tables(root: Entity, graph: Subgraph) -> list[Table]:
    """The relations around `root` and the entities they reach."""
    own = (root.type, root.name)
    mine = [e for e in graph.edges if own in ((e.src_type, e.src_name), (e.dst_type, e.dst_name))]
    # An edge between two of its neighbours is not a relation of the entity: listed apart.
    others = [e for e in graph.edges if e not in mine]
    tables = [_edges_table("relations", mine)]
    if others:
        tables.append(_edges_table("between its neighbours", others))
    nodes = Table(title="neighbourhood", title_justify="left", expand=True)
    nodes.add_column("type", style="cyan", no_wrap=True)
    nodes.add_column("name", style="bold", overflow="fold", max_width=32)
    nodes.add_column("description", overflow="fold", ratio=1)
    for node in graph.nodes:
        if node.id != root.id:
            nodes.add_row(Text(node.type), Text(node.name), Text(clip(node.description, 120)))
    return [t for t in (*tables, nodes) if t.row_count]


def _edges_table(title: str, edges: Sequence[Any]) -> Table:
    """Edges as from / relation / to rows."""
    rels = Table(title=title, title_justify="left")
    rels.add_column("from", overflow="fold")
    rels.add_column("relation", style="magenta")
    rels.add_column("to", overflow="fold")
    for edge in edges:
        rels.add_row(
            Text(f"{edge.src_type}:{edge.src_name}"),
            Text(edge.type),
            Text(f"{edge.dst_type}:{edge.dst_name}"),
        )
    return rels


def types_table(types: dict[str, dict[str, Any]]) -> Table:
    """Entity types with their declared attributes."""
    table = Table(title="entity types", title_justify="left", expand=True)
    table.add_column("type", style="cyan", no_wrap=True)
    table.add_column("description", overflow="fold", ratio=1)
    table.add_column("attributes", overflow="fold", ratio=1)
    for name, spec in sorted(types.items()):
        attrs = []
        for attr, aspec in spec.get("attributes", {}).items():
            kind = aspec.get("type", "string")
            if aspec.get("enum"):
                kind += f" ({' | '.join(map(str, aspec['enum']))})"
            attrs.append(f"{attr}: {kind}")
        if not spec.get("additional_attributes", True):
            attrs.append("(no other attributes)")
        table.add_row(Text(name), Text(spec.get("description", "")), Text("\n".join(attrs)))
    return table


def stats_table(stats: dict[str, Any], path: str) -> Table:
    """Counts, per type and overall."""
    where = f"in {path}" if "://" in path else f"at {path}"
    table = Table(title=f"brain {where}", title_justify="left", show_header=False)
    table.add_column(style="dim")
    table.add_column(justify="right")
    for etype, count in stats.get("entities_by_type", {}).items():
        table.add_row(Text(f"  {etype}"), str(count))
    table.add_row("entities", str(stats.get("entities", 0)))
    for key in ("knowledge", "exchanges", "sessions", "relations", "vectors", "pending_vectors"):
        if stats.get(key) is not None:
            table.add_row(key.replace("_", " "), str(stats[key]))
    table.add_row("embedder", Text(str(stats.get("embedder", "none"))))
    calls = stats.get("llm_calls")
    if calls:
        table.add_row("LLM calls, last hour", f"{calls['last_hour']} of {calls['max_per_hour']}")
        table.add_row("LLM calls, last 24 h", f"{calls['last_24h']} of {calls['max_per_day']}")
        table.add_row("LLM calls capped, 24 h", str(calls["capped_24h"]))
    table.add_row("size", human_bytes(int(stats.get("bytes", 0))))
    return table


def human_bytes(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"
