"""The local judge: enrich, step back or pass through, from rules and what the brain holds."""

from __future__ import annotations

import re
from dataclasses import dataclass

from brainbridge.bridge.names import Mention
from brainbridge.model import Judgment

SHORT_MESSAGE_WORDS = 5

_BRAIN = r"(?:brain|graph|knowledge ?(?:graph|base)|notes?|vault|memory|memories|second brain|records?|contacts|rolodex|network|database)"
STEP_BACK = [
    re.compile(p, re.I)
    for p in (
        rf"\b(?:in|from|across|through|of|to|into)\s+my\s+(?:\w+\s+)?{_BRAIN}\b",
        rf"\bmy\s+{_BRAIN}\b.*\b(?:find|search|list|show|query|look|who|what|which|how many|count)\b",
        r"\b(?:what|everything|anything)\s+(?:do\s+)?i\s+(?:have|know|got|saved|stored|wrote|noted)\s+(?:on|about|re|regarding)\b",
        r"\b(?:search|query|look up|look through|browse|explore|list|find)\s+(?:my|the)\s+(?:brain|graph|knowledge|notes|vault)\b",
        r"\b(?:add|save|store|remember|record|put)\b.+\b(?:to|in|into)\s+(?:my|the)\s+(?:brain|graph|knowledge|notes|vault)\b",
        r"\b(?:who|which people|what people|anyone)\s+(?:in|from)\s+my\s+(?:graph|network|brain|contacts)\b",
        r"\bshow me (?:all|every)\b.*\b(?:entities|nodes|notes|people|projects|decisions|commitments)\b",
    )
]

# Phrases that lean on context the speaker assumes the listener already has.
REFERENCE_CUES = [
    re.compile(p, re.I)
    for p in (
        r"\b(?:that|those|the same|this|these)\s+(?!is\b|was\b|are\b|will\b|would\b|could\b|can\b|one\b|way\b|time\b|kind\b|sort\b|much\b|many\b)[a-z][\w-]+",
        r"\b(?:my|our)\s+(?!own\b|life\b|code\b|opinion\b|question\b|mind\b|guess\b)[a-z][\w-]+",
        r"\b[A-Z][a-z]+['’]s\s+\w+",
        r"\b(?:as (?:we|i) (?:discussed|said|mentioned|agreed|planned)|like (?:we|i) said|last (?:time|week|month|meeting|call)|earlier|yesterday|again|remind me|follow(?:ing)? up|catch (?:me )?up|where (?:are|were) we|update (?:me )?on|status (?:of|on)|progress on|still on track)\b",
        r"\bhow(?:'s| is| are| was| did)\s+.+\s+(?:going|coming along|doing|progressing|go)\b",
        r"\b(?:by|before|until|on)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|end of (?:day|week|month)|eod|eow|next week)\b",
        r"\b(?:finish|send|submit|review|prepare|draft|ship|finalize|reply to|respond to|call|email|meet(?: with)?)\s+(?:the|that|my|our|this)\b",
        r"\b(?:he|she|they|him|her|them)\b.*\b(?:said|asked|wanted|promised|mentioned|told)\b",
    )
]

GENERIC = [
    re.compile(p, re.I)
    for p in (
        r"^\s*(?:what is|what are|what's|who was|who is|define|explain|how do(?:es)? (?:i|you|one|a|an|the)?\s*\w+|why do(?:es)?|translate|write (?:a|an|me a)|give me (?:a|an|some)|tell me a|can you explain|summari[sz]e this|convert|calculate|compute)\b",
        r"\b(?:in python|in javascript|in rust|in sql|regex|algorithm|recipe for|the capital of|the history of|in general)\b",
    )
]


@dataclass(frozen=True)
class Verdict:
    judgment: Judgment
    reasons: tuple[str, ...]


def word_count(message: str) -> int:
    return len(message.split())


def judge_locally(message: str, mentions: list[Mention], best_coverage: float | None) -> Verdict:
    """Decide from the message's wording, the entities it names and how well the brain matches.

    `best_coverage` is the query-term coverage of the best knowledge hit (None if not
    looked up): it lets a message with one weak cue through only when the brain has
    something specific for it.
    """
    for pattern in STEP_BACK:
        if pattern.search(message):
            return Verdict(
                Judgment.STEP_BACK, (f"explicit brain request: {pattern.pattern[:40]}…",)
            )
    reasons = []
    score = 0.0
    if mentions:
        score += 2
        reasons.append("names known entities: " + ", ".join(sorted({m.name for m in mentions})[:3]))
    cues = [m.group(0) for p in REFERENCE_CUES if (m := p.search(message))]
    if cues:
        score += min(len(cues), 2)
        reasons.append("reference cues: " + "; ".join(c[:30] for c in cues[:3]))
    if any(p.search(message) for p in GENERIC) and not mentions:
        score -= 1.5
        reasons.append("reads as a general request")
    if best_coverage is not None:
        if best_coverage >= 0.6:
            score += 1
            reasons.append(f"brain has a strong match ({best_coverage:.2f})")
        elif best_coverage < 0.3:
            score -= 1
            reasons.append("brain has nothing specific")
    judgment = Judgment.ENRICH if score >= 2 else Judgment.PASS_THROUGH
    return Verdict(judgment, tuple(reasons) or ("ordinary conversation",))


def needs_brain_check(message: str, mentions: list[Mention]) -> bool:
    """Whether a brain lookup could change the verdict (only borderline messages pay for it)."""
    if mentions:
        return False
    return any(p.search(message) for p in REFERENCE_CUES)
