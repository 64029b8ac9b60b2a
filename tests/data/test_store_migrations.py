"""Schema migrations: from an empty file, from every earlier version, refusals."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from data import LATEST_VERSION, NotABatakDatabaseError, SchemaTooNewError, Seat, Store
from data.schema import APPLICATION_ID, MIGRATIONS

# PRAGMA user_version / application_id and sqlite_schema (PostgreSQL: test_store_backends)
pytestmark = pytest.mark.sqlite_only


def version_of(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def tables_of(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {
            r[0]
            for r in db.execute("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index')")
            if not r[0].startswith("sqlite_")
        }


async def test_empty_file_is_migrated_to_latest(tmp_path: Path) -> None:
    path = tmp_path / "new" / "batak.sqlite3"  # parent directory created too
    store = await Store.open(path)
    assert store.schema_version == LATEST_VERSION
    await store.close()
    assert version_of(path) == LATEST_VERSION
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"games", "game_actions", "matches", "standings", "daily_results"} <= tables_of(path)


async def test_zero_byte_file_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "b.sqlite3"
    path.write_bytes(b"")
    store = await Store.open(path)
    assert store.schema_version == LATEST_VERSION
    await store.close()


async def test_connection_pragmas(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "p.sqlite3", busy_timeout_ms=1234)
    try:
        db = store.database.conn
        assert (await (await db.execute("PRAGMA foreign_keys")).fetchone())[0] == 1  # type: ignore[index]  # a row
        assert (await (await db.execute("PRAGMA busy_timeout")).fetchone())[0] == 1234  # type: ignore[index]  # a row
        assert (await (await db.execute("PRAGMA synchronous")).fetchone())[0] == 2  # type: ignore[index]  # a row
    finally:
        await store.close()


def write_v1_table(
    path: Path, game_id: int, host: int, status: str = "lobby", settings: str = '{"seed": 9}'
) -> None:
    """A table as batak-bot with schema version 1 wrote it (raw SQL: today's code writes
    today's columns), with one action in its log."""
    now = "2026-03-01T10:00:00.000+00:00"
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, phase, move, to_act, "
            "settings, created_at, updated_at) VALUES (?, 1, 2, ?, ?, 'auction', 1, 2, ?, ?, ?)",
            (game_id, host, status, settings, now, now),
        )
        db.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, bot_level) VALUES (?, ?, ?, ?)",
            [(game_id, 0, host, None)] + [(game_id, s, None, "easy") for s in (1, 2, 3)],
        )
        db.execute(
            "INSERT INTO game_actions (game_id, move, seat, action, actor, at_ms) "
            "VALUES (?, 1, 1, 'bid 5', 'player', 0)",
            (game_id,),
        )


@pytest.mark.parametrize("start", range(LATEST_VERSION + 1))
async def test_migrates_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    """A database left at version ``start`` by older code opens and reaches the latest;
    what the older code stored survives."""
    path = tmp_path / "old.sqlite3"
    old = await Store.open(path, migrations=MIGRATIONS[:start])
    assert old.schema_version == start
    await old.close()
    game_id = None
    if start >= 1:
        game_id = 5
        write_v1_table(path, game_id, host=3)
    assert version_of(path) == start

    store = await Store.open(path)
    try:
        assert store.schema_version == LATEST_VERSION
        if game_id is not None:
            game = await store.games.load_game(game_id)
            assert game.actions == ("bid 5",)
            assert game.settings == {"seed": 9}
            assert game.seats[0] == Seat.human(3) and game.seats[1] == Seat.bot("easy")
        # and the latest schema works
        fresh = await store.games.create_game(1, 2, 30, {})
        assert (await store.games.get_game(fresh.id)).status == "lobby"
    finally:
        await store.close()
    assert version_of(path) == LATEST_VERSION


async def test_version_2_keeps_one_claim_per_host_and_the_first_rematch(tmp_path: Path) -> None:
    """Version 1 let a host open several tables and a table have several rematches; the
    migration keeps the newest open table's claim and the first rematch link."""
    path = tmp_path / "v1.sqlite3"
    await (await Store.open(path, migrations=MIGRATIONS[:1])).close()
    write_v1_table(path, 1, host=3, status="finished")
    write_v1_table(path, 2, host=3)
    write_v1_table(path, 3, host=3)  # the newest of host 3's open tables
    write_v1_table(path, 4, host=4, settings='{"rematch_of": 1}')
    write_v1_table(path, 5, host=5, settings='{"rematch_of": 1}')
    write_v1_table(path, 6, host=6, settings='{"rematch_of": 99}')  # no such table
    store = await Store.open(path)
    try:
        with sqlite3.connect(path) as db:
            rows = db.execute("SELECT id, hosting, rematch_of FROM games ORDER BY id").fetchall()
        assert rows == [
            (1, None, None),
            (2, None, None),
            (3, 3, None),
            (4, 4, 1),
            (5, 5, None),
            (6, 6, None),
        ]
        assert (await store.games.get_game(4)).rematch_of == 1
    finally:
        await store.close()


async def test_database_newer_than_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    with pytest.raises(SchemaTooNewError, match=r"newer batak-bot"):
        await Store.open(path)
    assert version_of(path) == LATEST_VERSION + 1  # untouched


async def test_foreign_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (x)")
    with pytest.raises(NotABatakDatabaseError):
        await Store.open(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA application_id = 7")
    with pytest.raises(NotABatakDatabaseError, match="another application"):
        await Store.open(path)


async def test_failed_migration_leaves_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "half.sqlite3"
    broken = (*MIGRATIONS, ("CREATE TABLE extra (x)", "THIS IS NOT SQL"))
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(path, migrations=broken)
    assert version_of(path) == LATEST_VERSION
    assert "extra" not in tables_of(path)  # the half-run migration was rolled back
    store = await Store.open(path)
    await store.close()


async def test_a_later_migration_is_applied_on_top(tmp_path: Path) -> None:
    """The runner applies new versions in order on an existing database."""
    path = tmp_path / "next.sqlite3"
    await (await Store.open(path)).close()
    nxt = (*MIGRATIONS, ("ALTER TABLE guild_settings ADD COLUMN extra TEXT",))
    store = await Store.open(path, migrations=nxt)
    assert store.schema_version == LATEST_VERSION + 1
    await store.close()
    # ... and the current code then refuses that database
    with pytest.raises(SchemaTooNewError):
        await Store.open(path)


async def test_two_processes_starting_at_once_migrate_once(tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite3"
    stores = await asyncio.gather(Store.open(path), Store.open(path), Store.open(path))
    for s in stores:
        assert s.schema_version == LATEST_VERSION
        await s.close()
