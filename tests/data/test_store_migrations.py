"""Schema migrations: from an empty file, from every earlier version, refusals."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from data import LATEST_VERSION, NotABatakDatabaseError, SchemaTooNewError, Seat, Store
from data.schema import APPLICATION_ID, MIGRATIONS


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
        db = store._db
        assert (await (await db.execute("PRAGMA foreign_keys")).fetchone())[0] == 1  # type: ignore[index]
        assert (await (await db.execute("PRAGMA busy_timeout")).fetchone())[0] == 1234  # type: ignore[index]
        assert (await (await db.execute("PRAGMA synchronous")).fetchone())[0] == 2  # type: ignore[index]
    finally:
        await store.close()


@pytest.mark.parametrize("start", range(LATEST_VERSION + 1))
async def test_migrates_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    """A database left at version ``start`` by older code opens and reaches the latest;
    what the older code stored survives."""
    path = tmp_path / "old.sqlite3"
    old = await Store.open(path, migrations=MIGRATIONS[:start])
    assert old.schema_version == start
    game_id = None
    if start >= 1:
        game = await old.create_game(
            1, 2, 3, {"seed": 9}, seats=[Seat.human(3)] + [Seat.bot("easy")] * 3
        )
        game_id = game.id
        await old.append_action(game_id, 0, "bid 5", seat=1, phase="auction", to_act=2)
    await old.close()
    assert version_of(path) == start

    store = await Store.open(path)
    try:
        assert store.schema_version == LATEST_VERSION
        if game_id is not None:
            game = await store.load_game(game_id)
            assert game.actions == ("bid 5",)
            assert game.settings == {"seed": 9}
        # and the latest schema works
        fresh = await store.create_game(1, 2, 3, {})
        assert (await store.get_game(fresh.id)).status == "lobby"
    finally:
        await store.close()
    assert version_of(path) == LATEST_VERSION


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
