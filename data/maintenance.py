"""Housekeeping: purging old closed tables on a schedule, integrity checks, and the
bot's own small records (``bot_state``: a value by name, e.g. what it last registered).

A running bot never needs the seats, action log and message ids of a table that
closed weeks ago, so the store purges them by itself: ``Store.open`` starts a
background task (see ``Housekeeping``) that runs ``purge_closed_games`` shortly
after start-up and then once a day; ``Store.close`` stops it. With
``Store.open(..., backups=BackupSchedule(...))`` a second task copies an SQLite
database into a folder every so often (see ``data.backup``).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import dataclass
from datetime import timedelta
from typing import Final

import asyncpg

from .backup import BackupResult, BackupSchedule, run_backup
from .base import Database, Sleep, _iso
from .models import StoreError
from .schema import LATEST_VERSION

log = logging.getLogger("batak.data")


@dataclass(frozen=True, slots=True)
class Housekeeping:
    """When the store purges closed tables by itself.

    ``keep_closed_days``: a finished or cancelled table is deleted (with its seats,
    log and message ids; its match and daily result stay) this many days after it
    closed. ``first_after_s``: the first purge, this long after the store opened (a
    bot restarted daily still purges). ``every_s``: then once per this many seconds.
    """

    keep_closed_days: float = 30.0
    every_s: float = 86_400.0
    first_after_s: float = 60.0

    def __post_init__(self) -> None:
        if not self.keep_closed_days > 0:
            raise ValueError("keep_closed_days must be more than 0")
        if not self.every_s > 0 or self.first_after_s < 0:
            raise ValueError("every_s must be more than 0 and first_after_s at least 0")


DAILY_HOUSEKEEPING: Final = Housekeeping()


class MaintenanceStore:
    """Purges, integrity checks and the bot's own records (``store.maintenance``)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._housekeeping_task: asyncio.Task[None] | None = None
        self.housekeeping_runs = 0  # purges done by the background task (for logs and tests)
        self._backup_task: asyncio.Task[None] | None = None
        self.backups_made = 0  # copies made by the background task (for logs and tests)

    async def purge_closed_games(self, older_than_days: float = 30.0) -> int:
        """Delete finished / cancelled tables closed more than ``older_than_days`` ago,
        with their seats, action logs and message ids; returns how many.

        Finished matches (with their deal records) and daily results stay: they
        only lose the link to the deleted table. Announcements made before the cutoff
        go too, posted or not: one still pending after that long has nowhere to go.
        """
        cutoff = _iso(self.database.now() - timedelta(days=older_than_days))
        async with self.database.tx() as db:
            cur = await db.execute(
                "DELETE FROM games WHERE status IN ('finished', 'cancelled') AND finished_at < ?",
                (cutoff,),
            )
            purged = int(cur.rowcount)
            await db.execute("DELETE FROM announcements WHERE created_at < ?", (cutoff,))
            return purged

    async def integrity_check(self) -> str:
        """SQLite: ``PRAGMA integrity_check``: 'ok', or SQLite's list of what is wrong.
        PostgreSQL (which checks its own pages): 'ok' when the server answers and the
        schema is at this code's version, else what is wrong."""
        async with self.database.read():
            if self.database.dialect == "sqlite":
                return str(await self.database.scalar("PRAGMA integrity_check"))
            version = await self.database.scalar("SELECT version FROM batak_schema")
        if version != LATEST_VERSION:
            return f"schema version {version}, expected {LATEST_VERSION}"
        return "ok"

    # ------------------------------------------------------------------ the bot's records
    async def get_bot_state(self, key: str) -> str | None:
        """The value last stored under ``key`` by :meth:`set_bot_state`; None if never."""
        async with self.database.read():
            value = await self.database.scalar("SELECT value FROM bot_state WHERE key = ?", (key,))
        return None if value is None else str(value)

    async def set_bot_state(self, key: str, value: str) -> None:
        """Store ``value`` under ``key``, replacing what was there."""
        async with self.database.tx() as db:
            await db.execute(
                "INSERT INTO bot_state (key, value, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value, "
                "updated_at = excluded.updated_at",
                (key, value, _iso(self.database.now())),
            )

    # ------------------------------------------------------------------ the schedule
    def start_housekeeping(self, policy: Housekeeping, sleep: Sleep) -> None:
        """Run ``purge_closed_games`` in the background as ``policy`` says (``Store.open``)."""
        self._housekeeping_task = asyncio.get_running_loop().create_task(
            self._housekeeping(policy, sleep), name=f"store housekeeping {self.database.path}"
        )

    async def stop_housekeeping(self) -> None:
        """Cancel the background purges and backups, if running, and wait for them
        (``Store.close``)."""
        task, self._housekeeping_task = self._housekeeping_task, None
        await _stop(task)
        task, self._backup_task = self._backup_task, None
        await _stop(task)

    async def backup_now(self, schedule: BackupSchedule) -> BackupResult:
        """One copy into ``schedule.directory`` (SQLite's online backup API, in a
        thread, on a connection of its own: play goes on), the oldest copies beyond
        ``schedule.keep`` deleted; one log line."""
        if self.database.dialect != "sqlite":
            raise StoreError("scheduled backups copy SQLite files; use pg_dump for PostgreSQL")
        result, deleted = await asyncio.to_thread(
            run_backup, self.database.path, schedule, self.database.now()
        )
        self.backups_made += 1
        log.info(
            "backup: %s -> %s (%d pages, %.1f MB, %.2f s; %d old cop%s deleted)",
            result.source,
            result.dest,
            result.pages,
            result.size_bytes / 1e6,
            result.seconds,
            deleted,
            "y" if deleted == 1 else "ies",
        )
        return result

    def start_backups(self, schedule: BackupSchedule, sleep: Sleep) -> None:
        """Run :meth:`backup_now` in the background as ``schedule`` says (``Store.open``)."""
        self._backup_task = asyncio.get_running_loop().create_task(
            self._backups(schedule, sleep), name=f"store backups {self.database.path}"
        )

    async def _backups(self, schedule: BackupSchedule, sleep: Sleep) -> None:
        delay = schedule.every_s if schedule.first_after_s is None else schedule.first_after_s
        while True:
            await sleep(delay)
            delay = schedule.every_s
            try:
                await self.backup_now(schedule)
            except (StoreError, sqlite3.Error, OSError) as exc:
                # one line: a damaged database, a full disk... the next one tries again
                log.error(
                    "backup of %s into %s failed: %s", self.database.path, schedule.directory, exc
                )

    async def _housekeeping(self, policy: Housekeeping, sleep: Sleep) -> None:
        delay = policy.first_after_s
        while True:
            await sleep(delay)
            delay = policy.every_s
            try:
                purged = await self.purge_closed_games(policy.keep_closed_days)
            except (StoreError, sqlite3.Error, asyncpg.PostgresError, OSError):
                # e.g. the disk is full: the bot keeps running, the next day tries again
                log.exception("housekeeping of %s failed", self.database.path)
                continue
            self.housekeeping_runs += 1
            if purged:
                log.info(
                    "housekeeping: purged %d table(s) closed over %g days ago",
                    purged,
                    policy.keep_closed_days,
                )


async def _stop(task: asyncio.Task[None] | None) -> None:
    """Cancel a background task, if any, and wait for it to end."""
    if task is None:
        return
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise  # we are being cancelled ourselves, not just the task
