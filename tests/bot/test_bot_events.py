"""The service's events (tables/events.py): snapshots of their moment, delivered in
order after the lock, one failing delivery stopping none of the others. The real
service on a real SQLite file, a fake clock, and the recording listener of
test_bot_service."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from tables import (
    ActionApplied,
    DealFinished,
    MatchFinished,
    SeatChanged,
    SeatTimedOut,
    TableChanged,
    TableClosed,
    TableEvent,
    TurnStarted,
)
from tests.bot.test_bot_service import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    four_people,
    make_service,
    user_at,
)


async def _act_first_legal(service: Any, table: Any) -> None:
    match = table.match
    seat = match.to_act
    action = match.legal_actions()[0]
    await service.act(table.id, user_at(table, seat), seat, match.move_number, action)


async def test_an_action_keeps_the_moment_it_was_made(env: Any) -> None:
    service, rec, _timers, _store = env
    table = await four_people(service)
    await _act_first_legal(service, table)
    (first,) = [e for e in rec.received if isinstance(e, ActionApplied)]
    assert first.at.move == 1 and first.at.status == "playing"
    game_then = first.at.game
    assert first.at.seats[1].user_id == BOB and not first.at.seats[1].is_bot
    # Later the table moves on and Bob leaves: the table changes, the event does not.
    await _act_first_legal(service, table)
    await service.leave(table.id, BOB)
    assert table.move == 2 and table.seats[1].is_bot
    assert first.at.move == 1 and first.at.game is game_then
    assert first.at.seats[1].user_id == BOB and not first.at.seats[1].is_bot
    second = [e for e in rec.received if isinstance(e, ActionApplied)][1]
    assert second.at.move == 2
    (left,) = [e for e in rec.received if isinstance(e, SeatChanged)]
    assert (left.seat, left.change, left.name) == (1, "left", "Bob")
    assert left.at.seats[1].is_bot  # made after the computer took the seat


async def test_the_events_of_a_daily_match_tell_each_move_apart(env: Any) -> None:
    """The computers answer at once in a daily match: several moves under one lock, each
    event with its own move number (a closure over the table would see only the last)."""
    service, rec, _timers, _store = env
    table = await service.start_daily(GUILD, CHANNEL, ALICE, "Alice")
    await _act_first_legal(service, table)
    moves = [e.at.move for e in rec.received if isinstance(e, ActionApplied)]
    assert len(moves) >= 2
    assert moves == list(range(moves[0], moves[0] + len(moves)))
    assert moves[-1] == table.move
    assert all(e.at.is_daily for e in rec.received)


async def test_events_arrive_in_the_order_they_happened(env: Any) -> None:
    service, rec, _timers, _store = env
    table = await four_people(service)
    rec.received.clear()
    await _act_first_legal(service, table)
    assert [type(e) for e in rec.received] == [ActionApplied, TableChanged, TurnStarted]
    turn = rec.received[-1]
    assert isinstance(turn, TurnStarted) and turn.seat == table.to_act and turn.at.move == 1


async def test_a_time_out_is_told_before_the_move_it_made(env: Any) -> None:
    service, rec, timers, _store = env
    table = await four_people(service)
    seat = table.to_act
    rec.received.clear()
    await timers.advance(61)  # the person's 60 s run out
    kinds = [type(e) for e in rec.received]
    assert kinds[:2] == [SeatTimedOut, ActionApplied]
    timed, applied = rec.received[0], rec.received[1]
    assert isinstance(timed, SeatTimedOut) and isinstance(applied, ActionApplied)
    assert timed.seat == applied.seat == seat and applied.actor == "timeout"
    assert timed.at.move == applied.at.move == 1


async def test_a_match_ends_with_its_last_deal_and_its_result(env: Any) -> None:
    service, rec, _timers, _store = env
    table = await four_people(service)
    while table.playing:
        await _act_first_legal(service, table)
    tail = [type(e) for e in rec.received][-3:]
    assert tail == [ActionApplied, DealFinished, MatchFinished]
    done = rec.received[-1]
    assert isinstance(done, MatchFinished) and done.summary is not None
    assert done.at.status == "finished" and done.at.move == table.move


async def test_a_cancelled_table_stays_findable_by_id(env: Any) -> None:
    service, rec, _timers, _store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice")
    await service.cancel(table.id, ALICE, is_admin=False)
    closed = rec.received[-1]
    assert isinstance(closed, TableClosed) and closed.reason == "cancelled"
    assert closed.at.status == "cancelled"
    assert table.id not in service.tables and service.cancelled[table.id] is table


class Fussy:
    """A listener that fails on every event of one kind and records the others."""

    def __init__(self, fails_on: type) -> None:
        self.fails_on = fails_on
        self.received: list[TableEvent] = []

    async def on_event(self, event: TableEvent) -> None:
        if isinstance(event, self.fails_on):
            raise RuntimeError("the listener broke")
        self.received.append(event)


async def test_a_failing_delivery_stops_none_of_the_others(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    service, _rec, _timers, store = await make_service(tmp_path / "t.sqlite3")
    fussy = Fussy(ActionApplied)
    service.listener = fussy
    try:
        table = await four_people(service)
        with caplog.at_level(logging.ERROR, logger="tables.registry"):
            await _act_first_legal(service, table)  # the action itself is taken
        assert table.move == 1
        assert [type(e) for e in fussy.received][-2:] == [TableChanged, TurnStarted]
        assert any("ActionApplied" in r.getMessage() for r in caplog.records)
    finally:
        await service.close()
        await store.close()
