"""The tables the service holds: look-ups, loading from the store, event delivery.

:class:`Registry` is the one thing the service's parts share (:class:`tables.lobby.Lobby`,
:class:`tables.play.Play`, :class:`tables.seats.Seats`, :class:`tables.house.HouseRules`,
:class:`tables.notify.Notifications`): each is given it when :class:`tables.TableService`
puts them together. It changes no table by itself, beyond forgetting the seat requests
that came to nothing.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import random
import time
from collections.abc import AsyncIterator, Callable

from batak import Match, parse_action
from data import Game, GameNotFoundError, Store

from .errors import ServiceError
from .events import Moment, SeatRequestChanged, TableEvent
from .listener import NullListener, TableListener
from .model import DAILY, SeatRequest, SeatRequestState, ServiceConfig, Table, TableSettings
from .thinking import Thoughts
from .timers import AsyncioTimers, Timers

log = logging.getLogger(__name__)


class Registry:
    """All tables of the bot, Discord-agnostic, and what every part of the service uses:
    the store, the timers, the listener, the clocks, one lock per table."""

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
        self.owns_guild: Callable[[int], bool] = owns_guild or (lambda _guild_id: True)
        self.store = store
        self.config = config or ServiceConfig()
        self.timers: Timers = timers if timers is not None else AsyncioTimers()
        self.listener: TableListener = listener if listener is not None else NullListener()
        self.today: Callable[[], dt.date] = today or (lambda: dt.datetime.now(dt.UTC).date())
        self.rng: random.Random = rng or random.SystemRandom()
        self.clock = clock
        """Wall-clock time (Unix seconds): turn deadlines are shown and stored as such."""
        self.tables: dict[int, Table] = {}
        self.finished: dict[int, Table] = {}
        """The tables whose match was recorded lately (the newest 200)."""
        self.cancelled: dict[int, Table] = {}
        """The tables closed before their end lately (the newest 100): the presentation
        layer still draws their last state after it was told
        (:class:`~tables.events.TableClosed`)."""
        self.opening: set[tuple[int, int]] = set()
        """(server, person) of the ``/batak new`` being opened right now."""
        self.requests: dict[tuple[int, int], SeatRequest] = {}
        """(table, person) -> their request for a computer's seat, until the host answers
        (kept in memory: after a restart the person asks again)."""
        self.thoughts = Thoughts()
        """The decisions the computers are thinking out while their moves' delays run."""

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

    # ------------------------------------------------------------------ where a press counts
    async def check_place(
        self,
        table_id: int,
        guild_id: int | None,
        channel_id: int | None,
        *,
        server_wide: bool = False,
    ) -> None:
        """Refuse a button or a command that names ``table_id`` unless it comes from
        where the table lives; call it before anything else touches the table (it takes
        no lock and changes nothing).

        ``guild_id`` and ``channel_id`` are where the interaction was sent from (Discord's
        developer documentation, ``developers/interactions/receiving-and-responding.mdx``,
        "Interaction Object": both name the place of the press; a direct message has no
        guild). Where a table lives:

        - always its own server: a press from another server is refused with
          ``error.table_other_server``, one from a direct message with
          ``error.guild_only``;
        - and, unless ``server_wide``, its channel or its thread (``game.channel_id`` or
          ``game.thread_id``): the table message and everything posted beside it (seat
          requests, deal summaries, the result and its Rematch button) is in the
          thread, or in the channel when there is no thread; the link line left in the
          parent channel has no buttons. The host's rules panel and the seat picker are
          private answers to a press there, so their presses come from there too. Else
          ``error.table_elsewhere``.

        ``server_wide`` is for what a person may open anywhere in the table's server:
        their hand (``/batak hand`` finds their one table of the server from any of its
        channels, and a private message's buttons carry the channel it was opened in),
        a spectator view (``/batak watch table:``), the Review button of a finished deal.
        A daily match is one person's, resumed with ``/batak daily`` in any channel of
        its server, so its presses are always taken server-wide.

        The table is looked up among the open and just-finished tables, else in the
        store (any status: a finished or cancelled table's old buttons are judged the
        same way); an id the store does not know is ``error.no_table``."""
        if guild_id is None:
            raise ServiceError("error.guild_only")
        game = await self.game_of(table_id)
        if game.guild_id != guild_id:
            raise ServiceError("error.table_other_server", table=table_id)
        if server_wide or game.kind == DAILY:
            return
        if channel_id is None or channel_id not in (game.channel_id, game.thread_id):
            raise ServiceError("error.table_elsewhere", table=table_id)

    async def game_of(self, table_id: int) -> Game:
        """A table's stored row: the one held in memory, else the store's."""
        table = self.tables.get(table_id) or self.finished.get(table_id)
        if table is not None:
            return table.game
        try:
            return await self.store.games.get_game(table_id)
        except GameNotFoundError as exc:
            raise ServiceError("error.no_table") from exc

    # ------------------------------------------------------------------ events
    async def emit(self, events: list[TableEvent]) -> None:
        """Deliver the events of a change, in order, once its lock is let go (the one
        place events reach the listener). A listener failing on one is logged; the
        next ones are still delivered."""
        for event in events:
            try:
                await self.listener.on_event(event)
            except Exception:
                log.exception(
                    "listener failed on %s of table %s", type(event).__name__, event.at.table_id
                )

    async def load(self, table_id: int) -> Table:
        """A table as the store has it (any status), rebuilt from its log; not kept."""
        game = await self.store.games.load_game(table_id)
        settings = TableSettings.from_dict(game.settings)
        rules = settings.rule_set()
        match = None
        if game.status in ("playing", "finished"):
            actions = [parse_action(a) for a in game.actions]
            match = Match.replay(rules, settings.match_seed(), actions, settings.first_dealer)
        return Table(game=game, match=match, rules=rules)

    async def close(self) -> None:
        await self.timers.close()
        await self.thoughts.close()

    def stop_turn(self, table: Table) -> None:
        """No turn runs at the table any more: its timer and its computer's thought stop."""
        self.timers.cancel(self.key(table))
        self.thoughts.drop(table.id)

    @contextlib.asynccontextmanager
    async def hold(self, table: Table) -> AsyncIterator[None]:
        """Hold a table for a change: its lock in this process, then the store's table
        lock (on PostgreSQL an advisory lock, so another process sharing the database
        never applies moves to it at the same time)."""
        async with table.lock, self.store.locks.table_lock(table.id):
            yield

    async def refresh(self, table: Table) -> None:
        table.game = await self.store.games.get_game(table.id)

    @staticmethod
    def key(table: Table) -> str:
        """The name of a table's one turn timer."""
        return f"turn:{table.id}"

    # ------------------------------------------------------------------ seat requests
    def void_requests(
        self,
        table: Table,
        events: list[TableEvent],
        which: Callable[[SeatRequest], bool] | None = None,
    ) -> None:
        """Forget the table's requests ``which`` picks (all by default): they came to
        nothing (the seat was taken, nobody is left to answer, the match is over); each
        is told."""
        for key, request in list(self.requests.items()):
            if key[0] != table.id or (which is not None and not which(request)):
                continue
            del self.requests[key]
            events.append(self.told(table, request, "void"))

    @staticmethod
    def told(table: Table, request: SeatRequest, state: SeatRequestState) -> SeatRequestChanged:
        """The event telling the listener what became of a seat request."""
        return SeatRequestChanged(Moment.of(table), request, state)
