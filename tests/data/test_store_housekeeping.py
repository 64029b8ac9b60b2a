"""The store purges old closed tables by itself, on a schedule (fake clock and sleep)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from data import Housekeeping, Seat, Store

from store_clock import Clock

T0 = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


class FakeSleep:
    """Each ``sleep(d)`` waits until the test releases it, then moves the clock by ``d``."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.calls: list[float] = []
        self._asked = asyncio.Condition()
        self._go: asyncio.Queue[None] = asyncio.Queue()

    async def __call__(self, delay: float) -> None:
        async with self._asked:
            self.calls.append(delay)
            self._asked.notify_all()
        await self._go.get()
        self.clock.now += timedelta(seconds=delay)

    async def sleeping(self, n: int) -> None:
        """Until the task has asked for its ``n``-th sleep (so everything before is done)."""
        async with self._asked:
            await self._asked.wait_for(lambda: len(self.calls) >= n)

    def release(self) -> None:
        self._go.put_nowait(None)


async def test_closed_tables_are_purged_daily(db_url: str) -> None:
    clock = Clock(T0)
    sleep = FakeSleep(clock)
    policy = Housekeeping(keep_closed_days=30, every_s=86_400, first_after_s=60)
    store = await Store.open(db_url, clock=clock, housekeeping=policy, sleep=sleep)
    try:
        people = [Seat.human(u) for u in (1, 2, 3, 4)]
        done = await store.games.create_game(1, 2, 1, {}, seats=people)
        await store.games.cancel_game(done.id)
        live = await store.games.create_game(1, 2, 2, {})

        await sleep.sleeping(1)
        assert sleep.calls == [60]
        sleep.release()  # 60 s after opening: the first purge, nothing is old enough
        await sleep.sleeping(2)
        assert store.maintenance.housekeeping_runs == 1
        assert {g.id for g in await store.games.list_games(status=None)} == {done.id, live.id}

        days = 0
        while {g.id for g in await store.games.list_games(status=None)} != {live.id}:
            sleep.release()
            days += 1
            await sleep.sleeping(2 + days)
            assert days <= 31, "never purged"
        assert days == 30  # the first daily run more than 30 days after the close
        assert sleep.calls == [60] + [86_400] * (days + 1)
        assert store.maintenance.housekeeping_runs == days + 1
        assert (await store.games.get_game(live.id)).is_open  # open tables are never purged
    finally:
        await store.close()
    assert store.maintenance._housekeeping_task is None  # stopped by close, not left running


async def test_no_housekeeping_when_disabled(db_url: str) -> None:
    calls: list[float] = []

    async def sleep(delay: float) -> None:
        calls.append(delay)

    store = await Store.open(db_url, housekeeping=None, sleep=sleep)
    await asyncio.sleep(0)
    await store.close()
    assert calls == [] and store.maintenance.housekeeping_runs == 0


async def test_close_stops_a_sleeping_task(db_url: str) -> None:
    store = await Store.open(db_url)  # the real schedule: first run in 60 s
    task = store.maintenance._housekeeping_task
    assert task is not None and not task.done()
    await store.close()
    assert task.cancelled()


def test_bad_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="keep_closed_days"):
        Housekeeping(keep_closed_days=0)
    with pytest.raises(ValueError, match="every_s"):
        Housekeeping(every_s=0)
