"""Daily deals: one try per person, server and UTC day, and the day's board."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from .achievements import AchievementStore
from .announcements import AnnouncementStore
from .base import (
    CLOSE_GAME,
    Database,
    Row,
    _day,
    _dumps,
    _iso,
)
from .models import (
    Announcement,
    DailyAlreadyPlayedError,
    DailyResult,
)


class DailyStore:
    """Daily deals and their boards (``store.daily``)."""

    def __init__(
        self,
        database: Database,
        announcements: AnnouncementStore,
        achievements: AchievementStore | None = None,
    ) -> None:
        self.database = database
        self.announcements = announcements  # what to post is stored with the result
        self.achievements = achievements or AchievementStore(database)  # granted with it

    @staticmethod
    def _daily(r: Row, rank: int | None = None) -> DailyResult:
        return DailyResult(
            guild_id=r["guild_id"],
            day=r["day"],
            user_id=r["user_id"],
            game_id=r["game_id"],
            score=r["score"],
            placement=r["placement"],
            details=None if r["details"] is None else json.loads(r["details"]),
            started_at=r["started_at"],
            finished_at=r["finished_at"],
            rank=rank,
        )

    async def start_daily(
        self,
        guild_id: int,
        user_id: int,
        *,
        day: str | date | None = None,
        game_id: int | None = None,
    ) -> DailyResult:
        """Claim the player's one daily try (default day: today, UTC).

        Raises ``DailyAlreadyPlayedError`` if the player already started or finished it.
        """
        d = _day(day, self.database.now())
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            # under the write lock, so the answer holds until the insert
            await self.database.key_lock("daily", guild_id, d, user_id)
            if await self._has_daily(guild_id, d, user_id):
                raise DailyAlreadyPlayedError(
                    f"user {user_id} already played the daily match of {d} in guild {guild_id}"
                )
            await db.execute(
                "INSERT INTO daily_results (guild_id, day, user_id, game_id, started_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (guild_id, d, user_id, game_id, now),
            )
        result = await self.daily_result(guild_id, user_id, day=d)
        assert result is not None
        return result

    async def finish_daily(
        self,
        guild_id: int,
        user_id: int,
        score: int,
        *,
        day: str | date | None = None,
        placement: int | None = None,
        details: Mapping[str, Any] | None = None,
        game_id: int | None = None,
        announcements: Sequence[Announcement] = (),
    ) -> DailyResult:
        """Record the player's daily result (claiming the day if ``start_daily`` was not
        called). A second result for the same day raises ``DailyAlreadyPlayedError`` and
        writes nothing.

        With ``game_id`` the daily table is marked finished in the same transaction (if
        still open), and ``announcements`` are stored with it: result, closed table and
        what to post about them are durable together. So is ``daily_week``, when this
        result completes seven days in a row (in the answer's ``achievements``).
        """
        d = _day(day, self.database.now())
        now = _iso(self.database.now())
        det = None if details is None else _dumps(dict(details))
        async with self.database.tx() as db:
            await self.database.key_lock("daily", guild_id, d, user_id)
            cur = await db.execute(
                "UPDATE daily_results SET score = ?, placement = ?, details = ?, "
                "finished_at = ?, game_id = coalesce(?, game_id) "
                "WHERE guild_id = ? AND day = ? AND user_id = ? AND score IS NULL",
                (score, placement, det, now, game_id, guild_id, d, user_id),
            )
            if cur.rowcount != 1:
                if await self._has_daily(guild_id, d, user_id):
                    raise DailyAlreadyPlayedError(
                        f"user {user_id} already has a daily result for {d} in guild {guild_id}"
                    )
                await db.execute(
                    "INSERT INTO daily_results (guild_id, day, user_id, game_id, score, "
                    "placement, details, started_at, finished_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, d, user_id, game_id, score, placement, det, now, now),
                )
            earned = await self.achievements.grant_daily(db, guild_id, user_id, d, now)
            if game_id is not None:
                await db.execute(
                    CLOSE_GAME + " AND status IN ('lobby', 'playing')",
                    ("finished", now, now, game_id),
                )
            await self.announcements.enqueue(db, guild_id, announcements, game_id=game_id, at=now)
        result = await self.daily_result(guild_id, user_id, day=d)
        assert result is not None
        return replace(result, achievements=tuple(earned))

    async def _has_daily(self, guild_id: int, day: str, user_id: int) -> bool:
        found = await self.database.scalar(
            "SELECT 1 FROM daily_results WHERE guild_id = ? AND day = ? AND user_id = ?",
            (guild_id, day, user_id),
        )
        return found is not None

    async def daily_result(
        self, guild_id: int, user_id: int, *, day: str | date | None = None
    ) -> DailyResult | None:
        """The player's daily entry for the day (started or finished), or None."""
        d = _day(day, self.database.now())
        async with (
            self.database.read() as db,
            db.execute(
                "SELECT * FROM daily_results WHERE guild_id = ? AND day = ? AND user_id = ?",
                (guild_id, d, user_id),
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else self._daily(row)

    async def daily_leaderboard(
        self, guild_id: int, *, day: str | date | None = None, limit: int = 10, offset: int = 0
    ) -> list[DailyResult]:
        """Finished daily results of the day, best score first, with competition ranks."""
        d = _day(day, self.database.now())
        async with (
            self.database.read() as db,
            db.execute(
                "SELECT *, rank() OVER (ORDER BY score DESC) AS place FROM daily_results "
                "WHERE guild_id = ? AND day = ? AND score IS NOT NULL "
                "ORDER BY score DESC, finished_at LIMIT ? OFFSET ?",
                (guild_id, d, limit, offset),
            ) as cur,
        ):
            return [self._daily(r, r["place"]) for r in await cur.fetchall()]
