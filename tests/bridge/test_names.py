"""Which known entities a message names: exact, loose, partial, and how the index stays fresh."""

from __future__ import annotations

import pytest

from brainbridge.bridge.names import RELOAD_COST_FACTOR, NameIndex

ROWS = [
    (1, "Person", "Kevin Alvarez"),
    (2, "Project", "Trellis"),
    (3, "Document", "SBIR Project Narrative"),
    (4, "Topic", "Pricing"),
    (5, "Person", "Kevin Olsen"),
    (6, "Person", "Nadia Haddad"),
    (7, "Document", "Q2 Board Deck"),
]


class Store:
    """Rows as the store would return them, counting loads."""

    def __init__(self, rows: list[tuple[int, str, str]]) -> None:
        self.rows = list(rows)
        self.loads: list[int] = []

    def load(self, after: int) -> list[tuple[int, str, str]]:
        self.loads.append(after)
        return [r for r in self.rows if r[0] > after]

    def max_id(self) -> int:
        return max((r[0] for r in self.rows), default=0)


def _index(rows=ROWS, **kwargs) -> tuple[NameIndex, Store]:
    store = Store(rows)
    index = NameIndex(store.load, store.max_id, **kwargs)
    index.refresh()
    return index, store


def _found(message: str) -> set[tuple[str, str]]:
    index, _ = _index()
    return {(m.name, m.strength) for m in index.find(message)}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("how is Kevin Alvarez doing", {("Kevin Alvarez", "exact")}),
        ("did Nadia fix the bug", {("Nadia Haddad", "exact")}),
        ("the Trellis beta slipped", {("Trellis", "exact")}),
        # Two Kevins: a first name alone is left to search.
        ("did Kevin reply yet", set()),
        # A writer who capitalises nothing still names people and projects...
        ("did nadia fix the trellis sync", {("Nadia Haddad", "loose"), ("Trellis", "loose")}),
        # ...but not after an indefinite article, and never a lower-case topic.
        ("how do i build a trellis for tomatoes", set()),
        ("any tips on pricing a saas product", set()),
        # Capitalised writers who write a name in lower case do not mean it.
        ("The garden trellis fell over", set()),
        # Several distinctive words of one longer name.
        ("the SBIR narrative is due soon", {("SBIR Project Narrative", "loose")}),
        ("rewrite the board deck intro", {("Q2 Board Deck", "loose")}),
        ("what makes a good narrative", set()),
    ],
)
def test_find(message: str, expected: set[tuple[str, str]]) -> None:
    assert _found(message) == expected


def test_new_entities_show_up_without_a_reload() -> None:
    index, store = _index()
    store.rows.append((8, "Person", "Lena Hoffmann"))

    index.refresh()

    assert [m.name for m in index.find("Lena sent new mocks")] == ["Lena Hoffmann"]
    assert store.loads == [0, 7]


def test_deleted_names_go_at_the_next_reload_which_a_slow_load_postpones() -> None:
    now = [0.0]
    store = Store(ROWS)

    def slow_load(after: int) -> list[tuple[int, str, str]]:
        now[0] += 2.0  # a big brain: each full load takes two seconds
        return store.load(after)

    index = NameIndex(slow_load, store.max_id, ttl=60, clock=lambda: now[0])
    index.refresh()
    store.rows = [r for r in store.rows if r[2] != "Trellis"]

    now[0] += 61
    index.refresh()
    assert [m.name for m in index.find("the Trellis beta")] == ["Trellis"]  # not yet

    now[0] += RELOAD_COST_FACTOR * 2.0
    index.refresh()
    assert index.find("the Trellis beta") == []
    assert store.loads == [0, 0]


def test_capitalised_words_are_mid_sentence_names_and_possessives() -> None:
    from brainbridge.bridge.names import capitalised_words

    assert capitalised_words("When is Caroline planning on going camping with Mel?") == [
        "Caroline",
        "Mel",
    ]
    assert capitalised_words("Kevin's cohort starts when Kevin says so") == ["Kevin"]
    assert capitalised_words("What is the plan? I think so. Then we go.") == []
