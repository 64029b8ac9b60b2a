"""The async store: one SQLite file (WAL) through aiosqlite.

Every public method is one short transaction. Writes run under
``BEGIN IMMEDIATE`` so two writers (two connections, two processes) queue on
SQLite's lock instead of failing, and an asyncio lock keeps the coroutines that
share this connection from interleaving inside each other's transactions.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import aiosqlite

from . import health
from .announcements import AnnouncementStore
from .base import KEEP, Sleep
from .daily import DailyStore
from .games import GameStore
from .guild_settings import SettingsStore
from .maintenance import DAILY_HOUSEKEEPING, Housekeeping, MaintenanceStore
from .matches import MatchStore, decode_records, encode_records, placements_of, seat_stats
from .models import (
    DatabaseDamagedError,
    NotABatakDatabaseError,
    SchemaTooNewError,
)
from .schema import APPLICATION_ID, MIGRATIONS, Migration
from .standings import StandingStore
from .user_settings import UserSettingsStore

__all__ = [
    "DEFAULT_PATH",
    "KEEP",
    "Store",
    "decode_records",
    "default_path",
    "encode_records",
    "placements_of",
    "seat_stats",
]

DEFAULT_PATH: Final = Path(__file__).resolve().parent / "batak.sqlite3"


def default_path() -> Path:
    """``$DATABASE_PATH`` if set, else ``data/batak.sqlite3`` next to this package."""
    env = os.environ.get("DATABASE_PATH")
    return Path(env) if env else DEFAULT_PATH


# --------------------------------------------------------------------------- the store
class Store(
    GameStore,
    MatchStore,
    StandingStore,
    DailyStore,
    AnnouncementStore,
    SettingsStore,
    UserSettingsStore,
    MaintenanceStore,
):
    """Durable games, finished matches, standings, daily results, announcements and
    server settings; each kind in its own module, all on one connection.

    Open with ``await Store.open(path)`` (or ``async with await Store.open() as store``);
    close with ``await store.close()``.
    """

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        busy_timeout_ms: int = 5000,
        synchronous: str = "FULL",
        clock: Callable[[], datetime] | None = None,
        migrations: Sequence[Migration] = MIGRATIONS,
        housekeeping: Housekeeping | None = DAILY_HOUSEKEEPING,
        sleep: Sleep = asyncio.sleep,
        check: bool = True,
    ) -> Store:
        """Open (creating if needed) and migrate the database.

        ``path`` defaults to ``default_path()``. Raises ``SchemaTooNewError`` for a
        database written by newer code, ``NotABatakDatabaseError`` for a foreign one and
        ``DatabaseDamagedError`` for a damaged file (``check``: see ``data.health``; the
        file is checked before anything is written to it).
        ``housekeeping`` is when closed tables are purged in the background (None: never;
        see ``Housekeeping``); ``sleep`` is what that task waits with (tests pass a fake).
        ``migrations`` is a testing hook; leave it alone.
        """
        p = str(path) if path is not None else str(default_path())
        is_file = p != ":memory:" and not p.startswith("file:")
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"bad synchronous level {synchronous!r}")
        existing = is_file and os.path.exists(p) and os.path.getsize(p) > 0
        if is_file:
            if check:
                health.check_file(p)
            Path(p).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(p, isolation_level=None, timeout=busy_timeout_ms / 1000)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if check and existing:  # a new file has nothing to check
                await health.check_connection(db, p)
            await db.execute("PRAGMA foreign_keys = ON")
            store = cls(db, p, clock or (lambda: datetime.now(UTC)), sleep)
            # needs a moment alone with the file; another process may be opening it too
            await store._begin("PRAGMA journal_mode = WAL")
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            store.schema_version = await store._migrate(migrations)
        except sqlite3.DatabaseError as exc:
            await db.close()
            if health.is_damage(exc):
                raise DatabaseDamagedError(p, f"SQLite says '{exc}'") from exc
            raise
        except BaseException:
            await db.close()
            raise
        if housekeeping is not None:
            store._start_housekeeping(housekeeping, sleep)
        return store

    async def close(self) -> None:
        """Stop the housekeeping task and close the connection."""
        await self._stop_housekeeping()
        async with self._lock:
            await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _migrate(self, migrations: Sequence[Migration]) -> int:
        latest = len(migrations)
        async with self._snapshot():  # one state: another process may be migrating it
            version = int(await self._scalar("PRAGMA user_version"))
            app_id = int(await self._scalar("PRAGMA application_id"))
            tables = int(
                await self._scalar(
                    "SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'"
                )
            )
        if app_id not in (0, APPLICATION_ID):
            raise NotABatakDatabaseError(
                f"{self.path} belongs to another application (application_id {app_id:#x})"
            )
        if version > latest:
            raise SchemaTooNewError(
                f"{self.path} has schema version {version}, but this batak-bot only knows "
                f"versions up to {latest}: it was written by a newer batak-bot. Upgrade the "
                "bot, or point DATABASE_PATH at another file; refusing to touch it."
            )
        if version == 0 and tables:
            raise NotABatakDatabaseError(
                f"{self.path} already holds tables that are not batak-bot's; refusing"
            )
        while version < latest:
            async with self._tx() as db:
                # Another process may have migrated while we waited for the lock.
                version = int(await self._scalar("PRAGMA user_version"))
                if version >= latest:
                    break
                for stmt in migrations[version]:
                    await db.execute(stmt)
                await db.execute(f"PRAGMA user_version = {version + 1}")
                await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            version += 1
        return version
