"""What a coding agent did: tool calls read as observations without an LLM.

`calls` reads one tool call (a Claude Code PostToolUse payload, or the same fields from
another agent) into a `ToolEvent`; `record` folds events into `Observation` entities
linked to their session and the project's `File` entities.
"""

from brainbridge.observations.calls import ToolEvent, tool_event

__all__ = ["ToolEvent", "tool_event"]
