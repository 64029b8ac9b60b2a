"""The async store: one SQLite file (WAL) through aiosqlite, or a PostgreSQL
database through asyncpg, chosen by the database URL (``DATABASE_URL``).

Every public method is one short transaction. SQLite: on the store's one connection,
with an asyncio lock that keeps the coroutines sharing it from interleaving inside
each other's transactions; writes run under ``BEGIN IMMEDIATE`` so two writers (two
connections, two processes) queue on SQLite's lock instead of failing. PostgreSQL: on
a connection borrowed from the store's pool (asyncpg's, up to ``pool_size``), so
transactions run side by side; several processes write at once, each write
transaction locks the rows its checks read (see ``Database``), and ``store.locks``
holds one table across processes on a connection the holder keeps.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import aiosqlite
import asyncpg

from . import health
from .achievements import AchievementStore
from .announcements import AnnouncementStore
from .backup import BackupSchedule
from .base import (
    KEEP,
    LOCK_MIGRATE,
    Database,
    Dialect,
    Sleep,
    SqliteConnection,
)
from .daily import DailyStore
from .games import GameStore
from .guild_settings import SettingsStore
from .location import check_location
from .maintenance import DAILY_HOUSEKEEPING, Housekeeping, MaintenanceStore
from .matches import MatchStore, decode_records, encode_records, placements_of, seat_stats
from .messages import MessageStore
from .models import (
    DatabaseDamagedError,
    NotABatakDatabaseError,
    SchemaTooNewError,
    StoreError,
)
from .outage import Outage
from .schema import APPLICATION_ID, MIGRATIONS, PG_VERSION_TABLE, Migration, for_dialect
from .seasons import SeasonStore
from .standings import StandingStore
from .table_lock import TableLockStore
from .tournaments import TournamentStore
from .user_settings import UserSettingsStore

__all__ = [
    "DEFAULT_PATH",
    "DEFAULT_POOL_SIZE",
    "KEEP",
    "Store",
    "decode_records",
    "default_path",
    "default_url",
    "encode_records",
    "is_postgres_url",
    "placements_of",
    "seat_stats",
    "sqlite_path",
]

log = logging.getLogger("batak.data")

DEFAULT_PATH: Final = Path(__file__).resolve().parent / "batak.sqlite3"

# PostgreSQL: connections a store may hold at once (``DATABASE_POOL_SIZE``); it opens
# them as needed, up to this many, and keeps one open while idle.
DEFAULT_POOL_SIZE: Final = 10
MAX_POOL_SIZE: Final = 1000
# Store.close waits this long for borrowed connections to come back, then drops them.
POOL_CLOSE_WAIT: Final = 10.0


def default_path() -> Path:
    """``$DATABASE_PATH`` if set, else ``data/batak.sqlite3`` next to this package."""
    env = os.environ.get("DATABASE_PATH")
    return Path(env) if env else DEFAULT_PATH


def default_url() -> str:
    """``$DATABASE_URL`` if set, else the SQLite file ``default_path()`` (as a path)."""
    env = os.environ.get("DATABASE_URL", "").strip()
    return env or str(default_path())


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str) -> str:
    """The file of ``sqlite:///relative/path``, ``sqlite:////absolute/path`` or a plain path."""
    if url.startswith("sqlite://"):
        rest = url[len("sqlite://") :]
        if not rest.startswith("/") or rest == "/":
            raise ValueError(f"a SQLite URL is sqlite:///PATH, not {url!r}")
        return rest[1:]
    if "://" in url:
        raise ValueError(
            f"unknown database URL {url.split('://')[0]}://...: "
            "use sqlite:///PATH or postgresql://USER@HOST:PORT/DATABASE"
        )
    return url


# --------------------------------------------------------------------------- the store
class Store:
    """Durable games, finished matches, standings, daily results, announcements and
    server settings, all on one connection (SQLite) or one pool of connections
    (PostgreSQL): the ``Database``.

    Each kind has its part, a plain object holding the database, reached by a short
    name: ``store.games`` (tables in the lobby or in play: ``GameStore``),
    ``store.messages`` (what the bot posted for a table: ``MessageStore``),
    ``store.matches`` (``MatchStore``), ``store.standings`` (``StandingStore``),
    ``store.daily`` (``DailyStore``), ``store.announcements`` (``AnnouncementStore``),
    ``store.achievements`` (``AchievementStore``),
    ``store.guild_settings`` (``SettingsStore``), ``store.seasons`` (``SeasonStore``),
    ``store.user_settings`` (``UserSettingsStore``), ``store.maintenance``
    (``MaintenanceStore``), ``store.locks`` (``TableLockStore``) and
    ``store.tournaments`` (``TournamentStore``). The store itself opens, migrates and
    closes.

    Open with ``await Store.open(path)`` (or ``async with await Store.open() as store``);
    close with ``await store.close()``.
    """

    def __init__(self, database: Database) -> None:
        self.database = database
        self.schema_version = 0
        self.announcements = AnnouncementStore(database)
        self.achievements = AchievementStore(database)
        self.games = GameStore(database)
        self.messages = MessageStore(database)
        self.matches = MatchStore(database, self.announcements, self.achievements)
        self.standings = StandingStore(database)
        self.daily = DailyStore(database, self.announcements, self.achievements)
        self.guild_settings = SettingsStore(database)
        self.seasons = SeasonStore(database, self.announcements, self.guild_settings)
        self.user_settings = UserSettingsStore(database)
        self.maintenance = MaintenanceStore(database)
        self.locks = TableLockStore(database)
        self.tournaments = TournamentStore(database)

    @property
    def path(self) -> str:
        """The SQLite file, or the PostgreSQL URL without its password."""
        return self.database.path

    @property
    def dialect(self) -> Dialect:
        """'sqlite' or 'postgresql'."""
        return self.database.dialect

    @property
    def outage(self) -> Outage:
        """The storage's outage, if one is going on (``data.outage``): logged once, told
        to the health check, and counting the presses refused meanwhile."""
        return self.database.outage

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
        pool_size: int = DEFAULT_POOL_SIZE,
        backups: BackupSchedule | None = None,
    ) -> Store:
        """Open (creating if needed) and migrate the database.

        ``path`` is a file path, ``sqlite:///PATH`` or ``postgresql://...``; it defaults
        to ``default_url()`` (``$DATABASE_URL``, else ``$DATABASE_PATH``, else the file in
        data/). On PostgreSQL ``busy_timeout_ms`` and ``synchronous`` do not apply and
        ``check`` is a connectivity and schema-version check; ``pool_size`` is how many
        connections the store may hold at once (SQLite has one). Raises ``SchemaTooNewError`` for a
        database written by newer code, ``NotABatakDatabaseError`` for a foreign one and
        ``DatabaseDamagedError`` for a damaged file (``check``: see ``data.health``; the
        file is checked before anything is written to it).
        ``housekeeping`` is when closed tables are purged in the background (None: never;
        see ``Housekeeping``); ``sleep`` is what that task waits with (tests pass a fake).
        ``backups`` (SQLite only): a task copies the database into a folder on that
        schedule (see ``data.backup.BackupSchedule``) until the store is closed.
        ``migrations`` is a testing hook; leave it alone.
        """
        target = str(path) if path is not None else default_url()
        if not 1 <= pool_size <= MAX_POOL_SIZE:
            raise ValueError(f"pool_size must be from 1 to {MAX_POOL_SIZE}, not {pool_size}")
        if is_postgres_url(target):
            if backups is not None:
                raise ValueError("scheduled backups copy SQLite files; use pg_dump for PostgreSQL")
            return await cls._open_postgres(
                target,
                clock=clock,
                migrations=migrations,
                housekeeping=housekeeping,
                sleep=sleep,
                pool_size=pool_size,
            )
        p = sqlite_path(target)
        is_file = p != ":memory:" and not p.startswith("file:")
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"bad synchronous level {synchronous!r}")
        existing = is_file and os.path.exists(p) and os.path.getsize(p) > 0
        if is_file:
            check_location(p)  # a folder, under a file, read-only: one line (makes its folder)
            if check:
                health.check_file(p)
        db = await aiosqlite.connect(p, isolation_level=None, timeout=busy_timeout_ms / 1000)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if check and existing:  # a new file has nothing to check
                await health.check_connection(db, p)
            await db.execute("PRAGMA foreign_keys = ON")
            database = Database(
                SqliteConnection(db), p, clock or (lambda: datetime.now(UTC)), sleep
            )
            store = cls(database)
            # needs a moment alone with the file; another process may be opening it too
            await database.begin("PRAGMA journal_mode = WAL")
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
            store.maintenance.start_housekeeping(housekeeping, sleep)
        if backups is not None and is_file:
            store.maintenance.start_backups(backups, sleep)
        return store

    async def close(self) -> None:
        """Stop the housekeeping and backup tasks and close the connection (PostgreSQL: the pool,
        once the connections lent out are back, or after ``POOL_CLOSE_WAIT`` seconds)."""
        await self.maintenance.stop_housekeeping()
        await self.database.close(POOL_CLOSE_WAIT)

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @classmethod
    async def _open_postgres(
        cls,
        url: str,
        *,
        clock: Callable[[], datetime] | None,
        migrations: Sequence[Migration],
        housekeeping: Housekeeping | None,
        sleep: Sleep,
        pool_size: int,
    ) -> Store:
        shown = _without_password(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                statement_cache_size=1024,
                reset=_keep_session,
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreError(f"cannot connect to {shown}: {exc}") from exc
        store = cls(Database(None, shown, clock or (lambda: datetime.now(UTC)), sleep, pool=pool))
        try:
            store.schema_version = await store._migrate(migrations)
        except BaseException:
            pool.terminate()
            raise
        if housekeeping is not None:
            store.maintenance.start_housekeeping(housekeeping, sleep)
        return store

    async def _migrate(self, migrations: Sequence[Migration]) -> int:
        if self.dialect == "postgresql":
            return await self._migrate_postgres(migrations)
        return await self._migrate_sqlite(migrations)

    def _too_new(self, version: int, latest: int) -> SchemaTooNewError:
        return SchemaTooNewError(
            f"{self.path} has schema version {version}, but this batak-bot only knows "
            f"versions up to {latest}: it was written by a newer batak-bot. Upgrade the "
            "bot, or point DATABASE_URL at another database; refusing to touch it."
        )

    async def _migrate_postgres(self, migrations: Sequence[Migration]) -> int:
        """The version lives in ``batak_schema``; one migrator at a time (advisory lock),
        and DDL is transactional, so each step commits whole or not at all."""
        latest = len(migrations)
        async with self.database.tx() as db:
            await db.execute("SELECT pg_advisory_xact_lock(?, 0)", (LOCK_MIGRATE,))
            tables = {
                r[0]
                for r in await (
                    await db.execute(
                        "SELECT table_name FROM information_schema.tables "
                        "WHERE table_schema = current_schema()"
                    )
                ).fetchall()
            }
            if "batak_schema" not in tables and tables:
                raise NotABatakDatabaseError(
                    f"{self.path} already holds tables that are not batak-bot's; refusing"
                )
            await db.execute(PG_VERSION_TABLE)
            row = await self.database.scalar_row(
                "SELECT application_id, version FROM batak_schema", ()
            )
            if row is None:
                await db.execute(
                    "INSERT INTO batak_schema (application_id, version) VALUES (?, 0)",
                    (APPLICATION_ID,),
                )
                version = 0
            else:
                if int(row[0]) != APPLICATION_ID:
                    raise NotABatakDatabaseError(
                        f"{self.path} belongs to another application "
                        f"(application_id {int(row[0]):#x})"
                    )
                version = int(row[1])
            if version > latest:
                raise self._too_new(version, latest)
            while version < latest:
                for stmt in migrations[version]:
                    sql = for_dialect(stmt, "postgresql")
                    if sql is not None:
                        await db.execute(sql)
                version += 1
            await db.execute("UPDATE batak_schema SET version = ?", (version,))
        return version

    async def _migrate_sqlite(self, migrations: Sequence[Migration]) -> int:
        latest = len(migrations)
        async with self.database.snapshot():  # one state: another process may be migrating it
            version = int(await self.database.scalar("PRAGMA user_version"))
            app_id = int(await self.database.scalar("PRAGMA application_id"))
            tables = int(
                await self.database.scalar(
                    "SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'"
                )
            )
        if app_id not in (0, APPLICATION_ID):
            raise NotABatakDatabaseError(
                f"{self.path} belongs to another application (application_id {app_id:#x})"
            )
        if version > latest:
            raise self._too_new(version, latest)
        if version == 0 and tables:
            raise NotABatakDatabaseError(
                f"{self.path} already holds tables that are not batak-bot's; refusing"
            )
        while version < latest:
            async with self.database.tx() as db:
                # Another process may have migrated while we waited for the lock.
                version = int(await self.database.scalar("PRAGMA user_version"))
                if version >= latest:
                    break
                for stmt in migrations[version]:
                    await db.execute(stmt)
                await db.execute(f"PRAGMA user_version = {version + 1}")
                await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            version += 1
        return version


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What a connection goes back to the pool with: asyncpg always rolls back an open
    transaction first; beyond that there is nothing to undo (the store sets no session
    state, and a table lock is released, or its session ended, before its connection
    goes back), so the round trip of asyncpg's full reset is saved on every borrow."""


def _without_password(url: str) -> str:
    """The URL as shown in logs and errors: any password replaced by ***."""
    scheme, sep, rest = url.partition("://")
    creds, at, host = rest.rpartition("@")
    if at and ":" in creds:
        creds = creds.split(":", 1)[0] + ":***"
    return f"{scheme}{sep}{creds}{at}{host}"
