"""What every part of the store shares: the connection, its transactions, time and
JSON helpers, and the row lookups of a table that several parts need."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime
from typing import Any, Final

import aiosqlite

from .models import (
    OPEN_STATUSES,
    GameClosedError,
    GameNotFoundError,
)

ALL_TIME: Final = "all"


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


class StoreBase:
    """The connection and its transactions; the per-concern stores build on it."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        path: str,
        clock: Callable[[], datetime],
    ) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self.schema_version = 0

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
                await self._db.execute("BEGIN IMMEDIATE")
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
                await self._db.execute("BEGIN")
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

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
