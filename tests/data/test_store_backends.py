"""What differs by backend: the table lock across connections, PostgreSQL's schema
version and refusals, the integrity check, and one schema description for both."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import asyncpg
import pytest

from data import NotABatakDatabaseError, SchemaTooNewError, StoreBusyError, StoreError
from data.base import TABLE_LOCK_DELAYS, to_numbered
from data.schema import LATEST_VERSION, MIGRATIONS, SqliteOnly, for_dialect
from data.store import Store

CLOCK_START = datetime(2026, 12, 1, 12, tzinfo=UTC)
"""Where this module's ``clock`` (tests/data/conftest.py) starts."""


class FakeSleep:
    """Records the waits; lets other tasks run instead of sleeping."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.gate: asyncio.Event | None = None  # when set up: the third wait lasts until it opens

    async def __call__(self, delay: float) -> None:
        self.waits.append(delay)
        await asyncio.sleep(0)
        if self.gate is not None and len(self.waits) >= 3:
            await self.gate.wait()


@pytest.fixture
async def two(db_url: str) -> AsyncIterator[tuple[Store, Store, FakeSleep]]:
    """Two stores on one database: two bot processes' worth of connections."""
    sleep = FakeSleep()
    a = await Store.open(db_url, housekeeping=None)
    b = await Store.open(db_url, housekeeping=None, sleep=sleep)
    yield a, b, sleep
    await a.close()
    await b.close()


async def test_table_lock_serialises_one_process(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    order: list[str] = []

    async def turn(tag: str) -> None:
        async with store.locks.table_lock(g.id):
            order.append(f"{tag} in")
            await asyncio.sleep(0.01)
            order.append(f"{tag} out")

    await asyncio.gather(turn("a"), turn("b"), turn("c"))
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]
    assert store.locks._table_locks == {}  # nothing left behind


async def test_table_lock_holds_across_connections(
    two: tuple[Store, Store, FakeSleep],
) -> None:
    a, b, sleep = two
    if a.dialect == "sqlite":
        pytest.skip("SQLite serves one process; its table lock is per store")
    g = await a.games.create_game(1, 2, 3, {})
    other = await a.games.create_game(2, 2, 3, {})
    entered = asyncio.Event()
    sleep.gate = released = asyncio.Event()

    async def second() -> None:
        async with b.locks.table_lock(g.id):
            entered.set()

    async with a.locks.table_lock(g.id):
        task = asyncio.create_task(second())
        while len(sleep.waits) < 3:  # b keeps trying...
            await asyncio.sleep(0.005)
        assert not entered.is_set()
        async with b.locks.table_lock(other.id):  # ... while another table is free
            pass
        # the row lock of a write is independent: a move still commits meanwhile
        assert await b.games.append_action(g.id, 0, "bid 5", seat=0, phase="p", to_act=1) == 1
    released.set()
    await asyncio.wait_for(task, 10)
    assert entered.is_set()


async def test_table_lock_gives_up_with_a_clear_error(
    two: tuple[Store, Store, FakeSleep],
) -> None:
    a, b, sleep = two
    if a.dialect == "sqlite":
        pytest.skip("SQLite serves one process; its table lock is per store")
    g = await a.games.create_game(1, 2, 3, {})
    async with a.locks.table_lock(g.id):
        with pytest.raises(StoreBusyError, match=f"table {g.id} stayed locked"):
            async with b.locks.table_lock(g.id):
                pytest.fail("entered a locked table")
    assert sleep.waits == list(TABLE_LOCK_DELAYS)
    async with b.locks.table_lock(g.id):  # free again
        pass


async def test_a_dead_holder_releases_the_table(db_url: str) -> None:
    """A process killed inside table_lock: its connection goes, and so does the lock."""
    a = await Store.open(db_url, housekeeping=None)
    b = await Store.open(db_url, housekeeping=None, sleep=FakeSleep())
    try:
        g = await a.games.create_game(1, 2, 3, {})
        held = a.locks.table_lock(g.id)
        await held.__aenter__()  # and never leaves: the process dies holding it
        if a.database.pool is not None:
            a.database.pool.terminate()  # every connection of the process goes
        else:
            await a.database.conn.close()
        async with b.locks.table_lock(g.id):
            assert await b.games.append_action(g.id, 0, "x", seat=0, phase="p", to_act=1) == 1
    finally:
        await b.close()


async def test_integrity_check_is_ok_on_a_healthy_database(store: Store) -> None:
    assert await store.maintenance.integrity_check() == "ok"


async def test_postgres_schema_version_and_refusals(db_url: str) -> None:
    if not db_url.startswith("postgresql://"):
        pytest.skip("PostgreSQL's schema table (SQLite: test_store_migrations)")
    store = await Store.open(db_url, housekeeping=None)
    assert store.schema_version == LATEST_VERSION and store.dialect == "postgresql"
    async with store.database.tx() as db:
        await db.execute("UPDATE batak_schema SET version = ?", (LATEST_VERSION + 1,))
    await store.close()
    with pytest.raises(SchemaTooNewError, match="newer batak-bot"):
        await Store.open(db_url, housekeeping=None)
    raw = await asyncpg.connect(db_url)
    try:
        await raw.execute("DROP TABLE batak_schema")
    finally:
        await raw.close()
    with pytest.raises(NotABatakDatabaseError, match="not batak-bot's"):
        await Store.open(db_url, housekeeping=None)


async def test_opening_a_postgres_migration_twice_at_once(db_url: str) -> None:
    """Two processes starting on a new database: one migrates, the other waits for it."""
    stores = await asyncio.gather(*(Store.open(db_url, housekeeping=None) for _ in range(3)))
    try:
        assert [s.schema_version for s in stores] == [LATEST_VERSION] * 3
        g = await stores[0].games.create_game(1, 2, 3, {})
        assert (await stores[2].games.get_game(g.id)).id == g.id
    finally:
        for s in stores:
            await s.close()


async def test_unreachable_postgres_is_one_clear_error() -> None:
    with pytest.raises(
        StoreError, match=r"cannot connect to postgresql://u:\*\*\*@127\.0\.0\.1:1/x"
    ):
        await Store.open("postgresql://u:secret@127.0.0.1:1/x", housekeeping=None)


def test_one_schema_description_for_both() -> None:
    games = for_dialect(MIGRATIONS[0][1], "postgresql")
    assert games is not None
    assert "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in games
    assert "guild_id          BIGINT NOT NULL" in games
    seats = for_dialect(MIGRATIONS[0][6], "postgresql")
    assert seats is not None and "WITHOUT ROWID" not in seats
    assert for_dialect(MIGRATIONS[0][1], "sqlite") == MIGRATIONS[0][1]
    repairs = [s for m in MIGRATIONS for s in m if isinstance(s, SqliteOnly)]
    assert repairs and all(for_dialect(s, "postgresql") is None for s in repairs)


def test_placeholders_are_numbered_outside_quotes() -> None:
    assert to_numbered("SELECT ? , '?' , \"a?\" , ?") == "SELECT $1 , '?' , \"a?\" , $2"
