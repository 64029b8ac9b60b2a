"""Per-server standings (openskill ratings, wins) for all time and per month."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from . import ratings
from .base import (
    ALL_TIME,
    Database,
    Row,
    _period,
)
from .models import (
    PROVISIONAL_MATCHES,
    MatchPlayer,
    Standing,
    ordinal,
)

STANDING_COLUMNS: Final = (
    "guild_id",
    "period",
    "player_key",
    "user_id",
    "bot_level",
    "matches",
    "wins",
    "deals",
    "deal_score_sum",
    "contracts_taken",
    "contracts_made",
    "went_down",
    "mu",
    "sigma",
    "ordinal",
    "start_ordinal",
    "last_match_at",
)
"""The columns of a ``standings`` row as the store writes it (``python -m data bench``
fills its test database by these names too)."""
_UPSERT_STANDING: Final = (
    f"INSERT INTO standings ({', '.join(STANDING_COLUMNS)}) VALUES "
    f"({', '.join('?' for _ in STANDING_COLUMNS)}) "
    "ON CONFLICT (guild_id, period, player_key) DO UPDATE SET "
    "matches = standings.matches + excluded.matches, wins = standings.wins + excluded.wins, "
    "deals = standings.deals + excluded.deals, "
    "deal_score_sum = standings.deal_score_sum + excluded.deal_score_sum, "
    "contracts_taken = standings.contracts_taken + excluded.contracts_taken, "
    "contracts_made = standings.contracts_made + excluded.contracts_made, "
    "went_down = standings.went_down + excluded.went_down, "
    "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
    "last_match_at = CASE WHEN excluded.last_match_at > standings.last_match_at "
    "THEN excluded.last_match_at ELSE standings.last_match_at END"
)


def _standing_rows(
    guild_id: int, month: str, at: str, players: Sequence[MatchPlayer], *more: str
) -> list[tuple[Any, ...]]:
    """Standings increments for the all-time and the month rows, and the ``more``
    periods (a season: ``s:2027-03``); one row per key and period."""
    agg: dict[str, list[Any]] = {}
    for p in players:
        a = agg.get(p.player_key)
        if a is None:
            a = agg[p.player_key] = [p.user_id, p.bot_level, 0, 0, 0, 0, 0, 0, 0, p]
        a[2] += 1
        a[3] += int(p.won)
        a[4] += p.deals
        a[5] += p.total
        a[6] += p.contracts_taken
        a[7] += p.contracts_made
        a[8] += p.went_down
    rows = []
    initial = ordinal(ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
    for key, a in agg.items():
        p = a[9]
        new_ord = ordinal(p.mu_after, p.sigma_after)
        old_ord = ordinal(p.mu_before, p.sigma_before)
        for period in (ALL_TIME, month, *more):
            start = initial if period == ALL_TIME else old_ord
            rows.append(
                (
                    guild_id,
                    period,
                    key,
                    a[0],
                    a[1],
                    a[2],
                    a[3],
                    a[4],
                    a[5],
                    a[6],
                    a[7],
                    a[8],
                    p.mu_after,
                    p.sigma_after,
                    new_ord,
                    start,
                    at,
                )
            )
    return rows


class StandingStore:
    """The servers' standings (``store.standings``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    @staticmethod
    def _standing(r: Row, rank: int | None = None) -> Standing:
        return Standing(
            guild_id=r["guild_id"],
            period=r["period"],
            player_key=r["player_key"],
            user_id=r["user_id"],
            bot_level=r["bot_level"],
            matches=r["matches"],
            wins=r["wins"],
            deals=r["deals"],
            deal_score_sum=r["deal_score_sum"],
            contracts_taken=r["contracts_taken"],
            contracts_made=r["contracts_made"],
            went_down=r["went_down"],
            mu=r["mu"],
            sigma=r["sigma"],
            rating=r["ordinal"],
            start_rating=r["start_ordinal"],
            last_match_at=r["last_match_at"],
            rank=rank,
            rated_matches=r["rated_matches"],
        )

    async def leaderboard(
        self,
        guild_id: int,
        *,
        by: str = "rating",
        period: str = ALL_TIME,
        limit: int = 10,
        offset: int = 0,
        include_bots: bool = True,
        min_matches: int = 1,
        bots_only: bool = False,
        settled: bool | None = None,
    ) -> list[Standing]:
        """The server's standings: ``by`` 'rating' or 'wins'; ``period`` 'all', 'month'
        (this UTC month) or 'YYYY-MM'. In a month, ratings are as of each player's
        last match of that month. Entries carry their 1-based ``rank``.
        ``include_bots=False`` ranks people only, ``bots_only`` the computer levels only.
        ``settled`` True ranks only the players past their first
        :data:`~data.models.PROVISIONAL_MATCHES` rated matches (all time), False lists
        only those still settling in; None: everyone."""
        per = _period(period, self.database.now())
        order = {
            "rating": "s.ordinal DESC, s.wins DESC, s.player_key",
            "wins": "s.wins DESC, s.matches ASC, s.ordinal DESC, s.player_key",
        }.get(by)
        if order is None:
            raise ValueError(f"by must be 'rating' or 'wins', not {by!r}")
        bots = "" if include_bots else " AND s.user_id IS NOT NULL"
        if bots_only:
            bots = " AND s.user_id IS NULL"
        if settled is not None:
            bots += f" AND a.matches {'>=' if settled else '<'} {PROVISIONAL_MATCHES}"
        sql = (
            f"SELECT s.*, a.matches AS rated_matches FROM standings s JOIN standings a "
            "ON a.guild_id = s.guild_id AND a.period = 'all' AND a.player_key = s.player_key "
            f"WHERE s.guild_id = ? AND s.period = ? AND s.matches >= ?{bots} "
            f"ORDER BY {order} LIMIT ? OFFSET ?"
        )
        async with (
            self.database.read() as db,
            db.execute(sql, (guild_id, per, min_matches, limit, offset)) as cur,
        ):
            rows = await cur.fetchall()
        return [self._standing(r, offset + i + 1) for i, r in enumerate(rows)]

    async def player_stats(
        self, guild_id: int, player_key: str, *, period: str = ALL_TIME, include_bots: bool = True
    ) -> Standing | None:
        """One player's standing, or None. ``rank`` is its place on the leaderboard by
        rating (the same ``include_bots`` choice)."""
        per = _period(period, self.database.now())
        bots = "" if include_bots else " AND user_id IS NOT NULL"
        async with self.database.snapshot() as db:
            async with db.execute(
                "SELECT s.*, a.matches AS rated_matches FROM standings s JOIN standings a "
                "ON a.guild_id = s.guild_id AND a.period = 'all' AND a.player_key = s.player_key "
                "WHERE s.guild_id = ? AND s.period = ? AND s.player_key = ?",
                (guild_id, per, player_key),
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            higher = await self.database.scalar(
                "SELECT count(*) FROM standings WHERE guild_id = ? AND period = ? "
                f"AND ordinal > ?{bots}",
                (guild_id, per, row["ordinal"]),
            )
        return self._standing(row, int(higher) + 1)

    async def rating(self, guild_id: int, player_key: str) -> tuple[float, float]:
        """Current (mu, sigma); the model's starting rating for a player never seen."""
        async with self.database.read():
            row = await self.database.scalar_row(
                "SELECT mu, sigma FROM standings WHERE guild_id = ? AND period = 'all' "
                "AND player_key = ?",
                (guild_id, player_key),
            )
        if row is None:
            return (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
        return (float(row[0]), float(row[1]))
