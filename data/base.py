"""What every part of the store shares: the connection, its transactions, time and
JSON helpers, and the row lookups of a table that several parts need."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime
from typing import Any, Final

import aiosqlite

from .models import (
    OPEN_STATUSES,
    GameClosedError,
    GameNotFoundError,
    StoreBusyError,
)

log = logging.getLogger("batak.data")

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

Row = sqlite3.Row


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


class StoreBase:
    """The connection and its transactions; the per-concern stores build on it."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        path: str,
        clock: Callable[[], datetime],
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._sleep = sleep
        self._lock = asyncio.Lock()
        self.schema_version = 0
        self.busy_retries = 0  # transactions started again after "database is locked"

    def _now(self) -> datetime:
        return _utc(self._clock())

    async def _scalar(self, sql: str, args: Sequence[Any] = ()) -> Any:
        async with self._db.execute(sql, args) as cur:
            row = await cur.fetchone()
        return None if row is None else row[0]

    async def _scalar_row(self, sql: str, args: Sequence[Any]) -> Row | None:
        async with self._db.execute(sql, args) as cur:
            row: Row | None = await cur.fetchone()
        return row

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on any error.

        aiosqlite runs the statements of a connection in order, so even when the
        awaiting task is cancelled half-way, the ROLLBACK queued here runs after
        whatever was already sent, and the connection never stays in a transaction.
        """
        async with self._lock:
            try:
                await self._begin("BEGIN IMMEDIATE")
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: several SELECTs that see one state of the database."""
        async with self._lock:
            try:
                await self._begin("BEGIN")
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def _begin(self, sql: str) -> None:
        """Start a transaction; when another connection holds the lock past the busy
        timeout, wait and try again (safe: nothing of ours has run yet). Also for other
        statements that are safe to repeat (switching the journal mode)."""
        for delay in (*RETRY_DELAYS, None):
            try:
                await self._db.execute(sql)
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
                await self._sleep(delay)

    async def _rollback(self) -> None:
        # OperationalError: no transaction was open (BEGIN failed, or COMMIT went through)
        with contextlib.suppress(sqlite3.OperationalError):
            await self._db.execute("ROLLBACK")

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._db

    async def _game_row(self, game_id: int) -> Row:
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise GameNotFoundError(f"no game {game_id}")
        return row

    async def _open_row(self, game_id: int) -> Row:
        row = await self._game_row(game_id)
        if row["status"] not in OPEN_STATUSES:
            raise GameClosedError(f"game {game_id} is {row['status']}")
        return row
