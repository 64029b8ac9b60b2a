"""Achievements in the store: granted with the match (or daily result) that earns them,
once per server, person and achievement, across restarts; recomputed from the stored
records to exactly the stored set."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from typing import Any

import pytest

from batak.rules import MIN_RATED_DEALS
from data import Seat, Store
from data.__main__ import main
from data.samples import STANDARD_RULES, engine_match, synthetic_record

from store_clock import Clock

SEATS = [Seat.human(1), Seat.human(2), Seat.bot("hard"), Seat.human(4)]


def crafted(holder: int, bid: int, tricks: list[int], score: list[int]) -> dict[str, Any]:
    rec = synthetic_record(random.Random(bid * 100 + holder))
    rec["contract"] = {"seat": holder, "bid": bid, "forced": False, "trump": "S"}
    rec["tricks_won"] = tricks
    rec["score"] = score
    rec["rules"] = dict(STANDARD_RULES)
    return rec


def quiet() -> dict[str, Any]:
    """A deal nobody earns anything in: seat 2 (a computer) makes a 5."""
    return crafted(2, 5, [3, 2, 6, 2], [0, 0, 50, 0])


BIG = crafted(1, 10, [1, 10, 1, 1], [10, 100, 10, 10])  # seat 1 makes a 10


def match_of(*deals: dict[str, Any]) -> list[dict[str, Any]]:
    return [*deals] + [quiet() for _ in range(max(0, MIN_RATED_DEALS - len(deals)))]


async def test_a_match_grants_once(store: Store) -> None:
    first = await store.matches.record_match(5, SEATS, match_of(BIG), rules=STANDARD_RULES)
    assert [(a.user_id, a.code, a.match_id) for a in first.achievements] == [
        (2, "big_contract", first.id)
    ]
    again = await store.matches.record_match(5, SEATS, match_of(BIG), rules=STANDARD_RULES)
    assert again.achievements == ()
    held = await store.achievements.of_player(5, 2)
    assert [(a.code, a.match_id, a.earned_at, a.new) for a in held] == [
        ("big_contract", first.id, first.finished_at, True)
    ]
    assert await store.achievements.of_player(6, 2) == []  # another server: its own


async def test_computers_earn_nothing(store: Store) -> None:
    seats = [Seat.human(1), Seat.bot("hard"), Seat.bot("easy"), Seat.human(4)]
    summary = await store.matches.record_match(5, seats, match_of(BIG), rules=STANDARD_RULES)
    assert summary.achievements == ()
    # a match every person left, finished by the computers: nobody earns from it
    left = await store.matches.record_match(
        5, SEATS, match_of(BIG), rules=STANDARD_RULES, computers_finished=True
    )
    assert left.achievements == ()
    assert await store.achievements.of_player(5, 2) == []


async def test_casual_matches_count(store: Store) -> None:
    summary = await store.matches.record_match(
        5, SEATS, match_of(BIG), rules=STANDARD_RULES, rated=False
    )
    assert [a.code for a in summary.achievements] == ["big_contract"]


async def test_every_trump_over_matches(store: Store) -> None:
    ids = []
    for trump in "SHDC":
        rec = crafted(0, 6, [7, 2, 2, 2], [60, 0, 0, 0])
        rec["contract"]["trump"] = trump
        m = await store.matches.record_match(5, SEATS, match_of(rec), rules=STANDARD_RULES)
        ids.append((m.id, [a.code for a in m.achievements]))
    assert [codes for _, codes in ids] == [[], [], [], ["every_trump"]]
    recount = await store.achievements.recompute(5)
    assert recount.same and recount.progress == {(5, 1): "SHDC"}


async def test_daily_week(store: Store, clock: Clock) -> None:
    start = clock.now
    for d in range(7):
        clock.now = start + timedelta(days=d)
        result = await store.daily.finish_daily(5, 1, 10 * d)
        if d < 6:
            assert result.achievements == ()
    assert [(a.code, a.day) for a in result.achievements] == [("daily_week", result.day)]
    clock.now = start + timedelta(days=7)
    assert (await store.daily.finish_daily(5, 1, 1)).achievements == ()
    # another person with a gap earns nothing
    for d in (0, 1, 2, 4, 5, 6, 7):
        clock.now = start + timedelta(days=d)
        assert (await store.daily.finish_daily(5, 2, 0)).achievements == ()
    assert (await store.achievements.recompute(5)).same


async def test_tournament_win_idempotent(store: Store, clock: Clock) -> None:
    assert await store.achievements.grant_tournament_win(5, 1, clock.now, 11)
    assert not await store.achievements.grant_tournament_win(5, 1, clock.now, 11)
    assert not await store.achievements.grant_tournament_win(5, 1, clock.now, 12)  # a 2nd win
    assert not await store.achievements.grant_tournament_win(5, None, clock.now, 12)
    held = await store.achievements.of_player(5, 1)
    assert [(a.code, a.tournament_id) for a in held] == [("tournament_win", 11)]
    assert (await store.achievements.recompute(5)).same  # not from records: left as it is


async def test_mark_seen(store: Store) -> None:
    await store.matches.record_match(5, SEATS, match_of(BIG), rules=STANDARD_RULES)
    assert await store.achievements.mark_seen(5, 2, ["big_contract"]) == 1
    assert await store.achievements.mark_seen(5, 2) == 0
    (held,) = await store.achievements.of_player(5, 2)
    assert not held.new and held.seen_at is not None


async def test_exactly_once_across_a_restart(db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url, clock=clock, housekeeping=None)
    try:
        first = await store.matches.record_match(5, SEATS, match_of(BIG), rules=STANDARD_RULES)
    finally:
        await store.close()
    store = await Store.open(db_url, clock=clock, housekeeping=None)
    try:
        second = await store.matches.record_match(5, SEATS, match_of(BIG), rules=STANDARD_RULES)
        assert second.achievements == ()
        held = await store.achievements.of_player(5, 2)
        assert [(a.code, a.match_id) for a in held] == [("big_contract", first.id)]
        assert [a.code for a in await store.achievements.of_match(first.id)] == ["big_contract"]
        assert (await store.achievements.recompute()).same
    finally:
        await store.close()


async def test_recompute_equals_stored_and_fills_an_old_database(store: Store) -> None:
    for seed in range(12):
        seats = [Seat.human(1 + seed % 3), Seat.human(4), Seat.bot("hard"), Seat.human(5)]
        await store.matches.record_match(7, seats, engine_match(seed), rules=STANDARD_RULES)
    await store.matches.record_match(7, SEATS, match_of(BIG), rules=STANDARD_RULES)
    recount = await store.achievements.recompute()
    assert recount.same and len(recount.stored) >= 3
    # a database from before achievements: nothing stored; recompute finds it all
    async with store.database.tx() as db:
        await db.execute("DELETE FROM achievements")
        await db.execute("DELETE FROM achievement_progress")
    missing = await store.achievements.recompute()
    assert missing.missing == sorted(recount.stored) and not missing.extra
    assert await store.achievements.apply(missing) == len(recount.stored)
    again = await store.achievements.recompute()
    assert again.same and again.stored == recount.stored
    # an achievement stored that the records do not give is reported
    await store.achievements.grant_tournament_win(7, 4, "2026-03-10T12:00:00Z", 1)
    async with store.database.tx() as db:
        await db.execute(
            "INSERT INTO achievements (guild_id, user_id, code, earned_at) VALUES (?, ?, ?, ?)",
            (7, 99, "all_thirteen", "2026-03-10T12:00:00Z"),
        )
    wrong = await store.achievements.recompute()
    assert wrong.extra == [(7, 99, "all_thirteen")] and not wrong.same


async def test_command_line_recompute(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = await store.matches.record_match(5, SEATS, match_of(BIG), rules=STANDARD_RULES)
    assert first.achievements
    assert await asyncio.to_thread(main, ["achievements", "--recompute", db_url]) == 0
    assert "identical" in capsys.readouterr().out
    async with store.database.tx() as db:
        await db.execute("DELETE FROM achievements")
    assert await asyncio.to_thread(main, ["achievements", "--recompute", db_url]) == 1
    out = capsys.readouterr().out
    assert "missing: server 5, user 2, big_contract" in out and "different" in out
    assert await asyncio.to_thread(main, ["achievements", "--recompute", "--apply", db_url]) == 0
    assert "added 1" in capsys.readouterr().out
    assert [a.match_id for a in await store.achievements.of_player(5, 2)] == [first.id]
