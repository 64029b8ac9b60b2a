"""``table_lock``: one table held by one task of one process at a time.

Within a process an asyncio lock per table; on PostgreSQL also a session advisory lock,
taken on a connection borrowed from the pool that the holding task keeps (and works
on) until it lets go, so that other processes sharing the database stay out too.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from asyncpg.pool import PoolConnectionProxy

from .base import LOCK_TABLE, TABLE_LOCK_DELAYS, Database, PostgresConnection, _Lease
from .models import StoreBusyError


class TableLockStore:
    """One table held by one task at a time (``store.locks``)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._table_locks: dict[int, tuple[asyncio.Lock, int]] = {}  # lock, users

    @asynccontextmanager
    async def table_lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold table ``game_id`` exclusively for a load-decide-append sequence.

        ``async with store.locks.table_lock(game.id): ...`` — within this process an asyncio
        lock per table; on PostgreSQL also a session advisory lock
        (``pg_advisory_lock(0x4254, game_id)``), so no other process holding the same
        lock applies moves to the table meanwhile (the lock goes with the connection
        if the process dies). The lock's connection stays this task's until the end:
        the reads and writes inside run on it, so a full pool never leaves a lock
        holder waiting for a second connection. The lock is taken by polling
        ``pg_try_advisory_lock`` (the connection goes back to the pool between tries),
        so waiting never blocks other queries; ``StoreBusyError`` after about 12 s.
        ``append_action`` is safe without it (compare-and-set on the move number,
        under the row's lock): this lock only saves doing the work twice.
        """
        lock, users = self._table_locks.get(game_id, (asyncio.Lock(), 0))
        self._table_locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                if self.database.dialect == "postgresql":
                    # the lock's own connection fails like any other: an outage
                    with self.database.watch(write=False):
                        async with self._advisory(int(game_id)):
                            yield
                else:
                    yield
        finally:
            lock, users = self._table_locks[game_id]
            if users == 1:
                del self._table_locks[game_id]  # nobody else waits: forget the lock
            else:
                self._table_locks[game_id] = (lock, users - 1)

    @asynccontextmanager
    async def _advisory(self, game_id: int) -> AsyncIterator[None]:
        """The advisory lock of a table, on the connection this task then keeps."""
        outer = self.database.bound.get()
        if outer is not None and outer.open and outer.tables:
            # inside another table's lock: the same connection takes this one too
            await self._try_lock(outer, game_id)
            outer.tables += 1
            try:
                yield
            finally:
                outer.tables -= 1
                await self._unlock(outer, game_id)
            return
        lease = await self._lease_locked(game_id)
        lease.tables = 1
        token = self.database.bound.set(lease)
        try:
            yield
        finally:
            self.database.bound.reset(token)
            try:
                await self._unlock(lease, game_id)
            finally:
                lease.open = False
                await self._give_back(lease)

    async def _lease_locked(self, game_id: int) -> _Lease:
        """Borrow a connection and take the table's lock on it; between tries the
        connection goes back to the pool."""
        assert self.database.pool is not None
        for delay in (*TABLE_LOCK_DELAYS, None):
            lease = self.database.pg_lease(await self.database.pool.acquire())
            try:
                got = await self._try_lock(lease, game_id, once=True)
            except BaseException:
                lease.open = False
                await self._give_back(lease)
                raise
            if got:
                return lease
            lease.open = False
            await self._give_back(lease)
            if delay is None:
                raise StoreBusyError(f"table {game_id} stayed locked by another process")
            await self.database.sleep(delay)
        raise AssertionError("unreachable")

    async def _try_lock(self, lease: _Lease, game_id: int, *, once: bool = False) -> bool:
        """``pg_try_advisory_lock`` on the lease's connection; polled (as in
        ``_lease_locked``) unless ``once``. If the call fails half-way (cancelled: the
        server may have granted the lock after all), the session is ended, and the
        lock with it."""
        for delay in (None,) if once else (*TABLE_LOCK_DELAYS, None):
            async with lease.lock:
                try:
                    got = await self._scalar_on(
                        lease, "SELECT pg_try_advisory_lock(?, ?)", (LOCK_TABLE, game_id)
                    )
                except BaseException:
                    self._end_session(lease)
                    raise
            if got or once:
                return bool(got)
            if delay is None:
                raise StoreBusyError(f"table {game_id} stayed locked by another process")
            await self.database.sleep(delay)
        return False

    async def _unlock(self, lease: _Lease, game_id: int) -> None:
        async with lease.lock:
            try:
                await self._scalar_on(
                    lease, "SELECT pg_advisory_unlock(?, ?)", (LOCK_TABLE, game_id)
                )
            except BaseException:
                self._end_session(lease)  # never hand a locked session back to the pool
                raise

    @staticmethod
    async def _scalar_on(lease: _Lease, sql: str, args: Sequence[Any]) -> Any:
        async with lease.conn.execute(sql, args) as cur:
            row = await cur.fetchone()
        return None if row is None else row[0]

    @staticmethod
    def _end_session(lease: _Lease) -> None:
        conn = lease.conn
        if isinstance(conn, PostgresConnection):
            conn.raw.terminate()

    async def _give_back(self, lease: _Lease) -> None:
        assert self.database.pool is not None and isinstance(lease.conn, PostgresConnection)
        raw = lease.conn.raw
        if isinstance(raw, PoolConnectionProxy):
            await self.database.pool.release(raw)
