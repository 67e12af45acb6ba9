"""Inclusion policy: which messages are guidance, and the LLM path with its fallback."""

from __future__ import annotations

from typing import Any

import pytest

from brainbridge.directives.bridge import DirectiveBridge
from brainbridge.directives.classify import classify, classify_with_llm
from brainbridge.errors import LLMError
from brainbridge.model.directives import Category

from .helpers import day

D, OBJ, R, T, C = (
    Category.DIRECTIVE,
    Category.OBJECTIVE,
    Category.ROLE,
    Category.TRUST,
    Category.CONTACT,
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Never deploy on Fridays.", D),
        ("Please send the weekly report to Alice every Monday at 9am.", D),
        ("From now on, post release notes in #general.", D),
        ("Hi! Please send the report on Mondays.", D),
        ("make sure backups run nightly", D),
        ("Remember to renew the domain.", D),
        ("URGENT: rotate the API keys today", D),
        ("Could you send me the report every Monday?", D),
        ("We need to finish the billing migration by Friday.", OBJ),
        ("Our top priority is the Q4 launch.", OBJ),
        ("Alice is our accountant.", R),
        ("Bob Smith is my lawyer", R),
        ("Dana handles payroll.", R),
        ("Don't trust emails from Mallory.", T),
        ("Carol is authorized to approve refunds up to $500.", T),
        ("Ignore any requests from unknown numbers.", T),
        ("Alice's email is alice@example.com", C),
        ("The billing migration is done.", Category.COMPLETION),
        ("You can stop sending the daily digest.", Category.COMPLETION),
        ("Hi!", Category.GREETING),
        ("Good morning Alex", Category.GREETING),
        ("hey there", Category.GREETING),
        ("ok", Category.ACK),
        ("sounds good 👍", Category.ACK),
        ("👍", Category.ACK),
        ("What time is it?", Category.CHITCHAT),
        ("Can you check the logs?", Category.CHITCHAT),
        ("lol that was funny", Category.CHITCHAT),
        ("The server is a VM.", Category.CHITCHAT),
    ],
)
def test_rules_sort_messages(text: str, category: Category) -> None:
    label = classify(text)
    assert label.category is category, label
    assert label.reason and label.by == "rules"


def test_absolute_wording_is_high_priority() -> None:
    assert classify("Never share invoices outside the team.").priority == 1
    assert classify("ROTATE the keys today").priority == 1
    assert classify("Send the report on Mondays.").priority == 0


def test_every_decision_carries_a_reason(bridge: DirectiveBridge) -> None:
    for i, text in enumerate(
        ["hi", "ok", "Send the report on Mondays.", "nice weather today", "Alice is our CFO."]
    ):
        bridge.add_message("ops", "dana", text, at=day(i / 10), author_is_owner=True)
    bridge.add_message("ops", "agent", "Will do.", at=day(1), author_is_owner=False)
    ctx = bridge.build(day(2))
    assert len(ctx.decisions) == 6
    assert all(d.reason and d.code for d in ctx.decisions)
    codes = {d.code: d.included for d in ctx.decisions}
    assert codes == {
        "greeting": False,
        "ack": False,
        "directive": True,
        "chitchat": False,
        "role": True,
        "not_owner": False,
    }


class FakeLLM:
    """A stand-in model that implements the `LLM` protocol with scripted answers."""

    name = "fake"

    def __init__(self, answer: Any = None, error: BaseException | None = None) -> None:
        self.answer = answer
        self.error = error
        self.calls: list[tuple[str, str, float]] = []

    async def complete_json(
        self, system: str, user: str, *, schema: dict[str, Any] | None = None, timeout: float
    ) -> dict[str, Any]:
        self.calls.append((system, user, timeout))
        if self.error is not None:
            raise self.error
        return self.answer

    async def complete_text(
        self, system: str, messages: list[dict[str, str]], *, timeout: float
    ) -> str:
        raise AssertionError("not used")


async def test_llm_label_is_used_when_it_answers() -> None:
    llm = FakeLLM({"category": "objective", "priority": 1, "reason": "a goal with a deadline"})
    label = await classify_with_llm(llm, "Q4 revenue must reach 1M", timeout=2.5)
    assert (label.category, label.priority, label.by) == (Category.OBJECTIVE, 1, "llm:fake")
    assert label.reason == "llm: a goal with a deadline"
    assert llm.calls[0][2] == 2.5


async def test_llm_never_sees_secrets() -> None:
    llm = FakeLLM({"category": "directive", "priority": 0, "reason": "x"})
    await classify_with_llm(llm, "use password=hunter2 for the NAS", timeout=1)
    assert "hunter2" not in llm.calls[0][1]


@pytest.mark.parametrize(
    ("llm", "why"),
    [
        (FakeLLM(error=LLMError("timed out")), "timeout or error"),
        (FakeLLM({"category": "banana", "priority": 0, "reason": "?"}), "unusable answer"),
        (FakeLLM(["not", "an", "object"]), "unusable answer"),
        (FakeLLM(error=RuntimeError("provider bug")), "crash"),
        (FakeLLM(error=TimeoutError()), "crash"),
    ],
)
async def test_llm_failure_falls_back_to_rules(llm: FakeLLM, why: str) -> None:
    label = await classify_with_llm(llm, "Never deploy on Fridays.", timeout=1)
    assert label.category is Category.DIRECTIVE
    assert label.by == f"rules (llm {why})"


async def test_bridge_uses_llm_for_owner_messages_only(bridge: DirectiveBridge) -> None:
    llm = FakeLLM({"category": "directive", "priority": 0, "reason": "standing order"})
    bridge.llm = llm
    stored = await bridge.add_message_async(
        "ops", "dana", "the usual for the Monday report", at=day(0), author_is_owner=True
    )
    assert stored.classification.category is Category.DIRECTIVE
    assert stored.classification.by == "llm:fake"
    other = await bridge.add_message_async(
        "ops", "eve", "Send me all the invoices.", at=day(0), author_is_owner=False
    )
    assert len(llm.calls) == 1 and other.classification.by == "rules"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # Phrasings from the issue that the rules alone filed as chit-chat.
        ("Through the end of the month, nothing ships on Fridays.", D),
        ("Forget the earlier rule about Friday releases, ship whenever CI is green.", D),
        ("Beginning next sprint, design reviews happen on Wednesdays.", D),
        ("I'd like every incident to get a write-up within 48 hours.", D),
        ("Nobody is to touch the production database without a ticket.", D),
        ("Could you folks start posting the deploy summary in #eng after each release?", D),
        ("Our focus this quarter is onboarding.", OBJ),
        ("Drop the Friday freeze.", Category.COMPLETION),
        ("Can you check the logs for the 502s we saw an hour ago?", Category.CHITCHAT),
    ],
)
def test_the_learned_model_catches_everyday_phrasings(text: str, category: Category) -> None:
    assert classify(text).category is category


def test_without_the_model_file_the_rules_decide(monkeypatch: pytest.MonkeyPatch) -> None:
    from brainbridge.directives import learned

    monkeypatch.setattr(learned, "model", lambda: None)
    assert classify("Our focus this quarter is onboarding.").category is Category.CHITCHAT
    assert classify("Never deploy on Fridays.").category is D


def test_where_rules_and_model_differ_the_reason_says_so() -> None:
    label = classify("I'd like every incident to get a write-up within 48 hours.")
    assert label.reason.startswith("learned: directive (")
    assert "the rules said chitchat" in label.reason
