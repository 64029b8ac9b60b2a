"""The daily match under a burst: 100 presses of one person at once, on each backend.

The first press creates the game; every other press is answered with that same game
(never "already played"); the store holds one daily game and one daily claim for the
person and day, whoever races, with or without the service's single flight.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from typing import Any

import pytest

from data import DailyAlreadyPlayedError, Seat, Store
from tables import ServiceConfig, TableService
from tables.timers import FakeTimers

GUILD, CHANNEL, ALICE, BOB = 1000, 2000, 11, 12
DAY = dt.date(2026, 3, 10)  # the store clock's day (tests/data/conftest.py)


def make_service(store: Store) -> TableService:
    return TableService(
        store,
        config=ServiceConfig(bot_delay=1.0, turn_timeout_override=60.0),
        timers=FakeTimers(),
        today=lambda: DAY,
        rng=random.Random(7),
    )


async def daily_games(store: Store, user_id: int) -> list[int]:
    async with (
        store.database.read() as db,
        db.execute(
            "SELECT id FROM games WHERE guild_id = ? AND host_id = ? AND kind = 'daily'",
            (GUILD, user_id),
        ) as cur,
    ):
        return [int(r["id"]) for r in await cur.fetchall()]


async def test_hundred_presses_one_daily(store: Store) -> None:
    service = make_service(store)
    try:
        answers: list[Any] = await asyncio.gather(
            *(service.start_daily(GUILD, CHANNEL, ALICE, "Alice") for _ in range(100)),
            return_exceptions=True,
        )
        errors = [a for a in answers if isinstance(a, BaseException)]
        assert errors == []
        ids = {a.id for a in answers}
        assert len(ids) == 1
        assert await daily_games(store, ALICE) == list(ids)
        result = await store.daily.daily_result(GUILD, ALICE, day=DAY)
        assert result is not None and result.game_id in ids and result.score is None
        # a press after the burst resumes the same table; another person gets their own
        assert (await service.start_daily(GUILD, CHANNEL, ALICE, "Alice")).id in ids
        other = await service.start_daily(GUILD, CHANNEL, BOB, "Bob")
        assert other.id not in ids
    finally:
        await service.close()


async def test_two_services_one_store_one_daily(store: Store) -> None:
    """Two processes on one database (no shared single flight): the store's key decides;
    the loser is told the match is being set up, and no second game row is left behind."""
    first, second = make_service(store), make_service(store)
    try:
        answers: list[Any] = await asyncio.gather(
            *(
                svc.start_daily(GUILD, CHANNEL, ALICE, "Alice")
                for _ in range(20)
                for svc in (first, second)
            ),
            return_exceptions=True,
        )
        tables = [a for a in answers if not isinstance(a, BaseException)]
        errors = [a for a in answers if isinstance(a, BaseException)]
        # the loser's presses are told the match is being set up, never "already played"
        assert errors and {getattr(e, "key", e) for e in errors} == {"error.daily_setting_up"}
        assert len({t.id for t in tables}) == 1
        assert len(await daily_games(store, ALICE)) == 1
    finally:
        await first.close()
        await second.close()


async def test_store_refuses_a_second_daily_game(store: Store) -> None:
    seats = [Seat.human(ALICE, "Alice")] + [Seat.bot("easy") for _ in range(3)]
    game = await store.games.create_game(
        GUILD, CHANNEL, ALICE, {}, seats=seats, kind="daily", status="playing", daily_day=DAY
    )
    with pytest.raises(DailyAlreadyPlayedError) as err:
        await store.games.create_game(
            GUILD, CHANNEL, ALICE, {}, seats=seats, kind="daily", status="playing", daily_day=DAY
        )
    assert err.value.game_id == game.id
    assert await daily_games(store, ALICE) == [game.id]
    claim = await store.daily.daily_result(GUILD, ALICE, day=DAY)
    assert claim is not None and claim.game_id == game.id
