"""The table service: every table's lobby, match, seats and house rules, the daily
match, and the restart of every open table.

:class:`TableService` is put together from parts, each given the one
:class:`~tables.registry.Registry` (the tables, their locks, the store, timers and
listener) and the parts it calls: :class:`~tables.play.Play` (turns, computer moves,
timers, the end of a match), :class:`~tables.notify.Notifications`,
:class:`~tables.seats.Seats` (seats in play, the host hand-over),
:class:`~tables.house.HouseRules` (the host's rules panel) and
:class:`~tables.lobby.Lobby` (opening, joining, leaving, starting). Its methods are the
service's one public face; the cogs and the tests call nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from batak import Action, Match, Rules, daily_seed, preset
from batak.ai.hints import Hint
from data import (
    DailyAlreadyPlayedError,
    GameNotFoundError,
    GuildSettings,
    Seat,
    Store,
)

from .errors import ServiceError
from .events import Moment, TableChanged, TableEvent
from .house import HouseRules
from .listener import TableListener
from .lobby import Lobby
from .model import (
    DAILY,
    NOTIFY_MODES,
    TOURNAMENT,
    ActResult,
    NotifyMode,
    Pace,
    SeatRequest,
    ServiceConfig,
    Table,
    TableSettings,
    can_be_rated,
    phase_of,
)
from .notify import Notifications
from .play import Play
from .registry import Registry
from .seats import Seats
from .timers import Timers

log = logging.getLogger(__name__)

__all__ = ["NOTIFY_MODES", "TableService"]


class TableService:
    """All tables of the bot, Discord-agnostic: the parts put together, the daily match
    and start-up here, every other call handed to the part that does it."""

    def __init__(
        self,
        store: Store,
        *,
        config: ServiceConfig | None = None,
        timers: Timers | None = None,
        listener: TableListener | None = None,
        today: Callable[[], dt.date] | None = None,
        rng: random.Random | None = None,
        owns_guild: Callable[[int], bool] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``owns_guild``: whether this process runs the shard of a server (several
        processes share one database; each restores, times and moves only its own
        servers' tables). Default: every server."""
        self.reg = Registry(
            store,
            config=config,
            timers=timers,
            listener=listener,
            today=today,
            rng=rng,
            owns_guild=owns_guild,
            clock=clock,
        )
        self.play = Play(self.reg)
        self.notify = Notifications(self.reg)
        self.seats = Seats(self.reg, self.play, self.notify)
        self.house = HouseRules(self.reg)
        self.lobby = Lobby(self.reg, self.play, self.seats, self.notify)
        # the daily match each person is being given now, by (server, person)
        self._daily_starting: dict[tuple[int, int], asyncio.Future[Table]] = {}

    # ------------------------------------------------------------------ what it holds
    @property
    def store(self) -> Store:
        return self.reg.store

    @property
    def config(self) -> ServiceConfig:
        return self.reg.config

    @property
    def timers(self) -> Timers:
        return self.reg.timers

    @property
    def listener(self) -> TableListener:
        return self.reg.listener

    @listener.setter
    def listener(self, listener: TableListener) -> None:
        """The cog sets its announcer once it exists (the service is made first)."""
        self.reg.listener = listener

    @property
    def tables(self) -> dict[int, Table]:
        """The open tables of this process, by id."""
        return self.reg.tables

    @property
    def finished(self) -> dict[int, Table]:
        return self.reg.finished

    @property
    def cancelled(self) -> dict[int, Table]:
        """The tables closed before their end lately, as they were when closed."""
        return self.reg.cancelled

    # ------------------------------------------------------------------ look-ups
    def get(self, table_id: int) -> Table:
        return self.reg.get(table_id)

    def tables_in(self, channel_id: int) -> list[Table]:
        return self.reg.tables_in(channel_id)

    def table_here(self, channel_id: int, user_id: int | None = None) -> Table | None:
        return self.reg.table_here(channel_id, user_id)

    @staticmethod
    def is_host(table: Table, user_id: int) -> bool:
        return Registry.is_host(table, user_id)

    def tables_of(self, user_id: int) -> list[Table]:
        return self.reg.tables_of(user_id)

    def daily_of(self, guild_id: int, user_id: int) -> Table | None:
        return self.reg.daily_of(guild_id, user_id)

    def hosted_by(self, guild_id: int, host_id: int) -> Table | None:
        return self.lobby.hosted_by(guild_id, host_id)

    async def check_place(
        self,
        table_id: int,
        guild_id: int | None,
        channel_id: int | None,
        *,
        server_wide: bool = False,
    ) -> None:
        """See :meth:`Registry.check_place <tables.registry.Registry.check_place>`."""
        await self.reg.check_place(table_id, guild_id, channel_id, server_wide=server_wide)

    async def load(self, table_id: int) -> Table:
        return await self.reg.load(table_id)

    async def close(self) -> None:
        await self.reg.close()

    # ------------------------------------------------------------------ the lobby
    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str | None = None,
        *,
        guild: GuildSettings | None = None,
        preset_name: str | None = None,
        deals: int | None = None,
        pace: str | None = None,
        thread_id: int | None = None,
        seats: list[Seat] | None = None,
        rematch_of: int | None = None,
        casual: bool = False,
        language: str | None = None,
        options: Mapping[str, Any] | None = None,
        watching: bool = True,
    ) -> Table:
        """See :meth:`Lobby.create_table <tables.lobby.Lobby.create_table>`."""
        return await self.lobby.create_table(
            guild_id,
            channel_id,
            host_id,
            host_name,
            guild=guild,
            preset_name=preset_name,
            deals=deals,
            pace=pace,
            thread_id=thread_id,
            seats=seats,
            rematch_of=rematch_of,
            casual=casual,
            language=language,
            options=options,
            watching=watching,
        )

    def opening(self, guild_id: int, host_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        return self.lobby.opening(guild_id, host_id)

    async def attach_thread(self, table_id: int, thread_id: int) -> Table:
        return await self.lobby.attach_thread(table_id, thread_id)

    async def join(self, table_id: int, user_id: int, name: str | None = None) -> int:
        return await self.lobby.join(table_id, user_id, name)

    async def add_bot(self, table_id: int, user_id: int, level: str | None = None) -> int:
        return await self.lobby.add_bot(table_id, user_id, level)

    async def leave(self, table_id: int, user_id: int, change: str = "left") -> int:
        return await self.lobby.leave(table_id, user_id, change)

    async def kick(self, table_id: int, by_user: int, target: int, *, is_admin: bool) -> int:
        return await self.lobby.kick(table_id, by_user, target, is_admin=is_admin)

    async def cancel(self, table_id: int, user_id: int, *, is_admin: bool) -> None:
        await self.lobby.cancel(table_id, user_id, is_admin=is_admin)

    async def start(self, table_id: int, user_id: int) -> Table:
        return await self.lobby.start(table_id, user_id)

    async def rematch(self, table_id: int, user_id: int, user_name: str | None = None) -> Table:
        return await self.lobby.rematch(table_id, user_id, user_name)

    # ------------------------------------------------------------------ house rules
    def host_lobby(self, table_id: int, user_id: int) -> Table:
        return self.house.host_lobby(table_id, user_id)

    async def set_rules(self, table_id: int, user_id: int, options: Mapping[str, Any]) -> Rules:
        return await self.house.set_rules(table_id, user_id, options)

    async def set_watching(self, table_id: int, user_id: int, allowed: bool) -> None:
        await self.house.set_watching(table_id, user_id, allowed)

    def watchable(self, table_id: int, user_id: int) -> Table:
        return self.house.watchable(table_id, user_id)

    # ------------------------------------------------------------------ notifications
    async def notification_mode(self, user_id: int) -> NotifyMode:
        return await self.notify.mode(user_id)

    async def set_notifications(self, user_id: int, mode: str) -> int:
        return await self.notify.set_mode(user_id, mode)

    # ------------------------------------------------------------------ playing
    async def act(
        self, table_id: int, user_id: int, seat: int, move: int, action: Action | str
    ) -> ActResult:
        """See :meth:`Play.act <tables.play.Play.act>`."""
        return await self.play.act(table_id, user_id, seat, move, action)

    async def come_back(self, table_id: int, user_id: int) -> bool:
        return await self.play.come_back(table_id, user_id)

    async def hint(self, table_id: int, user_id: int) -> tuple[Action, Hint]:
        return await self.play.hint(table_id, user_id)

    async def _timer_fired(self, table_id: int, move: int, timed_out: bool) -> None:
        """A table's timer going off now (the tests call it instead of waiting)."""
        await self.play.timer_fired(table_id, move, timed_out)

    # ------------------------------------------------------------------ seats in play
    def seat_requests(self, table_id: int) -> list[SeatRequest]:
        return self.seats.seat_requests(table_id)

    def seat_choices(self, table_id: int, user_id: int) -> list[int]:
        return self.seats.seat_choices(table_id, user_id)

    async def take_seat(
        self, table_id: int, user_id: int, name: str, seat: int | None = None
    ) -> tuple[int, bool]:
        return await self.seats.take_seat(table_id, user_id, name, seat)

    async def answer_seat_request(
        self, table_id: int, host_id: int, user_id: int, approve: bool
    ) -> SeatRequest:
        return await self.seats.answer_seat_request(table_id, host_id, user_id, approve)

    # ------------------------------------------------------------------ start-up
    async def restore(self) -> list[int]:
        """Load every open table of this process's servers from the store and restart
        its timers; returns their ids."""
        restored = []
        for stored in await self.reg.store.games.open_games():
            if not self.reg.owns_guild(stored.guild_id):
                continue  # another shard's process runs it
            try:
                table = await self.reg.load(stored.id)
            except Exception:
                log.exception("could not restore table %s", stored.id)
                continue
            self.reg.tables[table.id] = table
            restored.append(table.id)
            events: list[TableEvent] = []
            if table.match is not None and table.match.is_over and table.game.status == "playing":
                async with self.reg.hold(table):
                    await self.play.finish_match(table, events)
                await self.reg.emit(events)
            elif table.playing and table.is_daily:
                events = []
                async with self.reg.hold(table):  # a crash between the computers' moves
                    await self.play.run_daily_bots(table, events)
                await self.reg.emit(events)
            elif table.playing:
                await self._restore_deadline(table)
                self.play.schedule(table)
        log.info("restored %d open table(s)", len(restored))
        return restored

    async def _restore_deadline(self, table: Table) -> None:
        """The turn timer resumes with the time that was left: the turn began when the
        last action was stored (or when the match started)."""
        timeout = table.settings.turn_timeout_s
        if not timeout or table.to_act is None or table.controlled_by_bot(table.to_act):
            return
        began = table.game.updated_at
        if table.move > 0:
            log_ = await self.reg.store.games.action_log(table.id, since_move=table.move - 1)
            if log_:
                began = log_[-1].at
        try:
            start = datetime.fromisoformat(began).timestamp()
        except ValueError:
            return
        table.deadline, table.deadline_move = start + float(timeout), table.move

    # ------------------------------------------------------------------ tournaments
    async def start_tournament_table(
        self,
        guild_id: int,
        channel_id: int,
        seats: list[Seat],
        *,
        deals: int | None,
        pace: str,
        language: str | None = None,
        link: Mapping[str, Any] | None = None,
    ) -> Table:
        """A table of a tournament round, started at once: its people and computers
        seated (the first person hosts), the server's preset with ``deals``; rated as
        any table with those rules. ``link`` (kept in the settings) says which round
        and table of which tournament it plays."""
        hosts = [s.user_id for s in seats if s.user_id is not None]
        if len(seats) != 4 or not hosts:
            raise ValueError("a tournament table has four seats and a person")
        g = await self.reg.store.guild_settings.get_guild_settings(guild_id)
        n_deals = deals if deals is not None else g.deals
        rules = preset(g.preset, deals=n_deals) if n_deals is not None else preset(g.preset)
        p: Pace = "async" if pace == "async" else "live"
        level = g.table_level(p)
        settings = TableSettings(
            rules=rules.to_dict(),
            pace=p,
            turn_timeout_s=self.reg.config.turn_timeout_override or g.turn_timeout_s(p),
            bot_level=level,
            language=language or g.language,
            first_dealer=0,
            seed=self.reg.rng.randrange(1 << 62),
            rated=can_be_rated(rules),
            extra={"tournament": dict(link)} if link else {},
        )
        placed = [Seat.bot(level) if s.is_empty else s for s in seats]
        match = Match(rules, settings.match_seed(), 0)
        game = await self.reg.store.games.create_game(
            guild_id,
            channel_id,
            hosts[0],
            settings.to_dict(),
            seats=placed,
            kind=TOURNAMENT,
            status="playing",
            phase=phase_of(match),
            to_act=match.to_act,
        )
        table = Table(game=game, match=match, rules=rules)
        self.reg.tables[table.id] = table
        events: list[TableEvent] = [TableChanged(Moment.of(table))]
        async with self.reg.hold(table):
            self.play.schedule(table, events)
        await self.reg.emit(events)
        return table

    async def finish_for_absent(self, table_id: int) -> bool:
        """See :meth:`Seats.finish_for_absent <tables.seats.Seats.finish_for_absent>`."""
        return await self.seats.finish_for_absent(table_id)

    # ------------------------------------------------------------------ daily
    async def start_daily(self, guild_id: int, channel_id: int, user_id: int, name: str) -> Table:
        """Today's daily match for the server: the person in seat 0 against three computers.

        Returns the running daily table if the person started one today and has not
        finished; raises ``error.daily_done`` if the try is used up. Presses of one
        person while their daily match is being created share that one creation (a
        single flight): each gets the same table, or the same error.
        """
        running = self.reg.daily_of(guild_id, user_id)
        if running is not None:
            return running
        key = (guild_id, user_id)
        pending = self._daily_starting.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._start_daily(guild_id, channel_id, user_id, name))
            self._daily_starting[key] = pending
            pending.add_done_callback(lambda _: self._daily_starting.pop(key, None))
        # shielded: a press given up on (its interaction expired) does not cancel the
        # creation the other presses wait for
        return await asyncio.shield(pending)

    async def _start_daily(self, guild_id: int, channel_id: int, user_id: int, name: str) -> Table:
        running = self.reg.daily_of(guild_id, user_id)
        if running is not None:
            return running
        day = self.reg.today()
        claim = await self.reg.store.daily.daily_result(guild_id, user_id, day=day)
        if claim is not None:
            raise await self._daily_taken(claim.score, claim.game_id)
        g = await self.reg.store.guild_settings.get_guild_settings(guild_id)
        rules = preset(g.preset, deals=self.reg.config.daily_deals)
        seed = daily_seed(day, str(guild_id))
        level = g.table_level("async", daily=True)
        settings = TableSettings(
            rules=rules.to_dict(),
            pace="async",
            turn_timeout_s=None,
            bot_level=level,
            language=g.language,
            first_dealer=0,
            seed=seed,
            day=day.isoformat(),
            rated=False,  # the daily match has its own board; it never gives hints
        )
        seats = [Seat.human(user_id, name)] + [Seat.bot(level) for _ in range(3)]
        match = Match(rules, seed, 0)
        try:
            # the try is claimed with the game, in one transaction, under a unique key
            game = await self.reg.store.games.create_game(
                guild_id,
                channel_id,
                user_id,
                settings.to_dict(),
                seats=seats,
                kind=DAILY,
                status="playing",
                phase=phase_of(match),
                to_act=match.to_act,
                daily_day=day,
            )
        except DailyAlreadyPlayedError as exc:
            # another process on the same database won the race
            raise await self._daily_taken(None, exc.game_id) from exc
        table = Table(game=game, match=match, rules=rules)
        self.reg.tables[table.id] = table
        events: list[TableEvent] = []
        async with self.reg.hold(table):
            await self.play.run_daily_bots(table, events)
        await self.reg.emit(events)
        return table

    async def _daily_taken(self, score: int | None, game_id: int | None) -> ServiceError:
        """The answer when the person's daily try of today is claimed already: played
        (a score, or its game closed), or its game still open in another process on
        the same database (being set up there)."""
        if score is None and game_id is not None:
            with contextlib.suppress(GameNotFoundError):
                game = await self.reg.store.games.get_game(game_id)
                if game.is_open:
                    return ServiceError("error.daily_setting_up")
        return ServiceError("error.daily_done")
