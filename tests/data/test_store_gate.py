"""SQLite's one connection without a queue of its own (``GatedSqliteConnection``).

A statement is one trip to aiosqlite's thread, and a call of one trip (a read, a move's
commit) does not wait in line for the connection: aiosqlite already runs calls one at
a time. Only a transaction of several calls (``tx``, ``snapshot``) holds the connection
alone, and every other call waits at the gate until it is over, so none runs inside it.
These checks decide by what a call saw or whether it finished, never by how long it took.
"""

from __future__ import annotations

import asyncio

import pytest
from test_store_writes import count_trips

from data import Store


@pytest.fixture
def sqlite(store: Store) -> Store:
    if store.dialect != "sqlite":
        pytest.skip("PostgreSQL: a pool of connections, no gate")
    return store


COUNT = "SELECT count(*) FROM bot_state WHERE key = 'gate'"
INSERT = "INSERT INTO bot_state (key, value, updated_at) VALUES ('gate', 'open', 'now')"


class RolledBack(Exception):
    pass


async def test_a_statement_is_one_trip(sqlite: Store) -> None:
    store = sqlite
    g = await store.games.create_game(1, 2, 3, {})
    trips = count_trips(store)
    await store.games.get_game(g.id)
    # the game's row and its seats: one call each (aiosqlite's cursor took three)
    assert trips and all(name == "_statement" for name in trips), trips


async def test_a_read_never_sees_another_tasks_transaction(sqlite: Store) -> None:
    store = sqlite
    """A read started while a transaction of several calls is open runs after it: it
    does not see the row that the transaction wrote and then rolled back."""
    seen: list[int] = []

    async def read() -> None:
        seen.append(await store.database.scalar(COUNT))

    with pytest.raises(RolledBack):
        async with store.database.tx() as db:
            await db.execute(INSERT)
            reader = asyncio.create_task(read())
            await asyncio.sleep(0)  # the reader is at the gate (or, without it, queued)
            await db.execute("SELECT 1")  # a trip: anything queued before it has run
            assert not reader.done()
            raise RolledBack
    await reader
    assert seen == [0]


async def test_a_commit_waits_for_an_open_transaction(sqlite: Store) -> None:
    store = sqlite
    g = await store.games.create_game(1, 2, 3, {})
    async with store.database.snapshot() as db:
        commit = asyncio.create_task(
            store.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
        )
        await asyncio.sleep(0)
        await db.execute("SELECT 1")
        # without the gate its BEGIN IMMEDIATE would have failed inside the snapshot
        assert not commit.done()
    assert await commit == 1
    assert (await store.games.load_game(g.id)).actions == ("bid 5",)


async def test_a_commit_does_not_wait_for_a_read(sqlite: Store) -> None:
    store = sqlite
    """A read holds nothing: a move commits while another task is inside ``read``
    (with the connection held for every read, this waited for the read to end: here,
    for ever)."""
    g = await store.games.create_game(1, 2, 3, {})
    committed = asyncio.Event()

    async def reading() -> int:
        async with store.database.read():
            await committed.wait()
            return int(await store.database.scalar("SELECT move FROM games WHERE id = ?", (g.id,)))

    reader = asyncio.create_task(reading())
    await asyncio.sleep(0)
    await asyncio.wait_for(
        store.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2), 60
    )
    committed.set()
    assert await reader == 1
