"""Swiss tournaments on top of the table service, without Discord.

A tournament takes sign-ups, then plays rounds of ordinary tables (kind
``tournament``, made by :meth:`TableService.start_tournament_table`): the engine pairs
each round (:func:`batak.swiss.pair_round`), the store keeps every step
(``store.tournaments``), the table service plays the tables. When the last table of
a round is recorded the standings are reported and the next round begins on its own;
after the last round the winner is recorded and reported.

Each round has a deadline (the tournament's ``round_deadline_s``): a table still in
play then is finished by the computers for the people at it
(:meth:`TableService.finish_for_absent`). The deadline is a named timer of the
service's :class:`~tables.timers.Timers` (the tests use the fake clock).

Durable: everything is in the store before it is reported. At start-up
:meth:`TournamentService.restore` finds every open tournament where it was left: the
tables of a round not created yet are created, results the process missed are read
from the recorded matches, the standings and the final result not yet posted are
reported again, the deadline timer is armed again.

The winner hook (``on_win``: ``grant_tournament_win(guild_id, player, when,
tournament_id)``) is called when the final result is reported; after a crash at that
moment it is called again, so it must count a tournament once (by its id).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Protocol

from batak.swiss import Standing as SwissStanding
from batak.swiss import (
    TableResult,
    default_rounds,
    met_counts,
    pair_round,
    seat_table,
    standings,
)
from data import (
    AlreadySignedUpError,
    Entrant,
    GameNotFoundError,
    NotSignedUpError,
    RoundStartedError,
    Seat,
    SignupClosedError,
    Tournament,
    TournamentClosedError,
    TournamentNotFoundError,
    TournamentTable,
)

from .errors import ServiceError
from .events import MatchFinished, TableClosed, TableEvent
from .model import TOURNAMENT
from .tables import TableService
from .timers import Timers

log = logging.getLogger(__name__)

DEFAULT_DEADLINES: Final = {"live": 2 * 3600, "async": 3 * 86400}
"""A round's time when the organiser sets none: two hours live, three days async."""
MAX_PLAYERS: Final = 64

WinHook = Callable[[int, int, datetime, int], Awaitable[object]]
"""``grant_tournament_win(guild_id, player, when, tournament_id)``."""


@dataclass(frozen=True, slots=True)
class Board:
    """A tournament as it stands: its row, everyone signed up, the standings."""

    tournament: Tournament
    entrants: tuple[Entrant, ...]
    standings: tuple[SwissStanding, ...]
    tables: tuple[TournamentTable, ...]

    def name_of(self, user_id: int) -> str:
        for e in self.entrants:
            if e.user_id == user_id:
                return e.name or str(user_id)
        return str(user_id)

    @property
    def active(self) -> list[Entrant]:
        return [e for e in self.entrants if e.active]


@dataclass(frozen=True, slots=True)
class SignupChanged:
    board: Board


@dataclass(frozen=True, slots=True)
class RoundStarted:
    board: Board
    round_no: int
    table_ids: tuple[int, ...]
    """The games of the round's tables, by table number."""


@dataclass(frozen=True, slots=True)
class RoundFinished:
    board: Board
    round_no: int


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    board: Board
    winner_id: int | None


@dataclass(frozen=True, slots=True)
class TournamentCancelled:
    board: Board


TournamentEvent = (
    SignupChanged | RoundStarted | RoundFinished | TournamentFinished | TournamentCancelled
)


class TournamentListener(Protocol):
    async def on_tournament(self, event: TournamentEvent) -> None: ...


class NullTournamentListener:
    async def on_tournament(self, event: TournamentEvent) -> None:
        return None


def results_of(tables: list[TournamentTable]) -> list[TableResult]:
    return [
        TableResult(t.players, t.placements, t.totals)
        for t in tables
        if t.placements is not None and t.totals is not None
    ]


class TournamentService:
    """Every tournament of this process's servers (their state is the store's)."""

    def __init__(
        self,
        tables: TableService,
        *,
        timers: Timers | None = None,
        listener: TournamentListener | None = None,
        clock: Callable[[], float] = time.time,
        on_win: WinHook | None = None,
    ) -> None:
        self.tables = tables
        self.store = tables.store
        self.timers = timers or tables.timers
        self.listener: TournamentListener = listener or NullTournamentListener()
        self.clock = clock
        self.on_win = on_win
        """Called with the winner once the final standings are told: the bot grants the
        ``tournament_win`` achievement there (``store.achievements``, once per person)."""
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    # ------------------------------------------------------------------ reading
    async def get(self, tournament_id: int, guild_id: int) -> Tournament:
        try:
            return await self.store.tournaments.get(tournament_id, guild_id)
        except TournamentNotFoundError as exc:
            raise ServiceError("tournament.error.unknown", tournament=tournament_id) from exc

    async def board(self, tournament_id: int, guild_id: int | None = None) -> Board:
        if guild_id is None:
            t = await self.store.tournaments.get(tournament_id)
        else:
            t = await self.get(tournament_id, guild_id)
        entrants = await self.store.tournaments.entrants(t.id)
        tables = await self.store.tournaments.tables(t.id)
        lines = standings(
            [e.user_id for e in entrants],
            results_of(tables),
            withdrawn={e.user_id for e in entrants if not e.active},
        )
        return Board(t, tuple(entrants), tuple(lines), tuple(tables))

    async def current(self, guild_id: int, channel_id: int | None = None) -> Tournament:
        """The server's open tournament (the newest; in ``channel_id`` first)."""
        found = await self.store.tournaments.open_tournaments(guild_id)
        here = [t for t in found if t.channel_id == channel_id]
        pick = (here or found)[-1:] if found else []
        if not pick:
            raise ServiceError("tournament.error.none_open")
        return pick[0]

    # ------------------------------------------------------------------ sign-ups
    async def create(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        *,
        rounds: int | None = None,
        pace: str = "live",
        deadline_s: int | None = None,
        deals: int | None = None,
        language: str | None = None,
    ) -> Board:
        if pace not in DEFAULT_DEADLINES:
            raise ServiceError("tournament.error.bad_pace")
        settings: dict[str, Any] = {"deals": deals, "language": language}
        t = await self.store.tournaments.create(
            guild_id,
            channel_id,
            organiser_id,
            rounds=rounds,
            pace=pace,
            round_deadline_s=deadline_s or DEFAULT_DEADLINES[pace],
            settings=settings,
        )
        return await self.board(t.id)

    async def set_signup_message(self, tournament_id: int, message_id: int) -> None:
        await self.store.tournaments.set_signup_message(tournament_id, message_id)

    async def sign_up(self, tournament_id: int, guild_id: int, user_id: int, name: str) -> Board:
        await self.get(tournament_id, guild_id)
        if len(await self.store.tournaments.entrants(tournament_id)) >= MAX_PLAYERS:
            raise ServiceError("tournament.error.full", count=MAX_PLAYERS)
        try:
            await self.store.tournaments.sign_up(tournament_id, user_id, name)
        except AlreadySignedUpError as exc:
            raise ServiceError("tournament.error.already_signed_up") from exc
        except SignupClosedError as exc:
            raise ServiceError("tournament.error.signup_closed") from exc
        board = await self.board(tournament_id)
        await self._tell(SignupChanged(board))
        return board

    async def withdraw(self, tournament_id: int, guild_id: int, user_id: int) -> Board:
        """Withdraw from a tournament: before the first round the sign-up goes; later the
        person is paired no more, and a computer takes their seat at a table in play."""
        t = await self.get(tournament_id, guild_id)
        try:
            await self.store.tournaments.withdraw(tournament_id, user_id)
        except NotSignedUpError as exc:
            raise ServiceError("tournament.error.not_signed_up") from exc
        except TournamentClosedError as exc:
            raise ServiceError("tournament.error.closed") from exc
        if t.status == "running":
            for row in await self.store.tournaments.tables(t.id, t.current_round):
                if row.game_id is None or row.finished or user_id not in row.players:
                    continue
                table = self.tables.tables.get(row.game_id)
                if table is not None and table.seat_of(user_id) is not None:
                    try:
                        await self.tables.leave(row.game_id, user_id)
                    except ServiceError as exc:
                        log.info("tournament %s: %s stays seated (%s)", t.id, user_id, exc.key)
        board = await self.board(tournament_id)
        await self._tell(SignupChanged(board))
        return board

    # ------------------------------------------------------------------ the organiser
    def _check_organiser(self, t: Tournament, user_id: int, is_admin: bool) -> None:
        if user_id != t.organiser_id and not is_admin:
            raise ServiceError("tournament.error.organiser_only")

    async def start(
        self, tournament_id: int, guild_id: int, user_id: int, *, is_admin: bool
    ) -> Board:
        """The organiser starts the first round (the later ones start on their own)."""
        t = await self.get(tournament_id, guild_id)
        self._check_organiser(t, user_id, is_admin)
        if t.status == "running":
            raise ServiceError("tournament.error.round_started", round=t.current_round)
        if t.status != "signup":
            raise ServiceError("tournament.error.closed")
        async with self._lock(t.id):
            entrants = await self.store.tournaments.entrants(t.id)
            if len(entrants) < 2:
                raise ServiceError("tournament.error.too_few", count=len(entrants))
            await self._start_round(t, 1)
        return await self.board(t.id)

    async def cancel(
        self, tournament_id: int, guild_id: int, user_id: int, *, is_admin: bool
    ) -> Board:
        """The organiser (or an admin) cancels the tournament; its tables in play are
        cancelled too."""
        t = await self.get(tournament_id, guild_id)
        self._check_organiser(t, user_id, is_admin)
        async with self._lock(t.id):
            try:
                t = await self.store.tournaments.cancel(t.id)
            except TournamentClosedError as exc:
                raise ServiceError("tournament.error.closed") from exc
            self.timers.cancel(self._key(t.id))
        # not under the lock: a cancelled table reports back here (table_done)
        for row in await self.store.tournaments.tables(t.id, t.current_round):
            if row.game_id is not None and row.game_id in self.tables.tables:
                try:
                    await self.tables.cancel(row.game_id, t.organiser_id, is_admin=True)
                except ServiceError as exc:
                    log.info("tournament %s: table %s not cancelled (%s)", t.id, row, exc)
        board = await self.board(t.id)
        await self._tell(TournamentCancelled(board))
        return board

    # ------------------------------------------------------------------ rounds
    @staticmethod
    def _key(tournament_id: int) -> str:
        return f"tournament:{tournament_id}"

    async def _start_round(self, t: Tournament, round_no: int) -> None:
        """Pair round ``round_no``, store it, make its tables; the caller holds the
        tournament's lock."""
        board = await self.board(t.id)
        active = {e.user_id for e in board.active}
        ranked = [s.player for s in board.standings if s.player in active]
        met = met_counts(row.players for row in board.tables)
        seating = [seat_table(people) for people in pair_round(ranked, met)]
        deadline = self._now() + timedelta(seconds=t.round_deadline_s)
        rounds = (t.rounds or default_rounds(len(ranked))) if round_no == 1 else None
        try:
            t = await self.store.tournaments.start_round(
                t.id, round_no, seating, deadline_at=deadline, rounds=rounds
            )
        except RoundStartedError as exc:
            raise ServiceError("tournament.error.round_started", round=exc.current) from exc
        await self._make_tables(t, round_no)

    async def _make_tables(self, t: Tournament, round_no: int) -> None:
        """Create the round's tables not created yet, arm its deadline, report it."""
        board = await self.board(t.id)
        for row in board.tables:
            if row.round_no != round_no or row.game_id is not None:
                continue
            seats = [Seat() if p is None else Seat.human(p, board.name_of(p)) for p in row.players]
            link = {"id": t.id, "round": round_no, "table": row.table_no}
            orphan = self._made_before(link)
            if orphan is not None:  # made just before a crash, not linked yet
                await self.store.tournaments.set_table_game(t.id, round_no, row.table_no, orphan)
                continue
            table = await self.tables.start_tournament_table(
                t.guild_id,
                t.channel_id,
                seats,
                deals=t.settings.get("deals"),
                pace=t.pace,
                language=t.settings.get("language"),
                link=link,
            )
            await self.store.tournaments.set_table_game(t.id, round_no, row.table_no, table.id)
        self._arm_deadline(await self.store.tournaments.get(t.id))
        board = await self.board(t.id)
        ids = tuple(row.game_id for row in board.tables if row.round_no == round_no and row.game_id)
        await self._tell(RoundStarted(board, round_no, ids))

    def _made_before(self, link: dict[str, int]) -> int | None:
        """An open table that already plays this round's table (its settings name it)."""
        for table in self.tables.tables.values():
            if table.kind == TOURNAMENT and table.settings.extra.get("tournament") == link:
                return table.id
        return None

    def _arm_deadline(self, t: Tournament) -> None:
        if t.status != "running" or t.round_deadline_at is None:
            self.timers.cancel(self._key(t.id))
            return
        due = datetime.fromisoformat(t.round_deadline_at).timestamp()
        round_no = t.current_round
        self.timers.schedule(
            self._key(t.id),
            max(0.0, due - self.clock()),
            lambda: self.deadline_passed(t.id, round_no),
        )

    async def deadline_passed(self, tournament_id: int, round_no: int) -> None:
        """A round's time is up: the computers finish its tables still in play."""
        t = await self.store.tournaments.get(tournament_id)
        if t.status != "running" or t.current_round != round_no:
            return
        for row in await self.store.tournaments.tables(t.id, round_no):
            if row.finished or row.game_id is None:
                continue
            if await self.tables.finish_for_absent(row.game_id):
                log.info("tournament %s: table %s finished by the computers", t.id, row.game_id)

    # ------------------------------------------------------------------ table results
    async def on_event(self, event: TableEvent) -> None:
        """The table service's listener (next to the table messages'): a tournament
        table that ended."""
        if isinstance(event, MatchFinished | TableClosed) and event.at.game.kind == TOURNAMENT:
            await self.table_done(event.at.table_id)

    async def table_done(self, game_id: int) -> None:
        """Record a tournament table's result from its recorded match (a table that
        was cancelled counts as played with no points for anyone); then, if it was the
        round's last, the standings, and the next round or the end."""
        row = await self.store.tournaments.table_of_game(game_id)
        if row is None:
            return
        if not row.finished:
            result = await self.store.tournaments.game_result(game_id)
            if result is None:
                try:
                    game = await self.store.games.get_game(game_id)
                except GameNotFoundError:
                    game = None
                if game is not None and game.is_open:
                    return  # still being recorded
                result = ([4, 4, 4, 4], [0, 0, 0, 0])
            placements, totals = result
            await self.store.tournaments.record_table(
                row.tournament_id, row.round_no, row.table_no, placements, totals
            )
        await self.advance(row.tournament_id)

    async def advance(self, tournament_id: int) -> None:
        """Whatever the tournament is owed now that its tables may be over: the round's
        standings, then the next round or the end (each reported once stored)."""
        async with self._lock(tournament_id):
            t = await self.store.tournaments.get(tournament_id)
            if t.status != "running":
                return
            rows = await self.store.tournaments.tables(t.id, t.current_round)
            if not rows or any(not r.finished for r in rows):
                return
            if t.announced_round < t.current_round:
                await self._tell(RoundFinished(await self.board(t.id), t.current_round))
                t = await self.store.tournaments.mark_round_announced(t.id, t.current_round)
            board = await self.board(t.id)
            rounds = t.rounds or t.current_round
            if t.current_round < rounds and len(board.active) >= 2:
                await self._start_round(t, t.current_round + 1)
                return
            self.timers.cancel(self._key(t.id))
            winner = board.standings[0].player if board.standings else None
            await self.store.tournaments.finish(t.id, winner)
        await self.announce_final(tournament_id)

    async def announce_final(self, tournament_id: int) -> None:
        """Report a finished tournament's final standings (and call the winner hook)
        unless that was done; marked done afterwards."""
        async with self._lock(tournament_id):
            t = await self.store.tournaments.get(tournament_id)
            if t.status != "finished" or t.final_announced_at is not None:
                return
            if self.on_win is not None and t.winner_id is not None:
                when = datetime.fromisoformat(t.finished_at or t.created_at)
                await self.on_win(t.guild_id, t.winner_id, when, t.id)
            await self._tell(TournamentFinished(await self.board(t.id), t.winner_id))
            await self.store.tournaments.mark_final_announced(t.id)

    # ------------------------------------------------------------------ start-up
    async def restore(self, owns_guild: Callable[[int], bool] | None = None) -> list[int]:
        """Pick every open tournament up where it was left (after the table service
        restored its tables); returns their ids."""
        owned = owns_guild or self.tables.reg.owns_guild
        found: list[int] = []
        for t in await self.store.tournaments.open_tournaments():
            if not owned(t.guild_id):
                continue
            found.append(t.id)
            if t.status != "running":
                continue
            try:
                await self._restore_round(t)
            except Exception:
                log.exception("tournament %s could not be restored", t.id)
        for t in await self.store.tournaments.unannounced():
            if owned(t.guild_id):
                await self.announce_final(t.id)
        return found

    async def _restore_round(self, t: Tournament) -> None:
        rows = await self.store.tournaments.tables(t.id, t.current_round)
        if any(r.game_id is None for r in rows):
            async with self._lock(t.id):
                await self._make_tables(t, t.current_round)
        else:
            self._arm_deadline(t)
        for r in rows:
            if r.game_id is not None and not r.finished and r.game_id not in self.tables.tables:
                await self.table_done(r.game_id)  # closed while the bot was down
        await self.advance(t.id)

    async def _tell(self, event: TournamentEvent) -> None:
        try:
            await self.listener.on_tournament(event)
        except Exception:
            log.exception("the tournament listener failed on %s", type(event).__name__)
