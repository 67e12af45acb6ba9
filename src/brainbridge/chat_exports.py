"""Conversations from the official exports of ChatGPT and Claude.ai, as transcript turns.

Both services mail a `.zip` whose `conversations.json` is a list of conversations:

- ChatGPT: `{id | conversation_id, title, create_time (epoch seconds), mapping,
  current_node}`, where `mapping` is a tree of nodes `{id, parent, children, message}` and
  a message is `{id, author: {role}, create_time, content: {content_type, parts | text},
  metadata}`. A regenerated answer or an edited prompt is a branch; the conversation as
  the user last saw it is the path from the root to `current_node`.
- Claude.ai: `{uuid, name, created_at (ISO), chat_messages: [{uuid, sender: human |
  assistant, text, content: [{type, text}], created_at}]}`, in order.

Each user message starts a turn, with the assistant's text after it as the reply; system
and tool messages, calls to tools, hidden context and non-text parts (images, files) are
left out. A turn
is identified by its prompt's message id, so importing the same export again adds nothing.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from brainbridge.bounds import load_json
from brainbridge.errors import InvalidInput, NotFound
from brainbridge.hooks.payload import TranscriptTurn

EXPORT_FILE = "conversations.json"


@dataclass(frozen=True)
class Conversation:
    """One conversation of an export: its id (the session's), title and turns."""

    session_id: str
    title: str
    turns: tuple[TranscriptTurn, ...]


def read_export(path: Path) -> Any:
    """The parsed `conversations.json` of an export: the file itself, or the `.zip`.

    Raises: NotFound if `path` does not exist; InvalidInput if it is not a readable
    export (a damaged zip, one without conversations.json, text that is not JSON).
    """
    if not path.exists():
        raise NotFound(f"export {path} does not exist")
    if path.is_dir():
        path = path / EXPORT_FILE
        if not path.is_file():
            raise NotFound(f"no {EXPORT_FILE} in {path.parent}")
    if zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                names = [n for n in archive.namelist() if Path(n).name == EXPORT_FILE]
                if not names:
                    raise InvalidInput(f"{path} holds no {EXPORT_FILE}: is it the export?")
                raw = archive.read(min(names, key=len))  # the top-level one first
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise InvalidInput(f"{path} is a damaged zip file ({exc})") from None
    else:
        raw = path.read_bytes()
    return load_json(raw, f"{path.name}")


def _list_of_dicts(data: Any, needs: str, service: str) -> list[dict[str, Any]]:
    if not isinstance(data, list) or not all(isinstance(c, dict) for c in data):
        raise InvalidInput(f"not a {service} export: expected a list of conversations")
    for i, conv in enumerate(data):
        if needs not in conv:
            raise InvalidInput(f"not a {service} export: conversation {i + 1} has no {needs!r}")
    return data


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _iso(epoch: Any) -> str:
    if isinstance(epoch, int | float) and not isinstance(epoch, bool):
        try:
            return datetime.fromtimestamp(float(epoch), UTC).isoformat(timespec="seconds")
        except (OverflowError, OSError, ValueError):
            return ""
    return ""


def _turns(messages: Iterable[tuple[str, str, str, str]]) -> tuple[TranscriptTurn, ...]:
    """Turns from (role, text, timestamp, id) in order: a user message opens one."""
    turns: list[TranscriptTurn] = []
    prompt: tuple[str, str, str] | None = None
    reply: list[str] = []
    for role, text, when, mid in messages:
        if role == "user":
            if prompt is not None:
                turns.append(TranscriptTurn(prompt[0], "\n\n".join(reply), prompt[1], prompt[2]))
            prompt, reply = (text, when, mid), []
        elif prompt is not None:
            reply.append(text)
    if prompt is not None:
        turns.append(TranscriptTurn(prompt[0], "\n\n".join(reply), prompt[1], prompt[2]))
    return tuple(turns)


def chatgpt_conversations(data: Any) -> list[Conversation]:
    """The conversations of a ChatGPT `conversations.json`.

    Raises: InvalidInput if it is not one.
    """
    out = []
    for conv in _list_of_dicts(data, "mapping", "ChatGPT"):
        mapping = conv.get("mapping")
        sid = _str(conv.get("conversation_id")) or _str(conv.get("id"))
        if not isinstance(mapping, dict) or not sid:
            raise InvalidInput("not a ChatGPT export: a conversation has no id or mapping")
        started = _iso(conv.get("create_time"))
        messages = []
        for node in _branch(mapping, conv.get("current_node")):
            msg = node.get("message")
            if not isinstance(msg, dict):
                continue
            role = _dict(msg.get("author")).get("role")
            hidden = _dict(msg.get("metadata")).get("is_visually_hidden_from_conversation")
            # Code sent to a tool (recipient "python") was not said to the user.
            if role not in ("user", "assistant") or hidden or msg.get("recipient", "all") != "all":
                continue
            text = _chatgpt_text(msg.get("content"))
            if text:
                when = _iso(msg.get("create_time")) or started
                mid = _str(msg.get("id")) or _str(node.get("id"))
                messages.append((str(role), text, when, mid))
        out.append(Conversation(sid, _str(conv.get("title")), _turns(messages)))
    return out


def _branch(mapping: dict[str, Any], current: Any) -> list[dict[str, Any]]:
    """The nodes from the root to `current` (else to the last leaf), root first."""
    nodes = {k: v for k, v in mapping.items() if isinstance(v, dict)}
    if not isinstance(current, str) or current not in nodes:
        leaves = [k for k, v in nodes.items() if not v.get("children")]
        current = leaves[-1] if leaves else None
    path, seen = [], set()
    # A cycle in a damaged file ends the walk, and so does a parent that is not an id.
    while isinstance(current, str) and current in nodes and current not in seen:
        seen.add(current)
        path.append(nodes[current])
        current = nodes[current].get("parent")
    return path[::-1]


def _chatgpt_text(content: Any) -> str:
    if not isinstance(content, dict):
        return ""
    parts = content.get("parts")
    if isinstance(parts, list):
        # Images and files are dicts (asset pointers): only the text is kept.
        return "\n".join(p for p in parts if isinstance(p, str) and p.strip()).strip()
    text = content.get("text")
    return text.strip() if isinstance(text, str) else ""


def claude_ai_conversations(data: Any) -> list[Conversation]:
    """The conversations of a Claude.ai `conversations.json`.

    Raises: InvalidInput if it is not one.
    """
    out = []
    for conv in _list_of_dicts(data, "chat_messages", "Claude.ai"):
        sid = _str(conv.get("uuid"))
        chat = conv.get("chat_messages")
        if not sid or not isinstance(chat, list):
            raise InvalidInput("not a Claude.ai export: a conversation has no uuid or messages")
        started = _str(conv.get("created_at"))
        messages = []
        for msg in chat:
            if not isinstance(msg, dict):
                continue
            role = {"human": "user", "assistant": "assistant"}.get(str(msg.get("sender")))
            text = _claude_text(msg)
            if role and text:
                when = _str(msg.get("created_at")) or started
                messages.append((role, text, when, _str(msg.get("uuid"))))
        out.append(Conversation(sid, _str(conv.get("name")), _turns(messages)))
    return out


def _claude_text(msg: dict[str, Any]) -> str:
    text = msg.get("text")
    if isinstance(text, str) and text.strip():
        return text.strip()
    blocks = msg.get("content")
    if not isinstance(blocks, list):
        return ""
    return "\n\n".join(
        b["text"].strip()
        for b in blocks
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    ).strip()
