"""Write transactions of fixed statements, in one call to the database.

A move is the hot path of the store: one ``UPDATE`` of the table's row (checked: it
must change exactly one row, else the table moved on) and one ``INSERT`` per action.
Through :meth:`data.base.Database.tx` that is ``BEGIN IMMEDIATE``, the ``UPDATE``,
its rows, the ``INSERT``, ``COMMIT``: five trips to aiosqlite's thread, each answered
through the event loop. With 200 tables the loop is busy, each trip waits for a turn,
and the one connection stays locked the whole time: commits queued behind each other
for seconds.

:func:`write` runs such a transaction as one function on the connection's thread
(SQLite): the statements, their checks and the ``COMMIT`` without coming back to the
event loop in between. Being one call, it does not hold the connection alone either: it
waits only for a transaction of several calls that is open (``GatedSqliteConnection``),
not in line behind every read and write of the other tables. On PostgreSQL it is an
ordinary :meth:`~data.base.Database.tx` (each connection of the pool is its own; commits
do not queue behind each other).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .base import RETRY_DELAYS, Database, is_busy
from .connections import GatedSqliteConnection
from .models import StoreBusyError

log = logging.getLogger("batak.data")

BUSY: Final = -2
"""What the SQLite function returns when ``BEGIN IMMEDIATE`` found the file locked by
another connection: nothing ran, so :func:`write` waits and tries again."""


@dataclass(frozen=True, slots=True)
class Step:
    """One statement of a :func:`write`: run once per row of ``rows``; with ``expect``,
    the rows it changed in all must be that many, else the transaction is rolled back."""

    sql: str
    rows: Sequence[Sequence[Any]]
    expect: int | None = None


def run_steps(conn: sqlite3.Connection, steps: Sequence[Step]) -> int:
    """On the connection's own thread: ``BEGIN IMMEDIATE``, the steps, ``COMMIT``.
    Returns -1 when all went through, the index of the first step whose ``expect``
    failed (rolled back), or :data:`BUSY`. Any error rolls back and is raised."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            return BUSY
        raise
    try:
        for i, step in enumerate(steps):
            if step.expect is None:
                conn.executemany(step.sql, step.rows)
                continue
            changed = sum(conn.execute(step.sql, row).rowcount for row in step.rows)
            if step.expect is not None and changed != step.expect:
                conn.execute("ROLLBACK")
                return i
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return -1


async def write(database: Database, steps: Sequence[Step]) -> int:
    """Run ``steps`` as one write transaction; -1 when it committed, else the index of
    the first step whose ``expect`` failed (nothing was written). On SQLite one call on
    the connection's thread (see the module's text); watched for outages like every
    call (:meth:`~data.base.Database.use`)."""
    if database.dialect != "sqlite":
        return await _in_tx(database, steps)
    # One call through the gate, not the connection held alone; an outage (the file
    # locked past every retry) is told once by Database.use.
    async with database.use(write=True) as lease:
        conn = lease.conn
        assert isinstance(conn, GatedSqliteConnection)  # one call: through the gate
        for delay in (*RETRY_DELAYS, None):
            call = asyncio.ensure_future(conn.call(run_steps, steps))
            try:
                failed = await asyncio.shield(call)
            except asyncio.CancelledError:
                # The caller gave up (an interaction timed out...): the transaction runs
                # to its end on the thread all the same (one call: no one finds the
                # connection inside it); the caller hears of it once it has.
                await asyncio.wait({call})
                raise
            if failed != BUSY:
                return failed
            if delay is None:
                raise StoreBusyError(
                    f"{database.path} stayed locked by another connection through "
                    f"{len(RETRY_DELAYS)} retries (another bot or tool writing to the same "
                    "file?)"
                )
            database.busy_retries += 1
            log.warning("%s is locked; trying again in %g s", database.path, delay)
            await database.sleep(delay)
    raise AssertionError("unreachable")


class _Expectation(Exception):
    def __init__(self, index: int) -> None:
        self.index = index


async def _in_tx(database: Database, steps: Sequence[Step]) -> int:
    """The same through :meth:`~data.base.Database.tx` (PostgreSQL)."""
    try:
        async with database.tx() as db:
            for i, step in enumerate(steps):
                changed = 0
                if step.expect is None and len(step.rows) > 1:
                    await db.executemany(step.sql, step.rows)
                    continue
                for row in step.rows:
                    changed += (await db.execute(step.sql, row)).rowcount
                if step.expect is not None and changed != step.expect:
                    raise _Expectation(i)
    except _Expectation as failed:
        return failed.index
    return -1
