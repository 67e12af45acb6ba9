"""Memory that stays true: changes retire old facts, people are resolved, exchanges dated."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from benchmarks import scenarios

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.bridge.resolve import AMBIGUOUS, resolve_name
from brainbridge.model import CHAT_EXCHANGE, Judgment, Session

# Measured on the dev split when this was written (no embedder: the hooks' cold path):
# pass 0.70, right fact 0.66, 1 stale line. A rule change that loses several probes fails.
DEV_PASS_FLOOR = 0.60
DEV_MAX_STALE = 2


async def _told(tmp_path: Path, turns: list[tuple[str, str]]) -> tuple[Brain, Bridge]:
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    bridge = Bridge(brain)
    for n, (day, user) in enumerate(turns, start=1):
        await bridge.observe_now(
            f"sess-{n:04d}-x", 1, user, "Noted.", today=date.fromisoformat(day)
        )
    return brain, bridge


async def test_the_dev_scenarios_keep_their_pass_rate() -> None:
    outcomes = await scenarios.run_split("dev")
    rates = scenarios.summary(outcomes)
    misses = "\n".join(f"{o.probe.message}: {o.why}" for o in outcomes if not o.passed)
    assert rates["passed"] >= DEV_PASS_FLOOR, misses
    assert rates["stale"] <= DEV_MAX_STALE, misses


async def test_a_change_retires_the_old_statement_and_the_block_says_so(tmp_path: Path) -> None:
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-09-01", "Our team standup is on Zoom every morning at 9:30."),
            ("2026-10-12", "We moved the standup from Zoom to Google Meet this week."),
        ],
    )
    try:
        old = await brain.search("standup Zoom", 5, entity_types=[CHAT_EXCHANGE], superseded=True)
        first = next(h.entity for h in old if "every morning" in h.entity.description)
        assert first.attributes["valid_to"] == "2026-10-12"
        assert first.attributes["superseded_by"].startswith("sess-000")
        result = await bridge.enrich("Can you remind the team about joining our standup?", None)
        assert result.judgment is Judgment.ENRICH
        line = next(ln for ln in result.block.splitlines() if "every morning" in ln)
        assert "[superseded on 2026-10-12 by: We moved the standup from Zoom to Google Meet" in line
    finally:
        await bridge.drain()
        await brain.close()


async def test_a_done_promise_is_completed_not_left_open(tmp_path: Path) -> None:
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-06-01", "I'll send the quarterly report to Marta by Friday."),
            ("2026-06-05", "Sent the quarterly report to Marta today, finally."),
        ],
    )
    try:
        [commitment] = [
            h.entity
            for h in await brain.search(
                "quarterly report Marta", 5, entity_types=["Commitment"], superseded=True
            )
        ]
        assert commitment.attributes["status"] == "done"
        assert commitment.attributes["valid_to"] == "2026-06-05"
    finally:
        await bridge.drain()
        await brain.close()


async def test_an_unrelated_statement_retires_nothing(tmp_path: Path) -> None:
    brain, bridge = await _told(
        tmp_path,
        [
            (
                "2026-06-03",
                "Kevin Osei joined our team as a backend engineer, he's based in Accra.",
            ),
            ("2026-06-24", "Kevin finished the payments migration ahead of schedule."),
        ],
    )
    try:
        hits = await brain.search("Kevin Accra", 5, entity_types=[CHAT_EXCHANGE])
        assert hits and not any(h.entity.attributes.get("superseded_by") for h in hits)
    finally:
        await bridge.drain()
        await brain.close()


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        # A shared date is no shared topic ("March", "Thursdays", "the 30th").
        (
            "Our lease at Keizersgracht 12 runs until the end of March next year.",
            "My mother's new address is 14 Birch Lane, Leeds, she moved in March.",
        ),
        (
            "I go climbing at Bouldergarten on Tuesdays and Thursdays after work.",
            "Ravi asked to move our 1:1 to Thursdays at 11 from now on.",
        ),
        (
            "Wen Li emailed: the VAT deadline was extended to the 30th.",
            "Halcyon asked for more time, the invoice is now due the 30th.",
        ),
        # "Google Meet" is a name; "we meet at Clara's" is not.
        (
            "Our book club is reading Piranesi this month, we meet at Clara's on the 29th.",
            "We moved the standup from Zoom to Google Meet this week.",
        ),
        # "the end of May" is a noun, not a change.
        (
            "Jessica Moreno, everyone calls her Jess, runs our design team.",
            "Jess said the new icon set will be ready by the end of May.",
        ),
        # A speaker's label and a greeting's name are not what a change is about.
        (
            "Caroline: Hey Mel! Good to see you! How have you been?",
            "Caroline: Cool, thanks Mel! Can't wait. I'll keep ya posted. Bye!",
        ),
        # A question states no change ("during your move?"), a caption is what was shown,
        # "since I moved" is background, and "book"/"done" are not past completions here.
        (
            "Our family trip to the lake was great, the kids loved the support of the family.",
            "How has your family been so supportive during your move?",
        ),
        (
            "I ran a charity race for mental health, I'll share a photo of the finish.",
            "I've known these friends for 4 years, since I moved from my home country.",
        ),
        (
            "I will look for a book shelf and share a photo of it with you.",
            "Being a mom is awesome. [shares a photo: a book shelf with many books on it]",
        ),
        (
            "I should try a pottery class and paint some art with the kids.",
            "I haven't done pottery yet, but I'm game for trying new art.",
        ),
        # A gerund, an adjective, a plural noun and "keep you posted" change nothing.
        (
            "I want to keep promoting the dance studio on social media this year.",
            "Art gives me freedom, and so does promoting the dance studio on social media.",
        ),
        (
            "The dance studio opening night was a moving experience for the whole family.",
            "Handling changes at the dance studio has been hard, but the family helps.",
        ),
        (
            "I will send you the dance studio photos when the studio opens.",
            "Thanks! I'll keep you posted on the dance studio photos.",
        ),
    ],
)
async def test_a_statement_that_changes_nothing_retires_nothing(
    tmp_path: Path, earlier: str, later: str
) -> None:
    brain, bridge = await _told(tmp_path, [("2026-03-01", earlier), ("2026-04-02", later)])
    try:
        old = await brain.get_entity(CHAT_EXCHANGE, "sess-000:ex:1")  # the first session's
        people = await brain.search("Jessica Moreno", 5, entity_types=["Person"])
    finally:
        await bridge.drain()
        await brain.close()
    assert old is not None and not old.attributes.get("superseded_by"), later
    assert not any(h.entity.attributes.get("superseded_by") for h in people)


async def test_single_valued_facts_end_the_previous_value(tmp_path: Path) -> None:
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-03-10", "I work at Northwind as a product manager."),
            ("2026-08-20", "Big news: I left Northwind and started at Contoso as head of product."),
            ("2026-04-01", "I'm allergic to peanuts, so no satay for me."),
            ("2026-07-20", "Turns out I'm also allergic to shellfish."),
        ],
    )
    try:
        old = await brain.get_entity("Fact", "User's employer: Northwind")
        new = await brain.get_entity("Fact", "User's employer: Contoso")
        assert old.attributes["valid_to"] == "2026-08-20" and old.attributes["superseded_by"]
        assert new.attributes["valid_from"] == "2026-08-20" and "valid_to" not in new.attributes
        # allergies add up: both stay current
        for what in ("peanuts", "shellfish"):
            fact = await brain.get_entity("Fact", f"User's allergy: {what}")
            assert "superseded_by" not in fact.attributes
    finally:
        await bridge.drain()
        await brain.close()


async def test_a_new_manager_ends_the_old_ones_role(tmp_path: Path) -> None:
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-02-14", "My manager Priya Shah wants weekly written updates on Fridays."),
            ("2026-09-09", "Priya moved to the platform team, my new manager is Oskar Lindqvist."),
        ],
    )
    try:
        priya = await brain.get_entity("Person", "Priya Shah")
        oskar = await brain.get_entity("Person", "Oskar Lindqvist")
        assert priya.attributes.get("former_role") == "manager" and "role" not in priya.attributes
        assert priya.description.startswith("Formerly the user's manager (until 2026-09-09)")
        assert oskar.attributes["role"] == "manager"
    finally:
        await bridge.drain()
        await brain.close()


async def test_people_are_resolved_by_any_form_of_their_name(tmp_path: Path) -> None:
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-02-01", "Theo Nakamura is our landlord, rent goes to him on the 1st."),
            ("2026-04-08", "Jessica Moreno, everyone calls her Jess, runs our design team."),
        ],
    )
    try:
        store = brain.searcher.store
        assert await brain._run(resolve_name, store, "Person", "theo  nakamura") == "Theo Nakamura"
        assert await brain._run(resolve_name, store, "Person", "Theo") == "Theo Nakamura"
        assert await brain._run(resolve_name, store, "Person", "Jess") == "Jessica Moreno"
        assert await brain._run(resolve_name, store, "Person", "Theo Walsh") is None
        assert (await brain.resolve("jess")).name == "Jessica Moreno"  # brain show Jess
        await brain.upsert_entity("Person", "Theo Walsh")
        assert await brain._run(resolve_name, store, "Person", "Theo") == AMBIGUOUS
        mentions = bridge.names.find("Jess said the icons are late")
        assert [m.name for m in mentions] == ["Jessica Moreno"]
    finally:
        await bridge.drain()
        await brain.close()


async def test_diacritics_do_not_split_a_person(tmp_path: Path) -> None:
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    try:
        await brain.upsert_entity("Person", "José García")
        store = brain.searcher.store
        assert await brain._run(resolve_name, store, "Person", "Jose Garcia") == "José García"
        assert await brain._run(resolve_name, store, "Person", "Dan Alvarez") is None
    finally:
        await brain.close()


async def test_an_exchange_is_dated_by_when_it_happened(tmp_path: Path) -> None:
    brain, bridge = await _told(
        tmp_path, [("2026-03-02", "I need to finish that letter to the council by Friday.")]
    )
    try:
        result = await bridge.enrich("what was that letter deadline again?", Session("later"))
        assert result.judgment is Judgment.ENRICH
        assert "(conversation history, 2026-03-02)" in result.block  # not the day it was stored
    finally:
        await bridge.drain()
        await brain.close()


async def test_words_the_brain_never_saw_do_not_hide_what_it_did(tmp_path: Path) -> None:
    # Found talking to the bridge as a user: the query kept "candidate asked address", which
    # no entry holds, and the one word that mattered ("office") fell under the floor.
    brain, bridge = await _told(
        tmp_path, [("2026-03-02", "Our office moved from Kreuzberg to the new space in Mitte.")]
    )
    try:
        result = await bridge.enrich(
            "Where is our office these days? A candidate asked for the address.", Session("later")
        )
        assert result.judgment is Judgment.ENRICH
        assert result.block and "Mitte" in result.block
        noise = await brain.search("zorblat quimvex", 5)  # words nobody said: still nothing
        assert noise == []
    finally:
        await bridge.drain()
        await brain.close()


async def test_neighbours_are_found_by_session_and_position_not_name(tmp_path: Path) -> None:
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    try:
        for n, (user, ai) in enumerate(
            [
                ("What did you call the puppy?", "You haven't told me yet."),
                ("We named her Tilly, after my childhood dog.", "Lovely name."),
            ],
            start=1,
        ):
            await brain.upsert_entity(
                CHAT_EXCHANGE,
                f"import/{n}",  # not the {session}:ex:{n} pattern
                {
                    "session_id": "s-1",
                    "exchange_number": n,
                    "user_message": user,
                    "ai_response": ai,
                },
                description=f"User: {user} | AI: {ai}",
            )
        hits = await brain.search("what did you call the puppy", 5, entity_types=[CHAT_EXCHANGE])
        assert {h.entity.name for h in hits} == {"import/1", "import/2"}
        assert "context" in next(h for h in hits if h.entity.name == "import/2").retrievers
    finally:
        await brain.close()


async def test_an_ongoing_thing_that_ended_is_retired_by_any_inflection(tmp_path: Path) -> None:
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-04-20", "Therapy with Dr. Lund is every other Monday at 5pm."),
            ("2026-02-09", "My day rate for Flockhart is 650 euros."),
            ("2026-09-01", "Flockhart agreed to raise my day rate to 720 euros from October."),
            (
                "2026-09-14",
                "I finished therapy with Dr. Lund last week, we agreed I'm in a good place.",
            ),
        ],
    )
    try:
        for query, until in (("therapy Lund Monday", "2026-09-14"), ("day rate 650", "2026-09-01")):
            hits = await brain.search(query, 5, entity_types=[CHAT_EXCHANGE], superseded=True)
            old = [h.entity for h in hits if h.entity.attributes.get("date", "") < "2026-06-01"]
            assert old and all(e.attributes.get("valid_to") == until for e in old), query
    finally:
        await bridge.drain()
        await brain.close()


async def test_a_message_on_the_demo_brains_main_topic_is_enriched(tmp_path: Path) -> None:
    from brainbridge.cli.sample import load_sample

    brain = await Brain.open(tmp_path / "demo", embedder=None)
    bridge = Bridge(brain)
    try:
        await load_sample(brain)
        result = await bridge.enrich("Drivers still lose stops after syncing, any new ideas?", None)
        assert result.judgment is Judgment.ENRICH, result.reasons
        assert any("topic the brain knows" in r for r in result.reasons)
        assert "sync" in (result.block or "").lower()
        general = await bridge.enrich("What is the capital of Australia and its population?", None)
        assert general.judgment is Judgment.PASS_THROUGH
    finally:
        await bridge.drain()
        await brain.close()


async def test_a_repeated_prompt_is_one_line_in_the_block(tmp_path: Path) -> None:
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    bridge = Bridge(brain)
    try:
        for n in range(1, 11):
            await bridge.observe_now(
                "same-session-1",
                n,
                "Summarise the Falcon budget review notes please",
                f"Reply {n}.",
            )
        await bridge.observe_now(
            "other-sess-22", 1, "The Falcon budget review moved to May.", "Ok."
        )
        result = await bridge.enrich("What came out of the Falcon budget review?", None)
        lines = [ln for ln in result.block.splitlines() if ln.startswith("- ")]
        assert sum("Summarise the Falcon budget" in ln for ln in lines) == 1
        assert any("moved to May" in ln for ln in lines)
    finally:
        await bridge.drain()
        await brain.close()


async def test_what_a_person_tells_over_weeks_comes_back_right(tmp_path: Path) -> None:
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-02-01", "We're based in Leeds, in Headingley."),
            ("2026-02-01", "I work at Monzo as a data engineer."),
            ("2026-05-03", "Quick update: I left Monzo and joined Starling as a staff engineer."),
            ("2026-05-03", "I promised Tariq I'd review his pipeline design by Friday."),
            ("2026-06-10", "The team offsite is at the Corn Exchange on July 2."),
            (
                "2026-06-20",
                "The offsite got moved to the Royal Armouries because of a booking clash.",
            ),
        ],
    )
    try:
        assert await brain.get_entity("Commitment", "Review Tariq's pipeline design")
        bio = await bridge.enrich("Write a two-line bio of me for the meetup page.", None)
        assert bio.judgment is Judgment.ENRICH
        assert "Starling" in bio.block and "Leeds" in bio.block and "Monzo" not in bio.block
        offsite = await bridge.enrich("Where is the team offsite happening?", None)
        lines = offsite.block.splitlines()
        old = next(ln for ln in lines if "Corn Exchange" in ln)
        assert "[superseded on 2026-06-20 by: The offsite got moved" in old
        assert offsite.block.index("Royal Armouries") < offsite.block.index("Corn Exchange")
    finally:
        await bridge.drain()
        await brain.close()


async def test_a_change_told_by_pronoun_or_a_correction_retires_what_was_just_said(
    tmp_path: Path,
) -> None:
    # "it's pushed to Friday" shares no word with "Dinner with Marco is Thursday": the
    # old time came first, unmarked, and the new one never came at all.
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    bridge = Bridge(brain)
    said = [
        ("s1", "Dinner with Marco is Thursday at 7 at Nopi."),
        ("s1", "He just texted, it's pushed to Friday same time."),
        ("s2", "I fixed the flaky payments test in CI."),
        ("s2", "It's pushed to main now."),
        ("s3", "Actually it moved to the community hall."),  # nothing before it in s3
        ("s4", "My physio appointment is on Tuesday at 4pm."),
        ("s4", "Sorry, I meant Wednesday, not Tuesday."),
        ("s5", "I started running every morning last spring."),
        ("s5", "That changed my life, honestly."),  # no plan moved
    ]
    try:
        for n, (session, user) in enumerate(said, start=1):
            await bridge.observe_now(session, n, user, "Noted.", today=date(2026, 10, 1))
        dinner = await bridge.enrich("When is the dinner with Marco?", None)
        fix = await brain.get_entity(CHAT_EXCHANGE, "s2:ex:3")
        physio = await brain.get_entity(CHAT_EXCHANGE, "s4:ex:6")
        running = await brain.get_entity(CHAT_EXCHANGE, "s5:ex:8")
    finally:
        await bridge.drain()
        await brain.close()
    lines = [ln for ln in (dinner.block or "").splitlines() if ln.startswith("- ")]
    assert "pushed to Friday" in lines[0], dinner.block
    assert "[superseded on 2026-10-01 by: He just texted" in lines[1], dinner.block
    assert fix is not None and not fix.attributes.get("superseded_by")
    # A correction of what was just said replaces it too.
    assert physio is not None and physio.attributes.get("superseded_by") == "s4:ex:7"
    assert running is not None and not running.attributes.get("superseded_by")
