"""The table service: every table's state, one lock per table, computer players and timers.

Nothing here imports discord. The Discord cog calls the service's coroutines and
is told what happened through a :class:`TableListener`; tests drive the same
service with a fake listener and :class:`cogs.timers.FakeTimers`.

The rule of the service: an action is checked against the engine, committed to
the store (append-only log, optimistic move numbers) and only then acknowledged.
On start-up :meth:`TableService.restore` rebuilds every open table by replaying
its stored log through the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from batak import (
    Action,
    Match,
    Observation,
    Rules,
    RulesError,
    daily_seed,
    format_action,
    parse_action,
    preset,
)
from batak import players as batak_players
from batak.ai.hints import Hint, hint
from data import (
    DailyAlreadyPlayedError,
    Game,
    GameClosedError,
    GameNotFoundError,
    GuildSettings,
    MatchSummary,
    Seat,
    SeatError,
    StaleMoveError,
    Store,
    StoreError,
)

from . import workers
from .timers import AsyncioTimers, Timers

log = logging.getLogger(__name__)

BOT_LEVELS = ("easy", "normal", "hard")
DAILY = "daily"
TABLE = "table"


# ----------------------------------------------------------------------------- errors
class ServiceError(Exception):
    """A request the service refuses; ``key`` is a message id of the catalogues."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key} {params}" if params else key)
        self.key = key
        self.params = params


class StaleAction(ServiceError):
    """The button was made for an earlier move (a double click, an old message)."""

    def __init__(self, current: int) -> None:
        super().__init__("error.stale", move=current)
        self.current = current


class IllegalMove(ServiceError):
    """The engine refused the action; ``reason`` is the engine's sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__("error.illegal", reason=reason)
        self.reason = reason


# ----------------------------------------------------------------------------- settings
@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """Delays and limits (seconds). The bot reads them from the environment."""

    bot_delay: float = 1.5
    """How long a computer player 'thinks' before acting at a table."""
    max_timeouts: int = 2
    """Consecutive time-outs after which a person's seat is handed to a computer player."""
    daily_deals: int = 3
    """Deals of the daily match."""
    turn_timeout_override: float | None = None
    """Use this turn timer instead of the server's (tests and development)."""


# ----------------------------------------------------------------------------- tables
@dataclass
class Table:
    """One open table: its stored row, the engine's match and its lock."""

    game: Game
    match: Match | None
    rules: Rules
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timeouts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    summary: MatchSummary | None = None

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def kind(self) -> str:
        return self.game.kind

    @property
    def is_daily(self) -> bool:
        return self.game.kind == DAILY

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.game.seats

    @property
    def settings(self) -> dict[str, Any]:
        return self.game.settings

    @property
    def pace(self) -> str:
        return str(self.settings.get("pace", "live"))

    @property
    def bot_level(self) -> str:
        return str(self.settings.get("bot_level", "normal"))

    @property
    def host_id(self) -> int:
        return self.game.host_id

    @property
    def move(self) -> int:
        return self.match.move_number if self.match is not None else 0

    @property
    def to_act(self) -> int | None:
        return self.match.to_act if self.match is not None else None

    @property
    def in_lobby(self) -> bool:
        return self.game.status == "lobby"

    @property
    def playing(self) -> bool:
        return self.game.status == "playing" and self.match is not None

    @property
    def finished(self) -> bool:
        return self.game.status == "finished"

    def seat_of(self, user_id: int) -> int | None:
        return self.game.seat_of(user_id)

    def controlled_by_bot(self, seat: int) -> bool:
        """True when a computer player acts for the seat (a bot, or a person away)."""
        s = self.seats[seat]
        return s.bot_level is not None

    def observation(self, seat: int) -> Observation:
        assert self.match is not None
        return self.match.observation(seat)


@dataclass(frozen=True, slots=True)
class ActResult:
    """What an accepted action did."""

    table: Table
    seat: int
    action: Action
    move: int
    deal_finished: int | None = None
    """The 0-based index of a deal this action finished, if any."""
    match_finished: bool = False


class TableListener(Protocol):
    """What the service tells the presentation layer (the Discord cog, or a test)."""

    async def table_changed(self, table: Table) -> None:
        """The table's public state changed (lobby seats, a card, a bid...)."""

    async def turn_started(self, table: Table, seat: int) -> None:
        """A person is to act at ``seat`` (not sent for computer players)."""

    async def action_applied(self, table: Table, seat: int, action: Action, actor: str) -> None:
        """An action was committed; ``actor`` is player, bot or timeout."""

    async def deal_finished(self, table: Table, index: int) -> None:
        """Deal ``index`` (0-based) ended; ``table.match.finished[index]`` holds it."""

    async def match_finished(self, table: Table, summary: MatchSummary | None) -> None:
        """The match ended and was recorded (``summary`` is None for a daily match)."""

    async def table_closed(self, table: Table, reason: str) -> None:
        """The table was cancelled (``reason``: cancelled, empty)."""

    async def seat_timed_out(
        self, table: Table, seat: int, action: Action, handed_over: bool
    ) -> None:
        """The computer played a person's turn; ``handed_over`` when it keeps the seat."""


class NullListener:
    """A listener that ignores everything."""

    async def table_changed(self, table: Table) -> None:
        return None

    async def turn_started(self, table: Table, seat: int) -> None:
        return None

    async def action_applied(self, table: Table, seat: int, action: Action, actor: str) -> None:
        return None

    async def deal_finished(self, table: Table, index: int) -> None:
        return None

    async def match_finished(self, table: Table, summary: MatchSummary | None) -> None:
        return None

    async def table_closed(self, table: Table, reason: str) -> None:
        return None

    async def seat_timed_out(
        self, table: Table, seat: int, action: Action, handed_over: bool
    ) -> None:
        return None


Event = Callable[[], Awaitable[None]]


def make_computer(level: str, seed: int) -> batak_players.Player:
    """The computer player of a level; unknown levels fall back to ``easy``."""
    try:
        return batak_players.make_player(level, seed)
    except ValueError:
        return batak_players.make_player("easy", seed)


def computer_choice(level: str, seed: int, observation: Observation) -> Action:
    """What the computer player of ``level`` does (runs in the thinking worker)."""
    return make_computer(level, seed).choose(observation)


def hint_for(observation: Observation, budget: float = 0.25) -> tuple[Action, Hint]:
    """Advice for the seat of ``observation``: the hard level's action and its reason
    (a structured ``Hint``, formatted per language by the cog). Only that seat's
    information is used."""
    h = hint(observation, budget=budget)
    return h.action, h


def phase_of(match: Match | None) -> str:
    if match is None:
        return "lobby"
    return "done" if match.is_over else match.deal.phase.value


# ----------------------------------------------------------------------------- service
class TableService:
    """All tables of the bot, Discord-agnostic."""

    def __init__(
        self,
        store: Store,
        *,
        config: ServiceConfig | None = None,
        timers: Timers | None = None,
        listener: TableListener | None = None,
        today: Callable[[], dt.date] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.config = config or ServiceConfig()
        self.timers: Timers = timers if timers is not None else AsyncioTimers()
        self.listener: TableListener = listener if listener is not None else NullListener()
        self._today = today or (lambda: dt.datetime.now(dt.UTC).date())
        self._rng = rng or random.SystemRandom()
        self.tables: dict[int, Table] = {}
        self._finished: dict[int, Table] = {}

    # ------------------------------------------------------------------ lookups
    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ServiceError("error.no_table")
        return table

    def tables_in(self, channel_id: int) -> list[Table]:
        """Open tables (not daily) in a channel or its thread, newest first."""
        found = [
            t
            for t in self.tables.values()
            if not t.is_daily and channel_id in (t.game.channel_id, t.game.thread_id)
        ]
        return sorted(found, key=lambda t: -t.id)

    def table_here(self, channel_id: int, user_id: int | None = None) -> Table | None:
        """The table of a channel: the one the user sits at, else the newest."""
        found = self.tables_in(channel_id)
        if user_id is not None:
            for t in found:
                if t.seat_of(user_id) is not None:
                    return t
        return found[0] if found else None

    @staticmethod
    def is_host(table: Table, user_id: int) -> bool:
        """The host, or any seated person once the host has left the table."""
        if user_id == table.host_id:
            return True
        return table.seat_of(table.host_id) is None and table.seat_of(user_id) is not None

    def tables_of(self, user_id: int) -> list[Table]:
        return [t for t in self.tables.values() if t.seat_of(user_id) is not None]

    def daily_of(self, guild_id: int, user_id: int) -> Table | None:
        for t in self.tables.values():
            if t.is_daily and t.game.guild_id == guild_id and t.seat_of(user_id) == 0:
                return t
        return None

    # ------------------------------------------------------------------ events
    async def _emit(self, events: list[Event]) -> None:
        for event in events:
            try:
                await event()
            except Exception:
                log.exception("listener failed")

    # ------------------------------------------------------------------ start-up
    async def restore(self) -> list[int]:
        """Load every open table from the store and restart its timers; returns their ids."""
        restored = []
        for stored in await self.store.open_games():
            try:
                table = await self._load(stored.id)
            except Exception:
                log.exception("could not restore table %s", stored.id)
                continue
            self.tables[table.id] = table
            restored.append(table.id)
            events: list[Event] = []
            if table.match is not None and table.match.is_over and table.game.status == "playing":
                async with table.lock:
                    await self._finish_match(table, events)
                await self._emit(events)
            elif table.playing and table.is_daily:
                events = []
                async with table.lock:  # a crash between the computers' moves
                    await self._run_daily_bots(table, events)
                await self._emit(events)
            elif table.playing:
                self._schedule(table)
        log.info("restored %d open table(s)", len(restored))
        return restored

    async def _load(self, table_id: int) -> Table:
        game = await self.store.load_game(table_id)
        rules = Rules.from_dict(game.settings["rules"])
        match = None
        if game.status in ("playing", "finished"):
            actions = [parse_action(a) for a in game.actions]
            match = Match.replay(
                rules,
                int(game.settings["seed"]),
                actions,
                int(game.settings.get("first_dealer", 0)),
            )
        return Table(game=game, match=match, rules=rules)

    async def close(self) -> None:
        await self.timers.close()

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
    ) -> Table:
        """Open a lobby with the host in seat 0 (or the given seats)."""
        g = guild or await self.store.get_guild_settings(guild_id)
        name = preset_name or g.preset
        n_deals = deals if deals is not None else g.deals
        try:
            rules = preset(name, deals=n_deals) if n_deals is not None else preset(name)
        except RulesError as exc:
            raise ServiceError("error.bad_rules", reason=str(exc)) from exc
        p = pace or g.pace
        if p not in ("live", "async"):
            raise ServiceError("error.bad_rules", reason=f"pace {p!r}")
        timeout = self.config.turn_timeout_override or g.turn_timeout_s(p)
        settings = {
            "rules": rules.to_dict(),
            "pace": p,
            "turn_timeout_s": timeout,
            "bot_level": g.bot_level,
            "language": g.language,
            "first_dealer": 0,
        }
        initial = seats or [Seat.human(host_id, host_name), Seat(), Seat(), Seat()]
        game = await self.store.create_game(
            guild_id, channel_id, host_id, settings, thread_id=thread_id, seats=initial
        )
        table = Table(game=game, match=None, rules=rules)
        self.tables[table.id] = table
        await self._emit([lambda: self.listener.table_changed(table)])
        return table

    async def _refresh(self, table: Table) -> None:
        table.game = await self.store.get_game(table.id)

    def _lobby(self, table_id: int) -> Table:
        table = self.get(table_id)
        if not table.in_lobby:
            raise ServiceError("error.already_started")
        return table

    async def join(self, table_id: int, user_id: int, name: str | None = None) -> int:
        table = self._lobby(table_id)
        async with table.lock:
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
        await self._emit([lambda: self.listener.table_changed(table)])
        return seat

    async def add_bot(self, table_id: int, user_id: int, level: str | None = None) -> int:
        table = self._lobby(table_id)
        async with table.lock:
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

    async def leave(self, table_id: int, user_id: int) -> int:
        """Leave a table: in the lobby the seat empties, in play a computer player takes it."""
        table = self.get(table_id)
        events: list[Event] = []
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise ServiceError("error.not_seated")
            if table.is_daily:
                raise ServiceError("error.daily_no_leave")
            if table.in_lobby:
                await self.store.leave_game(table_id, user_id)
                await self._refresh(table)
                events.append(lambda: self.listener.table_changed(table))
                if all(s.user_id is None for s in table.seats):
                    await self._cancel_locked(table, "empty", events)
            else:
                await self.store.leave_game(table_id, user_id, replace_with_bot=table.bot_level)
                await self._refresh(table)
                table.timeouts[seat] = 0
                events.append(lambda: self.listener.table_changed(table))
                if all(s.user_id is None for s in table.seats):
                    await self._cancel_locked(table, "empty", events)
                else:
                    self._schedule(table)
        await self._emit(events)
        return seat

    async def kick(self, table_id: int, by_user: int, target: int, *, is_admin: bool) -> int:
        table = self.get(table_id)
        if not self.is_host(table, by_user) and not is_admin:
            raise ServiceError("error.host_only")
        if table.seat_of(target) is None:
            raise ServiceError("error.target_not_seated")
        return await self.leave(table_id, target)

    async def cancel(self, table_id: int, user_id: int, *, is_admin: bool) -> None:
        table = self.get(table_id)
        if not self.is_host(table, user_id) and not is_admin:
            raise ServiceError("error.host_only")
        events: list[Event] = []
        async with table.lock:
            if table.id not in self.tables:
                raise ServiceError("error.no_table")
            await self._cancel_locked(table, "cancelled", events)
        await self._emit(events)

    async def _cancel_locked(self, table: Table, reason: str, events: list[Event]) -> None:
        self.timers.cancel(self._key(table))
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
        async with table.lock:
            self._lobby(table_id)
            if not self.is_host(table, user_id):
                raise ServiceError("error.host_only")
            seats = [Seat.bot(table.bot_level) if s.is_empty else s for s in table.seats]
            seed = self._rng.randrange(1 << 62)
            settings = dict(table.settings) | {"seed": seed}
            match = Match(table.rules, seed, int(settings.get("first_dealer", 0)))
            table.game = await self.store.start_game(
                table_id,
                phase=phase_of(match),
                to_act=match.to_act,
                settings=settings,
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
            if t.settings.get("rematch_of") == table_id:
                raise ServiceError("error.rematch_exists", table=t.id)
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
        )
        settings = dict(table.settings) | {"rematch_of": table_id}
        table.game = await self.store.set_game_settings(table.id, settings)
        return table

    @property
    def finished(self) -> dict[int, Table]:
        return self._finished

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
        settings = {
            "rules": rules.to_dict(),
            "pace": "async",
            "turn_timeout_s": None,
            "bot_level": g.bot_level,
            "language": g.language,
            "first_dealer": 0,
            "seed": seed,
            "day": day.isoformat(),
        }
        seats = [Seat.human(user_id, name)] + [Seat.bot(g.bot_level) for _ in range(3)]
        match = Match(rules, seed, 0)
        game = await self.store.create_game(
            guild_id,
            channel_id,
            user_id,
            settings,
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
        async with table.lock:
            await self._run_daily_bots(table, events)
        await self._emit(events)
        return table

    async def _run_daily_bots(self, table: Table, events: list[Event]) -> None:
        """In a daily match the computers answer at once, so the hand shows their cards."""
        match = table.match
        assert match is not None
        while not match.is_over and match.to_act is not None and match.to_act != 0:
            seat = match.to_act
            action = await self._computer_action(table, seat)
            await self._commit(table, seat, action, "bot", events)

    # ------------------------------------------------------------------ playing
    async def act(
        self, table_id: int, user_id: int, seat: int, move: int, action: Action | str
    ) -> ActResult:
        """A person's action from a button made for ``(seat, move)``.

        Raises :class:`StaleAction` when the table moved on, ``error.not_your_seat``
        when the seat is not the user's, :class:`IllegalMove` when the engine refuses.
        """
        table = self.get(table_id)
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError as exc:
                raise ServiceError("error.forged") from exc
        events: list[Event] = []
        async with table.lock:
            if self.tables.get(table_id) is not table or not table.playing:
                raise ServiceError("error.no_table")
            assert table.match is not None
            if table.seat_of(user_id) != seat:
                raise ServiceError("error.not_your_seat")
            if move != table.match.move_number:
                raise StaleAction(table.match.move_number)
            if table.match.to_act != seat:
                raise ServiceError("error.not_your_turn")
            if action not in table.match.legal_actions():
                raise IllegalMove(table.match.deal.explain_illegal(action))
            if table.seats[seat].is_away:
                await self._come_back_locked(table, seat, events)
            table.timeouts[seat] = 0
            try:
                result = await self._commit(table, seat, action, "player", events)
            except StaleMoveError as exc:  # another writer got there first; reloaded
                raise StaleAction(exc.current) from exc
            if table.is_daily:
                await self._run_daily_bots(table, events)
            else:
                self._schedule(table, events)
        await self._emit(events)
        return result

    async def come_back(self, table_id: int, user_id: int) -> bool:
        """A person away (a computer holding their seat) takes the seat back."""
        table = self.get(table_id)
        events: list[Event] = []
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None or not table.seats[seat].is_away or not table.playing:
                return False
            await self._come_back_locked(table, seat, events)
            self._schedule(table, events)
        await self._emit(events)
        return True

    async def _come_back_locked(self, table: Table, seat: int, events: list[Event]) -> None:
        s = table.seats[seat]
        await self.store.set_seat(table.id, seat, Seat(s.user_id, None, s.name), expected=s)
        await self._refresh(table)
        table.timeouts[seat] = 0
        events.append(lambda: self.listener.table_changed(table))

    async def hint(self, table_id: int, user_id: int) -> tuple[Action, Hint]:
        table = self.get(table_id)
        if not table.playing:
            raise ServiceError("error.not_started")
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_seated")
        obs = table.observation(seat)
        if not obs.legal:
            raise ServiceError("error.not_your_turn")
        return await workers.THINKING.run(hint_for, obs)

    async def _computer_action(self, table: Table, seat: int) -> Action:
        """The computer's choice for ``seat`` (thought out in a worker thread: the hard
        level searches for a while and must not block the event loop)."""
        assert table.match is not None
        level = table.seats[seat].bot_level or table.bot_level
        seed = (int(table.settings.get("seed", 0)) * 31 + table.match.move_number * 4 + seat) % (
            1 << 62
        )
        observation = table.match.observation(seat)
        return await workers.THINKING.run(computer_choice, level, seed, observation)

    async def _commit(
        self, table: Table, seat: int, action: Action, actor: str, events: list[Event]
    ) -> ActResult:
        """Apply to the engine, commit to the store, then report. Caller holds the lock."""
        match = table.match
        assert match is not None
        before = match.move_number
        deals_before = len(match.finished)
        match.apply(action, seat)
        try:
            await self.store.append_action(
                table.id,
                before,
                format_action(action),
                seat=seat,
                phase=phase_of(match),
                to_act=match.to_act,
                actor=actor,
            )
        except BaseException:
            # The store refused (or failed): forget the in-memory move by replaying the log.
            try:
                fresh = await self._load(table.id)
                table.match, table.game = fresh.match, fresh.game
            except Exception:
                log.exception("table %s: could not reload after a failed commit", table.id)
            raise
        deal_done = deals_before if len(match.finished) > deals_before else None
        events.append(lambda: self.listener.action_applied(table, seat, action, actor))
        if deal_done is not None:
            idx = deal_done
            events.append(lambda: self.listener.deal_finished(table, idx))
        if match.is_over:
            await self._finish_match(table, events)
        elif not table.is_daily:
            events.append(lambda: self.listener.table_changed(table))
        return ActResult(
            table, seat, action, match.move_number, deal_done, match_finished=match.is_over
        )

    async def _finish_match(self, table: Table, events: list[Event]) -> None:
        match = table.match
        assert match is not None and match.is_over
        self.timers.cancel(self._key(table))
        records = [d.to_record() for d in match.finished]
        summary: MatchSummary | None = None
        if table.is_daily:
            human = table.seats[0].user_id
            assert human is not None
            try:
                await self.store.finish_daily(
                    table.game.guild_id,
                    human,
                    match.totals[0],
                    day=table.settings.get("day"),
                    placement=match.placements()[0],
                    details={"totals": list(match.totals), "deals": len(match.finished)},
                    game_id=table.id,
                )
            except DailyAlreadyPlayedError:
                log.warning("daily result of table %s was already recorded", table.id)
            with contextlib.suppress(GameClosedError):
                await self.store.finish_game(table.id)
        else:
            try:
                summary = await self.store.record_match(
                    table.game.guild_id,
                    table.seats,
                    records,
                    rules=table.rules.to_dict(),
                    seed=int(table.settings["seed"]),
                    totals=list(match.totals),
                    winners=list(match.winners),
                    game_id=table.id,
                )
            except StoreError:
                log.exception("table %s: recording the match failed", table.id)
                with contextlib.suppress(StoreError):
                    await self.store.finish_game(table.id)
        table.game = await self.store.get_game(table.id)
        table.summary = summary
        self.tables.pop(table.id, None)
        self._finished[table.id] = table
        if len(self._finished) > 200:
            self._finished.pop(next(iter(self._finished)))
        events.append(lambda: self.listener.match_finished(table, summary))

    # ------------------------------------------------------------------ timers
    @staticmethod
    def _key(table: Table) -> str:
        return f"turn:{table.id}"

    def _schedule(self, table: Table, events: list[Event] | None = None) -> None:
        """Arm the table's one timer: a computer's move, or a person's turn timer."""
        key = self._key(table)
        match = table.match
        if match is None or match.is_over or not table.playing or table.is_daily:
            self.timers.cancel(key)
            return
        seat = match.to_act
        assert seat is not None
        move = match.move_number
        if table.controlled_by_bot(seat):
            self.timers.schedule(
                key, self.config.bot_delay, lambda: self._timer_fired(table.id, move, False)
            )
            return
        timeout = table.settings.get("turn_timeout_s")
        if timeout:
            self.timers.schedule(
                key, float(timeout), lambda: self._timer_fired(table.id, move, True)
            )
        else:
            self.timers.cancel(key)
        if events is not None:
            events.append(lambda: self.listener.turn_started(table, seat))

    async def _timer_fired(self, table_id: int, move: int, timed_out: bool) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        events: list[Event] = []
        try:
            async with table.lock:
                if self.tables.get(table_id) is not table or not table.playing:
                    return
                match = table.match
                assert match is not None
                if match.move_number != move or match.to_act is None:
                    return
                seat = match.to_act
                action = await self._computer_action(table, seat)
                handed_over = False
                if timed_out and not table.controlled_by_bot(seat):
                    table.timeouts[seat] += 1
                    if table.timeouts[seat] >= self.config.max_timeouts:
                        s = table.seats[seat]
                        await self.store.set_seat(
                            table.id, seat, Seat(s.user_id, table.bot_level, s.name), expected=s
                        )
                        await self._refresh(table)
                        handed_over = True
                    await self._commit(table, seat, action, "timeout", events)
                    events.insert(
                        0,
                        lambda: self.listener.seat_timed_out(table, seat, action, handed_over),
                    )
                else:
                    await self._commit(table, seat, action, "bot", events)
                self._schedule(table, events)
        except StaleMoveError:
            log.warning("table %s: another writer moved first; reloaded", table_id)
            fresh = self.tables.get(table_id)
            if fresh is not None:
                self._schedule(fresh)
        except Exception:
            # A failed commit (database busy, disk full...): nothing was acknowledged and
            # the table was reloaded from the log; try this turn again a little later.
            log.exception("table %s: a computer move failed; retrying", table_id)
            fresh = self.tables.get(table_id)
            if fresh is not None and fresh.playing:
                self.timers.schedule(
                    self._key(fresh),
                    max(5.0, self.config.bot_delay),
                    lambda: self._timer_fired(table_id, move, timed_out),
                )
        await self._emit(events)
