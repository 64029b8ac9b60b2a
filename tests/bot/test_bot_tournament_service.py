"""Tournaments without Discord: the table service on a fake clock, a real SQLite file;
rounds paired and played, withdrawals, the deadline, refusals, a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from test_bot_service import GUILD, Recorder, make_service, play_out

from data import Seat, Store
from tables import ServiceError, TableService
from tables.listener import Listeners
from tables.timers import FakeTimers
from tables.tournament import (
    RoundFinished,
    RoundStarted,
    TournamentEvent,
    TournamentFinished,
    TournamentService,
)

CHANNEL = 2000
ORGANISER = 500
PEOPLE = list(range(101, 109))


class Told:
    def __init__(self) -> None:
        self.events: list[TournamentEvent] = []
        self.wins: list[tuple[int, int, datetime, int]] = []

    async def on_tournament(self, event: TournamentEvent) -> None:
        self.events.append(event)

    async def grant(self, guild_id: int, player: int, when: datetime, tid: int) -> None:
        self.wins.append((guild_id, player, when, tid))

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


async def _wire(
    service: TableService, timers: FakeTimers, rec: Recorder
) -> tuple[TournamentService, Told]:
    told = Told()
    tours = TournamentService(
        service, timers=timers, listener=told, clock=lambda: 1_800_000_000 + timers.now
    )
    tours.on_win = told.grant
    service.listener = Listeners(rec, tours)
    return tours, told


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[TableService, FakeTimers, Store, Path]]:
    service, _rec, timers, store = await make_service(tmp_path / "t.sqlite3")
    yield service, timers, store, tmp_path / "t.sqlite3"
    await service.close()
    await store.close()


async def _play_round(service: TableService, timers: FakeTimers, ids: tuple[int, ...]) -> None:
    for gid in ids:
        table = service.tables.get(gid)
        if table is not None:
            await play_out(service, timers, table)


async def test_eight_people_three_rounds_a_withdrawal_and_the_winner(
    world: tuple[TableService, FakeTimers, Store, Path],
) -> None:
    service, timers, store, _ = world
    tours, told = await _wire(service, timers, Recorder())
    board = await tours.create(GUILD, CHANNEL, ORGANISER, deals=1)
    tid = board.tournament.id
    # refusals: unknown tournament, 0 and 1 player, a non-organiser, signing up twice
    with pytest.raises(ServiceError) as err:
        await tours.sign_up(tid + 99, GUILD, 1, "x")
    assert err.value.key == "tournament.error.unknown"
    with pytest.raises(ServiceError) as err:
        await tours.start(tid, GUILD, ORGANISER, is_admin=False)
    assert (err.value.key, err.value.params) == ("tournament.error.too_few", {"count": 0})
    await tours.sign_up(tid, GUILD, PEOPLE[0], "P0")
    with pytest.raises(ServiceError) as err:
        await tours.start(tid, GUILD, ORGANISER, is_admin=False)
    assert err.value.params == {"count": 1}
    for i, uid in enumerate(PEOPLE[1:], 1):
        await tours.sign_up(tid, GUILD, uid, f"P{i}")
    with pytest.raises(ServiceError) as err:
        await tours.sign_up(tid, GUILD, PEOPLE[3], "P3")
    assert err.value.key == "tournament.error.already_signed_up"
    with pytest.raises(ServiceError) as err:
        await tours.start(tid, GUILD, PEOPLE[0], is_admin=False)
    assert err.value.key == "tournament.error.organiser_only"
    with pytest.raises(ServiceError) as err:
        await tours.start(tid, GUILD + 1, ORGANISER, is_admin=True)  # another server
    assert err.value.key == "tournament.error.unknown"

    board = await tours.start(tid, GUILD, ORGANISER, is_admin=False)
    assert board.tournament.rounds == 3 and board.tournament.current_round == 1
    with pytest.raises(ServiceError) as err:
        await tours.start(tid, GUILD, ORGANISER, is_admin=False)
    assert (err.value.key, err.value.params) == ("tournament.error.round_started", {"round": 1})
    with pytest.raises(ServiceError) as err:
        await tours.sign_up(tid, GUILD, 999, "late")
    assert err.value.key == "tournament.error.signup_closed"

    first = told.of(RoundStarted)[-1]
    assert first.round_no == 1 and len(first.table_ids) == 2
    for gid in first.table_ids:
        t = service.get(gid)
        assert t.kind == "tournament" and all(s.user_id in PEOPLE for s in t.seats)
    await _play_round(service, timers, first.table_ids)
    assert [e.round_no for e in told.of(RoundFinished)] == [1]
    second = told.of(RoundStarted)[-1]
    assert second.round_no == 2 and len(second.table_ids) == 2
    r1 = [frozenset(s.user_id for s in service.finished[g].seats) for g in first.table_ids]
    r2 = [frozenset(s.user_id for s in service.get(g).seats) for g in second.table_ids]
    for a in r2:  # round 2 splits each table of round 1 in two halves
        assert all(len(a & b) == 2 for b in r1)

    # someone withdraws after round 1: a computer plays their seat; they are paired no more
    quitter = next(iter(r2[0]))
    assert quitter is not None
    await tours.withdraw(tid, GUILD, quitter)
    table = service.get(second.table_ids[0])
    assert table.seat_of(quitter) is None
    with pytest.raises(ServiceError) as err:
        await tours.withdraw(tid, GUILD, quitter)
    assert err.value.key == "tournament.error.not_signed_up"
    await _play_round(service, timers, second.table_ids)
    third = told.of(RoundStarted)[-1]
    assert third.round_no == 3
    seated = [[s.user_id for s in service.get(g).seats] for g in third.table_ids]
    assert sorted(len([u for u in s if u is not None]) for s in seated) == [3, 4]
    assert quitter not in {u for s in seated for u in s}
    assert [u for s in seated for u in s if u is None] == [None]  # one computer fills
    await _play_round(service, timers, third.table_ids)

    assert [e.round_no for e in told.of(RoundFinished)] == [1, 2, 3]
    (final,) = told.of(TournamentFinished)
    lines = final.board.standings
    assert final.winner_id == lines[0].player and lines[0].rank == 1
    assert [line.tables for line in lines if line.player == quitter] == [2]
    assert sum(line.tables for line in lines) == 8 + 8 + 7
    assert told.wins == [(GUILD, final.winner_id, told.wins[0][2], tid)]
    assert await store.tournaments.wins(GUILD, final.winner_id) == 1
    t = await store.tournaments.get(tid)
    assert (t.status, t.winner_id, t.announced_round) == ("finished", final.winner_id, 3)
    # no pair of people sat together in all three rounds
    met: dict[frozenset[int], int] = {}
    for row in await store.tournaments.tables(tid):
        for a, b in combinations([p for p in row.players if p is not None], 2):
            met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    assert max(met.values()) <= 2


async def test_the_deadline_lets_the_computers_finish(tmp_path: Path) -> None:
    # turn timers longer than the round: only the round's deadline ends the table
    service, _rec, timers, store = await make_service(
        tmp_path / "d.sqlite3", turn_timeout_override=10_000.0
    )
    try:
        await _deadline(service, timers)
    finally:
        await service.close()
        await store.close()


async def _deadline(service: TableService, timers: FakeTimers) -> None:
    tours, told = await _wire(service, timers, Recorder())
    board = await tours.create(GUILD, CHANNEL, ORGANISER, rounds=1, deadline_s=600, deals=1)
    tid = board.tournament.id
    for uid in PEOPLE[:2]:
        await tours.sign_up(tid, GUILD, uid, str(uid))
    await tours.start(tid, GUILD, ORGANISER, is_admin=True)
    (started,) = told.of(RoundStarted)
    (gid,) = started.table_ids
    assert service.get(gid).seats[2].is_bot and service.get(gid).seats[3].is_bot
    await timers.advance(599)  # nobody plays
    assert told.of(TournamentFinished) == [] and gid in service.tables
    await timers.advance(2)
    await timers.run_until_idle()
    (final,) = told.of(TournamentFinished)
    assert final.winner_id in PEOPLE[:2]
    summary = service.finished[gid].summary
    assert summary is not None and summary.computers_finished
    assert {p.user_id for p in summary.players} >= set(PEOPLE[:2])


async def test_cancel_by_the_organiser_only(
    world: tuple[TableService, FakeTimers, Store, Path],
) -> None:
    service, timers, _store, _ = world
    tours, told = await _wire(service, timers, Recorder())
    tid = (await tours.create(GUILD, CHANNEL, ORGANISER, deals=1)).tournament.id
    for uid in PEOPLE[:5]:
        await tours.sign_up(tid, GUILD, uid, str(uid))
    await tours.start(tid, GUILD, ORGANISER, is_admin=False)
    (started,) = told.of(RoundStarted)
    people = [[s for s in service.get(g).seats if s.user_id] for g in started.table_ids]
    assert sorted(len(p) for p in people) == [2, 3]
    # the person in a tournament table's host seat neither cancels it nor removes anyone,
    # and may still open a table of their own
    gid = started.table_ids[0]
    host = service.get(gid).host_id
    other = next(s.user_id for s in service.get(gid).seats if s.user_id not in (None, host))
    assert other is not None
    for attempt in (
        service.cancel(gid, host, is_admin=False),
        service.kick(gid, host, other, is_admin=False),
    ):
        with pytest.raises(ServiceError) as err:
            await attempt
        assert err.value.key == "tournament.error.organiser_only"
    assert service.hosted_by(GUILD, host) is None
    with pytest.raises(ServiceError) as err:
        await tours.cancel(tid, GUILD, PEOPLE[0], is_admin=False)
    assert err.value.key == "tournament.error.organiser_only"
    board = await tours.cancel(tid, GUILD, ORGANISER, is_admin=False)
    assert board.tournament.status == "cancelled"
    assert all(g not in service.tables for g in started.table_ids)
    with pytest.raises(ServiceError) as err:
        await tours.cancel(tid, GUILD, ORGANISER, is_admin=False)
    assert err.value.key == "tournament.error.closed"


async def test_a_restart_picks_the_tournament_up(
    world: tuple[TableService, FakeTimers, Store, Path],
) -> None:
    service, timers, store, _ = world
    tours, told = await _wire(service, timers, Recorder())
    tid = (await tours.create(GUILD, CHANNEL, ORGANISER, rounds=2, deals=1)).tournament.id
    for uid in PEOPLE[:4]:
        await tours.sign_up(tid, GUILD, uid, str(uid))
    await tours.start(tid, GUILD, ORGANISER, is_admin=False)
    (started,) = told.of(RoundStarted)
    # the round's table ends while nobody listens for it (the process "died" before)
    service.listener = Recorder()
    await _play_round(service, timers, started.table_ids)
    assert told.of(RoundFinished) == []
    # a new process on the same database: tables restored, then the tournaments
    fresh = TableService(store, timers=FakeTimers(), config=service.config)
    await fresh.restore()
    assert isinstance(fresh.timers, FakeTimers)
    tours2, told2 = await _wire(fresh, fresh.timers, Recorder())
    assert await tours2.restore() == [tid]
    assert [e.round_no for e in told2.of(RoundFinished)] == [1]
    (second,) = told2.of(RoundStarted)
    assert second.round_no == 2
    t = await store.tournaments.get(tid)
    assert t.current_round == 2 and t.announced_round == 1
    await fresh.close()


async def test_a_round_stored_without_its_tables_gets_them_at_restart(
    world: tuple[TableService, FakeTimers, Store, Path],
) -> None:
    service, timers, store, _ = world
    tid = (
        await store.tournaments.create(
            GUILD, CHANNEL, ORGANISER, rounds=1, pace="live", round_deadline_s=60,
            settings={"deals": 1},
        )
    ).id  # fmt: skip
    for uid in PEOPLE[:7]:
        await store.tournaments.sign_up(tid, uid, str(uid))
    when = datetime.now(UTC) + timedelta(minutes=1)
    await store.tournaments.start_round(
        tid, 1, [(101, 102, 103, 104), (105, 106, 107, None)], deadline_at=when
    )
    # table 2 was made just before the crash, its link to the round not stored yet
    made = await service.start_tournament_table(
        GUILD, CHANNEL, [Seat.human(u, str(u)) for u in (105, 106, 107)] + [Seat()],
        deals=1, pace="live", link={"id": tid, "round": 1, "table": 2},
    )  # fmt: skip
    tours, told = await _wire(service, timers, Recorder())
    assert await tours.restore() == [tid]
    (started,) = told.of(RoundStarted)
    first, second = started.table_ids
    assert [s.user_id for s in service.get(first).seats] == [101, 102, 103, 104]
    assert second == made.id and len(service.tables) == 2  # adopted, not made twice
    assert [row.game_id for row in await store.tournaments.tables(tid)] == [first, second]
    assert timers.pending(f"tournament:{tid}")
