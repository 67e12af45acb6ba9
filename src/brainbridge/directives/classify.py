"""Which messages carry guidance: a local rule classifier and an optional LLM one.

Rules run per sentence; a message takes the strongest category among its sentences
(`_PRECEDENCE`), so "Hi! Please send the report on Mondays." is a directive. The
reason names the rule and quotes the cue that fired.
"""

from __future__ import annotations

import logging
import re

from brainbridge.directives import learned
from brainbridge.directives.learned import features
from brainbridge.directives.terms import REPLACEMENT as _REPLACES
from brainbridge.directives.terms import VERBS as _IMPERATIVE
from brainbridge.errors import LLMError
from brainbridge.model.directives import Category, Classification
from brainbridge.ports import LLM
from brainbridge.redact import find_pii, redact
from brainbridge.when import states_bounds

log = logging.getLogger(__name__)

# A sentence ends at . ! ? before a space or the end (not inside "a.b@c.com") or a newline.
_SENTENCES = re.compile(r"\S[^\n]*?(?:[.!?]+(?=\s|$)|(?=\n)|$)")
_LEAD = re.compile(
    r"^(?:(?:hey|hi|ok|okay|so|also|and|btw|fyi|note|reminder|important|update|ps|oh|urgent|asap|"
    r"actually|correction|heads up|new rule|rule|policy|one more thing)\b[,:!\-—]*\s*|"
    r"@\w+[,:]?\s*|please\s+|pls\s+|kindly\s+)+",
    re.IGNORECASE,
)

_GREETING = re.compile(
    r"^(?:hi|hello|hey|heya|hiya|yo|howdy|gm|good (?:morning|afternoon|evening|night)|"
    r"morning|evening|thanks|thank you|thx|ty|cheers|welcome back|bye|see you|talk later|"
    r"how are you|how's it going|what's up|sup)\b[\w\s,!.?']{0,24}$",
    re.IGNORECASE,
)
_ACK = re.compile(
    r"^(?:ok(?:ay)?|k|kk|sure|yes|yep|yeah|yup|no|nope|got it|sounds good|great|cool|nice|"
    r"perfect|awesome|good|fine|right|understood|roger|noted|will do|done|agreed|exactly|lol|"
    r"haha|thanks|thank you|ty|np|no worries|makes sense|alright|all right|[\W_]+)"
    r"(?:[\s,!.]+(?:thanks|thank you|then|man|mate|buddy|lol))*[\s!.?\W]*$",
    re.IGNORECASE,
)
_COMPLETION = re.compile(
    r"\b(?:(?:is|are|has been|have been|was|were)(?: now| all)? (?:done|finished|complete|completed|"
    r"resolved|fixed|shipped|closed|handled|sorted|cancell?ed|no longer needed)|"
    r"you can stop|no need to (?:\w+ ){0,3}any ?more|never ?mind|forget about|scratch that|"
    r"(?:we|i) (?:shipped|finished|completed|closed|resolved)|cancel (?:the|that|my)|"
    r"mark (?:\w+ ){0,4}(?:as )?(?:done|complete|completed)|that'?s done|it'?s done|all done)\b",
    re.IGNORECASE,
)
_TRUST = re.compile(
    r"\b(?:(?:do not|don'?t|never|you can|can|always|only|should|shouldn'?t)\s+(?:\w+\s+)?trust|"
    r"trust(?:ed|worthy)?\b(?! me)|(?:is|are) (?:not )?(?:authori[sz]ed|allowed|permitted|approved|"
    r"cleared) to|speaks? for me|on my behalf|(?:ignore|disregard|block) (?:any |all )?"
    r"(?:messages|requests|instructions|emails|dms|calls) from|(?:is|are) (?:a |an )?(?:scammer|"
    r"impostor|imposter|phishing|spammer|fraud)|only (?:take|accept|follow|obey) (?:\w+ )?"
    r"(?:instructions|orders|requests|directions) from|has (?:admin|full|read|write|root) access|"
    r"(?:verify|confirm) (?:the )?identity)",
    re.IGNORECASE,
)
_NAME = r"[A-Z][\w'’.\-]*(?: [A-Z][\w'’.\-]*){0,3}"
_NOT_A_NAME = re.compile(
    r"^(?:The|This|That|These|Those|It|He|She|They|We|I|There|Here|What|Which|Who|Everything|"
    r"Nothing|Something|Today|Tomorrow|Yesterday|Everyone|Nobody|Our|My|Your|Their)\b"
)
_ROLE = re.compile(
    rf"^(?:(?P<name>{_NAME}) (?:is|are|'s|’s|was) (?:now |also |still )?(?:my|our|the|a|an|his|her|their)"
    rf" [A-Za-z]|(?P<name2>{_NAME}) (?:works (?:for|at|with|on)|handles|runs|owns|manages|leads|"
    rf"reports to|is in charge of|is responsible for|represents)\b|"
    rf"(?:[Ii] am|[Ii]'m|[Mm]y name is|[Tt]his is) (?P<name3>{_NAME})\b)",
)
_CONTACT = re.compile(
    r"\b(?:e-?mail|phone|number|cell|mobile|address|handle|whatsapp|signal|telegram)\b",
    re.IGNORECASE,
)
_CONTACT_OF = re.compile(
    rf"^{_NAME}(?:'s|’s) (?:work |personal |home |mobile |cell )?(?:e-?mail|phone|number|address|handle)\b"
)
# A standing instruction asked politely ("could you send the report every Monday?").
_REQUEST = re.compile(r"^(?:can|could|would|will) you\b", re.IGNORECASE)
_OBJECTIVE = re.compile(
    r"\b(?:we need to|we have to|we must|we should|we'?re (?:trying|aiming|working) (?:to|on)|"
    r"(?:the|our|my|your|main|top) (?:goal|objective|priority|target|focus|mission|deadline) "
    r"(?:is|for)|goal:|objective:|todo:|to-?do:|deadline|due (?:by|on|date)|by (?:end of|eod|eow|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week|the \d)|"
    r"let'?s (?:get|ship|finish|launch|close|hit|reach)|i want (?:us|this|that|it) to|"
    r"get (?:\w+ ){1,4}(?:done|shipped|finished|out)|(?:launch|ship|release|finish) (?:\w+ ){0,4}by)\b",
    re.IGNORECASE,
)
_MODAL = re.compile(
    r"\b(?:you (?:should|must|need to|have to|'?ll need to|are to|may not|can'?t|cannot)|"
    r"i (?:want|need|expect) you to|make sure|be sure to|remember to|from now on|going forward|moving forward|"
    r"whenever|until further notice|at all times|under no circumstances|every (?:day|morning|"
    r"evening|night|week|month|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"\d+ (?:minutes|hours|days))|each (?:day|morning|week|month)|do not|don'?t|never|always)\b",
    re.IGNORECASE,
)
_HIGH = re.compile(
    r"\b(?:never|always|must|immediately|urgent(?:ly)?|asap|critical|important|top priority|"
    r"under no circumstances|at all times)\b|!\s*$",
    re.IGNORECASE,
)
_HIGH_CAPS = re.compile(
    r"\b(?!(?:ASAP|TODO|FYI|EOD|EOW|HTTP|HTTPS|JSON|REDACTED|UUID|HTML|YAML|TOML)\b)[A-Z]{4,}\b"
)

# Strongest first: a message with a directive and a greeting is a directive.
_PRECEDENCE = (
    Category.TRUST,
    Category.DIRECTIVE,
    Category.COMPLETION,
    Category.OBJECTIVE,
    Category.ROLE,
    Category.CONTACT,
    Category.CHITCHAT,
    Category.ACK,
    Category.GREETING,
)


def _quote(m: re.Match[str] | str) -> str:
    s = m if isinstance(m, str) else m.group(0)
    return " ".join(s.split())[:40]


def _sentence(text: str) -> tuple[Category, str]:
    s = text.strip()
    core = _LEAD.sub("", s).strip()
    if not core:
        return (
            (Category.GREETING, "greeting")
            if _GREETING.match(s)
            else (Category.ACK, "bare acknowledgement")
        )
    if (m := _TRUST.search(core)) is not None:
        return Category.TRUST, f"trust claim: '{_quote(m)}'"
    if (m := _COMPLETION.search(core)) is not None:
        return Category.COMPLETION, f"marks earlier guidance done: '{_quote(m)}'"
    first = core.split(None, 1)[0].lower().strip(",.:;!")
    question = core.endswith("?")
    if first in _IMPERATIVE and not question:
        return Category.DIRECTIVE, f"imperative: '{first}'"
    if (m := _MODAL.search(core)) is not None and (not question or _REQUEST.match(core)):
        return Category.DIRECTIVE, f"instruction cue: '{_quote(m)}'"
    if (m := _OBJECTIVE.search(core)) is not None:
        return Category.OBJECTIVE, f"objective cue: '{_quote(m)}'"
    if (m := _ROLE.match(core)) is not None:
        name = m.group("name") or m.group("name2") or m.group("name3") or ""
        if not _NOT_A_NAME.match(name):
            if _CONTACT.search(core) or any(k in ("email", "phone") for k, _ in find_pii(core)):
                return Category.CONTACT, f"contact details for {name}"
            return Category.ROLE, f"who someone is: {name}"
    if (
        _CONTACT_OF.match(core)
        or _CONTACT.search(core)
        and any(k in ("email", "phone") for k, _ in find_pii(core))
    ):
        return Category.CONTACT, "contact details"
    if _GREETING.match(s) or _GREETING.match(core):
        return Category.GREETING, "greeting"
    if _ACK.match(core):
        return Category.ACK, "bare acknowledgement"
    if core.endswith("?"):
        return Category.CHITCHAT, "a question, not an instruction"
    return Category.CHITCHAT, "no instruction, claim or objective"


def _priority(text: str) -> int:
    return 1 if _HIGH.search(text) or _HIGH_CAPS.search(text) else 0


def rules(text: str) -> Classification:
    """Classify one message with the local rules alone (deterministic, no I/O)."""
    sentences = [s for s in _SENTENCES.findall(text) if s.strip()] or [text]
    best: tuple[Category, str] | None = None
    for s in sentences[:20]:  # a long paste is not standing guidance; the start decides
        found = _sentence(s)
        if best is None or _PRECEDENCE.index(found[0]) < _PRECEDENCE.index(best[0]):
            best = found
    assert best is not None
    category, reason = best
    priority = _priority(text) if category in (Category.DIRECTIVE, Category.OBJECTIVE) else 0
    return Classification(category, reason, priority)


_GROUP = {
    Category.DIRECTIVE: "directive",
    Category.OBJECTIVE: "objective",
    Category.COMPLETION: "completion",
    Category.ROLE: "people",
    Category.TRUST: "people",
    Category.CONTACT: "people",
}


def group(category: Category) -> str:
    """The learned model's class for a category: directive, objective, completion, people
    or chat."""
    return _GROUP.get(category, "chat")


# Cues the learned model weighs (it decides what they are worth in which company).
_CUES = {
    # earlier guidance retired: "no longer applies", "forget what I said about", "lift the"
    "retire": re.compile(
        r"\b(?:no longer (?:applies|needed|necessary|required)|no more \w+|any ?more\b|"
        r"retire|let go of|lift(?:ed)?\b|forget (?:what|about|the|my)|drop (?:the|that|my)|"
        r"scrap|cancel|disregard|ignore (?:my|the|what)|no need to|don'?t need to|"
        r"is over|(?:is|are) off\b)",
        re.IGNORECASE,
    ),
    # something reached: "passed", "went live", "is finished", "taken care of"
    "done": re.compile(
        r"\b(?:passed|launched|signed|merged|shipped|submitted|approved|closed|wrapped up|"
        r"went live|(?:is|are) (?:now )?(?:live|out|done|finished|complete|fixed|sorted)|"
        r"taken care of|check (?:it|that) off|finished|completed|done)\b",
        re.IGNORECASE,
    ),
    # a goal: "our focus", "the plan is", "all about", "what matters most", "aiming to"
    "goal": re.compile(
        r"\b(?:focus|priority|goal|aim|aiming|target|plan is|push|north star|mission|objective|"
        r"matters most|all about|want to (?:hit|reach|get|close|launch|ship)|by (?:spring|"
        r"summer|autumn|fall|winter|launch|year end|the end of))\b",
        re.IGNORECASE,
    ),
    # a person's part: "looks after", "joined as", "my stand-in", "on my behalf", "reach X at"
    "person": re.compile(
        r"\b(?:looks after|takes care of|joined as|stand-in|in my place|on my behalf|"
        r"can be reached|reach \w+ (?:at|on)|desk|sign off on|may (?:approve|sign)|"
        r"only \w+ (?:can|may)|spoofed|suspicion|impersonat\w*)",
        re.IGNORECASE,
    ),
    # said about oneself or the past, not asked: "I always forget", "you should have seen"
    "remark": re.compile(
        r"^(?:i|we|he|she|they|it|everyone|nobody)\s+(?:always|never|usually|often)\s+\w+|"
        r"\b(?:should|must|could|would) have \w+|don'?t (?:worry|know|think|mind)|"
        r"\b(?:yesterday|last (?:night|week)|ago|haha|lol)\b|\b(?:got|was|were|went|showed|"
        r"loved|saw|had)\b",
        re.IGNORECASE,
    ),
    "wish": re.compile(
        r"^(?:i'?d|i would|we'?d|it would be|would be|ideally|my preference|i want (?!to\b))",
        re.IGNORECASE,
    ),
    "modal": _MODAL,
    "replaces": _REPLACES,
}


def _cues(text: str) -> tuple[str, ...]:
    found = [name for name, cue in _CUES.items() if cue.search(text)]
    if states_bounds(text):
        found.append("bounded")
    return tuple(found)


def learned_features(text: str, ruled: Classification | None = None) -> list[str]:
    """The learned model's features for `text` (the rules' verdict is one of them)."""
    ruled = ruled or rules(text)
    return features(text, group(ruled.category), _cues(text))


def classify(text: str, *, model: learned.Model | None = None) -> Classification:
    """Classify one message locally: the rules, checked by the learned model (`model`,
    default the shipped one).

    Where the two agree the rules' finer category and reason stand; where they differ
    the model's class wins, and the reason says so.
    """
    ruled = rules(text)
    model = model or learned.model()
    if model is None:
        return ruled
    cls, p = model.predict(learned_features(text, ruled))
    if cls == group(ruled.category):
        return ruled
    category = CATEGORY_OF[cls]
    if cls == "people":
        category = Category.TRUST if _TRUST.search(text) else Category.ROLE
    reason = f"learned: {cls} ({p:.0%}); the rules said {ruled.category.value}"
    priority = _priority(text) if category in (Category.DIRECTIVE, Category.OBJECTIVE) else 0
    return Classification(category, reason, priority)


# The category a learned class stands for (people and chat are refined where known).
CATEGORY_OF = {
    "directive": Category.DIRECTIVE,
    "objective": Category.OBJECTIVE,
    "completion": Category.COMPLETION,
    "people": Category.ROLE,
    "chat": Category.CHITCHAT,
}


SYSTEM_PROMPT = """You sort chat messages an admin sent to an autonomous agent.
Answer with one JSON object: {"category": ..., "priority": 0 or 1, "reason": "..."}.
Categories:
- directive: an instruction for the agent or the team, however phrased: an imperative,
  a wish ("I'd like every incident to get a write-up"), an obligation ("nobody is to…",
  "everyone needs to…"), a request about how to work from now on ("could you start…?"),
  a rule with dates ("until Friday…", "starting the 20th…"), or a replacement of an
  earlier rule ("forget the rule about X, do Y").
- objective: an operational goal that is not yet reached.
- role: who someone is (a person's role or relationship).
- trust: whom to trust or not, who may instruct the agent.
- contact: how to reach someone (email, phone, address).
- completion: says an earlier instruction or goal is done, cancelled or dropped with
  nothing in its place ("the migration is finished", "drop the Friday freeze").
A question asking for something right now ("can you check the logs?") is chitchat.
- greeting, ack (a bare acknowledgement) or chitchat: anything else.
priority 1 only for urgent or absolute instructions ("never", "must", "immediately").
reason: at most 12 words."""

_SCHEMA = {
    "type": "object",
    "properties": {
        "category": {"type": "string", "enum": [c.value for c in Category]},
        "priority": {"type": "integer", "enum": [0, 1]},
        "reason": {"type": "string"},
    },
    "required": ["category", "priority", "reason"],
}


async def classify_with_llm(llm: LLM, text: str, *, timeout: float = 3.0) -> Classification:
    """Classify with the LLM; on any failure fall back to the rules (and say so in the reason)."""
    try:
        answer = await llm.complete_json(
            SYSTEM_PROMPT, redact(text)[:4000], schema=_SCHEMA, timeout=timeout
        )
        category = Category(str(answer.get("category", "")).strip().lower())
        priority = 1 if answer.get("priority") in (1, "1", True) else 0
        reason = " ".join(str(answer.get("reason", "")).split())[:120] or "llm"
        return Classification(category, f"llm: {reason}", priority, by=f"llm:{llm.name}")
    except (LLMError, ValueError, AttributeError, TypeError) as exc:
        log.warning("directive classifier LLM failed, using rules: %s", exc)
        why = "timeout or error" if isinstance(exc, LLMError) else "unusable answer"
    except Exception:  # fail-open boundary: a broken provider must never lose a message
        log.exception("directive classifier LLM crashed, using rules")
        why = "crash"
    fallback = classify(text)
    return Classification(
        fallback.category, fallback.reason, fallback.priority, by=f"rules (llm {why})"
    )
