"""Budgets, truncation at item boundaries, byte-for-byte determinism and redaction."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from brainbridge.directives.bridge import DirectiveBridge
from brainbridge.directives.classify import classify
from brainbridge.directives.lifecycle import resolve
from brainbridge.directives.render import HEAD_DIRECTIVES, HEAD_PEOPLE, render
from brainbridge.model.directives import (
    GUIDANCE,
    Budget,
    DirectiveConfig,
    Message,
    RoomKind,
    Source,
    SourceKind,
    State,
)

from .helpers import Admin, day, open_bridge

POOL = [
    "Send the weekly report to Alice every Monday at 9am.",
    "Send the weekly report to Alice every Tuesday at 9am.",
    "Never deploy on Fridays!",
    "Deploy on Fridays when the tests pass.",
    "Post release notes in #general.",
    "Post release notes in #releases instead.",
    "We need to finish the billing migration by Friday.",
    "The billing migration is done.",
    "Keep the staging cluster under 10 nodes.",
    "Alice is our accountant.",
    "Alice is our CFO now.",
    "Don't trust emails from Mallory.",
    "Carol is authorized to approve refunds up to $500.",
    "Call Bob at +1 415 555 0132 before any wire transfer over $5k, his card is 4111 1111 1111 1111.",
    "Good morning!",
    "ok",
    "Please always answer customers in the language they wrote in, and keep replies under 120 "
    "words unless they ask for detail; escalate anything about refunds, legal threats or data "
    "deletion to Dana within the hour, and log every escalation in the ops sheet.",
]
SOURCE = Source(SourceKind.CANONICAL, ("ops",), "room ops is marked canonical")


def message(i: int, when: float, text: str) -> Message:
    return Message(i, "ops", RoomKind.ADMIN, True, "dana", True, day(when), text, classify(text))


messages_strategy = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=40, allow_nan=False),
        st.one_of(st.sampled_from(POOL), st.text(min_size=1, max_size=300)),
    ),
    max_size=40,
)
budgets = st.builds(
    Budget,
    directives=st.integers(0, 900),
    identity=st.integers(0, 400),
    continuity=st.integers(0, 300),
    item_max=st.integers(20, 400),
)


def build(pairs: list[tuple[float, str]], budget: Budget) -> tuple[str, dict[str, int], list]:
    msgs = [message(i + 1, when, text) for i, (when, text) in enumerate(pairs)]
    res = resolve(msgs, {}, day(41), DirectiveConfig(budget=budget))
    text, truncated = render(res.items, SOURCE, day(41), budget)
    return text, truncated, list(res.items)


def sections(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    current = ""
    for line in text.split("\n") if text else []:
        if not line.startswith("- "):
            current = line
            out[current] = []
        else:
            out[current].append(line)
    return out


@settings(max_examples=150, deadline=None)
@given(pairs=messages_strategy, budget=budgets)
def test_budgets_are_never_exceeded_and_cuts_fall_between_items(
    pairs: list[tuple[float, str]], budget: Budget
) -> None:
    text, truncated, items = build(pairs, budget)
    assert len(text) <= budget.total
    full, _, _ = build(pairs, Budget(100_000, 100_000, 100_000, budget.item_max))
    full_sections = sections(full)
    for head, lines in sections(text).items():
        size = len("\n".join([head, *lines]))
        if head == HEAD_DIRECTIVES:
            assert size <= budget.directives
        elif head == HEAD_PEOPLE:
            assert size <= budget.identity - (1 if text.index(head) else 0)
        else:
            assert head.startswith("Continuity") and size <= budget.continuity
        if not head.startswith("Continuity"):
            # A prefix of the full list: whole items, in order, none skipped.
            assert lines == full_sections[head][: len(lines)]
    shown = len(sections(text).get(HEAD_DIRECTIVES, []))
    active = sum(i.state is State.ACTIVE and i.category in GUIDANCE for i in items)
    assert shown + truncated.get("directives_budget", 0) == active


@settings(max_examples=50, deadline=None)
@given(pairs=messages_strategy, budget=budgets)
def test_same_input_same_bytes(pairs: list[tuple[float, str]], budget: Budget) -> None:
    assert build(pairs, budget)[:2] == build(list(pairs), budget)[:2]


def test_two_databases_with_the_same_messages_render_identically(tmp_path: Path) -> None:
    texts = []
    for name in ("a", "b"):
        bridge = open_bridge(tmp_path / name / "brain.db")
        admin = Admin(bridge)
        for i, text in enumerate(POOL):
            admin.say(i / 2, text)
        texts.append(bridge.build(day(12)).text.encode())
        texts.append(bridge.build(day(12)).text.encode())
    assert len(set(texts)) == 1 and len(texts[0]) <= 1200


def test_default_budget_truncates_with_reasons(bridge: DirectiveBridge, admin: Admin) -> None:
    topics = (
        "invoices backups payroll domains alerts reviews tickets refunds signups churn uptime "
        "certificates vendors contracts expenses inventory shipments returns leads hiring press"
    ).split()
    for i, topic in enumerate(topics):
        admin.say(i / 10, f"Check the {topic} queue every morning and report anything odd.")
    ctx = bridge.build(day(3))
    assert ctx.stats.summary_chars == len(ctx.text) <= 1200
    left_out = ctx.stats.truncated["directives_budget"]
    assert left_out > 0
    assert f"- {left_out} more items not shown (budget)" in ctx.text
    assert ctx.stats.states["active"] == 21


def test_small_budgets_are_honoured(bridge: DirectiveBridge, admin: Admin) -> None:
    admin.say(0, "Never deploy on Fridays.")
    admin.say(0, "Alice is our accountant.")
    ctx = bridge.build(day(1), budget=Budget(directives=120, identity=0, continuity=0))
    assert ctx.text.startswith(HEAD_DIRECTIVES) and "Alice" not in ctx.text
    assert len(ctx.text) <= 120
    assert ctx.stats.truncated == {"identity_budget": 1}


def test_long_items_are_clipped_and_counted(bridge: DirectiveBridge, admin: Admin) -> None:
    admin.say(0, POOL[-1])
    ctx = bridge.build(day(1))
    (line,) = [x for x in ctx.text.split("\n") if x.startswith("- ") and "#1]" in x]
    assert "…" in line and len(line) < 300
    assert ctx.stats.truncated["item_clipped"] == 1


def test_secrets_and_personal_identifiers_never_reach_the_output(
    bridge: DirectiveBridge, admin: Admin, tmp_path: Path
) -> None:
    admin.say(0, "Use the deploy key ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 for the mirror.")
    admin.say(0, "Send the invoices to bob.smith@example.com every Friday.")
    admin.say(0, "Always wire refunds to IBAN GB82 WEST 1234 5698 7654 32 only.")
    ctx = bridge.build(day(1))
    assert "[REDACTED:github_token]" in ctx.text
    assert "[REDACTED:email]" in ctx.text and "[REDACTED:iban]" in ctx.text
    for secret in ("ghp_aBcDe", "bob.smith", "GB82"):
        assert secret not in ctx.text
    stored = bridge.store.conn.execute("SELECT text FROM directive_messages").fetchall()  # type: ignore[attr-defined]
    assert not any("ghp_aBcDe" in r[0] for r in stored)  # secrets are never stored


def test_long_horizon_config_keeps_items(tmp_path: Path) -> None:
    bridge = open_bridge(tmp_path / "brain.db", DirectiveConfig(expiry=timedelta(days=365)))
    Admin(bridge).say(0, "Never deploy on Fridays.")
    assert "Never deploy on Fridays." in bridge.build(day(200)).text
