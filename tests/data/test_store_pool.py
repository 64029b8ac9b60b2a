"""PostgreSQL's pool of connections: transactions run side by side, and a table lock
keeps its connection (the session advisory lock lives on it) for the work inside."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import asyncpg
import pytest

from data import DEFAULT_POOL_SIZE
from data.base import LOCK_TABLE
from data.store import Store

# a guard against a hang only: every wait below ends as soon as the store does its part
HANG = 20.0


CLOCK_START = datetime(2026, 12, 1, 12, tzinfo=UTC)
"""Where this module's ``clock`` (tests/data/conftest.py) starts."""


@pytest.fixture
def pg_url(db_url: str) -> str:
    if not db_url.startswith("postgresql://"):
        pytest.skip("SQLite has one connection, no pool")
    return db_url


@pytest.fixture
async def admin(pg_url: str) -> AsyncIterator[asyncpg.Connection]:
    """A connection of its own to the test's database, to look at the server's locks."""
    conn = await asyncpg.connect(pg_url)
    yield conn
    await conn.close()


async def table_locks(admin: asyncpg.Connection) -> dict[int, int]:
    """The tables whose advisory lock is held in this database, and by which backend."""
    rows = await admin.fetch(
        "SELECT objid, pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND classid = $1 AND database = (SELECT oid FROM pg_database "
        "WHERE datname = current_database())",
        LOCK_TABLE,
    )
    return {int(r["objid"]): int(r["pid"]) for r in rows}


async def backend_pid(store: Store) -> int:
    async with store.database.read():
        return int(await store.database.scalar("SELECT pg_backend_pid()"))


@pytest.mark.parametrize("size", [0, -1, 1001])
async def test_a_bad_pool_size_is_refused(db_url: str, size: int) -> None:
    with pytest.raises(ValueError, match=f"pool_size must be from 1 to 1000, not {size}"):
        await Store.open(db_url, housekeeping=None, pool_size=size)


async def test_the_pool_opens_connections_as_needed(pg_url: str) -> None:
    store = await Store.open(pg_url, housekeeping=None)
    try:
        assert store.database.pool is not None
        assert store.database.pool.get_max_size() == DEFAULT_POOL_SIZE
        assert store.database.pool.get_size() == 1  # one to start with
    finally:
        await store.close()


async def test_transactions_run_side_by_side(pg_url: str, admin: asyncpg.Connection) -> None:
    """A move waiting for a row lock another client holds keeps one connection busy;
    a move at another table commits meanwhile on a second one, and reads go on."""
    store = await Store.open(pg_url, housekeeping=None, pool_size=2)
    try:
        g1 = await store.games.create_game(1, 2, 3, {})
        g2 = await store.games.create_game(1, 2, 4, {})
        tx = admin.transaction()
        await tx.start()
        await admin.execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", g1.id)
        blocked = asyncio.create_task(
            store.games.append_action(g1.id, 0, "a", seat=0, phase="p", to_act=1)
        )
        async with asyncio.timeout(HANG):
            while not await admin.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"
            ):
                await asyncio.sleep(0.01)
        assert await store.games.append_action(g2.id, 0, "b", seat=0, phase="p", to_act=1) == 1
        # reads meanwhile are plain reads (the write's row lock is its connection's own)
        assert (await store.games.load_game(g1.id)).move == 0
        assert (await store.games.load_game(g2.id)).actions == ("b",)
        assert not blocked.done()
        await tx.commit()
        assert await asyncio.wait_for(blocked, HANG) == 1
    finally:
        await store.close()


async def test_a_table_lock_works_on_its_own_connection(
    pg_url: str, admin: asyncpg.Connection
) -> None:
    store = await Store.open(pg_url, housekeeping=None, pool_size=3)
    try:
        g = await store.games.create_game(1, 2, 3, {})
        async with store.locks.table_lock(g.id):
            pid = await backend_pid(store)
            assert await table_locks(admin) == {g.id: pid}
            # the work inside runs on the lock's connection
            assert await store.games.append_action(g.id, 0, "a", seat=0, phase="p", to_act=1) == 1
            assert (await store.games.load_game(g.id)).actions == ("a",)
            assert await backend_pid(store) == pid
        assert await table_locks(admin) == {}  # unlocked before going back to the pool
        assert store.database.bound.get() is None
    finally:
        await store.close()


async def test_a_pool_of_one_never_starves_a_lock_holder(pg_url: str) -> None:
    """The lock's connection is the only one: the work inside must not need another."""
    store = await Store.open(pg_url, housekeeping=None, pool_size=1)
    try:
        g = await store.games.create_game(1, 2, 3, {})

        async def play(tag: str) -> None:
            async with store.locks.table_lock(g.id):
                game = await store.games.load_game(g.id)
                await store.games.append_action(g.id, game.move, tag, seat=0, phase="p", to_act=1)

        await asyncio.wait_for(asyncio.gather(*(play(f"m{i}") for i in range(5))), HANG)
        assert (await store.games.load_game(g.id)).move == 5
    finally:
        await store.close()


async def test_many_tables_locked_at_once_share_a_small_pool(
    pg_url: str, admin: asyncpg.Connection
) -> None:
    """More tables in play than connections: each lock waits its turn for one."""
    store = await Store.open(pg_url, housekeeping=None, pool_size=2)
    try:
        games = [await store.games.create_game(1, 2, 10 + i, {}) for i in range(6)]

        async def play(game_id: int) -> None:
            for move in range(3):
                async with store.locks.table_lock(game_id):
                    await store.games.append_action(game_id, move, "x", seat=0, phase="p", to_act=1)

        await asyncio.wait_for(asyncio.gather(*(play(g.id) for g in games)), HANG)
        assert [(await store.games.load_game(g.id)).move for g in games] == [3] * 6
        assert await table_locks(admin) == {}
        assert store.database.pool is not None and store.database.pool.get_size() <= 2
    finally:
        await store.close()


async def test_nested_table_locks_share_one_connection(
    pg_url: str, admin: asyncpg.Connection
) -> None:
    store = await Store.open(pg_url, housekeeping=None, pool_size=1)
    try:
        g1 = await store.games.create_game(1, 2, 3, {})
        g2 = await store.games.create_game(1, 2, 4, {})
        async with store.locks.table_lock(g1.id):
            async with store.locks.table_lock(g2.id):
                pid = await backend_pid(store)
                assert await table_locks(admin) == {g1.id: pid, g2.id: pid}
                await store.games.append_action(g2.id, 0, "b", seat=0, phase="p", to_act=1)
            assert await table_locks(admin) == {g1.id: pid}
            await store.games.append_action(g1.id, 0, "a", seat=0, phase="p", to_act=1)
        assert await table_locks(admin) == {}
    finally:
        await store.close()


async def test_a_task_started_under_a_lock_outlives_it(pg_url: str) -> None:
    """A task started inside the lock shares its connection while the lock is held;
    once the lock (and its connection) are gone, it borrows one of its own."""
    store = await Store.open(pg_url, housekeeping=None, pool_size=2)
    try:
        g = await store.games.create_game(1, 2, 3, {})
        go = asyncio.Event()

        async def later() -> str:
            await go.wait()
            return (await store.games.get_game(g.id)).status

        async with store.locks.table_lock(g.id):
            task = asyncio.create_task(later())
            await asyncio.sleep(0)
        go.set()
        assert await asyncio.wait_for(task, HANG) == "lobby"
    finally:
        await store.close()


async def test_a_cancelled_wait_for_a_lock_leaves_nothing_behind(
    pg_url: str, admin: asyncpg.Connection
) -> None:
    holder = await Store.open(pg_url, housekeeping=None)
    waits: list[float] = []
    parked = asyncio.Event()

    async def sleep(delay: float) -> None:
        waits.append(delay)
        if len(waits) < 3:
            await asyncio.sleep(0)
            return
        # The third wait parks until cancelled: with a sleep that returned at once, the
        # waiter could run out of tries (StoreBusyError) before the test cancelled it.
        parked.set()
        await asyncio.Event().wait()

    waiter = await Store.open(pg_url, housekeeping=None, pool_size=1, sleep=sleep)
    try:
        g = await holder.games.create_game(1, 2, 3, {})

        async def wait_for_it() -> None:
            async with waiter.locks.table_lock(g.id):
                pytest.fail("entered a locked table")

        async with holder.locks.table_lock(g.id):
            task = asyncio.create_task(wait_for_it())
            await asyncio.wait_for(parked.wait(), HANG)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert set((await table_locks(admin)).values()) == {await backend_pid(holder)}
        assert await table_locks(admin) == {}
        assert waiter.locks._table_locks == {}
        async with waiter.locks.table_lock(g.id):  # the waiter's one connection is free again
            assert await waiter.games.append_action(g.id, 0, "a", seat=0, phase="p", to_act=1) == 1
    finally:
        await holder.close()
        await waiter.close()
