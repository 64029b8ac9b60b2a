"""store.tournaments: sign-ups, rounds, table results, the winner; what a restart finds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from data import (
    AlreadySignedUpError,
    InvalidSettingError,
    NotSignedUpError,
    RoundStartedError,
    Seat,
    SignupClosedError,
    Store,
    TournamentClosedError,
    TournamentError,
    TournamentNotFoundError,
)

from store_clock import Clock

CLOCK_START = datetime(2026, 6, 1, 18, 0, tzinfo=UTC)


async def _new(store: Store, guild: int = 1) -> int:
    t = await store.tournaments.create(
        guild, 50, 900, rounds=None, pace="live", round_deadline_s=3600, settings={"deals": 1}
    )
    assert t.status == "signup" and t.current_round == 0 and t.rounds is None
    return t.id


async def test_sign_up_once_withdraw_and_order(store: Store) -> None:
    tid = await _new(store)
    for uid in (30, 10, 20):
        await store.tournaments.sign_up(tid, uid, f"p{uid}")
    with pytest.raises(AlreadySignedUpError):
        await store.tournaments.sign_up(tid, 10, "again")
    assert [e.user_id for e in await store.tournaments.entrants(tid)] == [30, 10, 20]
    # before round 1 a withdrawal removes the sign-up; signing up again goes last
    assert await store.tournaments.withdraw(tid, 30) is None
    with pytest.raises(NotSignedUpError):
        await store.tournaments.withdraw(tid, 30)
    await store.tournaments.sign_up(tid, 30, "p30")
    assert [e.user_id for e in await store.tournaments.entrants(tid)] == [10, 20, 30]
    with pytest.raises(TournamentNotFoundError):
        await store.tournaments.sign_up(999, 1, "x")
    with pytest.raises(TournamentNotFoundError):
        await store.tournaments.get(tid, guild_id=2)  # another server's


async def test_rounds_results_and_the_winner(store: Store, clock: Clock) -> None:
    tid = await _new(store)
    for uid in range(1, 6):
        await store.tournaments.sign_up(tid, uid, None)
    deadline = clock.now + timedelta(hours=1)
    t = await store.tournaments.start_round(
        tid, 1, [(1, 2, 3, None), (4, 5, None, None)], deadline_at=deadline, rounds=2
    )
    assert (t.status, t.current_round, t.rounds) == ("running", 1, 2)
    assert t.round_deadline_at is not None and t.round_deadline_at.startswith("2026-06-01T19:00")
    with pytest.raises(RoundStartedError) as err:
        await store.tournaments.start_round(tid, 1, [(1, 2, None, None)], deadline_at=deadline)
    assert err.value.current == 1
    with pytest.raises(SignupClosedError):
        await store.tournaments.sign_up(tid, 6, None)
    with pytest.raises(TournamentError, match="not over"):
        await store.tournaments.start_round(tid, 2, [(1, 2, None, None)], deadline_at=deadline)
    # a table's game, and its result recorded once
    game = await store.games.create_game(
        1, 50, 1, {}, seats=[Seat.human(1), Seat.human(2), Seat.human(3), Seat.bot("normal")],
        kind="tournament", status="playing", phase="auction", to_act=0,
    )  # fmt: skip
    assert game.kind == "tournament"
    await store.tournaments.set_table_game(tid, 1, 1, game.id)
    found = await store.tournaments.table_of_game(game.id)
    assert found is not None and (found.round_no, found.table_no) == (1, 1)
    assert found.players == (1, 2, 3, None) and not found.finished
    assert await store.tournaments.record_table(tid, 1, 1, [1, 2, 3, 4], [40, 20, 0, -5])
    assert not await store.tournaments.record_table(tid, 1, 1, [4, 3, 2, 1], [0, 0, 0, 0])
    assert await store.tournaments.record_table(tid, 1, 2, [2, 1, 3, 4], [10, 30, 0, 0])
    tables = await store.tournaments.tables(tid, 1)
    assert [(x.placements, x.totals) for x in tables] == [
        ((1, 2, 3, 4), (40, 20, 0, -5)),
        ((2, 1, 3, 4), (10, 30, 0, 0)),
    ]
    # a withdrawal during the tournament keeps the line, marked with the round
    withdrawn = await store.tournaments.withdraw(tid, 5)
    assert withdrawn is not None and withdrawn.withdrawn_round == 1 and not withdrawn.active
    with pytest.raises(NotSignedUpError):
        await store.tournaments.withdraw(tid, 5)
    t = await store.tournaments.start_round(tid, 2, [(1, 2, 3, 4)], deadline_at=deadline)
    assert t.current_round == 2 and len(await store.tournaments.tables(tid)) == 3
    await store.tournaments.mark_round_announced(tid, 1)
    assert (await store.tournaments.mark_round_announced(tid, 0)).announced_round == 1
    await store.tournaments.record_table(tid, 2, 1, [1, 2, 3, 4], [1, 0, 0, 0])
    t, newly = await store.tournaments.finish(tid, 1)
    assert newly and t.status == "finished" and t.winner_id == 1
    t, newly = await store.tournaments.finish(tid, 2)
    assert not newly and t.winner_id == 1  # finished once
    assert [x.id for x in await store.tournaments.unannounced()] == [tid]
    await store.tournaments.mark_final_announced(tid)
    assert await store.tournaments.unannounced() == []
    assert await store.tournaments.wins(1, 1) == 1
    assert await store.tournaments.wins(1, 2) == 0
    assert await store.tournaments.wins(2, 1) == 0
    with pytest.raises(TournamentClosedError):
        await store.tournaments.cancel(tid)
    with pytest.raises(TournamentClosedError):
        await store.tournaments.withdraw(tid, 1)
    assert await store.tournaments.open_tournaments() == []


async def test_cancel_and_the_open_list(store: Store) -> None:
    a = await _new(store, guild=1)
    b = await _new(store, guild=2)
    assert [t.id for t in await store.tournaments.open_tournaments()] == [a, b]
    assert [t.id for t in await store.tournaments.open_tournaments(2)] == [b]
    t = await store.tournaments.cancel(a)
    assert t.status == "cancelled" and t.finished_at is not None
    with pytest.raises(TournamentClosedError):
        await store.tournaments.start_round(a, 1, [(1, 2, None, None)], deadline_at=CLOCK_START)
    with pytest.raises(TournamentNotFoundError):
        await store.tournaments.cancel(12345)
    assert [t.id for t in await store.tournaments.open_tournaments()] == [b]


async def test_it_survives_a_reopen(db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url, clock=clock, housekeeping=None)
    tid = await _new(store)
    await store.tournaments.sign_up(tid, 7, "seven")
    await store.tournaments.sign_up(tid, 8, "eight")
    await store.tournaments.start_round(tid, 1, [(7, 8, None, None)], deadline_at=CLOCK_START)
    await store.close()
    store = await Store.open(db_url, clock=clock, housekeeping=None)
    try:
        t = await store.tournaments.get(tid)
        assert (t.status, t.current_round, t.settings) == ("running", 1, {"deals": 1})
        assert [e.name for e in await store.tournaments.entrants(tid)] == ["seven", "eight"]
        assert [x.players for x in await store.tournaments.tables(tid)] == [(7, 8, None, None)]
    finally:
        await store.close()


async def test_the_organiser_role_setting(store: Store) -> None:
    assert (await store.guild_settings.get_guild_settings(4)).tournament_role is None
    g = await store.guild_settings.update_guild_settings(4, tournament_role=777)
    assert g.tournament_role == 777
    assert (await store.guild_settings.get_guild_settings(4)).tournament_role == 777
    g = await store.guild_settings.update_guild_settings(4, casual_hints=True)
    assert g.tournament_role == 777  # another change keeps it
    g = await store.guild_settings.update_guild_settings(4, tournament_role=None)
    assert (await store.guild_settings.get_guild_settings(4)).tournament_role is None
    with pytest.raises(InvalidSettingError) as err:
        await store.guild_settings.update_guild_settings(4, tournament_role=True)
    assert err.value.code == "role-id"


async def test_the_tournament_bench_runs(store: Store) -> None:
    """python -m data.bench_tournaments, small: its database is what the store reads."""
    from data.bench_tournaments import TOURNAMENTS, populate, queries

    ids = await populate(store, TOURNAMENTS * 6 + 500)
    assert await store.tournaments.wins(1, ids["winner"]) >= 1
    row = await store.tournaments.table_of_game(ids["game"])
    assert row is not None and row.finished
    assert await store.tournaments.game_result(ids["game"]) == ([1, 2, 3, 4], [40, 20, 0, -20])
    assert len(await store.tournaments.open_tournaments()) == 5
    out = await queries(store, ids, 2)
    assert len(out) == 5 and all(ms >= 0 for ms in out.values())
