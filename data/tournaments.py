"""Swiss tournaments: sign-ups, rounds and their tables, results and the winner
(``store.tournaments``).

Every change is one transaction, so a restart finds a tournament exactly as it was
left: who signed up or withdrew, the round under way, each table's game and result,
which standings were already posted. The pairing itself is the engine's
(:mod:`batak.swiss`); the store keeps what it decided.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from .base import Database, Row, _dumps, _iso
from .models import StoreError

TOURNAMENT_STATUSES: Final = ("signup", "running", "finished", "cancelled")


class TournamentError(StoreError):
    """A tournament change the store refused."""


class TournamentNotFoundError(TournamentError, LookupError):
    """No tournament with that id (in that server)."""


class AlreadySignedUpError(TournamentError):
    """The person is signed up already."""


class NotSignedUpError(TournamentError):
    """The person is not signed up (or withdrew already)."""


class SignupClosedError(TournamentError):
    """Sign-ups are closed: the first round started, or the tournament is over."""


class RoundStartedError(TournamentError):
    """That round was started already (``current`` is the round under way)."""

    def __init__(self, message: str, current: int) -> None:
        super().__init__(message)
        self.current = current


class TournamentClosedError(TournamentError):
    """The tournament is finished or cancelled."""


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    status: str
    rounds: int | None
    """The number of rounds; None until the first round decides it (the default)."""
    current_round: int
    pace: str
    round_deadline_s: int
    settings: dict[str, Any]
    signup_message_id: int | None
    round_deadline_at: str | None
    announced_round: int
    winner_id: int | None
    created_at: str
    finished_at: str | None
    final_announced_at: str | None

    @property
    def is_open(self) -> bool:
        return self.status in ("signup", "running")


@dataclass(frozen=True, slots=True)
class Entrant:
    user_id: int
    name: str | None
    seq: int
    joined_at: str
    withdrawn_round: int | None
    """The round under way when they withdrew (0: before the first)."""

    @property
    def active(self) -> bool:
        return self.withdrawn_round is None


@dataclass(frozen=True, slots=True)
class TournamentTable:
    tournament_id: int
    round_no: int
    table_no: int
    players: tuple[int | None, ...]
    """By seat; None: a computer."""
    game_id: int | None
    placements: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    finished_at: str | None

    @property
    def finished(self) -> bool:
        return self.placements is not None


def _tournament(r: Row) -> Tournament:
    return Tournament(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        organiser_id=r["organiser_id"],
        status=r["status"],
        rounds=r["rounds"],
        current_round=r["current_round"],
        pace=r["pace"],
        round_deadline_s=r["round_deadline_s"],
        settings=json.loads(r["settings"]),
        signup_message_id=r["signup_message_id"],
        round_deadline_at=r["round_deadline_at"],
        announced_round=r["announced_round"],
        winner_id=r["winner_id"],
        created_at=r["created_at"],
        finished_at=r["finished_at"],
        final_announced_at=r["final_announced_at"],
    )


def _table(r: Row) -> TournamentTable:
    placements = r["placements"]
    totals = r["totals"]
    return TournamentTable(
        tournament_id=r["tournament_id"],
        round_no=r["round_no"],
        table_no=r["table_no"],
        players=tuple(json.loads(r["players"])),
        game_id=r["game_id"],
        placements=None if placements is None else tuple(json.loads(placements)),
        totals=None if totals is None else tuple(json.loads(totals)),
        finished_at=r["finished_at"],
    )


class TournamentStore:
    """Tournaments, their entrants and their tables (``store.tournaments``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # ------------------------------------------------------------------ the tournament
    async def create(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        *,
        rounds: int | None,
        pace: str,
        round_deadline_s: int,
        settings: Mapping[str, Any],
    ) -> Tournament:
        """A new tournament, open for sign-ups."""
        if rounds is not None and rounds < 1:
            raise ValueError("a tournament has at least one round")
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            cur = await db.execute(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, status, rounds, "
                "pace, round_deadline_s, settings, created_at, updated_at) "
                "VALUES (?, ?, ?, 'signup', ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    organiser_id,
                    rounds,
                    pace,
                    round_deadline_s,
                    _dumps(dict(settings)),
                    now,
                    now,
                ),
            )
            row = await cur.fetchone()
        assert row is not None
        return await self.get(int(row["id"]))

    async def get(self, tournament_id: int, guild_id: int | None = None) -> Tournament:
        """The tournament; ``TournamentNotFoundError`` if there is none (in ``guild_id``)."""
        async with self.database.read():
            row = await self.database.scalar_row(
                "SELECT * FROM tournaments WHERE id = ?", (tournament_id,)
            )
        if row is None or (guild_id is not None and row["guild_id"] != guild_id):
            raise TournamentNotFoundError(f"no tournament {tournament_id}")
        return _tournament(row)

    async def open_tournaments(self, guild_id: int | None = None) -> list[Tournament]:
        """Tournaments taking sign-ups or under way (of one server, or all), oldest first."""
        sql = "SELECT * FROM tournaments WHERE status IN ('signup', 'running')"
        args: tuple[Any, ...] = ()
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args = (guild_id,)
        async with self.database.read() as db, db.execute(sql + " ORDER BY id", args) as cur:
            return [_tournament(r) for r in await cur.fetchall()]

    async def unannounced(self) -> list[Tournament]:
        """Finished tournaments whose final standings were not posted yet."""
        async with (
            self.database.read() as db,
            db.execute(
                "SELECT * FROM tournaments WHERE status = 'finished' "
                "AND final_announced_at IS NULL ORDER BY id"
            ) as cur,
        ):
            return [_tournament(r) for r in await cur.fetchall()]

    async def _update(self, tournament_id: int, sql: str, args: Sequence[Any]) -> Tournament:
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            await db.execute(
                f"UPDATE tournaments SET {sql}, updated_at = ? WHERE id = ?",
                (*args, now, tournament_id),
            )
        return await self.get(tournament_id)

    async def set_signup_message(self, tournament_id: int, message_id: int) -> Tournament:
        return await self._update(tournament_id, "signup_message_id = ?", (message_id,))

    async def mark_round_announced(self, tournament_id: int, round_no: int) -> Tournament:
        """The standings after ``round_no`` were posted (never moves back)."""
        return await self._update(
            tournament_id,
            "announced_round = CASE WHEN announced_round > ? THEN announced_round ELSE ? END",
            (round_no, round_no),
        )

    async def mark_final_announced(self, tournament_id: int) -> Tournament:
        return await self._update(
            tournament_id, "final_announced_at = ?", (_iso(self.database.now()),)
        )

    async def cancel(self, tournament_id: int) -> Tournament:
        """Cancel a tournament taking sign-ups or under way."""
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            cur = await db.execute(
                "UPDATE tournaments SET status = 'cancelled', finished_at = ?, updated_at = ? "
                "WHERE id = ? AND status IN ('signup', 'running')",
                (now, now, tournament_id),
            )
            if cur.rowcount != 1:
                await self._closed(tournament_id)
        return await self.get(tournament_id)

    async def finish(self, tournament_id: int, winner_id: int | None) -> tuple[Tournament, bool]:
        """The tournament is over and ``winner_id`` won it; ``(tournament, newly)``:
        ``newly`` is False when it was finished before (the winner then stays)."""
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            cur = await db.execute(
                "UPDATE tournaments SET status = 'finished', winner_id = ?, finished_at = ?, "
                "round_deadline_at = NULL, updated_at = ? WHERE id = ? AND status = 'running'",
                (winner_id, now, now, tournament_id),
            )
            newly = cur.rowcount == 1
            if not newly:
                await self._row_in(tournament_id, "status", ("finished",), lock=False)
        return await self.get(tournament_id), newly

    async def wins(self, guild_id: int, user_id: int) -> int:
        """How many tournaments of the server ``user_id`` won."""
        async with self.database.read():
            found = await self.database.scalar(
                "SELECT count(*) FROM tournaments WHERE guild_id = ? AND winner_id = ?",
                (guild_id, user_id),
            )
        return int(found or 0)

    async def _row_in(
        self,
        tournament_id: int,
        columns: str,
        statuses: tuple[str, ...],
        closed: type[TournamentError] = TournamentClosedError,
        lock: bool = True,
    ) -> Any:
        """The tournament's row (``columns``) inside the caller's transaction, locked
        unless ``lock`` is False: ``TournamentNotFoundError`` if there is none, ``closed``
        if its status is not one of ``statuses``."""
        if lock:
            await self.database.key_lock("tournament", tournament_id)
        row = await self.database.scalar_row(
            f"SELECT {columns} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        if row is None:
            raise TournamentNotFoundError(f"no tournament {tournament_id}")
        if row["status"] not in statuses:
            raise closed(f"tournament {tournament_id} is {row['status']}")
        return row

    async def _closed(self, tournament_id: int) -> None:
        row = await self.database.scalar_row(
            "SELECT status FROM tournaments WHERE id = ?", (tournament_id,)
        )
        if row is None:
            raise TournamentNotFoundError(f"no tournament {tournament_id}")
        raise TournamentClosedError(f"tournament {tournament_id} is {row['status']}")

    # ------------------------------------------------------------------ entrants
    async def sign_up(self, tournament_id: int, user_id: int, name: str | None) -> Entrant:
        """Sign ``user_id`` up; only before the first round.

        ``AlreadySignedUpError`` for a second sign-up, ``SignupClosedError`` once the
        first round started (or the tournament closed)."""
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            await self._row_in(tournament_id, "status", ("signup",), SignupClosedError)
            found = await self.database.scalar(
                "SELECT 1 FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, user_id),
            )
            if found is not None:
                raise AlreadySignedUpError(f"user {user_id} is signed up already")
            seq = await self.database.scalar(
                "SELECT coalesce(max(seq), 0) + 1 FROM tournament_players WHERE tournament_id = ?",
                (tournament_id,),
            )
            await db.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, seq, name, joined_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (tournament_id, user_id, int(seq), name, now),
            )
        return Entrant(user_id, name, int(seq), now, None)

    async def withdraw(self, tournament_id: int, user_id: int) -> Entrant | None:
        """Withdraw ``user_id``: before the first round the sign-up is removed (None is
        returned); later they stay in the standings, marked, and are paired no more."""
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            row = await self._row_in(tournament_id, "status, current_round", ("signup", "running"))
            if row["status"] == "signup":
                cur = await db.execute(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, user_id),
                )
                if cur.rowcount != 1:
                    raise NotSignedUpError(f"user {user_id} is not signed up")
                return None
            cur = await db.execute(
                "UPDATE tournament_players SET withdrawn_round = ?, withdrawn_at = ? "
                "WHERE tournament_id = ? AND user_id = ? AND withdrawn_round IS NULL",
                (row["current_round"], now, tournament_id, user_id),
            )
            if cur.rowcount != 1:
                raise NotSignedUpError(f"user {user_id} is not in tournament {tournament_id}")
        entrants = await self.entrants(tournament_id)
        return next(e for e in entrants if e.user_id == user_id)

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """Everyone signed up (withdrawn or not), in sign-up order."""
        async with (
            self.database.read() as db,
            db.execute(
                "SELECT * FROM tournament_players WHERE tournament_id = ? ORDER BY seq",
                (tournament_id,),
            ) as cur,
        ):
            return [
                Entrant(r["user_id"], r["name"], r["seq"], r["joined_at"], r["withdrawn_round"])
                for r in await cur.fetchall()
            ]

    # ------------------------------------------------------------------ rounds
    async def start_round(
        self,
        tournament_id: int,
        round_no: int,
        tables: Sequence[Sequence[int | None]],
        *,
        deadline_at: datetime,
        rounds: int | None = None,
    ) -> Tournament:
        """Round ``round_no`` begins with ``tables`` (people by seat, None: a
        computer); ``rounds`` fixes the number of rounds (the first round only).

        ``RoundStartedError`` if that round (or a later one) began already,
        ``TournamentError`` if the round before is not over,
        ``TournamentClosedError`` once the tournament is over."""
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            row = await self._row_in(tournament_id, "*", ("signup", "running"))
            current = int(row["current_round"])
            if round_no <= current:
                raise RoundStartedError(f"round {round_no} was started already", current)
            if round_no != current + 1:
                raise TournamentError(f"round {current + 1} comes before round {round_no}")
            left = await self.database.scalar(
                "SELECT count(*) FROM tournament_tables WHERE tournament_id = ? "
                "AND round_no = ? AND placements IS NULL",
                (tournament_id, current),
            )
            if int(left or 0):
                raise TournamentError(f"round {current} is not over")
            await db.executemany(
                "INSERT INTO tournament_tables (tournament_id, round_no, table_no, players) "
                "VALUES (?, ?, ?, ?)",
                [
                    (tournament_id, round_no, i + 1, _dumps(list(seats)))
                    for i, seats in enumerate(tables)
                ],
            )
            await db.execute(
                "UPDATE tournaments SET status = 'running', current_round = ?, "
                "rounds = coalesce(?, rounds), round_deadline_at = ?, updated_at = ? "
                "WHERE id = ?",
                (round_no, rounds, _iso(deadline_at), now, tournament_id),
            )
        return await self.get(tournament_id)

    async def set_table_game(
        self, tournament_id: int, round_no: int, table_no: int, game_id: int
    ) -> None:
        """The game that plays a table of a round."""
        async with self.database.tx() as db:
            await db.execute(
                "UPDATE tournament_tables SET game_id = ? "
                "WHERE tournament_id = ? AND round_no = ? AND table_no = ?",
                (game_id, tournament_id, round_no, table_no),
            )

    async def record_table(
        self,
        tournament_id: int,
        round_no: int,
        table_no: int,
        placements: Sequence[int],
        totals: Sequence[int],
    ) -> bool:
        """A table's result, by seat; False (nothing written) if it had one already."""
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            cur = await db.execute(
                "UPDATE tournament_tables SET placements = ?, totals = ?, finished_at = ? "
                "WHERE tournament_id = ? AND round_no = ? AND table_no = ? "
                "AND placements IS NULL",
                (
                    _dumps(list(placements)),
                    _dumps(list(totals)),
                    now,
                    tournament_id,
                    round_no,
                    table_no,
                ),
            )
            return bool(cur.rowcount == 1)

    async def tables(
        self, tournament_id: int, round_no: int | None = None
    ) -> list[TournamentTable]:
        """The tables of every round (or of one), by round and number."""
        sql = "SELECT * FROM tournament_tables WHERE tournament_id = ?"
        args: tuple[Any, ...] = (tournament_id,)
        if round_no is not None:
            sql += " AND round_no = ?"
            args = (tournament_id, round_no)
        async with (
            self.database.read() as db,
            db.execute(sql + " ORDER BY round_no, table_no", args) as cur,
        ):
            return [_table(r) for r in await cur.fetchall()]

    async def table_of_game(self, game_id: int) -> TournamentTable | None:
        """The tournament table a game plays, if any."""
        async with self.database.read():
            row = await self.database.scalar_row(
                "SELECT * FROM tournament_tables WHERE game_id = ?", (game_id,)
            )
        return None if row is None else _table(row)

    async def game_result(self, game_id: int) -> tuple[list[int], list[int]] | None:
        """The recorded match of a game: (places, totals) by seat; None if none."""
        async with (
            self.database.read() as db,
            db.execute(
                "SELECT p.seat, p.placement, p.total FROM matches m "
                "JOIN match_players p ON p.match_id = m.id WHERE m.game_id = ? ORDER BY p.seat",
                (game_id,),
            ) as cur,
        ):
            rows = await cur.fetchall()
        if len(rows) != 4:
            return None
        return [int(r["placement"]) for r in rows], [int(r["total"]) for r in rows]
