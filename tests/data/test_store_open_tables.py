"""One open table per host, one rematch per finished table: enforced by the store
(unique indexes) however many requests race."""

from __future__ import annotations

import asyncio

import pytest

from data import (
    GameNotFoundError,
    HostHasOpenTableError,
    RematchExistsError,
    Seat,
    SeatError,
    Store,
)

from store_clock import INTEGRITY_ERRORS

HOST = 7


def hosted_by(user: int) -> list[Seat]:
    return [Seat.human(user), Seat(), Seat(), Seat()]


async def test_thirty_concurrent_new_tables_open_one(store: Store) -> None:
    results = await asyncio.gather(
        *(store.games.create_game(1, 10 + i, HOST, {}, seats=hosted_by(HOST)) for i in range(30)),
        return_exceptions=True,
    )
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, HostHasOpenTableError)]
    assert len(made) == 1 and len(refused) == 29
    assert all(e.game_id == made[0].id and e.host_id == HOST for e in refused)
    assert [g.id for g in await store.games.list_games(guild_id=1)] == [made[0].id]


async def test_two_connections_racing(db_url: str) -> None:
    """Two bot processes (two connections) cannot both open a table for one host."""
    path = db_url
    a = await Store.open(path, housekeeping=None)
    b = await Store.open(path, housekeeping=None)
    try:
        results = await asyncio.gather(
            *(s.games.create_game(1, 2, HOST, {}, seats=hosted_by(HOST)) for s in (a, b) * 5),
            return_exceptions=True,
        )
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert sum(isinstance(r, HostHasOpenTableError) for r in results) == 9
    finally:
        await a.close()
        await b.close()


async def test_the_claim_ends_with_the_table_or_the_seat(store: Store) -> None:
    first = await store.games.create_game(1, 2, HOST, {}, seats=hosted_by(HOST))
    with pytest.raises(HostHasOpenTableError, match=f"open table {first.id}"):
        await store.games.create_game(1, 3, HOST, {}, seats=hosted_by(HOST))
    # another server, a daily match, or a table the host does not sit at: not limited
    await store.games.create_game(2, 3, HOST, {}, seats=hosted_by(HOST))
    await store.games.create_game(
        1, 3, HOST, {}, kind="daily", status="playing", seats=hosted_by(HOST)
    )
    await store.games.create_game(1, 3, HOST, {}, seats=hosted_by(8))
    await store.games.cancel_game(first.id)
    second = await store.games.create_game(
        1, 3, HOST, {}, seats=hosted_by(HOST)
    )  # closed: free again
    # away (a computer plays for the host) still hosts; leaving the seat ends it
    await store.games.set_seat(second.id, 0, Seat(HOST, "normal"), expected=Seat.human(HOST))
    with pytest.raises(HostHasOpenTableError):
        await store.games.create_game(1, 4, HOST, {}, seats=hosted_by(HOST))
    await store.games.leave_game(second.id, HOST)
    third = await store.games.create_game(1, 4, HOST, {}, seats=hosted_by(HOST))
    # finishing a match frees the host too
    await store.games.join_game(third.id, 8)
    await store.games.finish_game(third.id)
    await store.games.create_game(1, 4, HOST, {}, seats=hosted_by(HOST))


async def _finished(store: Store) -> int:
    g = await store.games.create_game(1, 2, HOST, {}, seats=hosted_by(HOST))
    await store.games.finish_game(g.id)
    return g.id


async def test_many_rematch_presses_make_one_lobby(store: Store) -> None:
    old = await _finished(store)
    # four people press Rematch at once (each would host the new lobby)
    results = await asyncio.gather(
        *(
            store.games.create_game(1, 2, user, {}, seats=hosted_by(user), rematch_of=old)
            for user in (7, 8, 9, 10, 7, 8)
        ),
        return_exceptions=True,
    )
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, RematchExistsError)]
    assert len(made) == 1 and len(refused) == 5
    assert made[0].rematch_of == old
    assert all(e.game_id == made[0].id and e.rematch_of == old for e in refused)
    # still one, after the rematch lobby closes too
    await store.games.cancel_game(made[0].id)
    with pytest.raises(RematchExistsError):
        await store.games.create_game(1, 2, 8, {}, seats=hosted_by(8), rematch_of=old)


async def test_rematch_needs_a_finished_table(store: Store) -> None:
    live = await store.games.create_game(1, 2, HOST, {}, seats=hosted_by(HOST))
    with pytest.raises(ValueError, match="only a finished table"):
        await store.games.create_game(1, 2, 8, {}, seats=hosted_by(8), rematch_of=live.id)
    with pytest.raises(GameNotFoundError):
        await store.games.create_game(1, 2, 8, {}, seats=hosted_by(8), rematch_of=999)
    assert [g.id for g in await store.games.list_games(status=None)] == [live.id]  # nothing added


async def test_the_indexes_hold_without_the_checks(store: Store) -> None:
    """The checks in create_game give the clear errors; the unique indexes are what
    makes a second claim impossible even for a writer that skips them."""
    old = await _finished(store)
    a = await store.games.create_game(1, 2, HOST, {}, seats=hosted_by(HOST))
    b = await store.games.create_game(1, 2, 8, {}, seats=hosted_by(8))
    with pytest.raises(INTEGRITY_ERRORS, match=r"(?i)unique"):
        async with store.database.tx() as db:
            await db.execute("UPDATE games SET hosting = ? WHERE id = ?", (HOST, b.id))
    await store.games.create_game(1, 2, 9, {}, seats=hosted_by(9), rematch_of=old)
    with pytest.raises(INTEGRITY_ERRORS, match=r"(?i)unique"):
        async with store.database.tx() as db:
            await db.execute("UPDATE games SET rematch_of = ? WHERE id = ?", (old, a.id))


async def test_a_new_host_takes_the_claim_unless_they_host_another_table(store: Store) -> None:
    game = await store.games.create_game(1, 2, HOST, {}, seats=hosted_by(HOST))
    await store.games.join_game(game.id, 8)
    await store.games.join_game(game.id, 9)
    with pytest.raises(SeatError):
        await store.games.set_host(game.id, 99)  # not seated: refused, nothing changes
    await store.games.leave_game(game.id, HOST)
    moved = await store.games.set_host(game.id, 8)
    assert moved.host_id == 8
    with pytest.raises(HostHasOpenTableError, match=f"open table {game.id}"):
        await store.games.create_game(1, 3, 8, {}, seats=hosted_by(8))  # 8 holds its claim now
    # 9 already hosts a table of the server: hosts this one too, the claim stays there
    own = await store.games.create_game(1, 4, 9, {}, seats=[Seat(), Seat(), Seat(), Seat.human(9)])
    assert (await store.games.set_host(game.id, 9)).host_id == 9
    with pytest.raises(HostHasOpenTableError, match=f"open table {own.id}"):
        await store.games.create_game(1, 5, 9, {}, seats=hosted_by(9))
    await store.games.create_game(1, 5, 8, {}, seats=hosted_by(8))  # 8 is free again
