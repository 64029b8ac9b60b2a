"""The lobby: opening a table (or a rematch), joining, computer players, leaving, the
host removing a person, cancelling and starting the match.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from typing import Any

from batak import Match, RulesError, preset
from batak.rules import show_value
from data import (
    GameClosedError,
    GameNotFoundError,
    GuildSettings,
    HostHasOpenTableError,
    RematchExistsError,
    Seat,
    SeatError,
)

from .errors import ServiceError
from .events import Moment, SeatChanged, TableChanged, TableClosed, TableEvent
from .house import rules_with
from .model import (
    TOURNAMENT,
    CloseReason,
    FormerSeat,
    Table,
    TableSettings,
    as_pace,
    can_be_rated,
    phase_of,
)
from .notify import Notifications
from .play import Play
from .registry import Registry
from .seats import Seats


class Lobby:
    """Tables before their match, and people joining and leaving them (in play a
    computer takes the seat a person leaves)."""

    def __init__(self, reg: Registry, play: Play, seats: Seats, notify: Notifications) -> None:
        self.reg = reg
        self.play = play
        self.seats = seats
        self.notify = notify

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
        """Open a lobby with the host in seat 0 (or the given seats).

        The table is rated when it plays a preset unchanged for at least
        :data:`~batak.rules.MIN_RATED_DEALS` deals (:func:`can_be_rated`: a shorter match
        is a try-out) and the host did not ask for a ``casual`` one (``options``: house
        rules, judged by the engine, make it casual); a casual table gives hints when
        the server allows them (``casual_hints``). ``language`` is the table's (public
        messages); default: the server's setting.

        The store keeps one open table per seated host and server, and one rematch per
        finished table, whoever races: ``error.already_hosting`` and
        ``error.rematch_exists`` (with the table that is open) say so."""
        g = guild or await self.reg.store.guild_settings.get_guild_settings(guild_id)
        name = preset_name or g.preset
        n_deals = deals if deals is not None else g.deals
        try:
            rules = preset(name, deals=n_deals) if n_deals is not None else preset(name)
        except RulesError as exc:
            raise ServiceError("error.bad_rules", reason=exc) from exc
        if options:
            rules = rules_with(rules, options)
        p = as_pace(pace or g.pace)
        if p is None:
            asked = pace or g.pace
            why = RulesError(f"pace {asked!r}", "bad-pace", value=show_value(asked))
            raise ServiceError("error.bad_rules", reason=why)
        settings = TableSettings(
            rules=rules.to_dict(),
            pace=p,
            turn_timeout_s=self.reg.config.turn_timeout_override or g.turn_timeout_s(p),
            bot_level=g.table_level(p),
            language=language or g.language,
            first_dealer=0,
            rematch_of=rematch_of,
            rated=not casual and can_be_rated(rules),
            watching=watching,
        )
        settings = replace(settings, hints=not settings.rated and g.casual_hints)
        initial = seats or [Seat.human(host_id, host_name), Seat(), Seat(), Seat()]
        try:
            game = await self.reg.store.games.create_game(
                guild_id,
                channel_id,
                host_id,
                settings.to_dict(),
                thread_id=thread_id,
                seats=initial,
                rematch_of=rematch_of,
            )
        except HostHasOpenTableError as exc:
            raise ServiceError("error.already_hosting", table=exc.game_id) from exc
        except RematchExistsError as exc:
            raise ServiceError("error.rematch_exists", table=exc.game_id) from exc
        table = Table(game=game, match=None, rules=rules)
        self.reg.tables[table.id] = table
        for s in initial:
            if s.user_id is not None:
                await self.notify.carry(table, s.user_id)
        await self.reg.emit([TableChanged(Moment.of(table))])
        return table

    def hosted_by(self, guild_id: int, host_id: int) -> Table | None:
        """The open table (not a daily, not a tournament's) ``host_id`` hosts and sits
        at in the server."""
        for t in self.reg.tables.values():
            if (
                not t.is_daily
                and t.kind != TOURNAMENT
                and t.game.guild_id == guild_id
                and t.host_id == host_id
                and t.seat_of(host_id) is not None
            ):
                return t
        return None

    @contextlib.asynccontextmanager
    async def opening(self, guild_id: int, host_id: int) -> AsyncIterator[None]:
        """Held while a person opens a table (the cog first checks where it may post): a
        second ``/batak new`` of theirs meanwhile, or one while they host an open table,
        is refused at once, before anything is created. The store's unique key holds
        even without this (several processes on one database)."""
        key = (guild_id, host_id)
        if key in self.reg.opening:
            raise ServiceError("error.opening")
        hosted = self.hosted_by(guild_id, host_id)
        if hosted is not None:
            raise ServiceError("error.already_hosting", table=hosted.id)
        self.reg.opening.add(key)
        try:
            yield
        finally:
            self.reg.opening.discard(key)

    async def attach_thread(self, table_id: int, thread_id: int) -> Table:
        """The lobby's thread, made right after its table (so a table that is refused
        never leaves an empty thread behind): the table lives there from now on."""
        table = self.lobby_table(table_id)
        async with self.reg.hold(table):
            await self.reg.store.games.set_thread(table.id, thread_id)
            table.game = replace(table.game, thread_id=thread_id)
        return table

    def lobby_table(self, table_id: int) -> Table:
        table = self.reg.get(table_id)
        if not table.in_lobby:
            raise ServiceError("error.already_started")
        return table

    async def join(self, table_id: int, user_id: int, name: str | None = None) -> int:
        table = self.lobby_table(table_id)
        async with self.reg.hold(table):
            self.lobby_table(table_id)
            if table.seat_of(user_id) is not None:
                raise ServiceError("error.already_seated")
            try:
                seat = await self.reg.store.games.join_game(table_id, user_id, name=name)
            except SeatError as exc:
                raise ServiceError("error.table_full") from exc
            except GameClosedError as exc:
                raise ServiceError("error.already_started") from exc
            await self.reg.refresh(table)
            await self.notify.carry(table, user_id)
            changed = TableChanged(Moment.of(table))
        await self.reg.emit([changed])
        return seat

    async def add_bot(self, table_id: int, user_id: int, level: str | None = None) -> int:
        table = self.lobby_table(table_id)
        async with self.reg.hold(table):
            self.lobby_table(table_id)
            if user_id != table.host_id and table.seat_of(user_id) is None:
                raise ServiceError("error.not_seated")
            free = [i for i, s in enumerate(table.seats) if s.is_empty]
            if not free:
                raise ServiceError("error.table_full")
            lvl = level or table.bot_level
            await self.reg.store.games.set_seat(table_id, free[0], Seat.bot(lvl), expected=Seat())
            await self.reg.refresh(table)
            changed = TableChanged(Moment.of(table))
        await self.reg.emit([changed])
        return free[0]

    async def leave(self, table_id: int, user_id: int, change: str = "left") -> int:
        """Leave a table: in the lobby the seat empties, in play a computer player takes it
        (the table is told: ``change`` is left or kicked; past tricks keep the name).

        A host who leaves hands the table to the next seated person; the last person to
        leave a match in play leaves it to the computers, which finish it unrated (a
        lobby nobody is left at is cancelled)."""
        table = self.reg.get(table_id)
        events: list[TableEvent] = []
        async with self.reg.hold(table):
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError("error.not_seated")
            if table.is_daily:
                raise ServiceError("error.daily_no_leave")
            if table.recording or self.reg.tables.get(table_id) is not table:
                raise ServiceError("error.recording")  # the match is over: nothing to leave
            was_host = user_id == table.host_id
            if table.in_lobby:
                await self.reg.store.games.leave_game(table_id, user_id)
                await self.reg.refresh(table)
                events.append(TableChanged(Moment.of(table)))
                if all(s.user_id is None for s in table.seats):
                    await self._cancel_locked(table, "empty", events)
                elif was_host:
                    await self.seats.hand_over_host_locked(table, seat, events)
            else:
                name = table.seats[seat].name or ""
                former = (
                    *table.settings.former_seats,
                    FormerSeat(seat, table.move, name, user_id, kicked=change == "kicked"),
                )
                await self.reg.store.games.leave_game(
                    table_id, user_id, replace_with_bot=table.bot_level
                )
                table.game = await self.reg.store.games.set_game_settings(
                    table_id, replace(table.settings, former_seats=former).to_dict()
                )
                table.timeouts[seat] = 0
                # the last person out: the computers finish the match, unrated
                last = all(s.user_id is None for s in table.seats)
                how = "left_last" if last else change
                events.append(SeatChanged(Moment.of(table), seat, how, name))
                events.append(TableChanged(Moment.of(table)))
                if last:
                    await self.seats.computers_finish_locked(table, events)
                else:
                    if was_host:
                        await self.seats.hand_over_host_locked(table, seat, events)
                    self.play.schedule(table)
        await self.reg.emit(events)
        return seat

    async def kick(self, table_id: int, by_user: int, target: int, *, is_admin: bool) -> int:
        table = self.reg.get(table_id)
        _not_a_tournament_host(table, is_admin)
        if not self.reg.is_host(table, by_user) and not is_admin:
            raise ServiceError("error.host_only")
        if table.seat_of(target) is None:
            raise ServiceError("error.target_not_seated")
        return await self.leave(table_id, target, "kicked")

    async def cancel(self, table_id: int, user_id: int, *, is_admin: bool) -> None:
        table = self.reg.get(table_id)
        _not_a_tournament_host(table, is_admin)
        if not self.reg.is_host(table, user_id) and not is_admin:
            raise ServiceError("error.host_only")
        events: list[TableEvent] = []
        async with self.reg.hold(table):
            if table.id not in self.reg.tables:
                raise ServiceError("error.no_table")
            if table.recording:
                raise ServiceError(
                    "error.recording"
                )  # a finished match is recorded, never cancelled
            await self._cancel_locked(table, "cancelled", events)
        await self.reg.emit(events)

    async def _cancel_locked(
        self, table: Table, reason: CloseReason, events: list[TableEvent]
    ) -> None:
        self.reg.stop_turn(table)
        self.reg.void_requests(table, events)
        try:
            table.game = await self.reg.store.games.cancel_game(table.id)
        except GameClosedError:
            table.game = await self.reg.store.games.get_game(table.id)
        self.reg.tables.pop(table.id, None)
        self.reg.cancelled[table.id] = table
        while len(self.reg.cancelled) > 100:
            self.reg.cancelled.pop(next(iter(self.reg.cancelled)))
        events.append(TableClosed(Moment.of(table), reason))

    async def start(self, table_id: int, user_id: int) -> Table:
        """The host starts the match; empty seats get computer players."""
        table = self.lobby_table(table_id)
        events: list[TableEvent] = []
        async with self.reg.hold(table):
            self.lobby_table(table_id)
            if not self.reg.is_host(table, user_id):
                raise ServiceError("error.host_only")
            seats = [Seat.bot(table.bot_level) if s.is_empty else s for s in table.seats]
            seed = self.reg.rng.randrange(1 << 62)
            settings = replace(table.settings, seed=seed)
            match = Match(table.rules, seed, settings.first_dealer)
            table.game = await self.reg.store.games.start_game(
                table_id,
                phase=phase_of(match),
                to_act=match.to_act,
                settings=settings.to_dict(),
                seats=seats,
            )
            table.match = match
            events.append(TableChanged(Moment.of(table)))
            self.play.schedule(table, events)
        await self.reg.emit(events)
        return table

    async def rematch(self, table_id: int, user_id: int, user_name: str | None = None) -> Table:
        """A new lobby for the same channel with the same people and computer players."""
        old = self.reg.finished.get(table_id)
        if old is None:
            try:
                old = await self.reg.load(table_id)
            except GameNotFoundError as exc:
                raise ServiceError("error.no_table") from exc
        if old.game.status != "finished" or old.is_daily:
            raise ServiceError("error.not_finished")
        if old.kind == TOURNAMENT:
            raise ServiceError("tournament.error.no_rematch")
        if old.seat_of(user_id) is None:
            raise ServiceError("error.not_seated")
        for t in self.reg.tables_in(old.game.where_id):
            if t.settings.rematch_of == table_id:
                raise ServiceError("error.rematch_exists", table=t.id)
        # However many press Rematch at once, the store creates one lobby (a unique key
        # on rematch_of); the others are told which table that is.
        seats = [Seat(s.user_id, None, s.name) if s.user_id is not None else s for s in old.seats]
        guild = await self.reg.store.guild_settings.get_guild_settings(old.game.guild_id)
        table = await self.create_table(
            old.game.guild_id,
            old.game.channel_id,
            user_id,
            user_name,
            guild=guild,
            preset_name=old.rules.preset,
            deals=old.rules.deals,
            pace=old.pace,
            thread_id=old.game.thread_id,
            seats=seats,
            rematch_of=table_id,
            casual=not old.settings.rated,
            language=old.settings.language or guild.language,
            options=old.rules.to_dict(),  # the same house rules
            watching=old.settings.watching,
        )
        return table


def _not_a_tournament_host(table: Table, is_admin: bool) -> None:
    """A tournament's table is the tournament's: the person in its host seat does not
    cancel it or remove anyone (only Manage Server, or the tournament itself)."""
    if table.kind == TOURNAMENT and not is_admin:
        raise ServiceError("tournament.error.organiser_only")
