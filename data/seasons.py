"""A server's seasons: each season's board, read from the rated matches that ended in
it, and the end of a season, recorded once with its podium and its announcement.

A season's board ranks people (never the computer levels) by the matches they won in
the season (placed first), then by fewer matches played, then by the points they scored
(their match totals summed), then by rating. The rating shown is the player's rating
after their last match of the season: ratings are never reset, a season is a fresh
race for wins. The seasons themselves are :mod:`data.season_calendar`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Final

from .announcements import AnnouncementStore
from .base import Connection, Database, _iso
from .guild_settings import SettingsStore
from .models import Announcement, Standing, display_rating, ordinal
from .season_calendar import Season, season_at

SEASON_END: Final = "season_end"
"""The kind of the announcement a season's end is posted by (``cogs.seasons``)."""
PODIUM: Final = 3

_BOARD: Final = (
    "SELECT p.player_key, max(p.user_id) AS user_id, count(*) AS matches, "
    "sum(p.won) AS wins, sum(p.deals) AS deals, sum(p.total) AS points, "
    "sum(p.contracts_taken) AS taken, sum(p.contracts_made) AS made, "
    "sum(p.went_down) AS down, max(p.match_id) AS last_id, max(m.finished_at) AS last_at "
    "FROM matches m JOIN match_players p ON p.match_id = m.id "
    "WHERE m.guild_id = ? AND m.rated = 1 AND m.finished_at >= ? AND m.finished_at < ? "
    "AND p.user_id IS NOT NULL GROUP BY p.player_key"
)


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


def _key(by: str) -> Any:
    if by == "wins":
        return lambda s: (-s.wins, s.matches, -s.deal_score_sum, -s.rating, s.player_key)
    if by == "rating":
        return lambda s: (-s.rating, -s.wins, s.matches, s.player_key)
    raise ValueError(f"by must be 'wins' or 'rating', not {by!r}")


async def _board(db: Connection, guild_id: int, season: Season, by: str) -> list[Standing]:
    """Every person's line of the season, ranked (run on ``db``, inside the caller's read)."""
    start, end = _window(season)
    async with db.execute(_BOARD, (guild_id, start, end)) as cur:
        rows = list(await cur.fetchall())
    if not rows:
        return []
    ids = sorted({int(r["last_id"]) for r in rows})
    keys = sorted({str(r["player_key"]) for r in rows})
    rating: dict[tuple[int, str], tuple[float, float]] = {}
    for i in range(0, len(ids), 500):
        part = ids[i : i + 500]
        marks = ", ".join("?" for _ in part)
        async with db.execute(
            "SELECT match_id, player_key, mu_after, sigma_after FROM match_players "
            f"WHERE match_id IN ({marks})",
            part,
        ) as cur:
            for r in await cur.fetchall():
                rating[(int(r[0]), str(r[1]))] = (float(r[2]), float(r[3]))
    counts: dict[str, int] = {}
    for i in range(0, len(keys), 500):
        part_k = keys[i : i + 500]
        marks = ", ".join("?" for _ in part_k)
        async with db.execute(
            "SELECT player_key, matches FROM standings WHERE guild_id = ? AND period = 'all' "
            f"AND player_key IN ({marks})",
            (guild_id, *part_k),
        ) as cur:
            counts.update({str(r[0]): int(r[1]) for r in await cur.fetchall()})
    out = []
    for r in rows:
        mu, sigma = rating[(int(r["last_id"]), str(r["player_key"]))]
        o = ordinal(mu, sigma)
        out.append(
            Standing(
                guild_id=guild_id,
                period=season.label,
                player_key=str(r["player_key"]),
                user_id=r["user_id"],
                bot_level=None,
                matches=int(r["matches"]),
                wins=int(r["wins"]),
                deals=int(r["deals"]),
                deal_score_sum=int(r["points"]),
                contracts_taken=int(r["taken"]),
                contracts_made=int(r["made"]),
                went_down=int(r["down"]),
                mu=mu,
                sigma=sigma,
                rating=o,
                start_rating=o,
                last_match_at=str(r["last_at"]),
                rated_matches=counts.get(str(r["player_key"]), int(r["matches"])),
            )
        )
    out.sort(key=_key(by))
    return [_ranked(s, i + 1) for i, s in enumerate(out)]


def _ranked(s: Standing, rank: int) -> Standing:
    return replace(s, rank=rank)


class SeasonStore:
    """The servers' seasons (``store.seasons``)."""

    def __init__(
        self, database: Database, announcements: AnnouncementStore, settings: SettingsStore
    ) -> None:
        self.database = database
        self.announcements = announcements
        self.settings = settings

    async def board(
        self, guild_id: int, season: Season, *, by: str = "wins", limit: int = 10
    ) -> list[Standing]:
        """The season's people, ranked (``by`` 'wins', the season's own order, or
        'rating': the rating after each one's last match of the season); the first
        ``limit``. ``deal_score_sum`` is the points scored in the season."""
        _key(by)
        async with self.database.snapshot() as db:
            return (await _board(db, guild_id, season, by))[:limit]

    async def latest_before(self, guild_id: int, before: datetime | None = None) -> str | None:
        """When the server's last rated match before ``before`` (or ever) ended."""
        sql = "SELECT max(finished_at) FROM matches WHERE guild_id = ? AND rated = 1"
        args: list[Any] = [guild_id]
        if before is not None:
            sql += " AND finished_at < ?"
            args.append(_iso(before))
        async with self.database.read():
            found = await self.database.scalar(sql, args)
        return None if found is None else str(found)

    async def seasons_played(
        self, guild_id: int, mode: str, tz: str, *, limit: int = 25
    ) -> list[Season]:
        """The seasons (as ``mode`` and ``tz`` cut them) with at least one rated match,
        newest first, at most ``limit``: one index lookup per season, however many
        matches the server has."""
        out: list[Season] = []
        before: datetime | None = None
        while len(out) < limit:
            last = await self.latest_before(guild_id, before)
            if last is None:
                break
            s = season_at(datetime.fromisoformat(last), mode, tz)
            if s is None:
                break
            out.append(s)
            before = s.start
        return out

    async def is_closed(self, guild_id: int, label: str) -> bool:
        async with self.database.read():
            found = await self.database.scalar(
                "SELECT 1 FROM season_ends WHERE guild_id = ? AND season = ?", (guild_id, label)
            )
        return found is not None

    async def due(self, guild_id: int, now: datetime | None = None) -> Season | None:
        """The season to close now: the one of the server's last rated match before the
        current season began, unless its end is already recorded (None: nothing to do,
        or the server runs no seasons)."""
        g = await self.settings.get_guild_settings(guild_id)
        current = season_at(now or self.database.now(), g.season, g.timezone)
        if current is None:
            return None
        last = await self.latest_before(guild_id, current.start)
        if last is None:
            return None
        s = season_at(datetime.fromisoformat(last), g.season, g.timezone)
        if s is None or await self.is_closed(guild_id, s.label):
            return None
        return s

    async def close(
        self, guild_id: int, season: Season, *, channel_id: int | None = None
    ) -> list[PodiumPlace] | None:
        """Record the end of ``season`` with its podium, and the announcement of it, in
        one transaction; the podium, or None when its end was already recorded (by
        this process, another or before a restart: a season ends once). The
        announcement goes to ``channel_id``, else the server's ``announce_channel``,
        else the channel of the season's last match; none when no person played."""
        g = await self.settings.get_guild_settings(guild_id)
        start, end = _window(season)
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            await self.database.key_lock("season", guild_id)
            cur = await db.execute(
                "INSERT INTO season_ends (guild_id, season, timezone, starts_at, ends_at, "
                "closed_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, season) DO NOTHING",
                (guild_id, season.label, season.tz, start, end, now),
            )
            if cur.rowcount != 1:
                return None
            top = (await _board(db, guild_id, season, "wins"))[:PODIUM]
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

    async def close_due(self, guild_id: int, now: datetime | None = None) -> Season | None:
        """Close the season :meth:`due` names, if any; the season this call closed."""
        s = await self.due(guild_id, now)
        if s is None:
            return None
        return s if await self.close(guild_id, s) is not None else None

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
                "AND place = ? ORDER BY season DESC",
                (guild_id, player_key, place),
            ) as cur,
        ):
            return [str(r[0]) for r in await cur.fetchall()]
