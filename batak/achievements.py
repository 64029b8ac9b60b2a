"""Achievements: what a player earns by playing Batak well, read from deal records.

Everything here is pure (no I/O): the store grants achievements with these functions
when a match or a daily result is recorded, and ``python -m data achievements
--recompute`` replays every stored record through the same functions, so the stored
set can always be checked against the records.

The achievements (codes as stored):

``big_contract``
    You held a contract of 10 or more and made it.
``set_contract``
    You defended against a contract that was bid (not forced by an all-pass), it went
    down, and you took at least one trick towards setting it.
``all_thirteen``
    You took all 13 tricks of a deal yourself.
``every_trump``
    You made a contract in each of the four suits as trump (over any number of
    matches in the server).
``comeback``
    You were alone in last place before the last deal of a match (your pair, in
    partnerships) and finished first (alone or shared).
``flawless``
    In one match you held at least three contracts, made every one of them, and never
    scored below zero in a deal.
``daily_week``
    You finished the daily match on seven days in a row.
``tournament_win``
    You won a tournament (granted by the tournament, not from deal records).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Final, NamedTuple

from batak.scoring import Holding, contract_made, is_holder_side, placements

BIG_CONTRACT: Final = 10
"""The smallest bid that counts for ``big_contract``."""
FLAWLESS_CONTRACTS: Final = 3
"""Contracts a player must hold (and make) in one match for ``flawless``."""
DAILY_WEEK: Final = 7
"""Daily matches on consecutive days for ``daily_week``."""
SUITS: Final = frozenset("SHDC")

MATCH_CODES: Final = (
    "big_contract",
    "set_contract",
    "all_thirteen",
    "every_trump",
    "comeback",
    "flawless",
)
"""The achievements earned at a table, from the match's deal records."""
CODES: Final = (*MATCH_CODES, "daily_week", "tournament_win")
"""Every achievement, in the order they are listed to a player."""


class _Sides(NamedTuple):
    partnership: bool


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """What one seat did in one match: the achievements the match itself shows (all
    but ``every_trump``, which needs the player's history) and the trump suits of the
    contracts the seat made."""

    codes: frozenset[str]
    trumps_made: frozenset[str]


def _partnership(record: Mapping[str, Any]) -> bool:
    rules = record.get("rules")
    return bool(rules.get("partnership", False)) if isinstance(rules, Mapping) else False


def match_facts(records: Sequence[Mapping[str, Any]], seat: int) -> MatchFacts:
    """The achievements ``seat`` showed in a match of these ``batak-deal/1`` records."""
    codes: set[str] = set()
    trumps: set[str] = set()
    held = made = 0
    below_zero = False
    for rec in records:
        sides = _Sides(_partnership(rec))
        tricks = [int(n) for n in rec["tricks_won"]]
        if int(rec["score"][seat]) < 0:
            below_zero = True
        if tricks[seat] == 13:
            codes.add("all_thirteen")
        contract = rec.get("contract")
        if not isinstance(contract, Mapping):  # every record has one; a test's may not
            continue
        holding = Holding(int(contract["seat"]), int(contract["bid"]))
        done = contract_made(sides, holding, tricks)
        if holding.seat == seat:
            held += 1
            if done:
                made += 1
                trumps.add(str(contract["trump"]))
                if holding.bid >= BIG_CONTRACT:
                    codes.add("big_contract")
        elif (
            not is_holder_side(sides, holding, seat)
            and not done
            and not contract.get("forced", False)
            and tricks[seat] >= 1
        ):
            codes.add("set_contract")
    if held >= FLAWLESS_CONTRACTS and made == held and not below_zero:
        codes.add("flawless")
    if _comeback(records, seat):
        codes.add("comeback")
    return MatchFacts(frozenset(codes), frozenset(trumps))


def _comeback(records: Sequence[Mapping[str, Any]], seat: int) -> bool:
    """Alone last before the last deal (your pair, in partnerships), first at the end."""
    if len(records) < 2:
        return False
    partnership = _partnership(records[-1])
    before = [sum(int(r["score"][s]) for r in records[:-1]) for s in range(4)]
    after = [before[s] + int(records[-1]["score"][s]) for s in range(4)]
    last = 2 if partnership else 4  # placements share a place: the last is never shared
    return (
        placements(before, partnership)[seat] == last and placements(after, partnership)[seat] == 1
    )


class Earned(NamedTuple):
    """One achievement as granted: when, and by which match or daily day."""

    code: str
    at: str
    match_id: int | None = None
    day: str | None = None


@dataclass(slots=True)
class Progress:
    """A player's achievements in a server so far, and the trump suits they made a
    contract in (towards ``every_trump``)."""

    held: set[str] = field(default_factory=set)
    suits: set[str] = field(default_factory=set)

    def after_match(self, facts: MatchFacts) -> list[str]:
        """Take in one match (in the order matches were recorded); the achievements it
        newly earns, in :data:`CODES` order. Updates ``held`` and ``suits``."""
        new = set(facts.codes) - self.held
        self.suits |= facts.trumps_made
        if "every_trump" not in self.held and self.suits >= SUITS:
            new.add("every_trump")
        self.held |= new
        return [c for c in CODES if c in new]


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A finished match as :func:`replay` needs it: its id, end, records and the seats
    of the people (``user_id`` by seat; None for a computer)."""

    match_id: int
    finished_at: str
    records: Sequence[Mapping[str, Any]]
    user_ids: Sequence[int | None]


def replay(matches: Iterable[PlayedMatch]) -> tuple[dict[int, list[Earned]], dict[int, Progress]]:
    """Every person's match achievements from their matches in one server, taken in
    the given order (the order they were recorded): ``user_id -> earned`` and each
    person's :class:`Progress`. A person on two seats of a match is counted once per
    seat, in seat order."""
    earned: dict[int, list[Earned]] = {}
    progress: dict[int, Progress] = {}
    for m in matches:
        for seat, user_id in enumerate(m.user_ids):
            if user_id is None:
                continue
            p = progress.setdefault(user_id, Progress())
            for code in p.after_match(match_facts(m.records, seat)):
                earned.setdefault(user_id, []).append(Earned(code, m.finished_at, m.match_id))
    return earned, progress


def daily_week(results: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """``(day, finished_at)`` of the finished daily match that first completed seven
    days in a row, or None. ``results`` are a person's finished daily matches of one
    server as ``(day 'YYYY-MM-DD', finished_at)``; they are taken in the order they
    were finished (a day finished late may complete the week)."""
    days: set[date] = set()
    for day, at in sorted(results, key=lambda r: (r[1], r[0])):
        d = date.fromisoformat(day)
        days.add(d)
        start = d
        while start - timedelta(days=1) in days:
            start -= timedelta(days=1)
        end = d
        while end + timedelta(days=1) in days:
            end += timedelta(days=1)
        if (end - start).days + 1 >= DAILY_WEEK:
            return day, at
    return None
