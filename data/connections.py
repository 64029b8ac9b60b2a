"""The two backends at the level of a statement: SQLite's one connection (and the gated
view of it that every task but a transaction's holder uses) and a PostgreSQL connection,
each handing back a ``Cursor``."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any, Final, Literal, Protocol, TypeAlias, TypeVar

import aiosqlite
import asyncpg
from asyncpg.pool import PoolConnectionProxy

T = TypeVar("T")

# sqlite3.Row or asyncpg.Record: both are read by column name or position.
Row = Any

Dialect = Literal["sqlite", "postgresql"]


def to_numbered(sql: str) -> str:
    """``?`` placeholders to PostgreSQL's ``$1, $2, ...`` (outside quoted text)."""
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


class Cursor:
    """What a statement returned: its rows and how many rows it changed."""

    def __init__(self, rows: Sequence[Row], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    async def fetchone(self) -> Row | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[Row]:
        return list(self._rows)

    def __aiter__(self) -> AsyncIterator[Row]:
        return self._iter()

    async def _iter(self) -> AsyncIterator[Row]:
        for r in self._rows:
            yield r


class _Pending:
    """``await db.execute(...)`` or ``async with db.execute(...) as cur`` (aiosqlite's way)."""

    def __init__(self, run: Awaitable[Cursor]) -> None:
        self._run = run

    def __await__(self) -> Any:
        return self._run.__await__()

    async def __aenter__(self) -> Cursor:
        return await self._run

    async def __aexit__(self, *exc: object) -> None:
        return None


class Connection(Protocol):
    """The one place where the two backends differ at the level of a statement.

    The store's queries are written once, with ``?`` placeholders and SQL that both
    SQLite (3.35+) and PostgreSQL understand (``ON CONFLICT ... DO UPDATE``,
    ``RETURNING``, partial indexes, window functions); an adapter
    (``SqliteConnection``, ``PostgresConnection``) numbers the placeholders for
    PostgreSQL, runs the statement and hands back a ``Cursor``.
    """

    @property
    def dialect(self) -> Dialect: ...

    def execute(self, sql: str, args: Sequence[Any] = ()) -> _Pending: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def close(self) -> None: ...

    @property
    def in_transaction(self) -> bool: ...

    def is_unique_violation(self, exc: BaseException, table: str, column: str) -> bool:
        """Whether ``exc`` is a failed UNIQUE constraint on ``table.column``."""
        ...


def _statement(conn: sqlite3.Connection, sql: str, args: Sequence[Any]) -> Cursor:
    """On the connection's thread: run one statement, take its rows and row count."""
    cur = conn.execute(sql, args)
    try:
        return Cursor(cur.fetchall(), cur.rowcount)
    finally:
        cur.close()


class SqliteConnection:
    """A ``Connection`` on aiosqlite's connection."""

    dialect: Final[Dialect] = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.raw = db

    def execute(self, sql: str, args: Sequence[Any] = ()) -> _Pending:
        return _Pending(self._run(sql, args))

    async def _run(self, sql: str, args: Sequence[Any]) -> Cursor:
        # One trip to the connection's thread (aiosqlite's own cursor takes three: the
        # statement, the rows, closing it), each trip a wait for the event loop's turn.
        return await self.call(_statement, sql, args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.raw.executemany(sql, rows)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(sqlite3_connection, *args)`` on the connection's thread, in one trip
        (aiosqlite's own way of running each of its calls, ``Connection._execute``)."""
        run: Callable[..., Awaitable[T]] = self.raw._execute
        return await run(fn, self.raw._conn, *args)

    async def close(self) -> None:
        await self.raw.close()

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    def is_unique_violation(self, exc: BaseException, table: str, column: str) -> bool:
        return isinstance(exc, sqlite3.IntegrityError) and f"{table}.{column}" in str(exc)


class GatedSqliteConnection:
    """SQLite's connection as every task but a transaction's holder uses it: each call
    waits while a transaction of several calls (``Database.tx``, ``snapshot``) is open
    (``gate`` cleared), then goes straight to the connection's thread.

    aiosqlite runs the calls of a connection one at a time, in the order they were
    queued, so a call of one trip (a statement with its rows, a whole transaction of
    ``data.writes.write``) never interleaves with another. Only a transaction of
    several trips needs the connection alone: a call queued inside it would see its
    uncommitted rows. The gate is checked and the call queued with no ``await`` in
    between, so nothing slips in after the transaction's ``BEGIN``.
    """

    dialect: Final[Dialect] = "sqlite"

    def __init__(self, inner: SqliteConnection, gate: asyncio.Event) -> None:
        self.inner = inner
        self.raw = inner.raw
        self.gate = gate

    async def _through(self) -> None:
        while not self.gate.is_set():
            await self.gate.wait()

    def execute(self, sql: str, args: Sequence[Any] = ()) -> _Pending:
        return _Pending(self.call(_statement, sql, args))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._through()
        await self.inner.executemany(sql, rows)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        await self._through()
        return await self.inner.call(fn, *args)

    async def close(self) -> None:
        await self.inner.close()

    @property
    def in_transaction(self) -> bool:
        return self.inner.in_transaction

    def is_unique_violation(self, exc: BaseException, table: str, column: str) -> bool:
        return self.inner.is_unique_violation(exc, table, column)


_RETURNS_ROWS: Final = re.compile(r"^\s*(SELECT|WITH|SHOW)\b|\bRETURNING\b", re.I)


# a connection of its own or one lent by a pool (asyncpg's proxy); both run statements
PgRaw: TypeAlias = "asyncpg.Connection | PoolConnectionProxy[asyncpg.Record]"


class PostgresConnection:
    """A ``Connection`` on an asyncpg connection (its own, or one lent by a pool)."""

    dialect: Final[Dialect] = "postgresql"

    def __init__(self, db: PgRaw, numbered: dict[str, str] | None = None) -> None:
        self.raw = db
        # placeholders numbered once per statement text (shared by a pool's connections)
        self._numbered: dict[str, str] = {} if numbered is None else numbered

    def execute(self, sql: str, args: Sequence[Any] = ()) -> _Pending:
        return _Pending(self._run(sql, args))

    def _sql(self, sql: str) -> str:
        out = self._numbered.get(sql)
        if out is None:
            out = self._numbered[sql] = to_numbered(sql)
        return out

    async def _run(self, sql: str, args: Sequence[Any]) -> Cursor:
        # fetch / execute use asyncpg's cache of prepared statements; only execute tells
        # how many rows a statement changed
        if _RETURNS_ROWS.search(sql):
            return Cursor(await self.raw.fetch(self._sql(sql), *args), -1)
        status = await self.raw.execute(self._sql(sql), *args)
        last = status.rsplit(" ", 1)[-1]
        return Cursor([], int(last) if last.isdigit() else -1)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.raw.executemany(self._sql(sql), [tuple(r) for r in rows])

    async def close(self) -> None:
        await self.raw.close()

    @property
    def in_transaction(self) -> bool:
        return self.raw.is_in_transaction()

    def is_unique_violation(self, exc: BaseException, table: str, column: str) -> bool:
        return isinstance(exc, asyncpg.UniqueViolationError) and (
            getattr(exc, "table_name", None) == table
            and f"({column})" in str(getattr(exc, "detail", "") or "")
        )
