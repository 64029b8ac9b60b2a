"""A server's seasons: each season's board, and the end of a season, recorded once
with its podium and its announcement.

A rated match counts in the season it ended in, as the server's settings cut seasons
when it is recorded (:func:`season_period`): its players' standings rows of period
``s:<label>`` are kept in the same transaction as the all-time and month rows, so a
season's board is one indexed read however many matches the server has.

A board ranks people (never the computer levels) by the matches they won in the season
(placed first), then by fewer matches played, then by the points they scored (their
match totals summed), then by rating. The rating shown is the player's rating after
their last match of the season: ratings are never reset, a season is a fresh race for
wins. The seasons themselves are :mod:`data.season_calendar`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from .announcements import AnnouncementStore
from .base import Connection, Database, _iso
from .guild_settings import SettingsStore
from .models import Announcement, Standing, display_rating
from .season_calendar import (
    DEFAULT_TIMEZONE,
    Season,
    mode_of_label,
    season_at,
    season_of_label,
)
from .standings import StandingStore

SEASON_END: Final = "season_end"
"""The kind of the announcement a season's end is posted by (``cogs.seasons``)."""
PODIUM: Final = 3
PREFIX: Final = "s:"
"""A season's rows in ``standings`` have the period ``s:<label>`` (``s:2027-03``)."""

_ORDER: Final = {
    "wins": "s.wins DESC, s.matches ASC, s.deal_score_sum DESC, s.ordinal DESC, s.player_key",
    "rating": "s.ordinal DESC, s.wins DESC, s.matches ASC, s.player_key",
}


def period_of(label: str) -> str:
    """The ``standings`` period of the season ``label``."""
    return PREFIX + label


async def season_period(db: Connection, guild_id: int, when: datetime) -> tuple[str, ...]:
    """The standings period of the season a match that ended at ``when`` counts in, as
    the server's settings cut seasons now (none: no seasons), the season noted as
    played; inside the caller's transaction (:meth:`data.matches.MatchStore.record_match`)."""
    async with db.execute(
        "SELECT season, timezone FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ) as cur:
        row = await cur.fetchone()
    mode, tz = (str(row[0]), str(row[1])) if row is not None else ("monthly", DEFAULT_TIMEZONE)
    s = season_at(when, mode, tz)
    if s is None:
        return ()
    await db.execute(
        "INSERT INTO seasons (guild_id, season) VALUES (?, ?) "
        "ON CONFLICT (guild_id, season) DO NOTHING",
        (guild_id, s.label),
    )
    return (period_of(s.label),)


@dataclass(frozen=True, slots=True)
class PodiumPlace:
    """One of a season's top three, as its end recorded them."""

    place: int
    player_key: str
    user_id: int | None
    wins: int
    matches: int
    points: int
    rating: float  # the ordinal after their last match of the season

    @property
    def shown_rating(self) -> int:
        return display_rating(self.rating)

    @property
    def figures(self) -> tuple[int, int, int, float]:
        return (self.wins, self.matches, self.points, self.rating)


def _window(season: Season) -> tuple[str, str]:
    return _iso(season.start), _iso(season.end)


async def _board(db: Connection, guild_id: int, label: str, by: str, limit: int) -> list[Standing]:
    """The season's people, ranked, from its standings rows (on ``db``, inside the
    caller's read or transaction)."""
    order = _ORDER.get(by)
    if order is None:
        raise ValueError(f"by must be 'wins' or 'rating', not {by!r}")
    async with db.execute(
        "SELECT s.*, a.matches AS rated_matches FROM standings s JOIN standings a "
        "ON a.guild_id = s.guild_id AND a.period = 'all' AND a.player_key = s.player_key "
        "WHERE s.guild_id = ? AND s.period = ? AND s.user_id IS NOT NULL "
        f"ORDER BY {order} LIMIT ?",
        (guild_id, period_of(label), limit),
    ) as cur:
        rows = await cur.fetchall()
    return [StandingStore._standing(r, i + 1) for i, r in enumerate(rows)]


class SeasonStore:
    """The servers' seasons (``store.seasons``)."""

    def __init__(
        self, database: Database, announcements: AnnouncementStore, settings: SettingsStore
    ) -> None:
        self.database = database
        self.announcements = announcements
        self.settings = settings

    async def board(
        self, guild_id: int, season: Season | str, *, by: str = "wins", limit: int = 10
    ) -> list[Standing]:
        """The season's people, ranked (``by`` 'wins', the season's own order, or
        'rating': the rating after each one's last match of the season); the first
        ``limit``. ``deal_score_sum`` is the points scored in the season."""
        label = season if isinstance(season, str) else season.label
        async with self.database.read() as db:
            return await _board(db, guild_id, label, by, limit)

    async def labels(self, guild_id: int) -> list[str]:
        """Every season of the server with a rated match, newest first."""
        async with (
            self.database.read() as db,
            db.execute("SELECT season FROM seasons WHERE guild_id = ?", (guild_id,)) as cur,
        ):
            found = [str(r[0]) for r in await cur.fetchall()]
        return sorted((x for x in found if mode_of_label(x)), key=_newest_first)

    async def seasons_played(self, guild_id: int, tz: str, *, limit: int = 25) -> list[Season]:
        """The seasons with at least one rated match, newest first, at most ``limit``;
        their boundaries in zone ``tz``."""
        return [season_of_label(x, tz) for x in (await self.labels(guild_id))[:limit]]

    async def is_closed(self, guild_id: int, label: str) -> bool:
        async with self.database.read():
            found = await self.database.scalar(
                "SELECT 1 FROM seasons WHERE guild_id = ? AND season = ? AND ended IS NOT NULL",
                (guild_id, label),
            )
        return found is not None

    async def due(self, guild_id: int, now: datetime | None = None) -> list[Season]:
        """The seasons to close now, oldest first: those with matches that ended before
        ``now`` (their boundaries in the server's zone) and whose end is not recorded
        yet. Empty for a server without seasons."""
        g = await self.settings.get_guild_settings(guild_id)
        at = now or self.database.now()
        if g.season == "none":
            return []
        async with (
            self.database.read() as db,
            db.execute(
                "SELECT season FROM seasons WHERE guild_id = ? AND ended IS NULL", (guild_id,)
            ) as cur,
        ):
            found = [str(r[0]) for r in await cur.fetchall()]
        ended = [
            s
            for s in (season_of_label(x, g.timezone) for x in found if mode_of_label(x))
            if s.end <= at
        ]
        return sorted(ended, key=lambda s: s.start)

    async def close(
        self, guild_id: int, season: Season, *, channel_id: int | None = None
    ) -> list[PodiumPlace] | None:
        """Record the end of ``season`` with its podium, and the announcement of it, in
        one transaction; the podium, or None when its end was already recorded (by
        this process, another or before a restart: a season ends once) or the server
        never played in it. The
        announcement goes to ``channel_id``, else the server's ``announce_channel``,
        else the channel of the season's last match; none when no person played."""
        g = await self.settings.get_guild_settings(guild_id)
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            await self.database.key_lock("season", guild_id)
            cur = await db.execute(
                "UPDATE seasons SET ended = ?, timezone = ? "
                "WHERE guild_id = ? AND season = ? AND ended IS NULL",
                (now, season.tz, guild_id, season.label),
            )
            if cur.rowcount != 1:
                return None
            top = await _board(db, guild_id, season.label, "wins", PODIUM)
            podium = [
                PodiumPlace(
                    s.rank or 0,
                    s.player_key,
                    s.user_id,
                    s.wins,
                    s.matches,
                    s.deal_score_sum,
                    s.rating,
                )
                for s in top
            ]
            await db.executemany(
                "INSERT INTO season_podium (guild_id, season, place, player_key, user_id, wins, "
                "matches, points, rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (guild_id, season.label, p.place, p.player_key, p.user_id, *p.figures)
                    for p in podium
                ],
            )
            where = (
                channel_id or g.announce_channel or await self._last_channel(db, guild_id, season)
            )
            if podium and where is not None:
                payload = {
                    "season": season.label,
                    "timezone": season.tz,
                    "podium": [
                        {
                            "place": p.place,
                            "user_id": p.user_id,
                            "wins": p.wins,
                            "matches": p.matches,
                            "points": p.points,
                            "rating": p.shown_rating,
                            "settling": s.provisional,
                        }
                        for p, s in zip(podium, top, strict=True)
                    ],
                }
                await self.announcements.enqueue(
                    db, guild_id, [Announcement(SEASON_END, payload, where)], at=now
                )
        return podium

    @staticmethod
    async def _last_channel(db: Connection, guild_id: int, season: Season) -> int | None:
        start, end = _window(season)
        async with db.execute(
            "SELECT g.channel_id FROM matches m JOIN games g ON g.id = m.game_id "
            "WHERE m.guild_id = ? AND m.rated = 1 AND m.finished_at >= ? AND m.finished_at < ? "
            "ORDER BY m.finished_at DESC LIMIT 1",
            (guild_id, start, end),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    async def close_due(self, guild_id: int, now: datetime | None = None) -> list[Season]:
        """Close the seasons :meth:`due` names; those this call closed, oldest first."""
        closed = []
        for s in await self.due(guild_id, now):
            if await self.close(guild_id, s) is not None:
                closed.append(s)
        return closed

    async def podium(self, guild_id: int, label: str) -> list[PodiumPlace]:
        """A closed season's top three, as recorded at its end."""
        async with (
            self.database.read() as db,
            db.execute(
                "SELECT place, player_key, user_id, wins, matches, points, rating "
                "FROM season_podium WHERE guild_id = ? AND season = ? ORDER BY place",
                (guild_id, label),
            ) as cur,
        ):
            rows = await cur.fetchall()
        return [PodiumPlace(*(r[i] for i in range(7))) for r in rows]

    async def titles(self, guild_id: int, player_key: str, *, place: int = 1) -> list[str]:
        """The seasons a player finished at ``place`` (1: champion), newest first."""
        async with (
            self.database.read() as db,
            db.execute(
                "SELECT season FROM season_podium WHERE guild_id = ? AND player_key = ? "
                "AND place = ?",
                (guild_id, player_key, place),
            ) as cur,
        ):
            found = [str(r[0]) for r in await cur.fetchall()]
        return sorted(found, key=_newest_first)


def _newest_first(label: str) -> tuple[int, int, bool]:
    """Newest start first; of a month and a quarter that start together, the quarter."""
    s = season_of_label(label)
    return (-s.year, -s.first_month, s.mode != "quarterly")
