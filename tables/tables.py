"""The table service: opening, joining, starting and closing tables, the daily match,
and the restart of every open table.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from batak import Match, RulesError, daily_seed, preset
from data import (
    DailyAlreadyPlayedError,
    GameClosedError,
    GameNotFoundError,
    GuildSettings,
    HostHasOpenTableError,
    RematchExistsError,
    Seat,
    SeatError,
)

from .errors import ServiceError
from .house import LobbyRules, rules_with
from .listener import Event
from .model import (
    DAILY,
    NOTIFY_MODES,
    CloseReason,
    FormerSeat,
    NotifyMode,
    Table,
    TableSettings,
    as_notify,
    as_pace,
    is_preset_unchanged,
    phase_of,
)
from .seats import SeatTables

log = logging.getLogger(__name__)

__all__ = ["NOTIFY_MODES", "TableService"]


class TableService(SeatTables, LobbyRules):
    """All tables of the bot, Discord-agnostic: the lobby, the daily match and start-up
    here; seats in play in :class:`~tables.seats.SeatTables`, house rules and
    watching in :class:`~tables.house.LobbyRules`, playing in
    :class:`~tables.play.PlayingTables`, look-ups in
    :class:`~tables.registry.TableRegistry`."""

    # ------------------------------------------------------------------ start-up
    async def restore(self) -> list[int]:
        """Load every open table of this process's servers from the store and restart
        its timers; returns their ids."""
        restored = []
        for stored in await self.store.open_games():
            if not self.owns_guild(stored.guild_id):
                continue  # another shard's process runs it
            try:
                table = await self._load(stored.id)
            except Exception:
                log.exception("could not restore table %s", stored.id)
                continue
            self.tables[table.id] = table
            restored.append(table.id)
            events: list[Event] = []
            if table.match is not None and table.match.is_over and table.game.status == "playing":
                async with self._hold(table):
                    await self._finish_match(table, events)
                await self._emit(events)
            elif table.playing and table.is_daily:
                events = []
                async with self._hold(table):  # a crash between the computers' moves
                    await self._run_daily_bots(table, events)
                await self._emit(events)
            elif table.playing:
                await self._restore_deadline(table)
                self._schedule(table)
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
            log_ = await self.store.action_log(table.id, since_move=table.move - 1)
            if log_:
                began = log_[-1].at
        try:
            start = datetime.fromisoformat(began).timestamp()
        except ValueError:
            return
        table.deadline, table.deadline_move = start + float(timeout), table.move

    # ------------------------------------------------------------------ lobby
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

        The table is rated when it plays a preset unchanged (:func:`is_preset_unchanged`)
        and the host did not ask for a ``casual`` one (``options``: house rules, judged by
        the engine, make it casual); a casual table gives hints when
        the server allows them (``casual_hints``). ``language`` is the table's (public
        messages); default: the server's setting.

        The store keeps one open table per seated host and server, and one rematch per
        finished table, whoever races: ``error.already_hosting`` and
        ``error.rematch_exists`` (with the table that is open) say so."""
        g = guild or await self.store.get_guild_settings(guild_id)
        name = preset_name or g.preset
        n_deals = deals if deals is not None else g.deals
        try:
            rules = preset(name, deals=n_deals) if n_deals is not None else preset(name)
        except RulesError as exc:
            raise ServiceError("error.bad_rules", reason=str(exc)) from exc
        if options:
            rules = rules_with(rules, options)
        p = as_pace(pace or g.pace)
        if p is None:
            raise ServiceError("error.bad_rules", reason=f"pace {pace or g.pace!r}")
        settings = TableSettings(
            rules=rules.to_dict(),
            pace=p,
            turn_timeout_s=self.config.turn_timeout_override or g.turn_timeout_s(p),
            bot_level=g.table_level(p),
            language=language or g.language,
            first_dealer=0,
            rematch_of=rematch_of,
            rated=not casual and is_preset_unchanged(rules),
            watching=watching,
        )
        settings = replace(settings, hints=not settings.rated and g.casual_hints)
        initial = seats or [Seat.human(host_id, host_name), Seat(), Seat(), Seat()]
        try:
            game = await self.store.create_game(
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
        self.tables[table.id] = table
        for s in initial:
            if s.user_id is not None:
                await self._carry_notifications(table, s.user_id)
        await self._emit([lambda: self.listener.table_changed(table)])
        return table

    # ------------------------------------------------------------------ notifications
    async def notification_mode(self, user_id: int) -> NotifyMode:
        """A person's notification setting (needed, every, never), kept in the settings of
        their tables and carried to each new one; ``needed`` if never chosen.

        Their own setting (``/batak settings me``, stored with their personal settings)
        comes first; a table's copy is what a person chose before personal settings
        existed."""
        own = as_notify((await self.store.get_user_settings(user_id)).notifications)
        if own is not None:
            return own
        for table in self.tables_of(user_id):
            mode = table.settings.notify.get(str(user_id))
            if mode is not None:
                return mode
        for game in await self.store.list_games(user_id=user_id, status=None, limit=5):
            mode = TableSettings.from_dict(game.settings).notify.get(str(user_id))
            if mode is not None:
                return mode
        return "needed"

    async def set_notifications(self, user_id: int, mode: str) -> int:
        """Copy a person's notification setting to every open table of theirs (turn notices
        read it there); returns how many. Their own copy is in their personal settings."""
        chosen = as_notify(mode)
        if chosen is None:
            raise ServiceError("error.bad_setting", reason=f"notifications {mode!r}")
        done = 0
        for table in self.tables_of(user_id):
            async with table.lock:
                if table.is_daily or not table.game.is_open:
                    continue
                await self._write_notify(table, user_id, chosen)
                done += 1
        return done

    async def _write_notify(self, table: Table, user_id: int, mode: NotifyMode) -> None:
        notify = dict(table.settings.notify) | {str(user_id): mode}
        settings = replace(table.settings, notify=notify)
        table.game = await self.store.set_game_settings(table.id, settings.to_dict())

    async def _carry_notifications(self, table: Table, user_id: int) -> None:
        mode = await self.notification_mode(user_id)
        if mode != "needed" and table.settings.notify.get(str(user_id)) != mode:
            await self._write_notify(table, user_id, mode)

    def hosted_by(self, guild_id: int, host_id: int) -> Table | None:
        """The open table (not a daily) ``host_id`` hosts and sits at in the server."""
        for t in self.tables.values():
            if (
                not t.is_daily
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
        if key in self._opening:
            raise ServiceError("error.opening")
        hosted = self.hosted_by(guild_id, host_id)
        if hosted is not None:
            raise ServiceError("error.already_hosting", table=hosted.id)
        self._opening.add(key)
        try:
            yield
        finally:
            self._opening.discard(key)

    async def attach_thread(self, table_id: int, thread_id: int) -> Table:
        """The lobby's thread, made right after its table (so a table that is refused
        never leaves an empty thread behind): the table lives there from now on."""
        table = self._lobby(table_id)
        async with self._hold(table):
            await self.store.set_thread(table.id, thread_id)
            table.game = replace(table.game, thread_id=thread_id)
        return table

    def _lobby(self, table_id: int) -> Table:
        table = self.get(table_id)
        if not table.in_lobby:
            raise ServiceError("error.already_started")
        return table

    async def join(self, table_id: int, user_id: int, name: str | None = None) -> int:
        table = self._lobby(table_id)
        async with self._hold(table):
            self._lobby(table_id)
            if table.seat_of(user_id) is not None:
                raise ServiceError("error.already_seated")
            try:
                seat = await self.store.join_game(table_id, user_id, name=name)
            except SeatError as exc:
                raise ServiceError("error.table_full") from exc
            except GameClosedError as exc:
                raise ServiceError("error.already_started") from exc
            await self._refresh(table)
            await self._carry_notifications(table, user_id)
        await self._emit([lambda: self.listener.table_changed(table)])
        return seat

    async def add_bot(self, table_id: int, user_id: int, level: str | None = None) -> int:
        table = self._lobby(table_id)
        async with self._hold(table):
            self._lobby(table_id)
            if user_id != table.host_id and table.seat_of(user_id) is None:
                raise ServiceError("error.not_seated")
            free = [i for i, s in enumerate(table.seats) if s.is_empty]
            if not free:
                raise ServiceError("error.table_full")
            lvl = level or table.bot_level
            await self.store.set_seat(table_id, free[0], Seat.bot(lvl), expected=Seat())
            await self._refresh(table)
        await self._emit([lambda: self.listener.table_changed(table)])
        return free[0]

    async def leave(self, table_id: int, user_id: int, change: str = "left") -> int:
        """Leave a table: in the lobby the seat empties, in play a computer player takes it
        (the table is told: ``change`` is left or kicked; past tricks keep the name).

        A host who leaves hands the table to the next seated person; the last person to
        leave a match in play leaves it to the computers, which finish it unrated (a
        lobby nobody is left at is cancelled)."""
        table = self.get(table_id)
        events: list[Event] = []
        async with self._hold(table):
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError("error.not_seated")
            if table.is_daily:
                raise ServiceError("error.daily_no_leave")
            if table.recording or self.tables.get(table_id) is not table:
                raise ServiceError("error.recording")  # the match is over: nothing to leave
            was_host = user_id == table.host_id
            if table.in_lobby:
                await self.store.leave_game(table_id, user_id)
                await self._refresh(table)
                events.append(lambda: self.listener.table_changed(table))
                if all(s.user_id is None for s in table.seats):
                    await self._cancel_locked(table, "empty", events)
                elif was_host:
                    await self._hand_over_host_locked(table, seat, events)
            else:
                name = table.seats[seat].name or ""
                former = (
                    *table.settings.former_seats,
                    FormerSeat(seat, table.move, name, user_id, kicked=change == "kicked"),
                )
                await self.store.leave_game(table_id, user_id, replace_with_bot=table.bot_level)
                table.game = await self.store.set_game_settings(
                    table_id, replace(table.settings, former_seats=former).to_dict()
                )
                table.timeouts[seat] = 0
                # the last person out: the computers finish the match, unrated
                last = all(s.user_id is None for s in table.seats)
                how = "left_last" if last else change
                events.append(lambda: self.listener.seat_changed(table, seat, how, name))
                events.append(lambda: self.listener.table_changed(table))
                if last:
                    await self._computers_finish_locked(table, events)
                else:
                    if was_host:
                        await self._hand_over_host_locked(table, seat, events)
                    self._schedule(table)
        await self._emit(events)
        return seat

    async def kick(self, table_id: int, by_user: int, target: int, *, is_admin: bool) -> int:
        table = self.get(table_id)
        if not self.is_host(table, by_user) and not is_admin:
            raise ServiceError("error.host_only")
        if table.seat_of(target) is None:
            raise ServiceError("error.target_not_seated")
        return await self.leave(table_id, target, "kicked")

    async def cancel(self, table_id: int, user_id: int, *, is_admin: bool) -> None:
        table = self.get(table_id)
        if not self.is_host(table, user_id) and not is_admin:
            raise ServiceError("error.host_only")
        events: list[Event] = []
        async with self._hold(table):
            if table.id not in self.tables:
                raise ServiceError("error.no_table")
            if table.recording:
                raise ServiceError(
                    "error.recording"
                )  # a finished match is recorded, never cancelled
            await self._cancel_locked(table, "cancelled", events)
        await self._emit(events)

    async def _cancel_locked(self, table: Table, reason: CloseReason, events: list[Event]) -> None:
        self.timers.cancel(self._key(table))
        self._void_requests(table, events)
        try:
            table.game = await self.store.cancel_game(table.id)
        except GameClosedError:
            table.game = await self.store.get_game(table.id)
        self.tables.pop(table.id, None)
        events.append(lambda: self.listener.table_closed(table, reason))

    async def start(self, table_id: int, user_id: int) -> Table:
        """The host starts the match; empty seats get computer players."""
        table = self._lobby(table_id)
        events: list[Event] = []
        async with self._hold(table):
            self._lobby(table_id)
            if not self.is_host(table, user_id):
                raise ServiceError("error.host_only")
            seats = [Seat.bot(table.bot_level) if s.is_empty else s for s in table.seats]
            seed = self._rng.randrange(1 << 62)
            settings = replace(table.settings, seed=seed)
            match = Match(table.rules, seed, settings.first_dealer)
            table.game = await self.store.start_game(
                table_id,
                phase=phase_of(match),
                to_act=match.to_act,
                settings=settings.to_dict(),
                seats=seats,
            )
            table.match = match
            events.append(lambda: self.listener.table_changed(table))
            self._schedule(table, events)
        await self._emit(events)
        return table

    async def rematch(self, table_id: int, user_id: int, user_name: str | None = None) -> Table:
        """A new lobby for the same channel with the same people and computer players."""
        old = self.finished.get(table_id)
        if old is None:
            try:
                old = await self._load(table_id)
            except GameNotFoundError as exc:
                raise ServiceError("error.no_table") from exc
        if old.game.status != "finished" or old.is_daily:
            raise ServiceError("error.not_finished")
        if old.seat_of(user_id) is None:
            raise ServiceError("error.not_seated")
        for t in self.tables_in(old.game.where_id):
            if t.settings.rematch_of == table_id:
                raise ServiceError("error.rematch_exists", table=t.id)
        # However many press Rematch at once, the store creates one lobby (a unique key
        # on rematch_of); the others are told which table that is.
        seats = [Seat(s.user_id, None, s.name) if s.user_id is not None else s for s in old.seats]
        guild = await self.store.get_guild_settings(old.game.guild_id)
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

    # ------------------------------------------------------------------ daily
    async def start_daily(self, guild_id: int, channel_id: int, user_id: int, name: str) -> Table:
        """Today's daily match for the server: the person in seat 0 against three computers.

        Returns the running daily table if the person started one today and has not
        finished; raises ``error.daily_done`` if the try is used up.
        """
        running = self.daily_of(guild_id, user_id)
        if running is not None:
            return running
        day = self._today()
        if await self.store.daily_result(guild_id, user_id, day=day) is not None:
            raise ServiceError("error.daily_done")
        g = await self.store.get_guild_settings(guild_id)
        rules = preset(g.preset, deals=self.config.daily_deals)
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
        game = await self.store.create_game(
            guild_id,
            channel_id,
            user_id,
            settings.to_dict(),
            seats=seats,
            kind=DAILY,
            status="playing",
            phase=phase_of(match),
            to_act=match.to_act,
        )
        try:
            await self.store.start_daily(guild_id, user_id, day=day, game_id=game.id)
        except DailyAlreadyPlayedError as exc:
            await self.store.cancel_game(game.id)
            raise ServiceError("error.daily_done") from exc
        table = Table(game=game, match=match, rules=rules)
        self.tables[table.id] = table
        events: list[Event] = []
        async with self._hold(table):
            await self._run_daily_bots(table, events)
        await self._emit(events)
        return table
