"""Computers think while their move's delay runs (``tables.thinking``).

The thinking worker is replaced by one that answers only when the test lets it, so each
check decides by what was asked and what was played, never by time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from ops.metrics import METRICS
from tables import Table, TableService, workers
from tables.timers import FakeTimers

GUILD, CHANNEL = 1000, 2000
ALICE = 11


class HeldWorker:
    """A thinking worker run in this process, each call held until :meth:`answer`."""

    def __init__(self) -> None:
        self.asked: list[tuple[Any, ...]] = []
        self.released = 0
        self.cancelled = 0
        self._changed = asyncio.Condition()

    async def run(self, fn: Callable[..., Any], *args: Any, urgent: bool = False) -> Any:
        async with self._changed:
            self.asked.append(args)
            number = len(self.asked)
            self._changed.notify_all()
            try:
                await self._changed.wait_for(lambda: self.released >= number)
            except asyncio.CancelledError:
                self.cancelled += 1
                raise
        return fn(*args)

    async def answer(self) -> None:
        """Let every call asked so far answer."""
        async with self._changed:
            self.released = len(self.asked)
            self._changed.notify_all()

    async def asked_for(self, count: int) -> None:
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: len(self.asked) >= count), 10)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> HeldWorker:
    worker = HeldWorker()
    monkeypatch.setattr(workers.THINKING, "run", worker.run)
    return worker


async def a_computers_turn(env: Any, held: HeldWorker) -> tuple[TableService, FakeTimers, Table]:
    """Alice and three computers, started and played until a computer's turn comes; its
    decision asked of the (held) worker."""
    service, _rec, timers, _store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
    await service.add_bot(table.id, ALICE)
    await service.start(table.id, ALICE)
    match = table.match
    assert match is not None
    while match.to_act == 0:
        await service.act(table.id, ALICE, 0, match.move_number, match.legal_actions()[0])
    await held.asked_for(1)
    return service, timers, table


async def settle(done: Callable[[], bool]) -> None:
    """Let the event loop run until ``done()`` (tasks being cancelled, woken...)."""
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError("never happened")


async def test_the_move_is_thought_out_while_its_delay_runs(env: Any, held: HeldWorker) -> None:
    service, timers, table = await a_computers_turn(env, held)
    match = table.match
    assert match is not None
    move, seat = match.move_number, match.to_act
    assert seat is not None and table.controlled_by_bot(seat)
    # asked at once, before the delay is over, and thought out without the table's lock
    assert service.reg.thoughts.thinking(table.id) == (move, seat, table.bot_level)
    assert held.asked[0][3] is not None  # the time it was asked: the guard counts the wait
    assert not table.lock.locked()
    await timers.advance(service.config.bot_delay / 2)
    assert match.move_number == move  # not due yet
    waits_before = METRICS.registry.get_sample_value(
        "batak_ai_move_wait_seconds_count", {"level": table.bot_level}
    )
    await held.answer()
    await timers.advance(service.config.bot_delay)
    # the move made is the one thought out: nothing was asked again for it
    assert match.move_number > move
    assert held.asked[0][2].seat == seat
    assert [a[2] for a in held.asked].count(held.asked[0][2]) == 1
    waits = METRICS.registry.get_sample_value(
        "batak_ai_move_wait_seconds_count", {"level": table.bot_level}
    )
    assert waits == (waits_before or 0.0) + 1


async def test_a_due_move_waits_for_its_thought_without_the_lock(
    env: Any, held: HeldWorker
) -> None:
    service, timers, table = await a_computers_turn(env, held)
    assert table.match is not None
    move = table.match.move_number
    due = asyncio.create_task(timers.advance(service.config.bot_delay + 0.1))
    await settle(lambda: timers.now > 0)  # the move fell due
    for _ in range(20):
        await asyncio.sleep(0)
    assert not due.done() and not table.lock.locked()  # due, still thinking, lock free
    assert table.match.move_number == move and len(held.asked) == 1
    await held.answer()
    await asyncio.wait_for(due, 10)
    assert table.match.move_number > move


async def test_a_thought_is_dropped_when_the_table_closes(env: Any, held: HeldWorker) -> None:
    service, timers, table = await a_computers_turn(env, held)
    await service.cancel(table.id, ALICE, is_admin=False)
    assert service.reg.thoughts.thinking(table.id) is None
    await settle(lambda: held.cancelled == 1)
    await timers.advance(60)
    assert len(held.asked) == 1  # nothing more asked for a closed table


async def test_a_failed_thought_is_thought_again_when_due(env: Any, held: HeldWorker) -> None:
    service, timers, table = await a_computers_turn(env, held)
    assert table.match is not None
    move = table.match.move_number
    service.reg.thoughts._held[table.id].task.cancel()  # as if its worker call had failed
    await held.answer()
    due = asyncio.create_task(timers.advance(service.config.bot_delay + 0.1))
    await held.asked_for(2)  # asked again when the move fell due
    assert held.asked[1][2] == held.asked[0][2]  # the same turn, the same observation
    await held.answer()
    await asyncio.wait_for(due, 10)
    assert table.match.move_number > move
