"""Local summaries a person would write: about, decided, due; prose, not transcript."""

from __future__ import annotations

from benchmarks.curator_sessions import load, score

from brainbridge.curator.local import Exchange, local_title, session_summary
from brainbridge.curator.prose import prose_summary, speakers, third_person

KITCHEN = [
    (
        "We're redoing the kitchen and I need to compare contractor quotes. Three came in:"
        " Baker & Sons at 18k, Tom Reyes at 15k and Lumen Build at 21k.",
        "Tom is cheapest; does his quote include plumbing? Baker & Sons and Lumen both list it.",
    ),
    ("Tom's doesn't include plumbing, that would add about 4k.", "Then Baker & Sons is better."),
    ("OK, we'll go with Baker & Sons.", "Good choice. Ask them for a start date."),
    ("They want the contract signed by Thursday.", "Then sign by Thursday."),
]


def test_the_kitchen_session_reads_as_a_summary_not_a_transcript() -> None:
    summary = session_summary([Exchange(n, u, a) for n, (u, a) in enumerate(KITCHEN, 1)])
    assert summary.startswith("They're redoing the kitchen and they need to compare contractor")
    assert "They'll go with Baker & Sons." in summary
    assert "signed by Thursday" in summary
    # A short session gets a short summary, not everything that was said.
    assert len(summary) <= 300 and "start date" not in summary
    assert "User:" not in summary and "AI:" not in summary and " I " not in f" {summary} "


def test_first_person_becomes_third_person() -> None:
    assert third_person("I need my laptop back before we leave") == (
        "They need their laptop back before they leave"
    )
    assert third_person("Our CI has a flaky test") == "Their CI has a flaky test"


def test_a_named_user_is_the_subject_and_the_verb_agrees() -> None:
    assert third_person("I need my laptop back", "Sam") == "Sam needs their laptop back"
    assert third_person("I'm moving to Porto", "Sam") == "Sam is moving to Porto"
    assert third_person("My kids love it", "Mel") == "Mel's kids love it"
    assert third_person("Your backing means a lot", "Caroline", "Mel") == (
        "Mel's backing means a lot"
    )


def test_names_come_from_greetings_and_a_person_is_told_from_an_assistant() -> None:
    friends = [
        Exchange(
            1,
            "Hey Mel! I went to a support group yesterday.",
            "Hey Caroline! My kids and I painted.",
        ),
        Exchange(2, "That's lovely, Mel.", "I ran a charity race last Saturday, Caroline."),
    ]
    who = speakers(friends)
    assert (who.user, who.other, who.other_is_person) == ("Caroline", "Mel", True)
    assistant = [Exchange(1, "Thanks, Claude. Which one is cheaper?", "Tom is cheaper, Sam.")]
    who = speakers(assistant)
    assert (who.user, who.other, who.other_is_person) == ("Sam", "Claude", False)
    assert speakers([Exchange(1, "Hi! Help me plan a trip.", "Sure, where to?")]).user == ""


def test_a_conversation_between_two_people_is_told_under_their_names() -> None:
    friends = [
        Exchange(
            1,
            "Hey Mel! I went to a support group yesterday and it was powerful.",
            "Hey Caroline! My kids and I painted a lake sunrise last year.",
        ),
        Exchange(
            2,
            "The support group made me feel accepted, Mel.",
            "I ran a charity race for mental health last Saturday.",
        ),
    ]
    summary = prose_summary(friends)
    assert summary.startswith("Caroline went to a support group yesterday")
    assert "Mel ran a charity race for mental health last Saturday." in summary
    assert "Hey" not in summary and " I " not in f" {summary} "
    assert local_title(friends).endswith(" — Caroline and Mel")


def test_the_assistants_advice_is_said_as_advice() -> None:
    chat = [
        Exchange(
            1,
            "I'm the best man at my friend Jonas's wedding and need a speech.",
            "Open with the Iceland story.",
        ),
        Exchange(
            2, "How long should it be?", "Aim for three minutes; people stop listening around five."
        ),
    ]
    summary = prose_summary(chat)
    assert summary.startswith("They're the best man at their friend Jonas's wedding")
    assert "Advised to aim for three minutes" in summary
    assert "?" not in summary


def test_an_assistant_talking_about_itself_is_not_taken_for_a_person() -> None:
    chat = [
        Exchange(1, "Fix the failing parser test please.", "I fixed the parser and I added a test.")
    ]
    assert not speakers(chat).other_is_person
    assert local_title(chat).count("—") == 0


def test_abbreviations_do_not_cut_a_sentence() -> None:
    chat = [Exchange(1, "My knee hurts. Physio with Dr. Hannah Ode twice a week.", "OK.")]
    assert "Dr. Hannah Ode twice a week" in prose_summary(chat)


def test_nothing_said_by_the_user_gives_no_prose() -> None:
    assert prose_summary([Exchange(1, "", "Hello! How can I help?")]) == ""


def test_labelled_dev_sessions_keep_their_scores() -> None:
    """A floor under what the labelled dev split reached when this was written (0.80 of
    titles name the topic, 0.93 of facts in the summaries, no transcript labels)."""
    result = score("dev")
    assert result["sessions"] == len(load("dev")) == 20
    assert result["titles naming the topic"] >= 0.75
    assert result["facts in summaries"] >= 0.9
    assert result["summaries without transcript labels"] == 1.0
