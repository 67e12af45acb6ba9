"""The curator's activity log, its day record and the day's Journal_Entry never repeat a
key, even one an older version stored raw in an exchange or a session title (issue #31)."""

from __future__ import annotations

import json
import random
import string

from brainbridge.curator import Curator
from brainbridge.curator.files import activity_file, day_record_file
from brainbridge.model import CHAT_EXCHANGE, CHAT_SESSION, JOURNAL_ENTRY

from .conftest import MIGRATION_CHAT, fixed_now, seed

_RNG = random.Random(3107)
KEY = "sk-proj-" + "".join(_RNG.choice(string.ascii_letters + string.digits) for _ in range(48))


async def test_a_key_in_an_old_exchange_is_not_repeated_by_the_curator(brain) -> None:
    await seed(brain, "s-key", MIGRATION_CHAT[:3])
    said = f"We are migrating the billing service; its deploy key is {KEY} for now."
    ex = brain.store.names_with_prefix(CHAT_EXCHANGE, "s-key:ex:")[0]
    with brain.store.conn:  # as a version before redaction covered every way in
        brain.store.conn.execute(
            "UPDATE entities SET description = ?, attributes = ? WHERE id = ?",
            (said, json.dumps({**ex.attributes, "user_message": said}), ex.id),
        )
    # A title the user gave, pasting a key (stored raw before the sessions' door redacted).
    brain.sessions.ensure("s-key")
    with brain.store.conn:
        brain.store.conn.execute(
            "UPDATE sessions SET title = ?, title_source = 'user' WHERE id = ?",
            (f"billing deploy {KEY}", "s-key"),
        )
    run = await Curator(brain, now=fixed_now).run("s-key", "exchange 3")
    assert "Logged" in run.actions

    day = fixed_now().date()
    logged = activity_file(brain.path, day).read_text("utf-8")
    assert "s-key" in logged and KEY not in logged
    assert KEY not in day_record_file(brain.path, day).read_text("utf-8")
    for etype, name in ((JOURNAL_ENTRY, day.isoformat()), (CHAT_SESSION, "s-key")):
        entity = brain.store.get_entity(etype, name)
        assert entity is not None
        assert KEY not in json.dumps(entity.to_dict())
