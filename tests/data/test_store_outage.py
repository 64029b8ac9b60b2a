"""Storage outages: real failures of both backends are told from bugs, raised as
``StorageUnavailableError``, and logged once per outage (start and end)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import asyncpg
import pytest

from data import Seat, StorageUnavailableError, Store, StoreBusyError, StoreError
from data.outage import Outage, outage_reason

from store_clock import INTEGRITY_ERRORS

SETTINGS = {"rules": {"preset": "standard", "deals": 1}, "seed": 1, "pace": "async"}
SEATS = [Seat.human(3)] + [Seat.bot("easy")] * 3
OUTAGE_LOG = "batak.data.outage"


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await Store.open(db_url, housekeeping=None)
    yield s
    await s.close()


async def new_table(store: Store, host: int = 3) -> int:
    g = await store.games.create_game(1, 2, host, SETTINGS, seats=[Seat.human(host), *SEATS[1:]])
    return g.id


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == OUTAGE_LOG]


async def fill_disk(store: Store) -> int:
    """SQLite: no page may be added to the file any more (as on a full disk); the old
    limit, to give back."""
    raw = store.database.conn.raw  # type: ignore[attr-defined]
    async with raw.execute("PRAGMA max_page_count") as cur:
        row = await cur.fetchone()
        old = int(row[0])
    async with raw.execute("PRAGMA page_count") as cur:
        row = await cur.fetchone()
        pages = int(row[0])
    await raw.execute(f"PRAGMA max_page_count = {pages}")
    return old


def only(store: Store, dialect: str) -> None:
    if store.dialect != dialect:
        pytest.skip(f"a {dialect} failure")


async def test_sqlite_disk_full_is_an_outage_logged_once(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    only(store, "sqlite")
    caplog.set_level(logging.INFO, logger=OUTAGE_LOG)
    first = await new_table(store)
    old = await fill_disk(store)
    errors = []
    for host in range(100, 140):  # fills the last free pages, then every insert fails
        try:
            await new_table(store, host)
        except StorageUnavailableError as exc:
            errors.append(exc)
    assert len(errors) >= 10
    assert all("full" in e.reason for e in errors)
    assert isinstance(errors[0].__cause__, sqlite3.OperationalError)
    assert store.database.outage.down
    # reads still work on a full disk: the outage is not over until a write works
    assert (await store.games.load_game(first)).id == first
    assert store.database.outage.down
    for _ in range(len(errors)):
        store.database.outage.refused()
    raw = store.database.conn.raw  # type: ignore[attr-defined]
    await raw.execute(f"PRAGMA max_page_count = {old}")
    await new_table(store, 999)
    assert not store.database.outage.down
    lines = outage_lines(caplog)
    assert len(lines) == 2, lines
    assert lines[0].startswith("storage unavailable since ") and "full" in lines[0]
    assert lines[1].startswith("storage back after ")
    assert f"{len(errors)} press(es) refused" in lines[1]


async def test_sqlite_read_only_is_an_outage(store: Store) -> None:
    only(store, "sqlite")
    raw = store.database.conn.raw  # type: ignore[attr-defined]
    await raw.execute("PRAGMA query_only = ON")
    with pytest.raises(StorageUnavailableError, match=r"read-only|readonly"):
        await new_table(store)
    await raw.execute("PRAGMA query_only = OFF")
    await new_table(store)
    assert not store.database.outage.down


async def test_bugs_are_not_outages(store: Store) -> None:
    with pytest.raises(INTEGRITY_ERRORS):
        async with store.database.tx() as db:
            await db.execute("INSERT INTO games (id) VALUES (NULL)")
    with pytest.raises((sqlite3.OperationalError, asyncpg.PostgresSyntaxError)):
        async with store.database.read() as db:
            await db.execute("SELEC 1")
    assert not store.database.outage.down


async def test_postgres_terminated_connections_are_an_outage(
    store: Store, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The server ends the connection in the middle of a move's transaction (as when it
    stops): the move is refused as an outage, and the next call works again."""
    only(store, "postgresql")
    caplog.set_level(logging.INFO, logger=OUTAGE_LOG)
    table = await new_table(store)
    admin = await asyncpg.connect(db_url)
    try:
        for _ in range(3):
            with pytest.raises(StorageUnavailableError, match="PostgreSQL") as caught:
                async with store.database.tx() as db:
                    pid = (await (await db.execute("SELECT pg_backend_pid()")).fetchall())[0][0]
                    await db.execute(
                        "UPDATE games SET updated_at = updated_at WHERE id = ?", (table,)
                    )
                    assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
                    await db.execute("SELECT 1")
            assert store.database.outage.down
            assert outage_reason(caught.value.__cause__ or caught.value) is not None
    finally:
        await admin.close()
    await new_table(store, 5)  # the pool opens a new connection: back
    assert not store.database.outage.down
    assert [ln.split(" ")[1] for ln in outage_lines(caplog)] == ["unavailable", "back"]


async def test_postgres_closed_pool_is_an_outage(store: Store) -> None:
    only(store, "postgresql")
    assert store.database.pool is not None
    await store.database.pool.close()
    with pytest.raises(StorageUnavailableError, match=r"closed|closing"):
        await new_table(store)
    with pytest.raises(StorageUnavailableError):
        await store.games.open_games()


def test_reasons_of_each_backend() -> None:
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13  # type: ignore[attr-defined]
    assert "full" in (outage_reason(full) or "")
    syntax = sqlite3.OperationalError("near 'SELEC': syntax error")
    syntax.sqlite_errorcode = 1  # type: ignore[attr-defined]
    assert outage_reason(syntax) is None
    assert outage_reason(sqlite3.IntegrityError("UNIQUE constraint failed")) is None
    assert outage_reason(ConnectionRefusedError(111, "Connection refused")) is not None
    assert outage_reason(asyncpg.ConnectionDoesNotExistError("gone")) is not None
    assert outage_reason(asyncpg.CannotConnectNowError("starting up")) is not None
    assert outage_reason(asyncpg.InterfaceError("pool is closed")) is not None
    assert outage_reason(asyncpg.InterfaceError("another operation is in progress")) is None
    assert outage_reason(asyncpg.UniqueViolationError("dup")) is None
    assert outage_reason(ValueError("x")) is None
    busy = StoreBusyError("x.sqlite3 stayed locked")
    assert isinstance(busy, StorageUnavailableError) and isinstance(busy, StoreError)
    assert str(busy) == "x.sqlite3 stayed locked"


def test_outage_logs_one_start_and_one_end(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=OUTAGE_LOG)
    ticks = iter([10.0, 42.4])
    outage = Outage(lambda: datetime(2026, 3, 10, 12, 0, tzinfo=UTC), lambda: next(ticks))
    outage.succeeded(write=True)  # nothing to end
    for _ in range(8):
        outage.failed("SQLite: database or disk is full", write=True)
        outage.refused()
    assert outage.describe() == (
        "down since 2026-03-10T12:00:00+00:00: SQLite: database or disk is full; "
        "8 press(es) refused"
    )
    outage.succeeded(write=False)  # a read works on a full disk: still down
    assert outage.down
    outage.succeeded(write=True)
    outage.succeeded(write=True)
    assert outage.describe() is None and outage.failures == 8
    assert outage_lines(caplog) == [
        "storage unavailable since 2026-03-10T12:00:00+00:00: SQLite: database or disk is full",
        "storage back after 32 s (unavailable since 2026-03-10T12:00:00+00:00: "
        "SQLite: database or disk is full); 8 press(es) refused",
    ]
