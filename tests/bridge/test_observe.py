"""observe: the exchange as an episode, the durable facts in it, linked, redacted, logged."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge, Observation
from brainbridge.bridge.facts import resolve_due
from brainbridge.model import CHAT_EXCHANGE

SESSION = "3f9c2a71-5d1e-4c0b-9f0e-1234567890ab"
WEDNESDAY = date(2026, 3, 4)


async def _links(brain: Brain, etype: str, name: str) -> set[tuple[str, str, str]]:
    graph = await brain.subgraph((etype, name), hops=1)
    return {
        (e.type, e.dst_type, e.dst_name)
        for e in graph.edges
        if (e.src_type, e.src_name) == (etype, name)
    }


async def test_the_exchange_is_stored_exactly_as_designed(bridge: Bridge, life: Brain) -> None:
    message = "Here is the full onboarding brief for Lena. " * 30  # 1 350 chars
    response = "Thanks, I read the whole brief and here is what stands out. " * 45  # 2 700 chars

    obs = await bridge.observe_now(SESSION, 4, message, response, today=WEDNESDAY)

    assert obs == Observation("3f9c2a71:ex:4", obs.stored, False, "local", None)
    assert obs.stored[0] == f"{CHAT_EXCHANGE}:3f9c2a71:ex:4"
    ent = await life.get_entity(CHAT_EXCHANGE, "3f9c2a71:ex:4")
    assert ent.description == f"User: {message[:300]} | AI: {response[:500]}"
    assert ent.attributes == {
        "session_id": SESSION,
        "exchange_number": 4,
        "user_message": message[:1000],
        "ai_response": response[:2000],
        "date": WEDNESDAY.isoformat(),  # when it happened, not when it was stored
    }


async def test_observe_runs_in_the_background_and_returns_at_once(
    bridge: Bridge, life: Brain
) -> None:
    task = bridge.observe(SESSION, 1, "Nadia found the sync race at last.", "Great news.")

    assert isinstance(task, asyncio.Task) and not task.done()
    await bridge.drain()
    assert task.result().exchange == "3f9c2a71:ex:1"
    assert await life.get_entity(CHAT_EXCHANGE, "3f9c2a71:ex:1") is not None


@pytest.mark.parametrize(
    ("message", "response", "kept"),
    [
        ("ok thanks", "You're welcome!", False),
        ("cool", "one two three four five six seven eight nine", False),
        ("sounds good, thanks", "Great.", True),  # three user words
        ("ok", "one two three four five six seven eight nine ten", True),  # ten AI words
    ],
)
async def test_trivial_exchanges_are_skipped(
    bridge: Bridge, life: Brain, message: str, response: str, kept: bool
) -> None:
    obs = await bridge.observe_now(SESSION, 2, message, response, today=WEDNESDAY)

    stored = await life.get_entity(CHAT_EXCHANGE, "3f9c2a71:ex:2")
    assert obs.skipped is not kept
    assert (stored is not None) is kept
    assert (obs.exchange is not None) is kept


async def test_secrets_are_redacted_before_anything_is_stored(bridge: Bridge, life: Brain) -> None:
    key = "sk-proj-" + "Qw3rTy7UiOp9AsDf" * 3
    password = "hunter2-Corr3ct-Horse"
    message = f"my openai key is {key} and I need the Trellis deploy fixed by Friday"
    response = f"Use postgres://deploy:{password}@db.internal/trellis and rotate that key."

    obs = await bridge.observe_now(SESSION, 5, message, response, today=WEDNESDAY)
    await bridge.drain()

    ent = await life.get_entity(CHAT_EXCHANGE, obs.exchange)
    stored_text = ent.description + str(ent.attributes)
    assert "[REDACTED:openai_key]" in stored_text and "[REDACTED:password]" in stored_text
    everything = "\n".join(await life.export_jsonl())
    assert key not in everything and password not in everything
    db = life.path / "brain.db"
    raw = b"".join(p.read_bytes() for p in (db, db.with_name("brain.db-wal")) if p.exists())
    assert key.encode() not in raw and password.encode() not in raw


@pytest.mark.parametrize(
    ("message", "etype", "name", "attributes"),
    [
        (
            "I'll send the revised budget to Marcus by Friday.",
            "Commitment",
            "Send the revised budget to Marcus",
            {"due": "2026-03-06", "owner": "user", "status": "open"},
        ),
        (
            "I promised Priya I would send the board deck by next Monday, so block my afternoon.",
            "Commitment",
            "Send the board deck",
            {"due": "2026-03-09", "promised_to": "Priya"},
        ),
        (
            "I promised Dana I'd send her the budget spreadsheet by Thursday.",
            "Commitment",
            "Send Dana the budget spreadsheet",
            {"due": "2026-03-05", "promised_to": "Dana"},
        ),
        (
            "Remind me that I promised Priya the budget draft by Friday.",
            "Commitment",
            "The budget draft for Priya",
            {"due": "2026-03-06", "promised_to": "Priya", "status": "open"},
        ),
        (
            "Remind me to call the plumber about the boiler by Thursday.",
            "Commitment",
            "Call the plumber about the boiler",
            {"due": "2026-03-05", "owner": "user"},
        ),
        (
            "We decided to move the Trellis beta to March 15 because of the sync bug.",
            "Decision",
            "Move the Trellis beta to March 15 because of the sync bug",
            {"decided_on": "2026-03-04"},
        ),
        ("Dana Ortiz is my new manager at work.", "Person", "Dana Ortiz", {"role": "manager"}),
        (
            "My mentor Kofi Mensah wants the pitch deck before the demo day.",
            "Person",
            "Kofi Mensah",
            {"role": "mentor"},
        ),
        (
            "Lena Hoffmann works at Studio Nord now, she told me yesterday.",
            "Person",
            "Lena Hoffmann",
            {"organization": "Studio Nord"},
        ),
        (
            "I prefer async standups over meetings, always have.",
            "Preference",
            "prefer async standups over meetings, always have",
            {"holder": "user"},
        ),
    ],
)
async def test_durable_facts_are_stored_and_linked_to_their_exchange(
    bridge: Bridge, life: Brain, message: str, etype: str, name: str, attributes: dict
) -> None:
    obs = await bridge.observe_now(
        SESSION, 7, message, "Noted, I will keep that in mind.", today=WEDNESDAY
    )

    assert f"{etype}:{name}" in obs.stored
    fact = await life.get_entity(etype, name)
    assert fact is not None and fact.description
    assert attributes.items() <= fact.attributes.items()
    assert ("extracted_from", CHAT_EXCHANGE, "3f9c2a71:ex:7") in await _links(life, etype, name)


async def test_a_workplace_links_the_person_to_the_organisation(
    bridge: Bridge, life: Brain
) -> None:
    await bridge.observe_now(
        SESSION, 8, "Lena Hoffmann works at Studio Nord now.", "Good to know.", today=WEDNESDAY
    )

    assert await life.get_entity("Organization", "Studio Nord") is not None
    links = await _links(life, "Person", "Lena Hoffmann")
    assert ("affiliated_with", "Organization", "Studio Nord") in links


async def test_a_fact_about_a_known_person_keeps_the_richer_description(
    bridge: Bridge, life: Brain
) -> None:
    before = await life.get_entity("Person", "Nadia Haddad")

    await bridge.observe_now(
        SESSION, 9, "My cofounder Nadia Haddad wants to wait on hiring.", "Fair.", today=WEDNESDAY
    )

    after = await life.get_entity("Person", "Nadia Haddad")
    assert after.description == before.description
    assert after.attributes["role"] == "cofounder"


@pytest.mark.parametrize(
    "message",
    [
        "lol I like it",
        "that sounds great, thanks so much!",
        "I think so too, that's cool",
        "I love that idea, let's do it",
        "I always forget where I put my keys",
        "we should totally hang out sometime",
        "I will probably look at it at some point",
        "Can you explain how reciprocal rank fusion works?",
    ],
)
async def test_filler_stores_no_facts(bridge: Bridge, message: str) -> None:
    obs = await bridge.observe_now(
        SESSION, 3, message, "Happy to help with that whenever you like, just ask.", today=WEDNESDAY
    )

    assert obs.stored == (f"{CHAT_EXCHANGE}:3f9c2a71:ex:3",)


async def test_each_turn_lands_in_the_context_log(bridge: Bridge, life: Brain) -> None:
    first = await bridge.enrich("how is Kevin's cohort going this month?", SESSION)
    obs = await bridge.observe_now(
        SESSION,
        first.turn,
        "how is Kevin's cohort going this month?",
        "Loop is strong; Seedling needs a clearer market slide.",
        today=WEDNESDAY,
    )
    second = await bridge.enrich("thanks!", SESSION)
    await bridge.observe_now(SESSION, 2, "thanks!", "Any time.", today=WEDNESDAY)
    await bridge.drain()

    session = await life._run(life.sessions.get, SESSION)
    assert session.message_count == 2
    assert session.bridge_context_log[0] == {
        "turn": 1,
        "judgment": "enrich",
        "queries": list(first.queries),
        "loaded": list(first.loaded),
        "reasons": list(first.reasons),
        "stored": list(obs.stored),
    }
    # The short-circuit does no I/O, so observe logs that turn, judgment included.
    assert second.source == "short_circuit"
    assert session.bridge_context_log[1] == {
        "turn": 2,
        "judgment": "pass_through",
        "queries": [],
        "loaded": [],
        "stored": [],
    }


def test_due_dates_resolve_from_the_day_they_were_said() -> None:
    assert resolve_due("Friday", WEDNESDAY) == "2026-03-06"
    assert resolve_due("next Monday", WEDNESDAY) == "2026-03-09"
    assert resolve_due("next Friday", WEDNESDAY) == "2026-03-13"
    assert resolve_due("tomorrow", WEDNESDAY) == "2026-03-05"
    assert resolve_due("end of month", WEDNESDAY) == "2026-03-31"
    assert resolve_due("May 2", WEDNESDAY) == "2026-05-02"
    assert resolve_due("2nd of January", WEDNESDAY) == "2027-01-02"
    assert resolve_due("Friday the 20th", WEDNESDAY) == "2026-03-20"  # not this Friday
    assert resolve_due("someday", WEDNESDAY) is None


def test_a_due_date_written_with_its_year_keeps_the_year() -> None:
    # Found as a user: "by 1 March 2029" was due the coming 1 March (the year was left
    # out of the day a promise names, "1 March" alone being read).
    from brainbridge.bridge.facts import extract_facts

    [fact] = extract_facts("I need to renew the lab's domain name by 1 March 2029", today=WEDNESDAY)
    assert fact.attributes["due"] == "2029-03-01", fact
    [fact] = extract_facts("I need to renew my passport by 3rd May, 2028", today=WEDNESDAY)
    assert fact.attributes["due"] == "2028-05-03", fact
    [fact] = extract_facts("I need to renew the lease by Friday 5 March 2027", today=WEDNESDAY)
    assert fact.attributes["due"] == "2027-03-05", fact
    # ...and a count or a time after the day is no year (found by review).
    for message in (
        "I need to hand in the report by 12 June 2000 words minimum",
        "I need to print the flyers by 9 December, 2000 copies",
        "I need to book the 12 June 1500 slot at the gym.",
    ):
        [fact] = extract_facts(message, today=WEDNESDAY)
        assert fact.attributes["due"].startswith("2026-"), (message, fact)
