"""The local curator: titles from salient phrases, extractive summaries, activity entries."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from brainbridge.curator import Curator, CuratorConfig
from brainbridge.curator.files import activity_file, read_lines
from brainbridge.curator.local import Exchange, local_summary, local_title
from brainbridge.curator.text import sentences

from .conftest import MIGRATION_CHAT, fixed_now, seed


def exchanges(turns, start: int = 1) -> list[Exchange]:
    return [Exchange(n, u, a) for n, (u, a) in enumerate(turns, start=start)]


def test_title_is_a_noun_phrase_of_the_topic_as_the_user_wrote_it() -> None:
    title = local_title(exchanges(MIGRATION_CHAT[:5]))

    words = title.split()
    assert 3 <= len(words) <= 8, title
    assert "Postgres" in title or "billing" in title.lower(), title
    # Sentence case, names as written; no verbs of state ("generator uses", "Mom turns").
    assert title[0].isupper() and "invoice PDF generator" in title, title
    assert "uses" not in words, title


def test_title_skips_greetings_and_names_said_to_someone() -> None:
    chat = [
        ("Hey Sam! Good to see you!", "Hi Jo! Great to see you too. How have you been?"),
        (
            "Thanks, Sam. I finally started pottery classes at the community studio.",
            "Wow, Jo, pottery classes sound wonderful! What are you making at the studio?",
        ),
        ("Mostly bowls. The pottery teacher says my glazing is improving.", "Glazing is hard!"),
    ]

    title = local_title(exchanges(chat))

    assert "Pottery" in title, title
    assert "Sam" not in title and "Jo" not in title and "Hey" not in title, title


def test_title_keeps_acronyms_and_proper_nouns() -> None:
    chat = [("Can the CI pipeline on GitHub Actions cache the npm install?", "Yes, cache npm.")]
    title = local_title(exchanges(chat))
    assert "CI" in title or "GitHub" in title, title


def test_title_of_small_talk_is_empty_and_never_crashes() -> None:
    assert local_title(exchanges([("Hi!", "Hello, how can I help?")])) == ""
    assert local_title([]) == ""


def test_summary_stays_within_the_limit_in_conversation_order() -> None:
    chat = exchanges(MIGRATION_CHAT)
    summary = local_summary(chat, limit=300)

    assert 0 < len(summary) <= 300
    # Picked sentences appear in the order they were said.
    said = [s for part in re.split(r"(?:User|AI): ", summary) for s in sentences(part)]
    said = [s for s in said if not s.endswith("…")]
    assert said
    positions = [next(i for i, ex in enumerate(chat) if s in f"{ex.user} {ex.ai}") for s in said]
    assert positions == sorted(positions)


def test_summary_skips_near_duplicates() -> None:
    line = "We are migrating the billing service from MySQL to Postgres next month."
    chat = [(line, line), (line, "Identity columns replace AUTO_INCREMENT sequences in Postgres.")]

    summary = local_summary(exchanges(chat), limit=600)

    assert summary.count("migrating the billing service") == 1
    assert "Identity columns" in summary


def test_summary_follows_the_session_as_it_grows() -> None:
    early = local_summary(exchanges(MIGRATION_CHAT[:3]))
    late = local_summary(exchanges(MIGRATION_CHAT))

    assert "Celery" not in early
    assert "Celery" in late
    assert "Postgres" in late or "billing" in late  # the first topic is not forgotten


@given(
    st.lists(
        st.tuples(st.text(max_size=400), st.text(max_size=400)),
        max_size=12,
    ),
    st.integers(min_value=40, max_value=900),
)
@settings(max_examples=150, deadline=None)
def test_summary_and_title_are_bounded_for_any_text(turns, limit) -> None:
    chat = exchanges(turns)
    summary = local_summary(chat, limit)
    title = local_title(chat)
    assert len(summary) <= limit
    assert len(title.split()) <= 8


async def test_activity_is_logged_first_then_only_when_enough_is_new(brain) -> None:
    curator = Curator(brain, config=CuratorConfig(activity_every=3), now=fixed_now)
    log_file = activity_file(brain.path, fixed_now().date())

    await seed(brain, "s-1", MIGRATION_CHAT[:1])
    await curator.run("s-1", "exchange 1")
    assert len(read_lines(log_file)) == 1

    await seed(brain, "s-1", MIGRATION_CHAT[1:3], start=2)
    run = await curator.run("s-1", "exchange 3")
    assert "Logged" not in run.actions  # two new exchanges: not yet
    assert len(read_lines(log_file)) == 1

    await seed(brain, "s-1", MIGRATION_CHAT[3:5], start=4)
    run = await curator.run("s-1", "exchange 5")
    assert "Logged" in run.actions
    entries = read_lines(log_file)
    assert len(entries) == 2
    assert entries[1]["session_id"] == "s-1"
    assert entries[1]["title"] == run.title
    assert "migrating the billing" not in entries[1]["summary"]  # only what is new since


async def test_the_title_settles_while_the_summary_keeps_up(brain) -> None:
    curator = Curator(brain, now=fixed_now)
    await seed(brain, "s-1", MIGRATION_CHAT[:5])
    first = await curator.run("s-1", "exchange 5")

    await seed(brain, "s-1", MIGRATION_CHAT[5:], start=6)
    second = await curator.run("s-1", "manual")

    assert "Updated title" not in second.actions  # the title comes from the opening
    assert second.title == first.title
    assert "Updated summary" in second.actions and "Celery" in second.summary
