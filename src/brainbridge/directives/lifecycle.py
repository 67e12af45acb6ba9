"""The state machine: fold the source's messages, oldest first, into items and decisions.

active ──(newer conflicting item)──► superseded
active ──(completion message or admin `complete`)──► completed
active ──(not restated within `expiry`)──► expired      (directives and objectives only;
                                                          people claims do not expire)
scheduled ──(its stated start comes)──► active ──(its stated end passes)──► expired

Stated bounds ("until Friday", "starting the 20th", `when.bounds`) are read against
the day the message was written, in the brain's timezone. A directive with a stated end
still ahead, or one said to hold "till further notice", does not expire for want of
restating. A rule that replaces another from a later start leaves the old one in force
until then; a bounded rule that replaced another hands it back when it ends.
A restatement keeps the older item and refreshes it (`last_seen`), so wording stays
stable and a directive the admin keeps repeating never expires.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import islice

from brainbridge.directives.terms import Fingerprint, Relation, compare, fingerprint, stem
from brainbridge.model.directives import (
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
from brainbridge.when import NONE, Bounds, bounds

# How many of the newest active items sharing a term are compared with a new one;
# bounds a build on a long history without changing what recent guidance does.
MAX_CANDIDATES_PER_TERM = 64
_COMPLETION_WORDS = frozenset(
    stem(w)
    for w in "done finished finish complete completed resolved fixed shipped closed handled "
    "sorted cancel cancelled canceled need needed stop forget mind scratch mark all "
    "anymore any more longer drop retire lift lifted scrap ignore disregard rule earlier old "
    "previous said what let go applies requirement".split()
)
# The thing a replacement names: "the earlier rule about Friday releases", "instead of
# emailing the metrics", "what I said about the 9am standup".
_TARGET = re.compile(
    r"\b(?:about|regarding|re:|on|instead of|rather than|in place of)\s+(?P<what>[^,;.!?]{3,80})",
    re.IGNORECASE,
)
# Words that point back at an earlier rule; only then is a target looked up by topic.
_POINTS_BACK = re.compile(
    r"\b(?:forget|scrap|ignore|disregard|drop|retire|replaces?|swap|instead of|rather than|"
    r"in place of|change of plans?|what i said|earlier|previous|old|former)\b",
    re.IGNORECASE,
)
# A replacement whose named target scores at least this, and this much above any rival
# that also reaches it, retires it; two such candidates are listed as a
# conflict instead.
TARGET_MIN = 0.5
TARGET_MARGIN = 0.15


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
    bounds: Bounds = NONE

    def freeze(self) -> Item:
        return Item(
            message=self.message,
            state=self.state,
            last_seen=self.last_seen or self.message.at,
            note=self.note,
            replaces=tuple(self.replaces),
            conflict=self.conflict,
            superseded_by=self.superseded_by,
            starts=self.bounds.starts,
            ends=self.bounds.ends,
        )


@dataclass(frozen=True)
class Resolution:
    items: tuple[Item, ...]
    decisions: tuple[Decision, ...]
    conflicts: int


Similarity = Callable[[str, str], float]  # meaning overlap of two texts, 0..1


class _Fold:
    def __init__(
        self, now: datetime, config: DirectiveConfig, similar: Similarity | None = None
    ) -> None:
        self.now = now
        self.config = config
        self.similar = similar
        self.items: dict[int, _Open] = {}
        # topic term -> ids of *active* directives/objectives, oldest first (dicts keep
        # order and delete in O(1), so scans never wade through superseded items)
        self.postings: dict[str, dict[int, None]] = {}
        self.people: dict[tuple[Category, str], list[int]] = {}
        self.active: dict[int, None] = {}  # active directives/objectives, for named targets
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
        ambiguous: tuple[int, ...] = ()
        if not conflicting and cat in GUIDANCE and _POINTS_BACK.search(m.text):
            found, ambiguous = self.named_target(m.text, fp)
            if found is not None:
                conflicting.append((found, "replaced: the rule it names"))
            elif ambiguous:
                self.conflicts += 1
        item = _Open(m, fp, last_seen=m.at)
        if ambiguous:
            item.conflict = (
                "may replace "
                + " or ".join(f"#{i}" for i in ambiguous)
                + (" (unclear which; both kept)")
            )
        if cat in GUIDANCE:
            item.bounds = bounds(m.text, self.config.day(m.at), self.config.calendar)
        for cand, why in conflicting:
            self.close(cand, State.SUPERSEDED, f"superseded by #{m.id} ({why})")
            cand.superseded_by = m.id
            item.replaces.append(cand.message.id)
            self.conflicts += 1
        if conflicting:
            item.conflict = "; ".join(why for _, why in conflicting)
        self.items[m.id] = item
        if people:
            if fp.subject:
                self.people.setdefault((cat, fp.subject), []).append(m.id)
        else:
            self.active[m.id] = None
            for term in fp.terms:
                self.postings.setdefault(term, {})[m.id] = None

    def named_target(self, text: str, fp: Fingerprint) -> tuple[_Open | None, tuple[int, ...]]:
        """The active guidance a replacement names by topic, or (None, ids) when two or
        more fit about equally well. Scored by the named words (values such as
        "Friday" count here) and, with a `similar` function, by meaning."""
        m = _TARGET.search(text)
        named = fingerprint(m.group("what")).terms if m else fp.terms
        named = named - _COMPLETION_WORDS
        active = [self.items[i] for i in self.active]
        if not named or not active:
            return None, ()
        scored = []
        for o in active:
            # A rule's time bound is no topic: "Until Friday, route billing to Sam" is
            # not about Friday releases.
            topic = o.fp.terms - fingerprint(o.bounds.said).terms if o.bounds else o.fp.terms
            lexical = len(named & topic) / len(named)
            meaning = (
                self.similar(m.group("what") if m else text, o.message.text)
                if self.similar
                else 0.0
            )
            scored.append((max(lexical, meaning), o.message.id, o))
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        best = scored[0]
        if best[0] < TARGET_MIN:
            return None, ()
        # Only a rival that could be the target itself makes the target unclear.
        close = [t for t in scored[1:] if t[0] >= TARGET_MIN and best[0] - t[0] < TARGET_MARGIN]
        if close:
            return None, tuple(sorted([best[1]] + [t[1] for t in close]))
        return best[2], ()

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
        self.active.pop(item.message.id, None)
        for term in item.fp.terms:
            self.postings.get(term, {}).pop(item.message.id, None)

    def completion(self, m: Message) -> None:
        target = self.completion_target(m)
        if target is None:
            target, _ = self.named_target(m.text, fingerprint(m.text))
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

    def settle(self, item: _Open, today: date) -> None:
        """Scheduled before its stated start, expired after its stated end or when it
        was not restated within `expiry` (unless an end ahead or "till further notice"
        says how long it holds)."""
        b = item.bounds
        if b.ends is not None and today > b.ends:
            self.close(item, State.EXPIRED, f"ended {_day(b.ends)} ({b.said})")
        elif b.starts is not None and today < b.starts:
            self.close(item, State.SCHEDULED, f"starts {_day(b.starts)} ({b.said})")
        elif b.ends is None and not b.open_ended:
            seen = item.last_seen or item.message.at
            if b.starts is not None:  # a rule counts as said on the day it starts
                seen = max(seen, _start_of(b.starts, self.config))
            if self.now - seen > self.config.expiry:
                self.close(item, State.EXPIRED, f"not restated since {seen:%Y-%m-%d}")

    def hand_back(self, today: date) -> None:
        """A rule replaced from a later start stays in force until then; a bounded
        replacement that has ended gives the rule it replaced back."""
        for item in self.items.values():
            new = self.items.get(item.superseded_by) if item.superseded_by else None
            if item.state is not State.SUPERSEDED or new is None:
                continue
            if new.state is State.SCHEDULED and new.bounds.starts is not None:
                item.state = State.ACTIVE
                item.note = f"until #{new.message.id} takes over on {_day(new.bounds.starts)}"
                self.settle(item, today)
            elif (
                new.state is State.EXPIRED
                and new.bounds.ends is not None
                and new.bounds.ends < today
            ):
                item.state = State.ACTIVE
                item.note = f"back in force after #{new.message.id} ended {_day(new.bounds.ends)}"
                item.last_seen = max(
                    item.last_seen or item.message.at,
                    _start_of(new.bounds.ends + timedelta(days=1), self.config),
                )
                self.settle(item, today)

    def finish(self) -> Resolution:
        today = self.config.day(self.now)
        for item in self.items.values():
            if item.state is State.ACTIVE and item.message.classification.category in GUIDANCE:
                self.settle(item, today)
        self.hand_back(today)
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


def _day(d: date) -> str:
    return f"{d:%a %Y-%m-%d}"


def _start_of(d: date, config: DirectiveConfig) -> datetime:
    """Midnight starting `d` in the brain's timezone."""
    midnight = datetime(d.year, d.month, d.day)
    if config.timezone is None:
        return midnight.astimezone()  # this machine's zone
    return midnight.replace(tzinfo=config.timezone)


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
    similar: Similarity | None = None,
) -> Resolution:
    """Fold `messages` (any order) and admin `completions` into items, states and decisions.

    `skipped` are decisions already made for messages left out of `messages`
    (`skip_decision`); they only join the decision list. `similar` scores how close in
    meaning two texts are; with it a replacement finds the rule it names by meaning
    ("Friday releases" / "nothing ships on Fridays"), not only by shared words.
    """
    fold = _Fold(now, config, similar)
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
