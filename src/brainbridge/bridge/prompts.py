"""Prompts for the optional LLM steps, versioned so stored runs say which one they used."""

from __future__ import annotations

from typing import Any

JUDGE_VERSION = "judge-v1"
JUDGE_SYSTEM = """You decide whether a personal knowledge graph should be consulted before an \
AI assistant answers the user's message. Answer with JSON only.

judgment:
- "enrich": the message leans on personal context the assistant is expected to already know \
(people, projects, documents, plans, past conversations: "finish that letter by Friday", \
"how is Kevin's cohort going?"). Give 1-3 short keyword queries (2-6 words each) that would \
find that context, resolving vague references with the session summary and known names.
- "step_back": the user explicitly asks to search, list or edit their own brain/graph/notes.
- "pass_through": ordinary conversation or general knowledge; no queries."""

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "judgment": {"type": "string", "enum": ["enrich", "step_back", "pass_through"]},
        "queries": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
    },
    "required": ["judgment", "queries"],
}


def judge_user_prompt(message: str, summary: str, names: list[str]) -> str:
    parts = [f"Session summary: {summary or '(none yet)'}"]
    if names:
        parts.append("Known entities named in the message: " + ", ".join(names))
    parts.append(f"User message:\n{message[:4000]}")
    return "\n\n".join(parts)


EXTRACT_VERSION = "extract-v2"
EXTRACT_SYSTEM = """You extract durable facts from one chat exchange for a personal knowledge \
graph. Be conservative: only clear, lasting facts the USER stated or confirmed — commitments \
(with due dates as YYYY-MM-DD when given), decisions, people (with their "role" to the user: \
manager, sister, landlord, and any "aliases" they go by), projects, organisations, \
preferences, and facts about the user or someone that hold for a while, as type "Fact" with \
"subject" ("User" for the user), "predicate" (one lower-case word: home, employer, car, diet, \
allergy, manager, venue, tool, budget, due, rate, status, schedule ...) and "value". When \
the user says something changed ("moved the standup from Zoom to Meet", "no longer", "switched \
to"), give only the new value. No small talk, no facts about the assistant, nothing \
hypothetical. Return JSON: {"facts": [...]} (an empty list is a fine answer)."""

EXTRACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "maxItems": 8,
            "items": {
                "type": "object",
                "properties": {
                    "type": {
                        "type": "string",
                        "enum": [
                            "Commitment",
                            "Decision",
                            "Person",
                            "Organization",
                            "Project",
                            "Preference",
                            "Fact",
                        ],
                    },
                    "name": {"type": "string"},
                    "description": {"type": "string"},
                    "due": {"type": "string"},
                    "role": {"type": "string"},
                    "aliases": {"type": "array", "items": {"type": "string"}},
                    "subject": {"type": "string"},
                    "predicate": {"type": "string"},
                    "value": {"type": "string"},
                    "related_to": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "relation": {"type": "string"},
                                "type": {"type": "string"},
                                "name": {"type": "string"},
                            },
                            "required": ["relation", "type", "name"],
                        },
                    },
                },
                "required": ["type", "name", "description"],
            },
        }
    },
    "required": ["facts"],
}


def extract_user_prompt(message: str, response: str, today: str) -> str:
    return f"Today is {today}.\n\nUser: {message[:6000]}\n\nAssistant: {response[:4000]}"


MERGE_VERSION = "merge-v1"
MERGE_SYSTEM = """You decide whether pairs of names in a personal knowledge graph are the same \
person or organisation. Each pair comes with what the graph says about both. Answer "same" only \
when the names plainly refer to one entity (a misspelling, a nickname, a missing middle name) \
and nothing said about them disagrees; people who merely share a first or last name are \
different. When unsure, answer false. Return JSON: {"decisions": [{"id": <pair id>, \
"same": true|false}]}."""

MERGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "decisions": {
            "type": "array",
            "maxItems": 50,
            "items": {
                "type": "object",
                "properties": {"id": {"type": "integer"}, "same": {"type": "boolean"}},
                "required": ["id", "same"],
            },
        }
    },
    "required": ["decisions"],
}


def merge_user_prompt(pairs: list[tuple[int, str, str, str, str]]) -> str:
    """(id, name a, what the graph says of a, name b, what it says of b) per pair."""
    return "\n\n".join(
        f"Pair {pid}:\n- {a}: {da[:300] or '(nothing more known)'}\n- {b}: {db[:300] or '(nothing more known)'}"
        for pid, a, da, b, db in pairs
    )
