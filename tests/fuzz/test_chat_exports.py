"""The export parsers on any JSON: conversations or InvalidInput, never another error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from brainbridge.chat_exports import chatgpt_conversations, claude_ai_conversations
from brainbridge.errors import InvalidInput

DATA = Path(__file__).parent.parent / "data" / "exports"
KEYS = st.sampled_from(
    [
        "mapping",
        "current_node",
        "id",
        "conversation_id",
        "title",
        "create_time",
        "message",
        "parent",
        "children",
        "author",
        "role",
        "content",
        "parts",
        "text",
        "metadata",
        "recipient",
        "uuid",
        "name",
        "chat_messages",
        "sender",
        "created_at",
        "type",
    ]
)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(KEYS | st.text(max_size=5), inner, max_size=5)
    ),
    max_leaves=40,
)


def _parsed_or_refused(parse: Any, data: Any) -> None:
    try:
        conversations = parse(data)
    except InvalidInput:
        return
    for conv in conversations:
        assert conv.session_id
        for turn in conv.turns:
            assert isinstance(turn.prompt, str) and isinstance(turn.reply, str)


@settings(max_examples=150, deadline=None)
@given(VALUES)
def test_any_json_is_parsed_or_refused(data: Any) -> None:
    _parsed_or_refused(chatgpt_conversations, data)
    _parsed_or_refused(claude_ai_conversations, data)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_real_export_with_a_value_swapped_is_parsed_or_refused(data: st.DataObject) -> None:
    for name, parse in (("chatgpt", chatgpt_conversations), ("claude_ai", claude_ai_conversations)):
        export = json.loads((DATA / name / "conversations.json").read_text("utf-8"))
        node: Any = export
        while isinstance(node, (dict, list)) and node:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            key = data.draw(st.sampled_from(keys))
            if data.draw(st.booleans()) or not isinstance(node[key], (dict, list)):
                node[key] = data.draw(VALUES)
                break
            node = node[key]
        _parsed_or_refused(parse, export)
