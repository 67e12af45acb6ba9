"""A brain to look at in the web app: the bundled sample, one conversation held through the
bridge (context loaded, facts stored, curated), a merge waiting for review and standing
directives. Used by `scripts/screenshots.py` and the browser tests.

usage: python scripts/webtour.py DIR
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from brainbridge.brain import Brain
from brainbridge.bridge import Bridge
from brainbridge.cli.sample import load_sample
from brainbridge.curator import Curator
from brainbridge.directives.bridge import DirectiveBridge
from brainbridge.home import DB_FILE
from brainbridge.store.sqlite.db import connect
from brainbridge.store.sqlite.directives import SqliteDirectiveStore

SESSION = "tour-7f3a9c21"
TURNS = [
    (
        "Turns out the offline sync still loses stops for drivers at Acme."
        " Any new ideas for the offline sync?",
        "Keep one writer per route: the phone that opened the route owns it until it syncs.",
    ),
    (
        "We decided to price per vehicle instead of per seat for Acme Freight, starting in March.",
        "Noted: per-vehicle pricing for Acme Freight from March.",
    ),
    (
        "What did Daniel say about finishing the Postgres migration before the beta?",
        "Daniel wants the Postgres migration done first so sync conflicts are solved once.",
    ),
    ("Thanks!", "You're welcome."),
]


async def build(folder: Path) -> Path:
    """Fill `folder` (created if missing) with the tour brain; returns the folder."""
    brain = await Brain.open(folder, embedder="hashing", background_indexing=False)
    try:
        await load_sample(brain)
        await brain.upsert_entity("Person", "Dan Novak", description="Backend lead; Postgres.")
        await brain._run(
            brain.store.propose_merge,
            "Person",
            "Daniel Novak",
            "Dan Novak",
            0.91,
            "same surname, 'Dan' is short for 'Daniel', both work on the Postgres migration",
        )
        bridge = Bridge(brain)
        for n, (user, ai) in enumerate(TURNS, start=1):
            await bridge.enrich(user, SESSION)  # logs the turn it judged: n
            await bridge.drain()
            await bridge.observe_now(SESSION, n, user, ai)
        await bridge.drain()
        await Curator(brain).curate(SESSION)
    finally:
        await brain.close()
    _directives(folder / DB_FILE)
    return folder


def _directives(db: Path) -> None:
    conn = connect(db)
    try:
        bridge = DirectiveBridge(SqliteDirectiveStore(conn))
        start = datetime.now(UTC) - timedelta(days=3)
        for i, text in enumerate(
            [
                "Always run the test suite before you open a pull request.",
                "Send the weekly report to Alice every Monday at 9am.",
                "Send the weekly report to Alice every Tuesday at 9am.",
                "Until Dec 1, don't touch the billing module.",
            ]
        ):
            bridge.add_message(
                "ops", "dana", text, at=start + timedelta(hours=i), author_is_owner=True
            )
    finally:
        conn.close()


if __name__ == "__main__":
    print(asyncio.run(build(Path(sys.argv[1]))))
