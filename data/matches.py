"""Finished matches: the match, its players and deal records, and the standings update
that goes with it."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from batak import scoring
from batak.rules import MIN_RATED_DEALS, Rules, preset

from . import ratings
from .achievements import AchievementStore
from .announcements import AnnouncementStore
from .base import (
    CLOSE_GAME,
    Connection,
    Database,
    _dumps,
    _iso,
    _utc,
)
from .models import (
    AlreadyRecordedError,
    Announcement,
    MatchPlayer,
    MatchSummary,
    Seat,
)
from .seasons import season_period
from .standings import _UPSERT_STANDING, _standing_rows

MATCH_COLUMNS: Final = (
    "guild_id",
    "game_id",
    "preset",
    "rules",
    "seed",
    "partnership",
    "deals",
    "finished_at",
    "month",
    "rated",
    "computers_finished",
)
"""The columns of ``matches`` a finished match is written with (its ``id`` is given by
the database). ``python -m data bench`` fills its test database by these names too."""

PLAYER_COLUMNS: Final = (
    "match_id",
    "seat",
    "guild_id",
    "player_key",
    "user_id",
    "bot_level",
    "total",
    "placement",
    "won",
    "deals",
    "contracts_taken",
    "contracts_made",
    "went_down",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)
"""The columns of ``match_players``, one row per seat of a finished match."""


def insert_sql(table: str, columns: Sequence[str]) -> str:
    """``INSERT INTO table (columns) VALUES (?, ...)`` for these columns."""
    marks = ", ".join("?" for _ in columns)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"


# ----------------------------------------------------------------- records -> statistics
def seat_stats(records: Sequence[Mapping[str, Any]], seat: int) -> dict[str, int]:
    """Deals, summed deal score, contracts taken / made and times went down for one seat.

    A contract is *taken* by the seat that holds it and *made* as
    :func:`batak.scoring.contract_made` says, under the record's rules. A seat
    *went down* in a deal when its score for the deal was negative.
    """
    out = {"deals": 0, "score": 0, "taken": 0, "made": 0, "down": 0}
    for rec in records:
        score = int(rec["score"][seat])
        out["deals"] += 1
        out["score"] += score
        if score < 0:
            out["down"] += 1
        contract = rec.get("contract")
        if contract and contract.get("seat") == seat:
            out["taken"] += 1
            holding = scoring.Holding(seat, int(contract["bid"]))
            if scoring.contract_made(_rules_of(rec), holding, rec["tricks_won"]):
                out["made"] += 1
    return out


def _rules_of(record: Mapping[str, Any]) -> Rules:
    """The rules a record was played under (a record without them: ``standard``)."""
    raw = record.get("rules")
    return Rules.from_dict(dict(raw)) if isinstance(raw, Mapping) else preset("standard")


def placements_of(
    totals: Sequence[int], winners: Sequence[int] | None = None, *, partnership: bool = False
) -> list[int]:
    """Each seat's place, by :func:`batak.scoring.placements`: equal totals share a
    place, and in partnerships both partners share their pair's (1st and 1st, 2nd
    and 2nd). ``winners``, when given, must be the seats placed 1st: a caller whose
    winners disagree with the totals gets a ``ValueError`` rather than a wrong table.
    """
    places = scoring.placements(totals, partnership=partnership)
    if winners is not None and sorted(winners) != [s for s in range(4) if places[s] == 1]:
        raise ValueError(
            f"winners {sorted(winners)} are not the seats with the best total {list(totals)}"
        )
    return places


def too_short_to_rate(records: Sequence[Mapping[str, Any]], rules: Mapping[str, Any]) -> bool:
    """A try-out: fewer than :data:`~batak.rules.MIN_RATED_DEALS` deals were played, or
    the rules set a match that short. The table service already makes such a table
    casual; the store refuses to rate one all the same."""
    deals = rules.get("deals")
    short = isinstance(deals, int) and not isinstance(deals, bool) and deals < MIN_RATED_DEALS
    return short or len(records) < MIN_RATED_DEALS


def encode_records(records: Iterable[Mapping[str, Any]]) -> bytes:
    return zlib.compress("".join(_dumps(r) + "\n" for r in records).encode(), 6)


def decode_records(blob: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in zlib.decompress(blob).decode().splitlines() if line]


class MatchStore:
    """Finished matches and the standings update they bring (``store.matches``)."""

    def __init__(
        self,
        database: Database,
        announcements: AnnouncementStore,
        achievements: AchievementStore | None = None,
    ) -> None:
        self.database = database
        self.announcements = announcements  # what to post is stored with the result
        self.achievements = achievements or AchievementStore(database)  # granted with it

    async def record_match(
        self,
        guild_id: int,
        seats: Sequence[Seat],
        records: Sequence[Mapping[str, Any]],
        *,
        rules: Mapping[str, Any],
        seed: int | None = None,
        totals: Sequence[int] | None = None,
        winners: Sequence[int] | None = None,
        game_id: int | None = None,
        finished_at: datetime | None = None,
        announcements: Sequence[Announcement] = (),
        rated: bool = True,
        computers_finished: bool = False,
    ) -> MatchSummary:
        """Store a finished match and update the server's standings, in one transaction.

        ``records`` are the match's batak-deal/1 dicts in order; ``totals`` default to
        the sum of their scores, ``winners`` (seats) to the seats with the best total.
        Each seat's standings key is its person (also when a computer stood in for
        them) or its computer level. With ``game_id`` the table is marked finished in
        the same transaction; recording the same game twice raises ``AlreadyRecordedError``
        (with the first ``match_id``) and writes nothing. ``announcements`` are stored in
        that transaction too (``pending_announcements``, with this ``match_id``): the
        result, the closed table and what to post about it are durable together.

        A casual match (``rated=False``) is stored with its players and records for the
        history, but changes no rating and no standing: its players' ratings before and
        after are the same. ``computers_finished``: every person had left and the
        computers played it to its end; such a match is never rated. Nor is a try-out:
        fewer than :data:`~batak.rules.MIN_RATED_DEALS` deals played (or set in
        ``rules``), whatever the caller says.

        Each player carries its ``rated_matches`` in the server, this match included.
        The achievements the match earns its people (:mod:`batak.achievements`; none in
        a match the computers finished) are granted in the same transaction and listed
        in the summary's ``achievements``.
        """
        if computers_finished or too_short_to_rate(records, rules):
            rated = False
        if len(seats) != 4 or any(s.is_empty for s in seats):
            raise ValueError("a finished match has four occupied seats")
        if not records:
            raise ValueError("a finished match has at least one deal")
        if totals is None:
            totals = [sum(int(r["score"][s]) for r in records) for s in range(4)]
        if len(totals) != 4:
            raise ValueError("four totals expected")
        totals = [int(t) for t in totals]
        partnership = bool(rules.get("partnership", False))
        places = placements_of(totals, winners, partnership=partnership)
        keys = [s.player_key for s in seats]
        preset = str(rules.get("preset", "standard"))
        when = self.database.now() if finished_at is None else _utc(finished_at)
        at = _iso(when)
        month = when.strftime("%Y-%m")
        stats = [seat_stats(records, s) for s in range(4)]
        blob = encode_records(records)

        async with self.database.tx() as db:
            if game_id is not None:
                # under the write lock: a second call sees the first one's match
                first = await self.database.scalar(
                    "SELECT id FROM matches WHERE game_id = ?", (game_id,)
                )
                if first is not None:
                    raise AlreadyRecordedError(
                        f"game {game_id} was already recorded as match {first}",
                        game_id=game_id,
                        match_id=int(first),
                    )
                await self.database.open_row(game_id)
            # ratings are read, then written, and achievements granted in the order of
            # the match ids: one match of the server at a time, from before its id is given
            await self.database.key_lock("standings", guild_id)
            try:
                cur = await db.execute(
                    insert_sql("matches", MATCH_COLUMNS) + " RETURNING id",
                    (
                        guild_id,
                        game_id,
                        preset,
                        _dumps(dict(rules)),
                        seed,
                        int(partnership),
                        len(records),
                        at,
                        month,
                        int(rated),
                        int(computers_finished),
                    ),
                )
            except Exception as e:
                # Only the unique game_id is "already recorded"; any other failed
                # constraint is a real error and is raised as it is.
                if game_id is None or not db.is_unique_violation(e, "matches", "game_id"):
                    raise
                raise AlreadyRecordedError(
                    f"game {game_id} was already recorded", game_id=game_id
                ) from e
            match_id = int((await cur.fetchone())[0])
            await db.execute(
                "INSERT INTO match_records (match_id, jsonl_z) VALUES (?, ?)", (match_id, blob)
            )
            uniq = sorted(set(keys))
            marks = ", ".join("?" for _ in uniq)
            async with db.execute(
                f"SELECT player_key, mu, sigma, matches FROM standings WHERE guild_id = ? "
                f"AND period = 'all' AND player_key IN ({marks})",
                (guild_id, *uniq),
            ) as c:
                found = await c.fetchall()
            prior = {r[0]: (float(r[1]), float(r[2])) for r in found}
            counts = {r[0]: int(r[3]) for r in found}
            if rated:  # the standings count one match per seat a key holds
                for k in keys:
                    counts[k] = counts.get(k, 0) + 1
            before = {k: prior.get(k, (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)) for k in uniq}
            if rated:
                after = ratings.rate_match(keys, places, before, partnership=partnership)
            else:
                after = before

            players = []
            for s in range(4):
                st = stats[s]
                k = keys[s]
                players.append(
                    MatchPlayer(
                        seat=s,
                        player_key=k,
                        user_id=seats[s].user_id,
                        bot_level=None if seats[s].user_id is not None else seats[s].bot_level,
                        total=totals[s],
                        placement=places[s],
                        won=places[s] == 1,
                        deals=st["deals"],
                        contracts_taken=st["taken"],
                        contracts_made=st["made"],
                        went_down=st["down"],
                        mu_before=before[k][0],
                        sigma_before=before[k][1],
                        mu_after=after[k][0],
                        sigma_after=after[k][1],
                        rated_matches=counts.get(k, 0),
                    )
                )
            await db.executemany(
                insert_sql("match_players", PLAYER_COLUMNS),
                [
                    (
                        match_id,
                        p.seat,
                        guild_id,
                        p.player_key,
                        p.user_id,
                        p.bot_level,
                        p.total,
                        p.placement,
                        int(p.won),
                        p.deals,
                        p.contracts_taken,
                        p.contracts_made,
                        p.went_down,
                        p.mu_before,
                        p.sigma_before,
                        p.mu_after,
                        p.sigma_after,
                    )
                    for p in players
                ],
            )
            if rated:
                season = await season_period(db, guild_id, when)  # its season too, if any
                rows = _standing_rows(guild_id, month, at, players, *season)
                await db.executemany(_UPSERT_STANDING, rows)
            earned = []
            if not computers_finished:  # the computers' play earns the people nothing
                earned = await self.achievements.grant_match(
                    db, guild_id, match_id, at, [s.user_id for s in seats], records
                )
            if game_id is not None:
                await db.execute(CLOSE_GAME, ("finished", at, at, game_id))
            await self.announcements.enqueue(
                db, guild_id, announcements, game_id=game_id, match_id=match_id, at=at
            )
        return MatchSummary(
            id=match_id,
            guild_id=guild_id,
            game_id=game_id,
            preset=preset,
            rules=dict(rules),
            seed=seed,
            partnership=partnership,
            deals=len(records),
            finished_at=at,
            players=tuple(players),
            records=tuple(dict(r) for r in records),
            rated=rated,
            computers_finished=computers_finished,
            achievements=tuple(earned),
        )

    async def _match_summaries(
        self,
        db: Connection,
        match_ids: Sequence[int],
        with_records: bool,
        with_counts: bool = False,
    ) -> list[MatchSummary]:
        if not match_ids:
            return []
        marks = ", ".join("?" for _ in match_ids)
        counts: dict[tuple[int, int], int] = {}
        if with_counts:
            # each player's rated matches in the server up to this one (as the standings
            # counted them then: one per seat)
            async with db.execute(
                "SELECT p.match_id, p.seat, (SELECT count(*) FROM match_players q "
                "JOIN matches m ON m.id = q.match_id WHERE q.guild_id = p.guild_id "
                "AND q.player_key = p.player_key AND q.match_id <= p.match_id "
                f"AND m.rated = 1) FROM match_players p WHERE p.match_id IN ({marks})",
                match_ids,
            ) as cur:
                counts = {(r[0], r[1]): int(r[2]) for r in await cur.fetchall()}
        async with db.execute(f"SELECT * FROM matches WHERE id IN ({marks})", match_ids) as cur:
            rows = {r["id"]: r for r in await cur.fetchall()}
        players: dict[int, list[MatchPlayer]] = {m: [] for m in match_ids}
        async with db.execute(
            f"SELECT * FROM match_players WHERE match_id IN ({marks}) ORDER BY match_id, seat",
            match_ids,
        ) as cur:
            async for r in cur:
                players[r["match_id"]].append(
                    MatchPlayer(
                        seat=r["seat"],
                        player_key=r["player_key"],
                        user_id=r["user_id"],
                        bot_level=r["bot_level"],
                        total=r["total"],
                        placement=r["placement"],
                        won=bool(r["won"]),
                        deals=r["deals"],
                        contracts_taken=r["contracts_taken"],
                        contracts_made=r["contracts_made"],
                        went_down=r["went_down"],
                        mu_before=r["mu_before"],
                        sigma_before=r["sigma_before"],
                        mu_after=r["mu_after"],
                        sigma_after=r["sigma_after"],
                        rated_matches=counts.get((r["match_id"], r["seat"])),
                    )
                )
        records: dict[int, tuple[dict[str, Any], ...]] = {}
        if with_records:
            async with db.execute(
                f"SELECT match_id, jsonl_z FROM match_records WHERE match_id IN ({marks})",
                match_ids,
            ) as cur:
                async for r in cur:
                    records[r[0]] = tuple(decode_records(r[1]))
        out = []
        for m in match_ids:
            if m not in rows:
                continue
            r = rows[m]
            out.append(
                MatchSummary(
                    id=m,
                    guild_id=r["guild_id"],
                    game_id=r["game_id"],
                    preset=r["preset"],
                    rules=json.loads(r["rules"]),
                    seed=r["seed"],
                    partnership=bool(r["partnership"]),
                    deals=r["deals"],
                    finished_at=r["finished_at"],
                    players=tuple(players[m]),
                    records=records.get(m) if with_records else None,
                    rated=bool(r["rated"]),
                    computers_finished=bool(r["computers_finished"]),
                )
            )
        return out

    async def get_match(self, match_id: int, *, with_records: bool = True) -> MatchSummary | None:
        async with self.database.snapshot() as db:
            found = await self._match_summaries(db, [match_id], with_records, with_counts=True)
        return found[0] if found else None

    async def recent_matches(
        self,
        guild_id: int,
        player_key: str | None = None,
        *,
        limit: int = 10,
        before_id: int | None = None,
        with_records: bool = False,
    ) -> list[MatchSummary]:
        """The server's (or one player's) latest finished matches, newest first.

        ``player_key`` is ``user_key(user_id)`` or ``bot_key(level)``; ``before_id``
        pages back; ``with_records`` adds the deal records (for a JSONL download).
        """
        upper = before_id if before_id is not None else 1 << 62
        async with self.database.snapshot() as db:
            if player_key is None:
                sql = (
                    "SELECT id FROM matches WHERE guild_id = ? AND id < ? ORDER BY id DESC LIMIT ?"
                )
                args: tuple[Any, ...] = (guild_id, upper, limit)
            else:
                sql = (
                    "SELECT DISTINCT match_id FROM match_players WHERE guild_id = ? "
                    "AND player_key = ? AND match_id < ? ORDER BY match_id DESC LIMIT ?"
                )
                args = (guild_id, player_key, upper, limit)
            async with db.execute(sql, args) as cur:
                ids = [r[0] for r in await cur.fetchall()]
            return await self._match_summaries(db, ids, with_records)

    async def match_records_jsonl(self, match_ids: Sequence[int]) -> str:
        """The deal records of these matches as JSON Lines (batak-deal/1), in the given order."""
        out: list[str] = []
        async with self.database.read() as db:
            for m in match_ids:
                async with db.execute(
                    "SELECT jsonl_z FROM match_records WHERE match_id = ?", (m,)
                ) as cur:
                    row = await cur.fetchone()
                if row is not None:
                    out.append(zlib.decompress(row[0]).decode())
        return "".join(out)
