"""`Brain.forget`: an item and what was derived from it go, on both backends; what was
also learned elsewhere stays; the audit line names no content."""

from __future__ import annotations

import json
from datetime import date

import pytest
from tests.pg import backend  # noqa: F401  (runs this module on both backends)

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.errors import NotFound
from brainbridge.forget import AUDIT_FILE

SECRET_SESSION = "7c0ffee0-1111-4222-8333-944445555666"
OTHER_SESSION = "0ddba11a-1111-4222-8333-944445555666"
DECISION = "Host the quarkplinth offsite in Tbilisi next spring"


async def _told(brain: Brain, session: str, turns: list[tuple[str, str]]) -> None:
    bridge = Bridge(brain)
    for n, (prompt, reply) in enumerate(turns, 1):
        obs = await bridge.observe_now(session, n, prompt, reply, today=date(2026, 3, 2))
        assert obs.exchange is not None, obs
    await bridge.drain()
    await brain.index_vectors()


async def _found(brain: Brain, query: str) -> list[str]:
    hits = await brain.search(query, num_results=20, superseded=True)
    return [f"{h.entity.type}:{h.entity.name}" for h in hits]


async def test_a_session_goes_with_its_exchanges_and_what_was_extracted(brain: Brain) -> None:
    await _told(
        brain,
        SECRET_SESSION,
        [
            ("We decided to host the quarkplinth offsite in Tbilisi next spring.", "Noted."),
            ("The quarkplinth caterer wants a deposit of zorvex tokens upfront.", "Right."),
        ],
    )
    await _told(brain, OTHER_SESSION, [("Please book the meeting room for Monday.", "Done.")])
    assert any(DECISION in f for f in await _found(brain, "quarkplinth offsite"))

    plan = await brain.forget(("Chat_Session", SECRET_SESSION))
    listed = {f"{e.type}:{e.name}" for e in plan.entities}
    assert {"Chat_Exchange:7c0ffee0:ex:1", "Chat_Exchange:7c0ffee0:ex:2"} <= listed
    assert f"Decision:{DECISION}" in listed
    assert plan.counts["sessions"] == 1 and plan.counts["vectors"] >= 3
    assert not plan.done
    assert await _found(brain, "quarkplinth") != []  # a preview deletes nothing

    done = await brain.forget(("Chat_Session", SECRET_SESSION), preview=False, via="test")
    assert done.done
    assert await _found(brain, "quarkplinth offsite zorvex") == []
    assert await brain.get_entity("Decision", DECISION) is None
    assert await brain._run(brain.sessions.get, SECRET_SESSION) is None
    assert await brain._run(brain.sessions.get, OTHER_SESSION) is not None
    assert await brain.get_entity("Chat_Exchange", "0ddba11a:ex:1") is not None
    stats = await brain.stats()
    assert stats["pending_vectors"] == 0

    lines = (brain.files / AUDIT_FILE).read_text("utf-8").splitlines()
    entry = json.loads(lines[-1])
    assert entry["item"] == {"type": "Chat_Session", "id": SECRET_SESSION}
    assert entry["via"] == "test" and entry["by"] and entry["at"]
    assert entry["counts"]["Chat_Exchange"] == 2 and entry["counts"]["Decision"] == 1
    assert "quarkplinth" not in lines[-1].lower() and "tbilisi" not in lines[-1].lower()


async def test_a_fact_also_said_in_another_exchange_stays(brain: Brain) -> None:
    said = "We decided to host the quarkplinth offsite in Tbilisi next spring."
    await _told(brain, SECRET_SESSION, [(said, "Noted.")])
    await _told(brain, OTHER_SESSION, [(said, "You told me already.")])
    decision = await brain.get_entity("Decision", DECISION)
    assert decision is not None

    done = await brain.forget("7c0ffee0:ex:1", preview=False)
    assert [e.type for e in done.entities] == ["Chat_Exchange"]
    assert await brain.get_entity("Decision", DECISION) is not None
    assert await brain.get_entity("Chat_Exchange", "7c0ffee0:ex:1") is None
    # Now said only in the other session: forgetting that one takes the decision with it.
    await brain.forget("0ddba11a:ex:1", preview=False)
    assert await brain.get_entity("Decision", DECISION) is None


async def test_a_fact_the_user_wrote_is_not_taken_with_an_exchange(brain: Brain) -> None:
    await brain.upsert_entity("Decision", DECISION, {"decided_on": "2026-02-01"})
    await _told(
        brain, SECRET_SESSION, [(f"We decided to {DECISION[0].lower()}{DECISION[1:]}.", "Ok.")]
    )
    assert (await brain.subgraph(("Decision", DECISION), hops=1)).edges  # linked to it
    plan = await brain.forget("7c0ffee0:ex:1")
    assert [e.type for e in plan.entities] == ["Chat_Exchange"]


async def test_a_document_goes_with_its_passages(brain: Brain) -> None:
    if "Document" not in brain.types:
        pytest.skip("no Document type")
    para = "Whoever holds the plinthwarden rota opens the hall and checks the boiler. " * 5
    body = "\n\n".join(f"## Part {i}\n\n{para}" for i in range(6))
    await brain.upsert_entity("Document", "Rota", description=body)
    plan = await brain.forget(("Document", "Rota"))
    assert any(e.type == "Passage" for e in plan.entities)
    await brain.forget(("Document", "Rota"), preview=False)
    assert await _found(brain, "plinthwarden") == []


async def test_an_unknown_item_is_not_found(brain: Brain) -> None:
    with pytest.raises(NotFound):
        await brain.forget(("Chat_Session", "no-such-session"))
    with pytest.raises(NotFound):
        await brain.forget("Nobody Atall")


async def test_a_sessions_observations_go_with_it_and_its_files_stay(brain: Brain) -> None:
    from brainbridge.types import TYPES_FILE, append_types

    added = {
        t: {"description": f"{t} (issue 33)", "attributes": {}}
        for t in ("Observation", "File")
        if t not in brain.types
    }
    if added:
        append_types(brain.path / TYPES_FILE, added)
        await brain.sync_schema()
    await _told(brain, SECRET_SESSION, [("We decided to move the quarkplinth repo.", "Ok.")])
    await brain.upsert_entity("File", "api/auth.py", {"project": "/src/app"})
    await brain.upsert_entity(
        "Observation",
        "edited api/auth.py",
        {"session_id": SECRET_SESSION, "kind": "edit", "files": ["api/auth.py"], "count": 2},
        "fixed the quarkplinth token check",
    )
    await brain.relate(("Observation", "edited api/auth.py"), "touched", ("File", "api/auth.py"))

    plan = await brain.forget(("Chat_Session", SECRET_SESSION))
    assert plan.counts.get("Observation") == 1 and "File" not in plan.counts
    await brain.forget(("Chat_Session", SECRET_SESSION), preview=False)
    assert await brain.get_entity("Observation", "edited api/auth.py") is None
    assert await brain.get_entity("File", "api/auth.py") is not None


async def _dentist_switched_and_van_booked(brain: Brain) -> None:
    """A dentist and a promise in one session; in `SECRET_SESSION`, a new dentist and
    the promise kept."""
    await _told(
        brain,
        OTHER_SESSION,
        [
            ("My dentist is Dr. Romero at Smile Studio.", "Noted."),
            ("I need to book the van for the move by Dec 12.", "Noted."),
        ],
    )
    await _told(
        brain,
        SECRET_SESSION,
        [
            ("Alan Cho is my dentist now, I switched last week.", "Ok."),
            ("Booked the van.", "Good."),
        ],
    )


async def test_what_a_forgotten_statement_replaced_holds_again(brain: Brain) -> None:
    # Found by a new user: after forgetting "Alan Cho is my dentist", Dr. Romero stayed
    # "Formerly the user's dentist" (ended by the deleted exchange), and "Who is my
    # dentist?" found nobody. What it marked replaced or done holds again too.
    await _dentist_switched_and_van_booked(brain)
    romero = await brain.get_entity("Person", "Romero")
    assert romero is not None and romero.attributes.get("role") is None
    van = await brain.get_entity("Commitment", "Book the van for the move")
    assert van is not None and van.attributes["status"] == "done"

    await brain.forget(("Chat_Session", SECRET_SESSION), preview=False, via="test")
    romero = await brain.get_entity("Person", "Romero")
    assert romero is not None and romero.attributes.get("role") == "dentist"
    assert romero.description.startswith("The user's dentist"), romero.description
    assert "role_ended_by" not in romero.attributes
    van = await brain.get_entity("Commitment", "Book the van for the move")
    assert van is not None and van.attributes["status"] == "open"
    assert "superseded_by" not in van.attributes and "valid_to" not in van.attributes


async def test_what_a_remembered_statement_also_replaced_stays_replaced(brain: Brain) -> None:
    # Found by review: forgetting "Alan Cho is my dentist now" gave Dr. Romero back the
    # role though "my dentist is now Dr. Priya Nair" was still remembered, and reopened
    # "book the van" though "Booked the van for the move, confirmation came through" was.
    await _dentist_switched_and_van_booked(brain)
    await _told(
        brain,
        "1e55e55e-1111-4222-8333-944445555666",
        [
            ("Switched dentists again, my dentist is now Dr. Priya Nair.", "Ok."),
            ("Booked the van for the move, confirmation came through.", "Good."),
        ],
    )
    await brain.forget(("Chat_Session", SECRET_SESSION), preview=False, via="test")
    romero = await brain.get_entity("Person", "Romero")
    assert romero is not None and romero.attributes.get("role") is None
    van = await brain.get_entity("Commitment", "Book the van for the move")
    assert van is not None and van.attributes["status"] == "done", van.attributes


async def test_what_a_forgotten_change_added_to_a_person_goes_with_it(brain: Brain) -> None:
    # Found as a user: forgetting "Lily's swim practice moved to Wednesdays" left Lily
    # described "Since 2026-03-02: Lily's swim practice moved to Wednesdays".
    await _told(
        brain,
        OTHER_SESSION,
        [("My daughter Lily has swim practice on Tuesdays and Thursdays.", "Noted.")],
    )
    await _told(brain, SECRET_SESSION, [("Lily's swim practice moved to Wednesdays.", "Ok.")])
    lily = await brain.get_entity("Person", "Lily")
    assert lily is not None and "Since 2026-03-02: Lily's swim practice moved" in lily.description

    await brain.forget(("Chat_Session", SECRET_SESSION), preview=False, via="test")
    lily = await brain.get_entity("Person", "Lily")
    assert lily is not None and "Since" not in lily.description, lily.description
    assert "swim practice on Tuesdays and Thursdays" in lily.description


async def test_a_change_in_a_long_message_goes_with_it(brain: Brain) -> None:
    # Known weak at the last stop: a message over the 1,000 characters an exchange keeps
    # left its note on the person, as the note was read from all of it.
    await _told(
        brain,
        OTHER_SESSION,
        [("My daughter Lily has swim practice on Tuesdays and Thursdays.", "Noted.")],
    )
    filler = " ".join(["We talked through the week and the school run in detail."] * 20)
    long = f"Lily's swim practice moved to Wednesdays. {filler} Her swim practice moved to 5pm too."
    assert len(long) > 1000
    await _told(brain, SECRET_SESSION, [(long, "Ok.")])
    lily = await brain.get_entity("Person", "Lily")
    assert lily is not None and "Since 2026-03-02: Lily's swim practice moved" in lily.description

    await brain.forget(("Chat_Session", SECRET_SESSION), preview=False, via="test")
    lily = await brain.get_entity("Person", "Lily")
    assert lily is not None and "Since" not in lily.description, lily.description
    assert "moved" not in lily.description, lily.description
