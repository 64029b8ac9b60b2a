"""Achievements (``store.achievements``): granted once per server, person and
achievement, in the transaction that records what earned them.

What earns each one is decided by :mod:`batak.achievements` from the deal records (and
the daily results); :meth:`AchievementStore.recompute` replays everything stored
through the same functions, so the stored set can be checked (``python -m data
achievements --recompute``) and, for a database older than achievements, filled in.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from batak.achievements import (
    CODES,
    MATCH_CODES,
    PlayedMatch,
    Progress,
    daily_week,
    match_facts,
    replay,
)

from .base import Connection, Database, Row, _iso, _utc
from .models import Achievement

Key = tuple[int, int, str]
"""``(guild_id, user_id, code)``: an achievement is granted once per key."""

__all__ = ["Achievement", "AchievementStore", "Recount"]

RECOMPUTED: Final = (*MATCH_CODES, "daily_week")
"""The achievements that follow from stored records (a tournament win is granted by
the tournament and kept as it is)."""

_INSERT: Final = (
    "INSERT INTO achievements (guild_id, user_id, code, earned_at, match_id, day, "
    "tournament_id) VALUES (?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, user_id, code) DO NOTHING"
)
_PROGRESS: Final = (
    "INSERT INTO achievement_progress (guild_id, user_id, suits) VALUES (?, ?, ?) "
    "ON CONFLICT (guild_id, user_id) DO UPDATE SET suits = excluded.suits"
)


@dataclass(frozen=True, slots=True)
class Recount:
    """:meth:`AchievementStore.recompute`'s answer: what the records earn and what is
    stored (tournament wins left out of both), each ``key -> (earned_at, match_id, day)``."""

    computed: dict[Key, tuple[str, int | None, str | None]]
    stored: dict[Key, tuple[str, int | None, str | None]]
    progress: dict[tuple[int, int], str]
    """``(guild_id, user_id) -> suits``: the trumps each person made a contract in."""
    stored_progress: dict[tuple[int, int], str]

    @property
    def same(self) -> bool:
        """The stored achievements (and progress towards ``every_trump``) are exactly
        what the records give."""
        return self.computed == self.stored and self.progress == self.stored_progress

    @property
    def missing(self) -> list[Key]:
        """Earned by the records, not stored (e.g. matches older than achievements)."""
        return sorted(k for k in self.computed if k not in self.stored)

    @property
    def extra(self) -> list[Key]:
        """Stored, not earned by the records."""
        return sorted(k for k in self.stored if k not in self.computed)

    @property
    def changed(self) -> list[Key]:
        """Stored with another date, match or day than the records give."""
        return sorted(
            k for k in self.stored if k in self.computed and self.computed[k] != self.stored[k]
        )


def _order(a: Achievement) -> tuple[int, str]:
    return (CODES.index(a.code) if a.code in CODES else len(CODES), a.earned_at)


class AchievementStore:
    """Achievements and the progress towards them (``store.achievements``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    @staticmethod
    def _row(r: Row) -> Achievement:
        return Achievement(
            guild_id=r["guild_id"],
            user_id=r["user_id"],
            code=r["code"],
            earned_at=r["earned_at"],
            match_id=r["match_id"],
            day=r["day"],
            tournament_id=r["tournament_id"],
            seen_at=r["seen_at"],
        )

    # ------------------------------------------------------------------ granting
    async def grant_match(
        self,
        db: Connection,
        guild_id: int,
        match_id: int,
        at: str,
        user_ids: Sequence[int | None],
        records: Sequence[Mapping[str, Any]],
    ) -> list[Achievement]:
        """Inside the transaction recording a match (which holds the server's standings
        lock, so matches are taken in the order of their ids): what the match newly
        earns its people (``user_ids`` by seat, None for a computer), stored."""
        people = sorted({u for u in user_ids if u is not None})
        if not people:
            return []
        marks = ", ".join("?" for _ in people)
        progress = {u: Progress() for u in people}
        async with db.execute(
            f"SELECT user_id, code FROM achievements WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *people),
        ) as cur:
            for r in await cur.fetchall():
                progress[r[0]].held.add(r[1])
        async with db.execute(
            "SELECT user_id, suits FROM achievement_progress WHERE guild_id = ? "
            f"AND user_id IN ({marks})",
            (guild_id, *people),
        ) as cur:
            for r in await cur.fetchall():
                progress[r[0]].suits |= set(r[1])
        granted: list[Achievement] = []
        suits_before = {u: set(p.suits) for u, p in progress.items()}
        for seat, user_id in enumerate(user_ids):
            if user_id is None:
                continue
            for code in progress[user_id].after_match(match_facts(records, seat)):
                granted.append(Achievement(guild_id, user_id, code, at, match_id=match_id))
        await db.executemany(
            _INSERT,
            [(a.guild_id, a.user_id, a.code, a.earned_at, a.match_id, None, None) for a in granted],
        )
        changed = [
            (guild_id, u, _suits(p.suits))
            for u, p in progress.items()
            if p.suits != suits_before[u]
        ]
        await db.executemany(_PROGRESS, changed)
        return granted

    async def grant_daily(
        self, db: Connection, guild_id: int, user_id: int, day: str, at: str
    ) -> list[Achievement]:
        """Inside the transaction recording a daily result: ``daily_week`` if this result
        completes seven days in a row (and the person has not got it yet), stored."""
        await self.database.key_lock("achievements", guild_id, user_id)
        held = await self.database.scalar(
            "SELECT 1 FROM achievements WHERE guild_id = ? AND user_id = ? AND code = ?",
            (guild_id, user_id, "daily_week"),
        )
        if held is not None:
            return []
        async with db.execute(
            "SELECT day, finished_at FROM daily_results WHERE guild_id = ? AND user_id = ? "
            "AND score IS NOT NULL",
            (guild_id, user_id),
        ) as cur:
            results = [(str(r[0]), str(r[1])) for r in await cur.fetchall()]
        week = daily_week(results)
        if week is None:
            return []
        a = Achievement(guild_id, user_id, "daily_week", week[1], day=week[0])
        await db.execute(_INSERT, (guild_id, user_id, a.code, a.earned_at, None, a.day, None))
        return [a]

    async def grant_tournament_win(
        self, guild_id: int, player: int | None, when: datetime | str, tournament_id: int
    ) -> bool:
        """A person won a tournament: ``tournament_win`` once (their first win; later wins
        change nothing). ``player`` is the winner's user id (None, a computer: nothing).
        True when it was granted now; calling again is harmless (idempotent)."""
        if player is None:
            return False
        at = when if isinstance(when, str) else _iso(_utc(when))
        async with self.database.tx() as db:
            cur = await db.execute(
                _INSERT, (guild_id, player, "tournament_win", at, None, None, tournament_id)
            )
            return bool(cur.rowcount == 1)

    # ------------------------------------------------------------------ reading
    async def of_player(self, guild_id: int, user_id: int) -> list[Achievement]:
        """The person's achievements in the server, in the order of :data:`CODES`."""
        async with (
            self.database.read() as db,
            db.execute(
                "SELECT * FROM achievements WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            ) as cur,
        ):
            return sorted((self._row(r) for r in await cur.fetchall()), key=_order)

    async def of_match(self, match_id: int) -> list[Achievement]:
        """What a match earned its people."""
        async with (
            self.database.read() as db,
            db.execute("SELECT * FROM achievements WHERE match_id = ?", (match_id,)) as cur,
        ):
            rows = [self._row(r) for r in await cur.fetchall()]
        return sorted(rows, key=lambda a: (a.user_id, *_order(a)))

    async def mark_seen(
        self, guild_id: int, user_id: int, codes: Sequence[str] | None = None
    ) -> int:
        """The person was told of these achievements (all, by default); how many were new."""
        sql = (
            "UPDATE achievements SET seen_at = ? WHERE guild_id = ? AND user_id = ? "
            "AND seen_at IS NULL"
        )
        args: list[Any] = [_iso(self.database.now()), guild_id, user_id]
        if codes is not None:
            if not codes:
                return 0
            sql += f" AND code IN ({', '.join('?' for _ in codes)})"
            args += list(codes)
        async with self.database.tx() as db:
            cur = await db.execute(sql, args)
            return int(cur.rowcount)

    # ------------------------------------------------------------------ recomputing
    async def recompute(self, guild_id: int | None = None) -> Recount:
        """What every stored match and daily result earns (one server, or all), next to
        what is stored. Matches are replayed in the order they were recorded."""
        computed: dict[Key, tuple[str, int | None, str | None]] = {}
        where = "" if guild_id is None else " AND m.guild_id = ?"
        args: tuple[Any, ...] = () if guild_id is None else (guild_id,)
        async with self.database.snapshot() as db:
            seats: dict[int, list[int | None]] = {}
            async with db.execute(
                "SELECT p.match_id, p.seat, p.user_id FROM match_players p JOIN matches m "
                f"ON m.id = p.match_id WHERE m.computers_finished = 0{where}",
                args,
            ) as cur:
                for r in await cur.fetchall():
                    seats.setdefault(int(r[0]), [None] * 4)[int(r[1])] = r[2]
            by_guild: dict[int, list[PlayedMatch]] = {}
            async with db.execute(
                "SELECT m.id, m.guild_id, m.finished_at, r.jsonl_z FROM matches m "
                "JOIN match_records r ON r.match_id = m.id "
                f"WHERE m.computers_finished = 0{where} ORDER BY m.id",
                args,
            ) as cur:
                for r in await cur.fetchall():
                    users = seats.get(int(r[0]), [None] * 4)
                    if all(u is None for u in users):
                        continue
                    by_guild.setdefault(int(r[1]), []).append(
                        PlayedMatch(int(r[0]), str(r[2]), _records(r[3]), users)
                    )
            daily: dict[tuple[int, int], list[tuple[str, str]]] = {}
            async with db.execute(
                "SELECT guild_id, user_id, day, finished_at FROM daily_results m "
                f"WHERE score IS NOT NULL{where}",
                args,
            ) as cur:
                for r in await cur.fetchall():
                    daily.setdefault((int(r[0]), int(r[1])), []).append((str(r[2]), str(r[3])))
            stored: dict[Key, tuple[str, int | None, str | None]] = {}
            codes = ", ".join("?" for _ in RECOMPUTED)
            async with db.execute(
                f"SELECT * FROM achievements m WHERE code IN ({codes}){where}",
                (*RECOMPUTED, *args),
            ) as cur:
                for r in await cur.fetchall():
                    stored[(r["guild_id"], r["user_id"], r["code"])] = (
                        r["earned_at"],
                        r["match_id"],
                        r["day"],
                    )
            stored_progress: dict[tuple[int, int], str] = {}
            async with db.execute(
                f"SELECT guild_id, user_id, suits FROM achievement_progress m WHERE 1 = 1{where}",
                args,
            ) as cur:
                for r in await cur.fetchall():
                    stored_progress[(int(r[0]), int(r[1]))] = str(r[2])
        progress_of: dict[tuple[int, int], str] = {}
        for g, matches in by_guild.items():
            earned, progress = replay(matches)
            for user_id, items in earned.items():
                for e in items:
                    computed[(g, user_id, e.code)] = (e.at, e.match_id, e.day)
            for user_id, p in progress.items():
                if p.suits:
                    progress_of[(g, user_id)] = _suits(p.suits)
        for (g, user_id), results in daily.items():
            week = daily_week(results)
            if week is not None:
                computed[(g, user_id, "daily_week")] = (week[1], None, week[0])
        return Recount(computed, stored, progress_of, stored_progress)

    async def apply(self, recount: Recount) -> int:
        """Store what ``recount`` found missing (a database older than achievements), and
        the progress towards ``every_trump`` the records give; how many were added.
        No achievement stored is changed or removed. Run it with the bot stopped."""
        rows = [(g, u, c, *recount.computed[(g, u, c)]) for g, u, c in recount.missing]
        async with self.database.tx() as db:
            await db.executemany(_INSERT, [(g, u, c, at, m, d, None) for g, u, c, at, m, d in rows])
            await db.executemany(_PROGRESS, [(g, u, s) for (g, u), s in recount.progress.items()])
        return len(rows)


def _suits(suits: set[str]) -> str:
    return "".join(s for s in "SHDC" if s in suits)


def _records(blob: bytes) -> list[dict[str, Any]]:
    """A match's deal records from their stored form (zlib-compressed JSON Lines)."""
    text = zlib.decompress(bytes(blob)).decode()
    return [json.loads(line) for line in text.splitlines() if line]
