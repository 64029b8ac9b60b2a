"""The edit pacer on a fake clock: which edits happen, and when, in fake seconds.

Nothing here waits on the wall clock, so the results are the same on an idle
laptop and on a loaded CI machine.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging

import pytest

from cogs.budget import GlobalBudget
from cogs.pacing import EditPacer

# How often the test yields to the event loop after moving the clock. A woken
# pacer task needs one turn to run up to its next sleep or its end (the edits in
# these tests never wait); a few more cost nothing and need no wall-clock time.
SETTLE_TURNS = 5


async def settle() -> None:
    for _ in range(SETTLE_TURNS):
        await asyncio.sleep(0)


class FakeClock:
    """Fake seconds: time stands still until :meth:`advance` moves it.

    :meth:`sleep` returns when the clock reaches its deadline; sleepers wake in
    deadline order, each seeing the clock at its own deadline, as on a real loop.
    """

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, next(self._order), future))
        await future

    @property
    def sleeping(self) -> int:
        return sum(1 for _, _, f in self._sleepers if not f.done())

    async def advance(self, seconds: float) -> None:
        until = self.now + seconds
        await settle()
        while self._sleepers and self._sleepers[0][0] <= until:
            when, _, future = heapq.heappop(self._sleepers)
            if future.done():  # its task was cancelled
                continue
            self.now = when
            future.set_result(None)
            await settle()
        self.now = until
        await settle()


class Recorder:
    """The edit callback: when each edit ran (fake seconds) and what state it showed."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.state = 0
        self.edits: list[tuple[int, float, int]] = []

    async def edit(self, key: int) -> None:
        self.edits.append((key, self.clock.now, self.state))

    def times(self, key: int = 1) -> list[float]:
        return [when for k, when, _ in self.edits if k == key]


def make(interval: float = 1.0) -> tuple[FakeClock, Recorder, EditPacer]:
    clock = FakeClock()
    rec = Recorder(clock)
    return clock, rec, EditPacer(interval, rec.edit, clock=clock.time, sleep=clock.sleep)


async def test_pacer_coalesces_rapid_edits() -> None:
    clock, rec, pacer = make(interval=1.0)
    # 40 requests 1/8 s apart: 5 s of fast play, each request a new state.
    for _ in range(40):
        rec.state += 1
        pacer.request(1)
        await clock.advance(0.125)
    await clock.advance(10.0)
    # One edit at once, then one per interval; the last one shows the final state.
    assert rec.times() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert rec.edits[-1][2] == 40
    assert pacer.edits == 6
    assert clock.sleeping == 0  # nothing left waiting once the requests stop
    await pacer.close()


async def test_a_request_after_a_quiet_period_edits_at_once() -> None:
    clock, rec, pacer = make(interval=1.0)
    pacer.request(1)
    await clock.advance(0)
    assert rec.times() == [0.0]
    await clock.advance(3.0)
    pacer.request(1)
    await clock.advance(0)
    assert rec.times() == [0.0, 3.0]
    await pacer.close()


async def test_a_request_just_after_an_edit_waits_for_the_interval() -> None:
    clock, rec, pacer = make(interval=1.0)
    pacer.request(1)
    await clock.advance(0.25)
    pacer.request(1)
    rec.state = 2
    await clock.advance(0.5)
    assert rec.times() == [0.0]  # t = 0.75: still too soon after the first edit
    await clock.advance(0.25)
    assert rec.edits == [(1, 0.0, 0), (1, 1.0, 2)]
    await pacer.close()


async def test_tables_are_paced_independently() -> None:
    clock, rec, pacer = make(interval=1.0)
    pacer.request(1)
    await clock.advance(0.5)
    pacer.request(1)  # table 1 must wait until t = 1
    pacer.request(2)  # table 2 has not been edited yet: at once
    await clock.advance(0)
    assert rec.times(1) == [0.0] and rec.times(2) == [0.5]
    await clock.advance(0.5)
    assert rec.times(1) == [0.0, 1.0] and rec.times(2) == [0.5]
    await pacer.close()


async def test_a_failed_edit_is_logged_and_later_edits_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock()
    calls: list[float] = []

    async def edit(key: int) -> None:
        calls.append(clock.now)
        if len(calls) == 1:
            raise RuntimeError("Discord said no")

    pacer = EditPacer(1.0, edit, clock=clock.time, sleep=clock.sleep)
    with caplog.at_level(logging.ERROR, logger="cogs.pacing"):
        pacer.request(1)
        await clock.advance(0.5)
        pacer.request(1)
        await clock.advance(0.5)
    assert calls == [0.0, 1.0]
    assert "editing the message of table 1 failed" in caplog.text
    await pacer.close()


async def test_flush_waits_for_the_trailing_edit() -> None:
    clock, rec, pacer = make(interval=1.0)
    pacer.request(1)
    await clock.advance(0)
    pacer.request(1)
    flushing = asyncio.get_running_loop().create_task(pacer.flush(1))
    await clock.advance(0.5)
    assert not flushing.done() and rec.times() == [0.0]
    await clock.advance(0.5)
    assert flushing.done() and rec.times() == [0.0, 1.0]
    await pacer.flush(2)  # nothing pending: returns at once
    await pacer.close()


async def test_close_drops_the_pending_edit() -> None:
    clock, rec, pacer = make(interval=1.0)
    pacer.request(1)
    await clock.advance(0.25)
    pacer.request(1)
    await pacer.close()
    await clock.advance(5.0)
    assert rec.times() == [0.0]
    assert clock.sleeping == 0


async def test_the_pacer_forgets_tables_it_edited_longer_ago_than_the_interval() -> None:
    clock, rec, pacer = make(interval=1.0)
    for key in range(100):  # 100 tables, each edited once, 1/8 s apart
        pacer.request(key)
        await clock.advance(0.125)
    # t = 12.5; at the last request (t = 12.375) only the tables edited in the second
    # before it (t > 11.375: 8 of them) still held an edit back.
    assert pacer.remembered == 8
    assert rec.times(99) == [12.375]
    pacer.request(99)  # edited 1/8 s ago: still paced, not edited at once
    await clock.advance(0)
    assert rec.times(99) == [12.375]
    await clock.advance(0.875)
    assert rec.times(99) == [12.375, 13.375]
    pacer.request(0)  # forgotten long ago: edited at once, as before
    await clock.advance(0)
    assert rec.times(0) == [0.0, 13.375]
    await clock.advance(5.0)
    pacer.request(7)
    await clock.advance(0)
    assert pacer.remembered == 1  # table 7, just now; every older time is gone
    await pacer.close()


async def test_by_default_the_pacer_runs_on_the_event_loop_clock() -> None:
    loop = asyncio.get_running_loop()
    times: list[float] = []

    async def edit(key: int) -> None:
        times.append(loop.time())

    pacer = EditPacer(0.01, edit)  # the real loop clock and asyncio.sleep
    pacer.request(1)
    await pacer.flush(1)
    assert len(times) == 1  # the first edit does not wait
    pacer.request(1)
    await pacer.flush(1)  # however slow the machine, flush returns after the edit
    assert len(times) == 2
    assert times[1] - times[0] >= 0.009  # never sooner than the interval (less jitter)
    await pacer.close()


async def test_a_wait_for_the_budget_ends_when_a_token_makes_the_key_exempt() -> None:
    """A lobby's edit queued behind other tables' requests of the global limit: a press
    on its message gives a token, so the edit goes at once, through it, and takes no
    token of the budget (Start showed 9-14 s late at 200 tables before this)."""
    clock = FakeClock()
    budget = GlobalBudget(0.1, 1, clock=clock.time, sleep=clock.sleep)
    await budget.take()  # spent: the next token comes in 10 s
    edits: list[tuple[int, float]] = []
    exempt: set[int] = set()

    async def edit(key: int) -> None:
        edits.append((key, clock.now))

    pacer = EditPacer(
        1.0, edit, clock=clock.time, sleep=clock.sleep, budget=budget, exempt=exempt.__contains__
    )
    pacer.request(1)  # through the channel: waits for the budget
    await clock.advance(2.0)
    assert edits == []
    exempt.add(1)  # a press on the message: its token is fresh
    pacer.request(1)
    await clock.advance(0)
    assert edits == [(1, 2.0)] and pacer.woken == 1
    await clock.advance(20.0)
    assert budget.taken == 1 and budget.queued == 0  # the cancelled wait took nothing
    await pacer.close()


async def test_a_request_that_is_not_exempt_still_waits_its_turn() -> None:
    clock = FakeClock()
    budget = GlobalBudget(0.1, 1, clock=clock.time, sleep=clock.sleep)
    await budget.take()
    edits: list[float] = []

    async def edit(key: int) -> None:
        edits.append(clock.now)

    pacer = EditPacer(1.0, edit, clock=clock.time, sleep=clock.sleep, budget=budget)
    pacer.request(1)
    await clock.advance(2.0)
    pacer.request(1)  # nothing changed: merged into the waiting edit
    await clock.advance(20.0)
    assert edits == [pytest.approx(10.0)] and pacer.woken == 0
    await pacer.close()


async def test_an_interval_wait_ends_when_the_key_becomes_urgent() -> None:
    """A table edited just before Start: the start is shown at once, not after the
    interval."""
    clock, rec, _ = make()
    urgent: set[int] = set()
    pacer = EditPacer(
        5.0, rec.edit, clock=clock.time, sleep=clock.sleep, urgent=urgent.__contains__
    )
    pacer.request(1)
    await clock.advance(0.5)
    pacer.request(1)  # too soon: waits for the interval
    await clock.advance(0.5)
    assert rec.times() == [0.0]
    urgent.add(1)
    pacer.request(1)
    await clock.advance(0)
    assert rec.times() == [0.0, 1.0] and pacer.woken == 1
    await pacer.close()
