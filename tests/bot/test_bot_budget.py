"""Discord's global limit kept by the bot (:mod:`cogs.budget`), on a fake clock.

A token bucket: ``burst`` requests at once, then ``rate`` a second; urgent waiters
first, cancelled ones skipped; every request of the bot's HTTP client takes a token
unless one was taken for it (a paced table edit takes its token before drawing, so
the moves made while it waits are merged into that one edit).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs.budget import GlobalBudget, limit_http, mode, share
from cogs.pacing import EditPacer
from tests.bot.test_bot_pacing import FakeClock, settle


def budget_on(clock: FakeClock, rate: float = 10.0, burst: int = 2) -> GlobalBudget:
    return GlobalBudget(rate, burst, clock=clock.time, sleep=clock.sleep)


async def test_a_burst_then_the_rate() -> None:
    clock = FakeClock()
    budget = budget_on(clock)
    got: list[float] = []

    async def one() -> None:
        await budget.take()
        got.append(clock.now)

    tasks = [asyncio.ensure_future(one()) for _ in range(6)]
    await clock.advance(1.0)
    await asyncio.gather(*tasks)
    assert got == pytest.approx([0.0, 0.0, 0.1, 0.2, 0.3, 0.4])
    assert budget.taken == 6 and budget.waited == 4


async def test_no_more_than_the_rate_over_any_second() -> None:
    clock = FakeClock()
    budget = budget_on(clock, rate=40, burst=5)
    got: list[float] = []

    async def one() -> None:
        await budget.take()
        got.append(clock.now)

    tasks = [asyncio.ensure_future(one()) for _ in range(300)]
    await clock.advance(10.0)
    await asyncio.gather(*tasks)
    worst = max(sum(1 for t in got if start <= t < start + 1.0) for start in got)
    assert worst <= 40 + 5  # the rate, and the burst once


async def test_urgent_waiters_go_first_and_cancelled_ones_are_skipped() -> None:
    clock = FakeClock()
    budget = budget_on(clock, rate=1, burst=1)
    order: list[str] = []

    async def one(name: str, urgent: bool = False) -> None:
        await budget.take(urgent=urgent)
        order.append(name)

    first = asyncio.ensure_future(one("first"))
    await settle()
    normal = [asyncio.ensure_future(one(f"n{i}")) for i in range(3)]
    await settle()
    gone = asyncio.ensure_future(one("gone", urgent=True))
    start = asyncio.ensure_future(one("start", urgent=True))
    await settle()
    gone.cancel()
    await clock.advance(10.0)
    await asyncio.gather(first, start, *normal)
    assert order == ["first", "start", "n0", "n1", "n2"]
    assert budget.queued == 0


class FakeHttp:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def request(self, route: Any, **kwargs: Any) -> Any:
        self.sent.append(route)
        return None


async def test_every_request_takes_a_token_unless_prepaid() -> None:
    clock = FakeClock()
    budget = budget_on(clock, rate=1, burst=3)
    http: Any = FakeHttp()
    limit_http(http, budget)
    await http.request("a")
    with mode("prepaid"):
        await http.request("b")  # its token was taken before
        await http.request("c")  # one request per token taken before
    await http.request("d")
    assert http.sent == ["a", "b", "c", "d"] and budget.taken == 3


async def test_paced_edits_wait_for_a_token_and_merge() -> None:
    """Tokens are short: the moves made while a table's edit waits for one show in
    that edit; the table is edited twice, not five times."""
    clock = FakeClock()
    budget = budget_on(clock, rate=0.5, burst=1)
    edits: list[tuple[float, int]] = []
    moves = [0]

    async def edit(key: int) -> None:
        edits.append((clock.now, moves[0]))

    pacer = EditPacer(0.1, edit, clock=clock.time, sleep=clock.sleep, budget=budget)
    for move in range(1, 6):
        moves[0] = move
        pacer.request(1)
        await clock.advance(0.3)
    await clock.advance(5.0)
    assert edits == [(0.0, 1), pytest.approx((2.0, 5))]
    await pacer.close()


def test_each_process_keeps_its_shards_share() -> None:
    assert share(None, None, 40) == 40  # every shard here
    assert share(4, (0, 1), 40) == 20
    assert share(2, (1,), 40) == 20


def test_a_budget_needs_a_rate() -> None:
    with pytest.raises(ValueError):
        GlobalBudget(0)


async def test_a_request_made_for_someone_waiting_goes_first() -> None:
    """``/batak new`` posts its table in ``mode("urgent")``: ahead of the table edits
    already waiting for a token."""
    clock = FakeClock()
    budget = budget_on(clock, rate=1, burst=1)
    http: Any = FakeHttp()
    limit_http(http, budget)
    await http.request("first")
    edits = [asyncio.ensure_future(http.request(f"edit {i}")) for i in range(3)]
    await settle()

    async def opened() -> None:
        with mode("urgent"):
            await http.request("new table")

    new = asyncio.ensure_future(opened())
    await clock.advance(10.0)
    await asyncio.gather(new, *edits)
    assert http.sent == ["first", "new table", "edit 0", "edit 1", "edit 2"]
