"""What every part of the store shares: the connection, its transactions, time and
JSON helpers, and the row lookups of a table that several parts need."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, date, datetime
from typing import Any, Final, TypeVar

import asyncpg

# re-exported: the store's parts name a connection, a row and a dialect from here
from .connections import Connection as Connection
from .connections import Cursor as Cursor
from .connections import Dialect as Dialect
from .connections import GatedSqliteConnection, PgRaw
from .connections import PostgresConnection as PostgresConnection
from .connections import Row as Row
from .connections import SqliteConnection as SqliteConnection
from .connections import to_numbered as to_numbered
from .models import (
    OPEN_STATUSES,
    GameClosedError,
    GameNotFoundError,
    StorageUnavailableError,
    StoreBusyError,
)
from .outage import Outage, outage_reason

log = logging.getLogger("batak.data")

T = TypeVar("T")

ALL_TIME: Final = "all"

# Closing a table (finished or cancelled): no one to act, and its host hosts nothing.
CLOSE_GAME: Final = (
    "UPDATE games SET status = ?, to_act = NULL, hosting = NULL, finished_at = ?, "
    "updated_at = ? WHERE id = ?"
)


class _Keep:
    """Sentinel: leave the stored snapshot as it is."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _utc(dt: datetime) -> datetime:
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def _iso(dt: datetime) -> str:
    return _utc(dt).isoformat(timespec="milliseconds")


def _day(day: str | date | None, now: datetime) -> str:
    if day is None:
        return _utc(now).date().isoformat()
    if isinstance(day, datetime):
        return _utc(day).date().isoformat()
    if isinstance(day, date):
        return day.isoformat()
    return date.fromisoformat(day).isoformat()


def _period(period: str, now: datetime) -> str:
    """'all', 'month' (the current UTC month) or an explicit 'YYYY-MM'."""
    if period == ALL_TIME:
        return ALL_TIME
    if period == "month":
        return _utc(now).strftime("%Y-%m")
    if len(period) == 7 and period[4] == "-" and period[:4].isdigit() and period[5:].isdigit():
        return period
    raise ValueError(f"period must be 'all', 'month' or 'YYYY-MM', not {period!r}")


Sleep = Callable[[float], Awaitable[None]]

# Waits before trying again to start a transaction that found the database locked by
# another connection (after SQLite's own busy timeout): about 3 s more in all.
RETRY_DELAYS: Final = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6)


def is_busy(exc: BaseException) -> bool:
    """SQLITE_BUSY / SQLITE_LOCKED (any extended code): another connection holds a lock."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.OperationalError) and code is not None and code & 0xFF in (5, 6)


# Advisory lock keys: (namespace, id) pairs of pg_advisory_lock(int, int).
LOCK_MIGRATE: Final = 0x4241  # one migrator at a time
LOCK_TABLE: Final = 0x4254  # table_lock(game_id)
LOCK_KEY: Final = 0x424B  # check-then-write sections keyed by a hash (a host, a daily try)
TABLE_LOCK_DELAYS: Final = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0)


class _Lease:
    """A connection as one task uses it: the lock that keeps statements of tasks sharing
    it from interleaving, whether a write transaction is open on it, how many table
    locks it holds, and whether it is still lent to us (a pool's goes back)."""

    __slots__ = ("conn", "in_write", "lock", "open", "tables")

    def __init__(self, conn: Connection, lock: asyncio.Lock | None = None) -> None:
        self.conn = conn
        self.lock = lock or asyncio.Lock()
        self.in_write = False
        self.open = True
        self.tables = 0


class Database:
    """The connection(s) and their transactions, the clock and the dialect: the core
    that every part of the store (``data.store.Store.games``, ``.matches``, ...) holds.

    SQLite: one connection. A transaction of several calls (``tx``, ``snapshot``)
    holds it alone (an asyncio lock, and a gate that every other call waits at: see
    ``GatedSqliteConnection``); reads and ``data.writes.write`` are one call each and
    only queue on the connection's thread, so a move's commit waits for no one's turn
    of the event loop. Two statements of one read may see a commit between them, as on
    PostgreSQL outside a transaction (``snapshot`` when they must agree). PostgreSQL: a
    pool of connections (``pool_size``); each transaction or read borrows one for its
    duration, so several run at once, and a task holding ``table_lock`` keeps the lock's
    connection: its reads and writes run on it (a session advisory lock belongs to one
    connection).

    Writes: on SQLite ``BEGIN IMMEDIATE`` takes the file's one write lock, so a
    transaction's reads stay true until it commits. On PostgreSQL (READ COMMITTED)
    a write transaction locks what its checks read instead: ``game_row`` inside
    ``tx`` is ``SELECT ... FOR UPDATE`` (the table's row), and ``key_lock`` takes a
    transaction-scoped advisory lock for checks on rows that may not exist yet.

    Outages: an error of either backend that means the storage itself is failing (see
    ``data.outage.outage_reason``) leaves ``tx``, ``snapshot`` and ``read`` as
    ``StorageUnavailableError``, and ``outage`` (one per store, so one per process)
    logs when it began and when a call next works.
    """

    def __init__(
        self,
        db: Connection | None,
        path: str,
        clock: Callable[[], datetime],
        sleep: Sleep = asyncio.sleep,
        pool: asyncpg.Pool[asyncpg.Record] | None = None,
    ) -> None:
        if (db is None) == (pool is None):
            raise ValueError("a store has one connection (SQLite) or a pool (PostgreSQL)")
        self.path = path
        self.clock = clock  # what "now" is (tests and the bench pass their own)
        self.sleep = sleep  # what waits between retries (tests pass a fake)
        self._lock = asyncio.Lock()
        self.pool = pool
        self._dialect: Dialect = db.dialect if db is not None else "postgresql"
        # SQLite: the one connection, held alone under self._lock by a transaction of
        # several calls (its task: self._holder) while self._gate is cleared; every
        # other task uses it through the gate (self._shared). The task, not a context
        # variable: a task started inside the transaction is not its holder.
        self._sole = None if db is None else _Lease(db, self._lock)
        self._gate = asyncio.Event()
        self._gate.set()
        self._shared: _Lease | None = None
        if isinstance(db, SqliteConnection):
            self._shared = _Lease(GatedSqliteConnection(db, self._gate))
        self._holder: asyncio.Task[Any] | None = None
        # PostgreSQL: the connection this task (and the tasks it starts) holds, if any
        self.bound: contextvars.ContextVar[_Lease | None] = contextvars.ContextVar(
            f"store connection {id(self):x}", default=None
        )
        self._numbered: dict[str, str] = {}
        self.busy_retries = 0  # transactions started again after "database is locked"
        self.outage = Outage(self.now)

    @property
    def dialect(self) -> Dialect:
        """'sqlite' or 'postgresql'."""
        return self._dialect

    @property
    def conn(self) -> Connection:
        """The connection of the running transaction or read (SQLite: the only one,
        through the gate unless this task holds it alone)."""
        if self._shared is not None and not self._alone():
            return self._shared.conn
        lease = self._sole or self.bound.get()
        if lease is None or not lease.open:
            raise RuntimeError("a pooled store's connection is used inside tx / read only")
        return lease.conn

    def _alone(self) -> bool:
        """SQLite: this task holds the connection alone (a transaction of several calls)."""
        return self._holder is not None and self._holder is asyncio.current_task()

    @property
    def in_write(self) -> bool:
        if self._shared is not None and not self._alone():
            return False  # SQLite: another task's transaction is not ours
        lease = self._sole or self.bound.get()
        return lease is not None and lease.open and lease.in_write

    def now(self) -> datetime:
        return _utc(self.clock())

    async def scalar(self, sql: str, args: Sequence[Any] = ()) -> Any:
        async with self.conn.execute(sql, args) as cur:
            row = await cur.fetchone()
        return None if row is None else row[0]

    async def scalar_row(self, sql: str, args: Sequence[Any]) -> Row | None:
        async with self.conn.execute(sql, args) as cur:
            return await cur.fetchone()

    def pg_lease(self, raw: PgRaw) -> _Lease:
        return _Lease(PostgresConnection(raw, self._numbered))

    @contextmanager
    def watch(self, *, write: bool) -> Iterator[None]:
        """Around one call to the storage: an outage error becomes
        ``StorageUnavailableError`` and is told to ``outage``; so is a call that works."""
        try:
            yield
        except StorageUnavailableError as exc:
            self.outage.failed(exc.reason, write=write)
            raise
        except Exception as exc:
            reason = outage_reason(exc)
            if reason is None:
                raise
            self.outage.failed(reason, write=write)
            raise StorageUnavailableError(reason) from exc
        self.outage.succeeded(write=write)

    @asynccontextmanager
    async def use(self, *, write: bool = False, alone: bool = False) -> AsyncIterator[_Lease]:
        """A connection for one transaction or read: on PostgreSQL the one this task
        holds (its table lock's), else one borrowed from the pool and given back
        afterwards, held alone while it runs. SQLite's one connection: held ``alone``
        (a transaction of several calls), else through the gate (calls of one trip
        each). Watched for outages (:meth:`watch`)."""
        with self.watch(write=write):
            async with self._use(alone) as lease:
                yield lease

    @asynccontextmanager
    async def _use(self, alone: bool) -> AsyncIterator[_Lease]:
        if self._sole is not None and self._shared is not None:  # SQLite
            if self._alone():
                yield self._sole  # this task holds it alone already
            elif not alone:
                yield self._shared
            else:
                async with self._lock:
                    self._gate.clear()
                    self._holder = asyncio.current_task()
                    try:
                        yield self._sole
                    finally:
                        self._holder = None
                        self._gate.set()
            return
        lease = self.bound.get()
        if lease is not None:
            async with lease.lock:
                if lease.open:  # a table lock may have given it back while we waited
                    yield lease
                    return
        assert self.pool is not None
        async with self.pool.acquire() as raw:
            lease = self.pg_lease(raw)
            token = self.bound.set(lease)
            try:
                async with lease.lock:
                    yield lease
            finally:
                lease.open = False
                self.bound.reset(token)

    @asynccontextmanager
    async def tx(self) -> AsyncIterator[Connection]:
        """One write transaction, rolled back on any error.

        SQLite: ``BEGIN IMMEDIATE ... COMMIT``. aiosqlite runs the statements of a
        connection in order, so even when the awaiting task is cancelled half-way, the
        ROLLBACK queued here runs after whatever was already sent, and the connection
        never stays in a transaction. PostgreSQL: ``BEGIN ... COMMIT`` (READ COMMITTED).
        """
        async with self.use(write=True, alone=True) as lease:
            try:
                await self.begin("BEGIN IMMEDIATE" if self.dialect == "sqlite" else "BEGIN")
                lease.in_write = True
                yield lease.conn
                await lease.conn.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise
            finally:
                lease.in_write = False

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Connection]:
        """A read transaction: several SELECTs that see one state of the database."""
        begin = (
            "BEGIN"
            if self.dialect == "sqlite"
            else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        )
        async with self.use(alone=True) as lease:
            try:
                await self.begin(begin)
                yield lease.conn
                await lease.conn.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def begin(self, sql: str) -> None:
        """Start a transaction; when another connection holds the lock past the busy
        timeout, wait and try again (safe: nothing of ours has run yet). Also for other
        statements that are safe to repeat (switching the journal mode)."""
        for delay in (*RETRY_DELAYS, None):
            try:
                await self.conn.execute(sql)
                return
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    raise
                if delay is None:
                    raise StoreBusyError(
                        f"{self.path} stayed locked by another connection through "
                        f"{len(RETRY_DELAYS)} retries (another bot or tool writing to the "
                        f"same file?): {exc}"
                    ) from exc
                self.busy_retries += 1
                log.warning("%s is locked (%s); trying again in %g s", self.path, exc, delay)
                await self.sleep(delay)

    async def _rollback(self) -> None:
        if self.dialect == "sqlite":
            # OperationalError: no transaction was open (BEGIN failed, or COMMIT went through)
            with contextlib.suppress(sqlite3.OperationalError):
                await self.conn.execute("ROLLBACK")
        else:
            # Unconditionally, as on SQLite: a cancelled BEGIN may still be on its way to
            # the server, so "not in a transaction" now does not mean it stays so. A
            # ROLLBACK outside a transaction is only a warning.
            try:
                await self.conn.execute("ROLLBACK")
            except (asyncpg.InterfaceError, asyncpg.PostgresError, OSError) as exc:
                # The connection is gone (the pool took it back when it closed), and its
                # transaction with it: the error that ended the transaction is the one
                # to report, not this one.
                if outage_reason(exc) is None:
                    raise
                log.debug("%s: no ROLLBACK on a lost connection (%s)", self.path, exc)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        async with self.use() as lease:
            yield lease.conn

    async def key_lock(self, *key: object) -> None:
        """Inside ``tx``: on PostgreSQL, hold an advisory lock on ``key`` until the
        transaction ends, so a check for a row that does not exist yet (the host's open
        table, the player's daily try) stays true until our insert. SQLite's write
        lock already covers it."""
        if self.dialect == "postgresql":
            await self.conn.execute(
                "SELECT pg_advisory_xact_lock(?, hashtext(?))", (LOCK_KEY, repr(key))
            )

    async def game_row(self, game_id: int) -> Row:
        sql = "SELECT * FROM games WHERE id = ?"
        if self.in_write and self.dialect == "postgresql":
            sql += " FOR UPDATE"  # the table's row stays ours until the commit
        async with self.conn.execute(sql, (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise GameNotFoundError(f"no game {game_id}")
        return row

    async def open_row(self, game_id: int) -> Row:
        row = await self.game_row(game_id)
        if row["status"] not in OPEN_STATUSES:
            raise GameClosedError(f"game {game_id} is {row['status']}")
        return row

    async def close(self, pool_wait: float) -> None:
        """Close the connection (SQLite: once the running transaction is done); on
        PostgreSQL the pool, once the connections lent out are back, or after
        ``pool_wait`` seconds (then it drops them)."""
        if self.pool is None:
            assert self._sole is not None
            async with self._lock:
                await self._sole.conn.close()
            return
        try:
            await asyncio.wait_for(self.pool.close(), pool_wait)
        except TimeoutError:
            log.warning("%s: connections still in use after %g s; closed", self.path, pool_wait)
            self.pool.terminate()
