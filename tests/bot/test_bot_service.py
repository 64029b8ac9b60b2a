"""The table service without Discord: fake clock, fake listener, a real SQLite file."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

import pytest

from batak import PASS, Bid, Play, format_action
from data import Store
from ops.metrics import METRICS
from tables import (
    ActionApplied,
    DealFinished,
    HostChanged,
    IllegalMove,
    MatchFinished,
    RecordingFailed,
    SeatChanged,
    SeatRequestChanged,
    SeatTimedOut,
    ServiceConfig,
    ServiceError,
    StaleAction,
    Table,
    TableChanged,
    TableClosed,
    TableEvent,
    TableService,
    TurnStarted,
)
from tables.timers import FakeTimers

GUILD, CHANNEL = 1000, 2000
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14


class Recorder:
    """A listener that remembers every event: as a tuple (kind, table, values...) in
    :attr:`events`, and the event objects themselves in :attr:`received`."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []
        self.received: list[TableEvent] = []

    def kinds(self, kind: str) -> list[tuple[Any, ...]]:
        return [e for e in self.events if e[0] == kind]

    async def on_event(self, event: TableEvent) -> None:
        self.received.append(event)
        self.events.append(as_tuple(event))


def as_tuple(event: TableEvent) -> tuple[Any, ...]:
    """An event as the tests compare it: its kind, its table and its own values."""
    tid = event.at.table_id
    match event:
        case TableChanged():
            return ("changed", tid)
        case TurnStarted(seat=seat):
            return ("turn", tid, seat)
        case ActionApplied(seat=seat, action=action, actor=actor):
            return ("action", tid, seat, format_action(action), actor)
        case DealFinished(index=index):
            return ("deal", tid, index)
        case MatchFinished(summary=summary):
            return ("match", tid, summary)
        case TableClosed(reason=reason):
            return ("closed", tid, reason)
        case RecordingFailed(attempt=attempt, retry_in=retry_in):
            return ("recording_failed", tid, attempt, retry_in)
        case SeatTimedOut(seat=seat, action=action, handed_over=handed_over):
            return ("timeout", tid, seat, format_action(action), handed_over)
        case SeatChanged(seat=seat, change=change, name=name):
            return ("seat", tid, seat, change, name)
        case SeatRequestChanged(request=request, state=state):
            return ("request", tid, request.seat, request.user_id, state)
        case HostChanged(user_id=user_id, name=name):
            return ("host", tid, user_id, name)


async def make_service(
    path: Path, *, timers: FakeTimers | None = None, **config: Any
) -> tuple[TableService, Recorder, FakeTimers, Store]:
    store = await Store.open(path)
    rec = Recorder()
    fake = timers or FakeTimers()
    cfg = ServiceConfig(**({"bot_delay": 1.0, "turn_timeout_override": 60.0} | config))
    service = TableService(
        store,
        config=cfg,
        timers=fake,
        listener=rec,
        today=lambda: dt.date(2026, 11, 30),
        rng=random.Random(7),
    )
    return service, rec, fake, store


def user_at(table: Table, seat: int) -> int:
    uid = table.seats[seat].user_id
    assert uid is not None
    return uid


async def play_out(service: TableService, timers: FakeTimers, table: Table) -> None:
    """Play ``table`` to the end: each person their first legal action, each computer (a
    bot, or a person away) its own move when the fake clock passes its delay."""
    match = table.match
    assert match is not None
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        if table.controlled_by_bot(seat):
            await timers.advance(service.config.bot_delay + 0.5)
            continue
        action = match.legal_actions()[0]
        await service.act(table.id, user_at(table, seat), seat, match.move_number, action)


async def four_people(service: TableService, deals: int = 1) -> Table:
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=deals)
    for uid, name in ((BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")):
        await service.join(table.id, uid, name)
    return await service.start(table.id, ALICE)


async def test_full_match_of_four_people(env: Any) -> None:
    service, rec, timers, store = env
    table = await four_people(service, deals=3)  # rated: fewer deals is a try-out
    assert table.playing and all(s.is_human for s in table.seats)
    match = table.match
    assert match is not None
    commits = METRICS.registry.get_sample_value("batak_store_commit_seconds_count") or 0.0
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        action = match.legal_actions()[0]
        result = await service.act(table.id, user_at(table, seat), seat, match.move_number, action)
        assert result.seat == seat
    assert table.finished
    # every move's commit is timed for the operator's /metrics
    timed = METRICS.registry.get_sample_value("batak_store_commit_seconds_count")
    assert timed == commits + match.move_number
    assert [e[2] for e in rec.kinds("deal")] == list(range(len(match.finished)))
    assert len(match.finished) >= 3
    (match_event,) = rec.kinds("match")
    summary = match_event[2]
    assert summary is not None and summary.totals == list(match.totals)
    board = await store.standings.leaderboard(GUILD)
    assert {s.user_id for s in board} == {ALICE, BOB, CAROL, DAVE}
    game = await store.games.load_game(table.id)
    assert game.status == "finished" and len(game.actions) == match.move_number
    assert table.id not in service.tables
    assert not timers.pending(f"turn:{table.id}")


async def test_one_person_and_three_computers(env: Any) -> None:
    service, rec, timers, _store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
    assert await service.add_bot(table.id, ALICE) == 1
    await service.start(table.id, ALICE)
    assert [s.is_bot for s in table.seats] == [False, True, True, True]
    level = table.bot_level
    decided_before = METRICS.registry.get_sample_value("batak_ai_decisions_total", {"level": level})
    timed_before = METRICS.registry.get_sample_value(
        "batak_ai_decision_seconds_count", {"level": level}
    )
    match = table.match
    assert match is not None
    while not match.is_over:
        await timers.run_until_idle(max_delay=5)  # computers only; the person's timer is 60 s
        if match.is_over:
            break
        assert match.to_act == 0
        assert rec.kinds("turn")[-1] == ("turn", table.id, 0)
        await service.act(table.id, ALICE, 0, match.move_number, match.legal_actions()[-1])
    assert rec.kinds("match") and table.finished
    actors = {e[4] for e in rec.kinds("action")}
    assert actors == {"player", "bot"}
    # every computer move is counted for /metrics by level (and none was cut short here:
    # the guard stops only a decision starved of CPU for seconds)
    bot_moves = sum(1 for e in rec.kinds("action") if e[4] == "bot")
    decided = METRICS.registry.get_sample_value("batak_ai_decisions_total", {"level": level})
    assert decided == (decided_before or 0.0) + bot_moves
    # ...and each one's wait for the thinking worker is observed
    timed = METRICS.registry.get_sample_value("batak_ai_decision_seconds_count", {"level": level})
    assert timed == (timed_before or 0.0) + bot_moves
    cut = METRICS.registry.get_sample_value("batak_ai_decisions_cut_total", {"level": level})
    assert not cut


async def test_stale_forged_and_double_clicks(env: Any) -> None:
    service, _rec, _timers, _store = env
    table = await four_people(service)
    match = table.match
    assert match is not None
    seat = match.to_act
    assert seat == 1  # the dealer is seat 0; the seat to its right bids first
    move = match.move_number
    # Someone else's button (forged): refused, nothing changes.
    with pytest.raises(ServiceError) as err:
        await service.act(table.id, ALICE, seat, move, Bid(5))
    assert err.value.key == "error.not_your_seat"
    # Not the user's turn.
    with pytest.raises(ServiceError) as err:
        await service.act(table.id, ALICE, 0, move, Bid(5))
    assert err.value.key == "error.not_your_turn"
    # An illegal action (a forged custom id) is refused with the engine's reason.
    with pytest.raises(IllegalMove):
        await service.act(table.id, BOB, seat, move, Play(0))
    with pytest.raises(ServiceError) as err:
        await service.act(table.id, BOB, seat, move, "gibberish")
    assert err.value.key == "error.forged"
    assert match.move_number == move
    # The click goes through once; the doubled click is stale.
    await service.act(table.id, BOB, seat, move, Bid(5))
    with pytest.raises(StaleAction) as stale:
        await service.act(table.id, BOB, seat, move, Bid(5))
    assert stale.value.current == move + 1
    assert match.move_number == move + 1
    # A button from the future is stale too.
    with pytest.raises(StaleAction):
        await service.act(table.id, CAROL, 2, move + 7, PASS)


async def test_turn_timeouts_hand_the_seat_to_a_computer(env: Any) -> None:
    service, rec, timers, store = env
    table = await four_people(service)
    match = table.match
    assert match is not None
    assert match.to_act == 1
    await timers.advance(59)
    assert match.move_number == 0
    await timers.advance(2)  # Bob's 60 s run out: in the auction that is a pass
    assert match.move_number == 1
    assert rec.kinds("timeout")[-1][2:] == (1, "pass", False)
    assert rec.kinds("action")[-1][3:] == ("pass", "timeout")
    # Everyone keeps timing out; at a second time-out in a row a seat is handed over.
    for _ in range(8):
        if any(e[4] for e in rec.kinds("timeout")):
            break
        await timers.advance(61)
    handed = [e for e in rec.kinds("timeout") if e[4]]
    assert handed
    away = handed[0][2]
    assert table.seats[away].is_away
    stored = await store.games.get_game(table.id)
    assert stored.seats[away].is_away
    # A computer now plays that seat's turns after the short delay.
    for _ in range(20 * 61):
        if match.to_act == away:
            break
        await timers.advance(1)
    assert match.to_act == away
    before = match.move_number
    await timers.advance(1.5)
    assert match.move_number == before + 1
    assert rec.kinds("action")[-1][4] == "bot"
    # The person comes back (opening their hand) and gets the seat back.
    assert await service.come_back(table.id, user_at(table, away))
    assert not table.seats[away].is_away


async def test_leaver_is_replaced_by_a_computer(env: Any) -> None:
    service, _rec, timers, _store = env
    table = await four_people(service)
    match = table.match
    assert match is not None
    await service.leave(table.id, BOB)
    assert table.seats[1].is_bot
    await timers.advance(1.5)
    assert match.move_number == 1


async def test_seat_changes_are_told_and_past_tricks_keep_the_names(env: Any) -> None:
    from batak.players import make_player
    from cogs.text.summaries import public_summary

    service, rec, _timers, _store = env
    table = await four_people(service)
    match = table.match
    assert match is not None
    players = [make_player("easy", s) for s in range(4)]
    # Everyone plays until Bob (seat 1) has a card on the table.
    while not (
        match.deal.phase.value == "play"
        and 1 in [(match.deal.trick_leader + i) % 4 for i in range(len(match.deal.trick))]
    ):
        seat = match.to_act
        assert seat is not None
        action = players[seat].choose(match.observation(seat))
        await service.act(table.id, user_at(table, seat), seat, match.move_number, action)
    assert "Bob" in public_summary(table, "en").split("On the table:")[1]
    await service.leave(table.id, BOB)
    assert ("seat", table.id, 1, "left", "Bob") in rec.events
    assert table.seats[1].is_bot
    on_table = public_summary(table, "en").split("On the table:")[1].splitlines()[0]
    assert "Bob" in on_table and "Computer 2" not in on_table, on_table
    # Carol is removed by the host: told as such.
    await service.kick(table.id, ALICE, CAROL, is_admin=False)
    assert ("seat", table.id, 2, "kicked", "Carol") in rec.events


async def test_auction_time_out_passes_and_the_deadline_is_kept(env: Any) -> None:
    service, rec, timers, _store = env
    table = await four_people(service)
    match = table.match
    assert match is not None
    deadline = table.deadline_now()
    assert deadline is not None
    await timers.advance(30)
    assert table.deadline_now() == deadline  # the same turn, the same deadline
    await timers.advance(31)
    assert rec.kinds("action")[-1][3:] == ("pass", "timeout")
    later = table.deadline_now()
    assert later is not None and later > deadline


async def test_restart_restores_the_table_and_play_continues(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    service, _rec, _timers, store = await make_service(path)
    table = await four_people(service)
    match = table.match
    assert match is not None
    for _ in range(9):  # the auction, trump and a few cards
        seat = match.to_act
        assert seat is not None
        await service.act(
            table.id, user_at(table, seat), seat, match.move_number, match.legal_actions()[0]
        )
    moves = [format_action(a) for a in match.actions]
    hands = list(match.deal.hands)
    await service.close()
    await store.close()

    service2, rec2, timers2, store2 = await make_service(path)
    try:
        assert await service2.restore() == [table.id]
        again = service2.get(table.id)
        assert again.match is not None
        assert [format_action(a) for a in again.match.actions] == moves
        assert list(again.match.deal.hands) == hands
        # The turn timer is armed again and play continues.
        assert timers2.pending(f"turn:{table.id}")
        seat = again.match.to_act
        assert seat is not None
        await service2.act(
            table.id,
            user_at(again, seat),
            seat,
            again.match.move_number,
            again.match.legal_actions()[0],
        )
        assert again.match.move_number == len(moves) + 1
        assert rec2.kinds("action")
    finally:
        await service2.close()
        await store2.close()


async def test_lobby_rules(env: Any) -> None:
    service, rec, _timers, _store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice")
    with pytest.raises(ServiceError) as err:
        await service.join(table.id, ALICE, "Alice")
    assert err.value.key == "error.already_seated"
    await service.join(table.id, BOB, "Bob")
    with pytest.raises(ServiceError) as err:
        await service.start(table.id, BOB)
    assert err.value.key == "error.host_only"
    await service.leave(table.id, BOB)
    assert table.seats[1].is_empty
    assert service.table_here(CHANNEL, ALICE) is table
    with pytest.raises(ServiceError):
        await service.cancel(table.id, BOB, is_admin=False)
    await service.cancel(table.id, BOB, is_admin=True)
    assert rec.kinds("closed") == [("closed", table.id, "cancelled")]
    assert service.table_here(CHANNEL) is None


async def test_daily_match_once_a_day(env: Any) -> None:
    service, _rec, _timers, store = env
    table = await service.start_daily(GUILD, CHANNEL, ALICE, "Alice")
    match = table.match
    assert match is not None and table.is_daily
    assert match.to_act == 0  # the computers answered at once
    other = await service.start_daily(GUILD, CHANNEL, BOB, "Bob")
    assert other.match is not None
    assert other.match.deal.initial_hands == match.deal.initial_hands  # same deals for all
    assert await service.start_daily(GUILD, CHANNEL, ALICE, "Alice") is table  # resumes
    while not match.is_over:
        assert match.to_act == 0
        await service.act(table.id, ALICE, 0, match.move_number, match.legal_actions()[0])
    result = await store.daily.daily_result(GUILD, ALICE, day="2026-11-30")
    assert result is not None and result.score == match.totals[0]
    with pytest.raises(ServiceError) as err:
        await service.start_daily(GUILD, CHANNEL, ALICE, "Alice")
    assert err.value.key == "error.daily_done"
    board = await store.daily.daily_leaderboard(GUILD, day="2026-11-30")
    assert [r.user_id for r in board] == [ALICE]


async def test_rematch_seats_the_same_people(env: Any) -> None:
    service, _rec, timers, _store = env
    table = await four_people(service)
    match = table.match
    assert match is not None
    await service.leave(table.id, DAVE)  # a computer finishes Dave's match
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        if table.seats[seat].is_bot:
            await timers.advance(1.5)
            continue
        await service.act(
            table.id, user_at(table, seat), seat, match.move_number, match.legal_actions()[0]
        )
    with pytest.raises(ServiceError):
        await service.rematch(table.id, DAVE)  # no longer seated
    again = await service.rematch(table.id, BOB, "Bob")
    assert again.in_lobby and again.host_id == BOB
    assert [s.user_id for s in again.seats] == [ALICE, BOB, CAROL, None]
    assert again.seats[3].is_bot
    with pytest.raises(ServiceError) as err:
        await service.rematch(table.id, ALICE)
    assert err.value.key == "error.rematch_exists"
    await service.start(again.id, BOB)
    assert again.playing


async def test_daily_restored_mid_match(tmp_path: Path) -> None:
    path = tmp_path / "daily.sqlite3"
    service, _rec, _timers, store = await make_service(path)
    table = await service.start_daily(GUILD, CHANNEL, ALICE, "Alice")
    match = table.match
    assert match is not None
    for _ in range(3):
        await service.act(table.id, ALICE, 0, match.move_number, match.legal_actions()[0])
    moves = match.move_number
    await service.close()
    await store.close()
    service2, _rec2, _timers2, store2 = await make_service(path)
    try:
        await service2.restore()
        again = service2.daily_of(GUILD, ALICE)
        assert again is not None and again.match is not None
        assert again.match.move_number == moves and again.match.to_act == 0
        assert await service2.start_daily(GUILD, CHANNEL, ALICE, "Alice") is again
    finally:
        await service2.close()
        await store2.close()


async def test_a_second_writer_is_refused_by_the_move_number(tmp_path: Path) -> None:
    path = tmp_path / "two.sqlite3"
    one, _r1, _t1, store1 = await make_service(path)
    two, _r2, _t2, store2 = await make_service(path)
    try:
        table = await four_people(one)
        await two.restore()
        other = two.get(table.id)
        assert table.match is not None and other.match is not None
        move = table.match.move_number
        action = table.match.legal_actions()[0]
        await one.act(table.id, BOB, 1, move, action)
        with pytest.raises(StaleAction):
            await two.act(table.id, BOB, 1, move, action)
        assert other.match.move_number == move + 1  # reloaded from the log
    finally:
        for service, store in ((one, store1), (two, store2)):
            await service.close()
            await store.close()
