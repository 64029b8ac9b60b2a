"""Playing: a person's action, the computer players, the turn timers and the match end.

Every change is checked against the engine, committed to the store, then reported.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any

from batak import PASS, Action, Observation, format_action, parse_action
from batak.ai.hints import Hint
from batak.deal import Phase
from data import (
    AlreadyRecordedError,
    Announcement,
    DailyAlreadyPlayedError,
    GameClosedError,
    MatchSummary,
    Seat,
    StaleMoveError,
    StorageUnavailableError,
    StoreError,
)
from ops.metrics import METRICS

from . import workers
from .computer import computer_decision, hint_for
from .errors import IllegalMove, ServiceError, StaleAction
from .events import (
    ActionApplied,
    DealFinished,
    MatchFinished,
    Moment,
    RecordingFailed,
    SeatChanged,
    SeatTimedOut,
    TableChanged,
    TableEvent,
    TurnStarted,
)
from .model import Actor, ActResult, Table, phase_of
from .registry import Registry
from .thinking import outcome

log = logging.getLogger(__name__)

FINISH_BACKOFF_MAX = 60.0
"""Longest wait (seconds) between two attempts to record a finished match."""


def finish_backoff(attempt: int) -> float:
    """Seconds before the next attempt to record a finished match: 1, 2, 4 ... 60."""
    return min(FINISH_BACKOFF_MAX, 2.0 ** min(attempt, 10))


def match_announcements(table: Table) -> list[Announcement]:
    """What a finished table owes its channel, stored with its result: the table message
    in its final state, the result (standings, Rematch) and, for a table in a thread,
    a line in the channel the thread belongs to."""
    owed = [
        Announcement("table_final", {"table": table.id}),
        Announcement("result", {"table": table.id}),
    ]
    if table.game.thread_id is not None:
        owed.append(
            Announcement("channel_link", {"table": table.id}, channel_id=table.game.channel_id)
        )
    return owed


class Play:
    """Turns of the tables in play: people's actions, computer moves and time-outs, and
    the end of a match (the tables and their locks are the registry's)."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg

    async def run_daily_bots(self, table: Table, events: list[TableEvent]) -> None:
        """In a daily match the computers answer at once, so the hand shows their cards."""
        match = table.match
        assert match is not None
        while not match.is_over and match.to_act is not None and match.to_act != 0:
            seat = match.to_act
            action = await self._decide(table, seat, on_time=False)
            await self.commit(table, seat, action, "bot", events)

    # ------------------------------------------------------------------ playing
    async def act(
        self, table_id: int, user_id: int, seat: int, move: int, action: Action | str
    ) -> ActResult:
        """A person's action from a button made for ``(seat, move)``.

        Raises :class:`StaleAction` when the table moved on, ``error.not_your_seat``
        when the seat is not the user's, :class:`IllegalMove` when the engine refuses.
        """
        table = self.reg.get(table_id)
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError as exc:
                raise ServiceError("error.forged") from exc
        events: list[TableEvent] = []
        async with self.reg.hold(table):
            if self.reg.tables.get(table_id) is not table or not table.playing:
                raise ServiceError("error.no_table")
            if table.recording:
                raise ServiceError("error.recording")
            assert table.match is not None
            if table.seat_of(user_id) != seat:
                raise ServiceError("error.not_your_seat")
            if move != table.match.move_number:
                raise StaleAction(table.match.move_number)
            if table.match.to_act != seat:
                raise ServiceError("error.not_your_turn")
            if action not in table.match.legal_actions():
                raise IllegalMove(table.match.deal.why_illegal(action))
            if table.seats[seat].is_away:
                await self._come_back_locked(table, seat, events)
            table.timeouts[seat] = 0
            try:
                result = await self.commit(table, seat, action, "player", events)
            except StaleMoveError as exc:  # another writer got there first; reloaded
                raise StaleAction(exc.current) from exc
            if table.is_daily:
                await self.run_daily_bots(table, events)
            else:
                self.schedule(table, events)
        await self.reg.emit(events)
        return result

    async def come_back(self, table_id: int, user_id: int) -> bool:
        """A person away (a computer holding their seat) takes the seat back."""
        table = self.reg.get(table_id)
        events: list[TableEvent] = []
        async with self.reg.hold(table):
            seat = table.seat_of(user_id)
            if seat is None or not table.seats[seat].is_away or not table.playing:
                return False
            await self._come_back_locked(table, seat, events)
            self.schedule(table, events)
        await self.reg.emit(events)
        return True

    async def _come_back_locked(self, table: Table, seat: int, events: list[TableEvent]) -> None:
        s = table.seats[seat]
        await self.reg.store.games.set_seat(
            table.id, seat, Seat(s.user_id, None, s.name), expected=s
        )
        await self.reg.refresh(table)
        table.timeouts[seat] = 0
        name = s.name or ""
        events.append(SeatChanged(Moment.of(table), seat, "back", name))
        events.append(TableChanged(Moment.of(table)))

    async def hint(self, table_id: int, user_id: int) -> tuple[Action, Hint]:
        table = self.reg.get(table_id)
        if not table.playing:
            raise ServiceError("error.not_started")
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_seated")
        if table.is_daily:
            raise ServiceError("error.hint_daily")
        if table.settings.rated:
            raise ServiceError("error.hint_rated")
        if not table.settings.hints:
            raise ServiceError("error.hint_off")
        obs = table.observation(seat)
        if not obs.legal:
            raise ServiceError("error.not_your_turn")
        return await workers.THINKING.run(hint_for, obs)

    @staticmethod
    def _level(table: Table, seat: int) -> str:
        """The level of the computer playing ``seat`` (a retired level stored with a table,
        ``expert``, is played by the level that replaced it: :func:`batak.ai.make_player`)."""
        return table.seats[seat].bot_level or table.bot_level

    def _decide(self, table: Table, seat: int, *, on_time: bool) -> Coroutine[Any, Any, Action]:
        """The computer's choice for ``seat`` now, to await: thought out in a worker process
        (the hard level searches for a while and must not block the event loop).

        ``on_time``: the move is due at a time (a turn at the table, not the daily match,
        which must come out the same for everyone), so the time the decision waits for
        the worker counts against the hard level's guard."""
        assert table.match is not None
        level = self._level(table, seat)
        seed = ((table.settings.seed or 0) * 31 + table.match.move_number * 4 + seat) % (1 << 62)
        asked_at = time.monotonic() if on_time else None
        return self._think(level, seed, table.match.observation(seat), asked_at)

    async def _think(
        self, level: str, seed: int, observation: Observation, asked_at: float | None
    ) -> Action:
        asked = time.perf_counter()
        action, cut = await workers.THINKING.run(
            computer_decision, level, seed, observation, asked_at
        )
        METRICS.ai_decision.labels(level).observe(time.perf_counter() - asked)
        METRICS.ai_decisions.labels(level).inc()
        if cut:
            METRICS.ai_decisions_cut.labels(level).inc()
        return action

    async def commit(
        self, table: Table, seat: int, action: Action, actor: Actor, events: list[TableEvent]
    ) -> ActResult:
        """Apply to the engine, commit to the store, then report. Caller holds the lock."""
        match = table.match
        assert match is not None
        before = match.move_number
        deals_before = len(match.finished)
        # The table shows a move only once it is stored: while the commit is on its way,
        # whatever draws the table (a live hand, the table message) still sees the state
        # before it. A move drawn and then lost to a crash would be a move the person saw
        # taken and then taken back. So the move is tried on a copy for what the log
        # records (the phase and the seat to act after it), and applied here after.
        after = match.copy()
        after.apply(action, seat)
        try:
            with METRICS.store_commit.time():
                await self.reg.store.games.append_action(
                    table.id,
                    before,
                    format_action(action),
                    seat=seat,
                    phase=phase_of(after),
                    to_act=after.to_act,
                    actor=actor,
                )
        except BaseException:
            # The store refused (or failed; or the answer of a commit that landed was
            # lost): the log says what happened, so the table is read again from it.
            # When the storage is down that fails too, and the table stays as it was
            # before the move (the move was never applied to it).
            try:
                fresh = await self.reg.load(table.id)
                table.match, table.game = fresh.match, fresh.game
            except StorageUnavailableError:
                log.debug("table %s: not reloaded, the storage is unavailable", table.id)
            except Exception:
                log.exception("table %s: could not reload after a failed commit", table.id)
            raise
        match.apply(action, seat)
        self.set_deadline(table)  # with the move, before any await: the turn has its clock
        METRICS.moves.labels(actor).inc()
        deal_done = deals_before if len(match.finished) > deals_before else None
        at = Moment.of(table)
        events.append(ActionApplied(at, seat, action, actor))
        if deal_done is not None:
            events.append(DealFinished(at, deal_done))
        if match.is_over:
            await self.finish_match(table, events)
        elif not table.is_daily:
            events.append(TableChanged(at))
        return ActResult(
            table, seat, action, match.move_number, deal_done, match_finished=match.is_over
        )

    async def finish_match(self, table: Table, events: list[TableEvent], attempt: int = 0) -> None:
        """Record the finished match as one durable step: the result (standings), the
        closed table and the announcements it owes are committed in one transaction
        (:meth:`data.Store.matches.record_match`); the announcer posts them from the store.

        A storage error leaves the table as it is (the match over, not yet recorded: no
        move, leave or cancel is taken) and tries again with back-off; the table is
        told. Caller holds the lock.
        """
        match = table.match
        assert match is not None and match.is_over
        self.reg.void_requests(table, events)  # no seat is to be taken any more
        self.reg.stop_turn(table)
        summary: MatchSummary | None = None
        try:
            summary = await self._record(table)
        except StoreError as exc:
            delay = finish_backoff(attempt)
            log.error(
                "table %s: recording the finished match failed (attempt %d: %s); "
                "trying again in %.0f s",
                table.id,
                attempt + 1,
                exc,
                delay,
            )
            self.reg.timers.schedule(
                f"finish:{table.id}", delay, lambda: self._retry_finish(table.id, attempt + 1)
            )
            events.append(RecordingFailed(Moment.of(table), attempt + 1, delay))
            return
        table.game = await self.reg.store.games.get_game(table.id)
        table.summary = summary
        self.reg.tables.pop(table.id, None)
        self.reg.finished[table.id] = table
        if len(self.reg.finished) > 200:
            self.reg.finished.pop(next(iter(self.reg.finished)))
        events.append(MatchFinished(Moment.of(table), summary))

    async def _record(self, table: Table) -> MatchSummary | None:
        """One transaction: result, closed table, announcements. Recording a second
        time (the first attempt committed, its answer was lost) is not an error."""
        match = table.match
        assert match is not None
        if table.is_daily:
            human = table.seats[0].user_id
            assert human is not None
            try:
                await self.reg.store.daily.finish_daily(
                    table.game.guild_id,
                    human,
                    match.totals[0],
                    day=table.settings.day,
                    placement=match.placements()[0],
                    details={
                        "totals": list(match.totals),
                        "deals": len(match.finished),
                        # the deals themselves: replays, reviews, the daily comparison
                        "records": [d.to_record() for d in match.finished],
                    },
                    game_id=table.id,
                )
            except DailyAlreadyPlayedError:
                log.info("daily result of table %s was recorded before", table.id)
                with contextlib.suppress(GameClosedError):
                    await self.reg.store.games.finish_game(table.id)
            return None
        try:
            return await self.reg.store.matches.record_match(
                table.game.guild_id,
                table.recorded_seats(),
                [d.to_record() for d in match.finished],
                rules=table.rules.to_dict(),
                seed=table.settings.match_seed(),
                totals=list(match.totals),
                winners=list(match.winners),
                game_id=table.id,
                announcements=match_announcements(table),
                rated=table.settings.rated,
                computers_finished=table.settings.computers_finish,
            )
        except AlreadyRecordedError as exc:
            log.info("table %s: the match was recorded before (match %s)", table.id, exc.match_id)
            if exc.match_id is None:
                return None
            return await self.reg.store.matches.get_match(exc.match_id, with_records=False)

    async def _retry_finish(self, table_id: int, attempt: int) -> None:
        table = self.reg.tables.get(table_id)
        if table is None or not table.recording:
            return
        events: list[TableEvent] = []
        async with table.lock:
            if self.reg.tables.get(table_id) is table and table.recording:
                await self.finish_match(table, events, attempt)
        await self.reg.emit(events)

    # ------------------------------------------------------------------ timers
    def schedule(self, table: Table, events: list[TableEvent] | None = None) -> None:
        """Arm the table's one timer: a computer's move, or a person's turn timer."""
        key = self.reg.key(table)
        match = table.match
        if match is None or match.is_over or not table.playing or table.is_daily:
            self.reg.stop_turn(table)
            return
        seat = match.to_act
        assert seat is not None
        move = match.move_number
        if table.controlled_by_bot(seat):
            # it thinks while the delay runs (tables.thinking); nobody left to watch the
            # computers think: they play at once
            self.reg.thoughts.start(
                table.id,
                move,
                seat,
                self._level(table, seat),
                lambda: self._decide(table, seat, on_time=True),
            )
            delay = 0.0 if table.settings.computers_finish else self.reg.config.bot_delay
            self.reg.timers.schedule(key, delay, lambda: self.timer_fired(table.id, move, False))
            return
        self.reg.thoughts.drop(table.id)
        timeout = table.settings.turn_timeout_s
        if timeout:
            now = self.reg.clock()
            self.set_deadline(table)
            assert table.deadline is not None
            self.reg.timers.schedule(
                key,
                max(0.0, table.deadline - now),
                lambda: self.timer_fired(table.id, move, True),
            )
        else:
            table.deadline = None
            self.reg.timers.cancel(key)
        if events is not None:
            events.append(TurnStarted(Moment.of(table), seat))

    def set_deadline(self, table: Table) -> None:
        """The deadline of the turn now (kept if already set for this move)."""
        match = table.match
        timeout = table.settings.turn_timeout_s
        if match is None or match.is_over or match.to_act is None or not timeout:
            return
        if table.controlled_by_bot(match.to_act) or table.is_daily:
            return
        if table.deadline is None or table.deadline_move != match.move_number:
            table.deadline = self.reg.clock() + float(timeout)
            table.deadline_move = match.move_number

    async def timer_fired(self, table_id: int, move: int, timed_out: bool) -> None:
        table = self.reg.tables.get(table_id)
        if table is None:
            return
        due = time.perf_counter()
        # the computer's thought for this turn, awaited without the table's lock
        thought = None if timed_out else self.reg.thoughts.take(table_id, move)
        ready = None if thought is None else await outcome(thought)
        events: list[TableEvent] = []
        try:
            async with self.reg.hold(table):
                if self.reg.tables.get(table_id) is not table or not table.playing:
                    return
                match = table.match
                assert match is not None
                if match.move_number != move or match.to_act is None:
                    return
                seat = match.to_act
                if not timed_out and not table.controlled_by_bot(seat):
                    return  # a person took the computer's seat meanwhile: their turn now
                if timed_out and not table.controlled_by_bot(seat) and _may_pass(table):
                    action: Action = PASS  # a time-out never bids for an absent person
                else:
                    level = self._level(table, seat)
                    if ready is not None and thought and thought.turn() == (move, seat, level):
                        action = ready
                    else:
                        action = await self._decide(table, seat, on_time=True)
                    METRICS.ai_move_wait.labels(level).observe(time.perf_counter() - due)
                handed_over = False
                if timed_out and not table.controlled_by_bot(seat):
                    table.timeouts[seat] += 1
                    if table.timeouts[seat] >= self.reg.config.max_timeouts:
                        s = table.seats[seat]
                        await self.reg.store.games.set_seat(
                            table.id, seat, Seat(s.user_id, table.bot_level, s.name), expected=s
                        )
                        await self.reg.refresh(table)
                        handed_over = True
                    await self.commit(table, seat, action, "timeout", events)
                    timed = SeatTimedOut(Moment.of(table), seat, action, handed_over)
                    events.insert(0, timed)
                else:
                    await self.commit(table, seat, action, "bot", events)
                self.schedule(table, events)
        except StaleMoveError:
            log.warning("table %s: another writer moved first; reloaded", table_id)
            fresh = self.reg.tables.get(table_id)
            if fresh is not None:
                self.schedule(fresh)
        except Exception as exc:
            # A failed commit (database busy, disk full...): nothing was acknowledged and
            # the table was reloaded from the log; try this turn again a little later.
            # An outage is logged once by the store (data.outage), not once per move.
            if isinstance(exc, StorageUnavailableError):
                log.info("table %s: a computer move waits for the storage", table_id)
            else:
                log.exception("table %s: a computer move failed; retrying", table_id)
            fresh = self.reg.tables.get(table_id)
            if fresh is not None and fresh.playing:
                self.reg.timers.schedule(
                    self.reg.key(fresh),
                    max(5.0, self.reg.config.bot_delay),
                    lambda: self.timer_fired(table_id, move, timed_out),
                )
        await self.reg.emit(events)


def _may_pass(table: Table) -> bool:
    """In the auction, when passing is allowed (a time-out passes)."""
    match = table.match
    assert match is not None
    return match.deal.phase is Phase.AUCTION and PASS in match.legal_actions()
