"""Memory that stays true: changes retire old facts, people are resolved, exchanges dated."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from benchmarks import scenarios

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge, Enrichment
from brainbridge.bridge.resolve import AMBIGUOUS, resolve_name
from brainbridge.model import CHAT_EXCHANGE, Entity, Judgment, Session

# Measured on the dev split when this was written (no embedder: the hooks' cold path):
# pass 0.70, right fact 0.66, 1 stale line. A rule change that loses several probes fails.
DEV_PASS_FLOOR = 0.60
DEV_MAX_STALE = 2


async def _ask(bridge: Bridge, *questions: str) -> dict[str, Enrichment]:
    """Each question's enrichment, asked in turn outside any session."""
    return {q: await bridge.enrich(q, None) for q in questions}


async def _told(tmp_path: Path, turns: list[tuple[str, str]]) -> tuple[Brain, Bridge]:
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    bridge = Bridge(brain)
    for n, (day, user) in enumerate(turns, start=1):
        await bridge.observe_now(
            f"sess-{n:04d}-x", 1, user, "Noted.", today=date.fromisoformat(day)
        )
    return brain, bridge


async def _first_said(tmp_path: Path, turns: list[tuple[str, str]]) -> Entity:
    """The first exchange of a brain told `turns`, once what it said is stored."""
    brain, bridge = await _told(tmp_path, turns)
    try:
        first = await brain.get_entity(CHAT_EXCHANGE, "sess-000:ex:1")
    finally:
        await bridge.drain()
        await brain.close()
    assert first is not None
    return first


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
        # Found as users: who reported a change is not what changed; ...
        (
            "Our chair is Margaret Ellis and the warehouse lead is Dev Patel.",
            "hamper packing day is Dec 12, need 15 people. actually Margaret says make it 20",
        ),
        (
            "Dr Priya Nair is our clinical director and Tom Baxter is head nurse.",
            "cancel the staff training day on the 15th Nov, Priya says too many people off",
        ),
        (
            "Kasia says Driftwood wants to push launch to April 14",
            "Kasia moved to another studio, Driftwood gave me Owen Price as my new contact",
        ),
        # ... "actually" alone, with two common words shared, is a weak cue; ...
        (
            "planning to give birth at St Thomas' birth centre. my partner is Leo",
            "added to birth plan: actually ok with an epidural if needed",
        ),
        # ... and two names shared are not the new contact the change is of.
        (
            "invoice #1042 to Harper & Cole for £2,400 went out today, 30 day terms",
            "Harper & Cole: Dan's gone on mat leave, my new contact is Rachel Green",
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


@pytest.mark.parametrize(
    ("first", "then", "holder"),
    [
        # Found by review: someone else's new one, or a role in the news, is not the user's.
        ("My midwife is Claire Dunn", "My sister switched to a new midwife, Anna Kowalski", "Claire Dunn"),
        ("My GP is Dr Shah at Elm Street", "My sister moved to Leeds, new GP is Dr Khan", "Shah"),
        ("My manager is Sarah Cole", "Mourinho took over as manager at Spurs in the summer", "Sarah Cole"),
    ],
)  # fmt: skip
async def test_someone_elses_new_one_ends_no_role_of_the_users(
    tmp_path: Path, first: str, then: str, holder: str
) -> None:
    brain, bridge = await _told(tmp_path, [("2026-10-12", first), ("2026-11-22", then)])
    try:
        kept = await brain.get_entity("Person", holder)
    finally:
        await bridge.drain()
        await brain.close()
    assert kept is not None and kept.attributes.get("role"), kept


@pytest.mark.parametrize(
    ("first", "then", "old", "new", "role"),
    [
        # Found as users: each left the old one the user's too, or named no new one.
        ("my tutor is Rita Sousa", "my tutor is Joana Lima now", "Rita Sousa", "Joana Lima", "tutor"),
        (
            "My tutor is Rita Sousa, we do lessons on iTalki",
            "Rita's going back to Porto so I'm switching to a new tutor, Joana Lima",
            "Rita Sousa",
            "Joana Lima",
            "tutor",
        ),
        (
            "Vet is Alan Pryce at Borderland Farm Vets",
            "Alan retired, new vet is Sian Rees",
            "Alan Pryce",
            "Sian Rees",
            "vet",
        ),
        (
            "treasurer is Graham Holt, he handles the entry fees",
            "Liam O'Connor is taking over as our treasurer from January",
            "Graham Holt",
            "Liam O'Connor",
            "treasurer",
        ),
    ],
)  # fmt: skip
async def test_a_new_holder_of_a_role_ends_the_old_ones(
    tmp_path: Path, first: str, then: str, old: str, new: str, role: str
) -> None:
    brain, bridge = await _told(tmp_path, [("2026-10-12", first), ("2026-11-22", then)])
    try:
        was = await brain.get_entity("Person", old)
        now = await brain.get_entity("Person", new)
    finally:
        await bridge.drain()
        await brain.close()
    assert was is not None and was.attributes.get("former_role") == role, was
    assert now is not None and now.attributes.get("role") == role, now


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


async def test_a_deed_ends_only_what_its_own_clause_speaks_of(tmp_path: Path) -> None:
    # Found as a user: "Quoted them £480 for the four tiers, they paid a £100 deposit" marked
    # "now it's four tiers" as ended: "four tiers" was in the quote, not in what was paid.
    brain, bridge = await _told(
        tmp_path,
        [
            (
                "2026-11-09",
                "They've changed the cake: now it's four tiers and the flavour is chocolate.",
            ),
            ("2026-11-09", "Quoted them £480 for the four tiers, they paid a £100 deposit."),
            ("2026-11-10", "Kim is having chemo at the Western every Tuesday."),
            ("2026-11-20", "Great news, Kim finished her chemo at the Western yesterday."),
            # Found by review: what is under way ends by what others do, whatever it is called.
            ("2026-11-04", "The Larkin warehouse lease is still being negotiated."),
            (
                "2026-11-10",
                "Met the Larkin people about the warehouse lease, they signed the contract.",
            ),
        ],
    )
    try:
        hits = await brain.search("four tiers chocolate", 5, entity_types=[CHAT_EXCHANGE])
        cake = [h.entity for h in hits if "flavour" in h.entity.description]
        assert cake and not cake[0].attributes.get("superseded_by"), cake
        hits = await brain.search(
            "Kim chemo Tuesday", 5, entity_types=[CHAT_EXCHANGE], superseded=True
        )
        chemo = [h.entity for h in hits if "every Tuesday" in h.entity.description]
        assert chemo and chemo[0].attributes.get("valid_to") == "2026-11-20", chemo
        hits = await brain.search(
            "Larkin lease negotiated", 5, entity_types=[CHAT_EXCHANGE], superseded=True
        )
        lease = [h.entity for h in hits if "still being" in h.entity.description]
        assert lease and lease[0].attributes.get("valid_to") == "2026-11-10", lease
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
        # Found as a user: "scrap that" retracts what was just said; "scrap what I said about"
        # the thing it names.
        ("s6", "The team dinner is on Thursday at 7 at Dishoom."),
        ("s6", "Scrap that, it's Friday at 8 now."),
        ("s7", "I promised Claire I'll sort out the power of attorney forms by 5 December."),
        ("s7", "My sister Claire shares the caring with me."),
        ("s7", "Scrap what I said about the power of attorney forms, her solicitor does them."),
        # ...and a change of which days someone comes is no change of all said of them.
        ("s8", "Claire does Tuesday and Thursday visits, I do weekends."),
        ("s8", "I've promised Claire I'll sort out the care home invoices by 30 November."),
        ("s9", "Claire can't do Thursdays any more, so she's doing Tuesdays and Wednesdays now."),
        # Found by review: "that" before a noun is no "that" said of what came before.
        ("s10", "The Golf is booked in at Kwik Fit on 3 December for its MOT."),
        ("s10", "Ignore that warning light on the dash, the garage says it's the tyre sensor."),
        ("s11", "Book club is at Clara's on the 5th of December."),
        ("s11", "OK scrap that, it's at Mei's this time."),
    ]
    try:
        for n, (session, user) in enumerate(said, start=1):
            await bridge.observe_now(session, n, user, "Noted.", today=date(2026, 10, 1))
        dinner = await bridge.enrich("When is the dinner with Marco?", None)
        fix = await brain.get_entity(CHAT_EXCHANGE, "s2:ex:3")
        physio = await brain.get_entity(CHAT_EXCHANGE, "s4:ex:6")
        running = await brain.get_entity(CHAT_EXCHANGE, "s5:ex:8")
        dishoom = await brain.get_entity(CHAT_EXCHANGE, "s6:ex:10")
        forms = await brain.get_entity(CHAT_EXCHANGE, "s7:ex:12")
        sister = await brain.get_entity(CHAT_EXCHANGE, "s7:ex:13")
        visits = await brain.get_entity(CHAT_EXCHANGE, "s8:ex:15")
        invoices = await brain.get_entity(CHAT_EXCHANGE, "s8:ex:16")
        mot = await brain.get_entity(CHAT_EXCHANGE, "s10:ex:18")
        club = await brain.get_entity(CHAT_EXCHANGE, "s11:ex:20")
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
    assert dishoom is not None and dishoom.attributes.get("superseded_by") == "s6:ex:11"
    assert forms is not None and forms.attributes.get("superseded_by") == "s7:ex:14"
    assert sister is not None and not sister.attributes.get("superseded_by")
    assert visits is not None and visits.attributes.get("superseded_by") == "s9:ex:17"
    assert invoices is not None and not invoices.attributes.get("superseded_by")
    assert mot is not None and not mot.attributes.get("superseded_by")
    assert club is not None and club.attributes.get("superseded_by") == "s11:ex:21"


async def test_a_start_put_off_to_a_day_retires_when_it_was_not_who_they_are(
    tmp_path: Path,
) -> None:
    # Found as a user: "Stan rang, he can't start till the 26th now" left "starting on the
    # 19th" current: a name and a pronoun, and "till" taken for what changed.
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    bridge = Bridge(brain)
    said = [
        ("s1", "2026-11-10", "Stan Whitby is our roofer, he did the Hendersons' roof too."),
        ("s2", "2026-11-21", "Stan Whitby the roofer is starting on the 19th."),
        ("s3", "2026-11-25", "Stan rang, he can't start till the 26th now."),
    ]
    try:
        for session, day, user in said:
            await bridge.observe_now(session, 1, user, "Noted.", today=date.fromisoformat(day))
        roofer = await brain.get_entity(CHAT_EXCHANGE, "s1:ex:1")
        start = await brain.get_entity(CHAT_EXCHANGE, "s2:ex:1")
        asked = await bridge.enrich("When does the roofer start?", None)
    finally:
        await bridge.drain()
        await brain.close()
    assert start is not None and start.attributes.get("superseded_by") == "s3:ex:1"
    assert roofer is not None and not roofer.attributes.get("superseded_by")
    assert "till the 26th" in (asked.block or "").split("\n- ")[1], asked.block


async def test_a_dose_changed_by_the_doctor_keeps_the_drug_and_the_doctor(
    tmp_path: Path,
) -> None:
    # Found as a user: "Dr Shah upped the amlodipine to 10mg" retired "My GP is Dr Shah"
    # ("Dr" and "Shah" counted as two shared words), left the dose current, and a first
    # fix made the medication "10mg".
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    bridge = Bridge(brain)
    said = [
        ("s1", "2026-11-02", "I take amlodipine 5mg every morning for my blood pressure."),
        ("s1", "2026-11-02", "My GP is Dr Shah at the Elm Street surgery."),
        ("s2", "2026-11-20", "Dr Shah upped the amlodipine to 10mg."),
    ]
    try:
        for n, (session, day, user) in enumerate(said, start=1):
            await bridge.observe_now(session, n, user, "Noted.", today=date.fromisoformat(day))
        dose = await brain.get_entity(CHAT_EXCHANGE, "s1:ex:1")
        gp = await brain.get_entity(CHAT_EXCHANGE, "s1:ex:2")
        now = await brain.get_entity("Fact", "User's medication: amlodipine 10mg every morning")
    finally:
        await bridge.drain()
        await brain.close()
    assert dose is not None and dose.attributes.get("superseded_by") == "s2:ex:3"
    assert gp is not None and not gp.attributes.get("superseded_by")
    assert now is not None and "before: amlodipine 5mg every morning" in now.description


async def test_a_printed_task_is_done_and_a_task_put_off_stays_open(tmp_path: Path) -> None:
    # Found as users: "printed the pairing cards today" left the task open, and "Jonas said
    # the invoice can wait, send it by the 12th instead" dropped the promise.
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-11-10", "I need to print the pairing cards by December 4"),
            ("2026-11-10", "I need to send the invoice to Jonas by December 4"),
            ("2026-11-20", "printed the pairing cards today"),
            ("2026-11-20", "Jonas said the invoice can wait, send it by the 12th instead"),
        ],
    )
    try:
        cards = await brain.get_entity("Commitment", "Print the pairing cards")
        invoice = await brain.get_entity("Commitment", "Send the invoice to Jonas")
    finally:
        await bridge.drain()
        await brain.close()
    assert cards is not None and cards.attributes["status"] == "done"
    assert invoice is not None and invoice.attributes["status"] == "open"
    assert invoice.attributes["due"] == "2026-12-12"


async def test_a_deed_keeps_a_task_however_it_was_said(tmp_path: Path) -> None:
    # Found by review of the deeds that end something: a task said without "I" ("Need to
    # send ...", "jen wants the q3 deck by friday") is kept by its deed, and "the updated
    # deck" is an adjective, not a deed that made the task a completion.
    brain, bridge = await _told(
        tmp_path,
        [
            (
                "2026-11-04",
                "Need to send the updated deck and the data room link to Hannah by May 14",
            ),
            ("2026-11-05", "jen (my boss) wants the q3 deck by friday"),
            ("2026-11-18", "deck and data room sent to Hannah"),
            ("2026-11-18", "sent jen the q3 deck, she loved it"),
        ],
    )
    try:
        hannah = await brain.get_entity(CHAT_EXCHANGE, "sess-000:ex:1")
        task = await brain.get_entity(
            "Commitment", "Send the updated deck and the data room link to Hannah"
        )
        jen = await brain.get_entity(CHAT_EXCHANGE, "sess-0002-x:ex:1")
    finally:
        await bridge.drain()
        await brain.close()
    assert hannah is not None and hannah.attributes.get("superseded_by")
    assert task is not None and task.attributes["status"] == "done"
    assert jen is not None and jen.attributes.get("superseded_by")


async def test_tasks_still_to_do_are_listed_and_one_done_leaves_the_other(
    tmp_path: Path,
) -> None:
    # Found as users: "still need to ..." with no day was never a task, so "What's still on
    # my to-do list?" passed through; and one of two tasks done marked both done.
    brain, bridge = await _told(
        tmp_path,
        [
            (
                "2026-11-19",
                "still need to renew the controlled drugs register and order the new xray plates",
            ),
            ("2026-11-25", "ordered the new xray plates today"),
        ],
    )
    try:
        renew = await brain.get_entity("Commitment", "Renew the controlled drugs register")
        order = await brain.get_entity("Commitment", "Order the new xray plates")
        todo = await bridge.enrich("What's still on my to-do list?", None)
    finally:
        await bridge.drain()
        await brain.close()
    assert renew is not None and renew.attributes["status"] == "open"
    assert order is not None and order.attributes["status"] == "done"
    assert todo.judgment is Judgment.ENRICH and "controlled drugs register" in todo.block
    assert "xray plates" not in todo.block.split("\n")[2], todo.block


async def test_an_amount_changed_replaces_the_amount_and_a_fixed_bug_ends(tmp_path: Path) -> None:
    # Found by diffing persona brains: "Harrow went up to 165k" replaced "biggest opp is
    # Harrow Logistics" and "Harrow slipped, close date is now March 20", not the 140k;
    # "fixed the autosave bug" and "delivered the contract batch" ended nothing.
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-01-06", "biggest opp is Harrow Logistics, 140k, champion is Nadia Brooks"),
            ("2026-02-02", "Harrow slipped, close date is now March 20, they need board sign off"),
            ("2026-02-10", "Harrow went up to 165k, they added the EU warehouses"),
            ("2026-02-11", "big bug: the save file corrupts if you quit during autosave"),
            ("2026-02-12", "fixed the autosave bug today"),
        ],
    )
    try:
        opp = await brain.get_entity(CHAT_EXCHANGE, "sess-000:ex:1")
        slipped = await brain.get_entity(CHAT_EXCHANGE, "sess-0002-x:ex:1")
        bug = await brain.get_entity(CHAT_EXCHANGE, "sess-0004-x:ex:1")
    finally:
        await bridge.drain()
        await brain.close()
    assert opp is not None and opp.attributes.get("superseded_part") == "140k", opp.attributes
    assert slipped is not None and slipped.attributes.get("superseded_by") is None
    assert bug is not None and bug.attributes.get("superseded_by") == "sess-0005-x:ex:1"


async def test_a_new_contact_replaces_the_one_the_change_names(tmp_path: Path) -> None:
    # Found as a user: "Harper & Cole: Dan's gone ..., my new contact is Rachel Green"
    # replaced "Lumen's contact is Mia Torres", the first clause to say "contact".
    said = await _first_said(
        tmp_path,
        [
            (
                "2026-10-05",
                "Lumen's contact is Mia Torres, she's the owner. Harper & Cole I deal with "
                "their office manager Dan Whitfield",
            ),
            (
                "2026-10-24",
                "Harper & Cole: Dan's gone on mat leave, my new contact is Rachel Green",
            ),
        ],
    )
    assert said is not None
    assert said.attributes.get("superseded_part") == (
        "Harper & Cole I deal with their office manager Dan Whitfield"
    )


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        # Found by review: a correction opened by "actually" or "turns out" ...
        ("My blood type is O negative", "Actually my blood type is A positive"),
        ("The kids finish school on the 19th", "Turns out the kids finish school on the 17th"),
        # ... one who says they can't make it ...
        ("Dave the plumber is coming on Tuesday", "Dave says he can't make Tuesday, coming Thursday instead"),
        # ... a start moved by "is starting on" ...
        ("Stan the roofer can start on the 19th", "Stan is starting on the 26th now"),
        # ... and a deed that ends what was pending.
        ("My tax return for 2025 is still outstanding", "Filed my tax return last night"),
        ("Got the council tax bill for £180 today", "Paid the council tax bill"),
        ("Mum has MS and takes Tysabri", "Mum's MS meds changed to Ocrevus"),
    ],
)  # fmt: skip
async def test_a_change_still_replaces_what_it_changes(
    tmp_path: Path, earlier: str, later: str
) -> None:
    old = await _first_said(tmp_path, [("2026-03-01", earlier), ("2026-04-02", later)])
    assert old is not None and old.attributes.get("superseded_by"), later


async def test_an_entry_sent_off_ends_the_entry_not_the_exam(tmp_path: Path) -> None:
    # Found as a user: "sent off Ellie's IGCSE entry form" marked the exam itself replaced.
    old = await _first_said(
        tmp_path,
        [
            (
                "2026-10-04",
                "Ellie is sitting her IGCSE Biology early, the exam is 12 May next year. "
                "Entry deadline is 20 November!!",
            ),
            ("2026-11-15", "sent off Ellie's IGCSE entry form today, paid the £180 fee"),
        ],
    )
    assert old is not None and old.attributes.get("superseded_part") == (
        "Entry deadline is 20 November!!"
    )


async def test_a_price_raised_replaces_the_price_and_is_no_note_on_the_treasurer(
    tmp_path: Path,
) -> None:
    # Found as a user: "we had to raise the adult entry to £18" replaced "he handles the
    # entry fees" too, and was added to the treasurer's card, which it does not name.
    brain, bridge = await _told(
        tmp_path,
        [
            (
                "2026-10-12",
                "treasurer is Graham Holt, he handles the entry fees. entry is £15 adults, "
                "£8 juniors",
            ),
            ("2026-11-21", "we had to raise the adult entry to £18 because of hall hire costs"),
        ],
    )
    try:
        said = await brain.get_entity(CHAT_EXCHANGE, "sess-000:ex:1")
        graham = await brain.get_entity("Person", "Graham Holt")
    finally:
        await bridge.drain()
        await brain.close()
    assert said is not None and said.attributes.get("superseded_part") == "entry is £15 adults"
    assert graham is not None and "Since" not in graham.description, graham.description


async def test_one_who_steps_down_holds_the_role_no_more(tmp_path: Path) -> None:
    # Found as a user: "Graham is stepping down as treasurer" left Graham the treasurer.
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-11-02", "treasurer is Graham Holt, he handles the entry fees"),
            ("2026-11-04", "Graham is stepping down as treasurer, Liam is taking over the books"),
            ("2026-11-05", "Mourinho stepped down as manager at Spurs"),
        ],
    )
    try:
        graham = await brain.get_entity("Person", "Graham Holt")
    finally:
        await bridge.drain()
        await brain.close()
    assert graham is not None and graham.attributes.get("former_role") == "treasurer"
    assert graham.description.startswith("Formerly the user's treasurer (until 2026-11-04)")


async def test_a_dose_changed_for_one_drug_leaves_the_other(tmp_path: Path) -> None:
    # Found by review: "upped the atorvastatin to 40mg" retired "medication: amlodipine
    # 5mg", learned from the same sentence, and "What medication am I on?" found nothing.
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-11-01", "I take 5mg amlodipine and 20mg atorvastatin every morning"),
            ("2026-11-20", "Dr Shah upped the atorvastatin to 40mg"),
        ],
    )
    try:
        kept = await brain.get_entity("Fact", "User's medication: amlodipine 5mg")
        asked = await bridge.enrich("What medication am I on?", None)
    finally:
        await bridge.drain()
        await brain.close()
    assert kept is not None and not kept.attributes.get("superseded_by")
    assert "amlodipine" in (asked.block or ""), asked.reasons


async def test_a_question_about_the_users_business_or_team_gets_it(tmp_path: Path) -> None:
    # Found as users (a theatre director, a vet practice manager, a car owner): each of
    # these passed through, and the insurer asked for was the one switched from.
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-11-20", "stage manager is Ollie Grant, and Priti Shah is doing lighting"),
            ("2026-11-20", "our drugs supplier is Covetrus, we get deliveries tues and fri"),
            ("2026-11-21", "our car insurance is with Aviva, renewal in March"),
            ("2026-11-25", "we switched our car insurance to Direct Line, much cheaper"),
        ],
    )
    try:
        asked = await _ask(
            bridge,
            "Who's the stage manager?",
            "Who is the stage manager for the show?",
            "Which days does Covetrus deliver?",
            "Who's our supplier?",
            "Who is my car insurance with?",
            "Who is the manager of Arsenal these days?",
            "Who is the manager of the hotel?",
            "Who is the stage manager in the new series?",
        )
    finally:
        await bridge.drain()
        await brain.close()
    for q, expected in (
        ("Who's the stage manager?", "Ollie Grant"),
        ("Who is the stage manager for the show?", "Ollie Grant"),
        ("Which days does Covetrus deliver?", "tues and fri"),
        ("Who's our supplier?", "Covetrus"),
        ("Who is my car insurance with?", "Direct Line"),
    ):
        result = asked[q]
        assert result.judgment is Judgment.ENRICH, (q, result.reasons)
        assert expected in (result.block or ""), (q, result.block)
    first = _first_item(asked["Who is my car insurance with?"].block)
    assert "Direct Line" in first and "superseded" not in first
    # Found by review: someone else's role is no person of the user's.
    for q in (
        "Who is the manager of Arsenal these days?",
        "Who is the manager of the hotel?",
        "Who is the stage manager in the new series?",
    ):
        assert "Ollie" not in (asked[q].block or ""), (q, asked[q].block)


def _first_item(block: str | None) -> str:
    return next(ln for ln in (block or "").splitlines() if ln.startswith("- "))


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        # Found as users (a carer, a best man, a PhD student): each later statement marked
        # the earlier one replaced, and it came second, tagged "superseded".
        (
            "We've switched dad's carers to Home Instead from 1 November, carers come three"
            " times a day now, 8, 1 and 7.",
            "the home instead carer will be someone called Graham",
        ),
        (
            "stag moved to 26-27 september",
            "raj has pulled out of the stag (work), his cousin dev is coming instead",
        ),
        (
            "So I'm starting my second year of the PhD in sociology at Leeds",
            "My transfer viva (the upgrade from MPhil to PhD) is provisionally 12 November.",
        ),
        # Found by review: one who left something long ago is no change of their plans.
        ("Tom is coming to the reunion in May.", "Tom dropped out of uni years ago, funny guy."),
    ],
)
async def test_a_statement_on_the_same_topic_is_no_change_of_it(
    tmp_path: Path, earlier: str, later: str
) -> None:
    first = await _first_said(tmp_path, [("2026-09-01", earlier), ("2026-09-03", later)])
    assert first is not None and not first.attributes.get("superseded_by"), first.attributes


async def test_a_new_date_is_of_what_moved(tmp_path: Path) -> None:
    # Found as a user (a teacher): "new date is Thursday 22 October" was read as a change
    # of some "date", so the trip booked for the 15th stayed current and led the block.
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-09-08", "The class trip is booked for Thursday 15 October."),
            (
                "2026-10-07",
                "Trip moved again!! Museum has a water leak, new date is Thursday 22 October.",
            ),
        ],
    )
    try:
        asked = await bridge.enrich("When is the class trip?", None)
    finally:
        await bridge.drain()
        await brain.close()
    assert "22 October" in _first_item(asked.block), asked.block
    assert "superseded" in next(ln for ln in asked.block.splitlines() if "15 October" in ln)


async def test_a_question_whose_every_word_one_entry_holds_is_answered(tmp_path: Path) -> None:
    # Found as users (a carer, an allotment holder, a teacher): no "my", no name, and two
    # words only, so the judge never looked; each passed through.
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-09-04", "cardiology appointment at William Harvey Hospital is 14 October"),
            ("2026-09-15", "plot rent going up from £45 to £62 a year from January"),
            ("2026-09-07", "My TA is Mrs Patel (Anjali), she's in mornings only."),
        ],
    )
    try:
        asked = await _ask(
            bridge,
            "When is the cardiology appointment?",
            "How much is the plot rent?",
            "Who is my TA at the moment?",
            "How do I make the rent cheaper?",
        )
    finally:
        await bridge.drain()
        await brain.close()
    for q, expected in (
        ("When is the cardiology appointment?", "14 October"),
        ("How much is the plot rent?", "£62"),
        ("Who is my TA at the moment?", "Patel"),
    ):
        assert expected in (asked[q].block or ""), (q, asked[q].reasons)
    assert asked["How do I make the rent cheaper?"].block is None


async def test_a_date_moved_in_lower_case_answers_when_first(tmp_path: Path) -> None:
    # Found as a user (a best man): "10 october" in lower case said no time, so the
    # fitting that moved was kept current for "When ...?" and led the block.
    brain = await Brain.open(tmp_path / "brain", embedder=None)
    bridge = Bridge(brain)
    for session, day, said, reply in (
        (
            "s3",
            "2026-10-02",
            "suit fitting at Moss Bros Tunbridge Wells on 10 october, 2pm",
            "Noted.",
        ),
        ("s4", "2026-10-05", "suit fitting moved to 9 october 4pm", "Updated."),
    ):
        await bridge.observe_now(session, 1, said, reply, today=date.fromisoformat(day))
    await bridge.drain()
    try:
        asked = await Bridge(brain).enrich("When is my suit fitting?", "later")
    finally:
        await bridge.drain()
        await brain.close()
    first = _first_item(asked.block)
    assert "9 october 4pm" in first and "superseded" not in first, asked.block


async def test_a_new_tradesperson_replaces_the_old_one(tmp_path: Path) -> None:
    # Found as users (a renovation, a parent): "who's the plumber?" answered with the one
    # the user had replaced, alone and unmarked.
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-04-01", "Plumber is Gary Doyle, 07700 900123."),
            ("2026-04-16", "Gary's let me down, new plumber is Karen Wells from Wells Plumbing"),
            ("2026-09-02", "Our childminder is Sandra, she does pick up Mon/Tue/Thu, £6.50/hour."),
            ("2026-09-16", "Sandra's going on maternity leave, new childminder is Priti Shah"),
        ],
    )
    try:
        plumber = await Bridge(brain).enrich("who's the plumber?", None)
        minder = await Bridge(brain).enrich("who's the childminder?", None)
        gary = await brain.get_entity("Person", "Gary Doyle")
    finally:
        await bridge.drain()
        await brain.close()
    assert "Karen Wells" in _first_item(plumber.block) and "Gary" not in plumber.block
    assert "Priti Shah" in _first_item(minder.block)
    assert gary is not None and gary.attributes.get("former_role") == "plumber"


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        # Found by review of the rules above: a change said of "my"/"our" plans, and a new
        # deadline said with no verb, still replace what they change.
        ("My piano lessons are on Mondays at 5pm.", "My piano lessons move to Tuesdays next term."),
        ("Our broadband is with BT.", "Our broadband switch to Sky went through."),
        ("The thesis deadline is March 1.", "Supervisor agreed, new deadline is April 1."),
        # ...when a day was said in the next sentence, or loosely, or of the event by
        # another name.
        (
            "Booked the dentist. It's at 3pm on Tuesday.",
            "The dentist has been rescheduled to Thursday at 10am.",
        ),
        (
            "Parents' evening is this month, not sure of the day yet",
            "Parents' evening was postponed to 24 November.",
        ),
        (
            "Raj is coming to Dave's bachelor party in Prague",
            "Raj has pulled out of the stag, his cousin Dev is coming instead.",
        ),
    ],
)
async def test_a_change_of_the_users_own_plans_replaces_them(
    tmp_path: Path, earlier: str, later: str
) -> None:
    first = await _first_said(tmp_path, [("2026-09-01", earlier), ("2026-09-03", later)])
    assert first is not None and first.attributes.get("superseded_by"), first.attributes


async def test_a_question_of_any_such_thing_is_not_the_users(tmp_path: Path) -> None:
    # Found by review: two words of one entry made any question the user's own.
    brain, bridge = await _told(
        tmp_path,
        [
            ("2026-09-01", "Our washing machine broke, the repair man comes Friday."),
            ("2026-09-02", "Butter prices went up 20 percent this year."),
            ("2026-09-03", "The exam season starts in May for the four of us."),
        ],
    )
    try:
        asked = [
            await bridge.enrich(q, None)
            for q in (
                "How much is a washing machine?",
                "Why did butter prices go up?",
                "When is exam season in the US?",
            )
        ]
    finally:
        await bridge.drain()
        await brain.close()
    assert [a.block for a in asked] == [None, None, None], [a.reasons for a in asked]


async def test_a_new_date_replaces_when_the_thing_is_not_what_was_said_beside_it(
    tmp_path: Path,
) -> None:
    # Found by the persona diff: "Trip moved again!! ... new date is Thursday 22 October"
    # replaced "Need to do the risk assessment by 25 September" (said beside the trip) and
    # "needs epipen on the trip", and not when the trip was booked for.
    brain, bridge = await _told(
        tmp_path,
        [
            (
                "2026-09-07",
                "Head wants the Year 4 class trip to be the Roman museum in Chester. I'm the"
                " trip lead. Need to do the risk assessment by 25 September.",
            ),
            ("2026-09-08", "The trip is booked for Thursday 15 October."),
            ("2026-10-06", "Ollie's mum says he has a nut allergy, needs epipen on the trip."),
            (
                "2026-10-07",
                "Trip moved again!! Museum has a water leak, new date is Thursday 22 October.",
            ),
        ],
    )
    try:
        lead = await brain.get_entity(CHAT_EXCHANGE, "sess-000:ex:1")
        booked = await brain.get_entity(CHAT_EXCHANGE, "sess-0002-x:ex:1")
        epipen = await brain.get_entity(CHAT_EXCHANGE, "sess-0003-x:ex:1")
    finally:
        await bridge.drain()
        await brain.close()
    assert lead is not None and not lead.attributes.get("superseded_by"), lead.attributes
    assert epipen is not None and not epipen.attributes.get("superseded_by"), epipen.attributes
    assert booked is not None and booked.attributes.get("superseded_by"), booked.attributes
