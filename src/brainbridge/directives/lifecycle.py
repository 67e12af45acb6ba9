"""The state machine: fold the source's messages, oldest first, into items and decisions.

active ──(newer conflicting item)──► superseded
active ──(completion message or admin `complete`)──► completed
active ──(not restated within `expiry`)──► expired      (directives and objectives only;
                                                          people claims do not expire)
A restatement keeps the older item and refreshes it (`last_seen`), so wording stays
stable and a directive the admin keeps repeating never expires.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from itertools import islice

from brainbridge.directives.model import (
    GUIDANCE,
    NOISE,
    ROLODEX,
    Category,
    Decision,
    DirectiveConfig,
    Item,
    Message,
    MessageLabel,
    State,
)
from brainbridge.directives.terms import Fingerprint, Relation, compare, fingerprint, stem

# How many of the newest active items sharing a term are compared with a new one;
# bounds a build on a long history without changing what recent guidance does.
MAX_CANDIDATES_PER_TERM = 64
_COMPLETION_WORDS = frozenset(
    stem(w)
    for w in "done finished finish complete completed resolved fixed shipped closed handled "
    "sorted cancel cancelled canceled need needed stop forget mind scratch mark all "
    "anymore any more longer".split()
)


@dataclass
class _Open:
    """An item while the fold runs; frozen into `Item` at the end."""

    message: Message
    fp: Fingerprint
    state: State = State.ACTIVE
    last_seen: datetime | None = None
    note: str = ""
    replaces: list[int] = field(default_factory=list)
    conflict: str = ""
    superseded_by: int | None = None

    def freeze(self) -> Item:
        return Item(
            message=self.message,
            state=self.state,
            last_seen=self.last_seen or self.message.at,
            note=self.note,
            replaces=tuple(self.replaces),
            conflict=self.conflict,
            superseded_by=self.superseded_by,
        )


@dataclass(frozen=True)
class Resolution:
    items: tuple[Item, ...]
    decisions: tuple[Decision, ...]
    conflicts: int


class _Fold:
    def __init__(self, now: datetime, config: DirectiveConfig) -> None:
        self.now = now
        self.config = config
        self.items: dict[int, _Open] = {}
        # topic term -> ids of *active* directives/objectives, oldest first (dicts keep
        # order and delete in O(1), so scans never wade through superseded items)
        self.postings: dict[str, dict[int, None]] = {}
        self.people: dict[tuple[Category, str], list[int]] = {}
        self.decisions: list[Decision] = []
        self.conflicts = 0

    def skip(self, m: Message, code: str, reason: str) -> None:
        self.decisions.append(Decision(m.id, False, code, reason))

    def message(self, m: Message) -> None:
        cat = m.classification.category
        if m.at > self.now:
            return self.skip(m, "future", "written after the build time")
        if not m.author_is_owner:
            return self.skip(m, "not_owner", f"author {m.author!r} is not the owner")
        if cat in NOISE:
            return self.skip(m, cat.value, m.classification.reason)
        if cat is Category.COMPLETION:
            return self.completion(m)
        if cat not in self.config.allowed:
            return self.skip(m, "not_allowed", f"category {cat.value} is not in the allowlist")
        fp = fingerprint(m.text)
        people = cat in ROLODEX
        conflicting: list[tuple[_Open, str]] = []
        for cand in self.candidates(cat, fp):
            relation, why = compare(cand.fp, fp, people=people)
            if relation is Relation.RESTATES:
                cand.last_seen = m.at
                return self.skip(m, "restatement", f"restates #{cand.message.id} (refreshed)")
            if relation is Relation.CONFLICTS:
                conflicting.append((cand, why))
        item = _Open(m, fp, last_seen=m.at)
        for cand, why in conflicting:
            self.close(cand, State.SUPERSEDED, f"superseded by #{m.id} ({why})")
            cand.superseded_by = m.id
            item.replaces.append(cand.message.id)
            self.conflicts += 1
        item.conflict = "; ".join(why for _, why in conflicting)
        self.items[m.id] = item
        if people:
            if fp.subject:
                self.people.setdefault((cat, fp.subject), []).append(m.id)
        else:
            for term in fp.terms:
                self.postings.setdefault(term, {})[m.id] = None

    def candidates(self, cat: Category, fp: Fingerprint) -> list[_Open]:
        """Active items the new one could restate or contradict, newest first."""
        if cat in ROLODEX:
            ids = self.people.get((cat, fp.subject), []) if fp.subject else []
            found = [self.items[i] for i in reversed(ids)]
            return [o for o in found if o.state is State.ACTIVE]
        return [self.items[i] for i in sorted(self.sharing(fp.terms), reverse=True)]

    def sharing(self, terms: frozenset[str]) -> Counter[int]:
        """Active directive/objective ids sharing any of `terms`, with how many they share."""
        seen: Counter[int] = Counter()
        for term in terms:
            seen.update(islice(reversed(self.postings.get(term, {})), MAX_CANDIDATES_PER_TERM))
        return seen

    def close(self, item: _Open, state: State, note: str) -> None:
        """Move an active item to `state` and out of the candidate index."""
        item.state = state
        item.note = note
        for term in item.fp.terms:
            self.postings.get(term, {}).pop(item.message.id, None)

    def completion(self, m: Message) -> None:
        target = self.completion_target(m)
        if target is None:
            return self.skip(
                m, "completion_unmatched", "says something is done; no active item matches"
            )
        self.close(target, State.COMPLETED, f"completed by #{m.id} on {m.at:%Y-%m-%d}")
        self.skip(m, "completion", f"marks #{target.message.id} completed")

    def completion_target(self, m: Message) -> _Open | None:
        terms = fingerprint(m.text).terms - _COMPLETION_WORDS
        best: tuple[int, int] | None = None
        for item_id, shared in self.sharing(terms).items():
            if shared >= 2 or shared / len(terms) >= 0.5:
                score = (shared, item_id)  # most shared terms, then the newest
                best = score if best is None or score > best else best
        return self.items[best[1]] if best else None

    def admin_completion(self, message_id: int, at: datetime, note: str) -> None:
        item = self.items.get(message_id)
        if item is not None and item.state is State.ACTIVE:
            why = f"completed by the admin on {at:%Y-%m-%d}" + (f": {note}" if note else "")
            self.close(item, State.COMPLETED, why)

    def finish(self) -> Resolution:
        for item in self.items.values():
            cat = item.message.classification.category
            seen = item.last_seen or item.message.at
            if (
                item.state is State.ACTIVE
                and cat in GUIDANCE
                and self.now - seen > self.config.expiry
            ):
                self.close(item, State.EXPIRED, f"not restated since {seen:%Y-%m-%d}")
        decisions = list(self.decisions)
        for item in self.items.values():
            cls = item.message.classification
            if item.state is State.ACTIVE:
                decisions.append(Decision(item.message.id, True, cls.category.value, cls.reason))
            else:
                decisions.append(Decision(item.message.id, False, item.state.value, item.note))
        decisions.sort(key=lambda d: d.message_id)
        items = tuple(self.items[i].freeze() for i in sorted(self.items))
        return Resolution(items, tuple(decisions), self.conflicts)


def skip_decision(label: MessageLabel) -> Decision | None:
    """The decision for a message that can never be guidance (noise, or not the owner's),
    or None when it has to go through the fold."""
    if not label.author_is_owner:
        return Decision(label.id, False, "not_owner", f"author {label.author!r} is not the owner")
    if label.category in NOISE:
        return Decision(label.id, False, label.category.value, label.reason)
    return None


def resolve(
    messages: list[Message],
    completions: dict[int, tuple[datetime, str]],
    now: datetime,
    config: DirectiveConfig,
    skipped: list[Decision] | None = None,
) -> Resolution:
    """Fold `messages` (any order) and admin `completions` into items, states and decisions.

    `skipped` are decisions already made for messages left out of `messages`
    (`skip_decision`); they only join the decision list.
    """
    fold = _Fold(now, config)
    fold.decisions.extend(skipped or ())
    ordered = sorted(messages, key=lambda m: (m.at, m.id))
    pending = sorted((at, mid, note) for mid, (at, note) in completions.items() if at <= now)
    p = 0
    for m in ordered:
        # An admin completion applies to what existed when it was made, so a later
        # restatement of the same directive starts a fresh, active item.
        while p < len(pending) and pending[p][0] < m.at:
            fold.admin_completion(pending[p][1], pending[p][0], pending[p][2])
            p += 1
        fold.message(m)
    for at, mid, note in pending[p:]:
        fold.admin_completion(mid, at, note)
    return fold.finish()
