"""Seats in a running match: a person takes the seat a computer plays, the host approves;
the host role passes on when the host leaves; the computers finish a match every person
has left.

When a seat changes hands: at once. A computer thinking its move holds the table, so a
take-over that arrives meanwhile waits for that move to be committed; the person then
plays the seat's next turn (their turn timer starts if it is theirs now).
"""

from __future__ import annotations

from dataclasses import replace

from data import Seat, SeatError

from .errors import ServiceError
from .events import HostChanged, Moment, SeatChanged, TableChanged, TableEvent
from .model import FormerSeat, SeatRequest, Table
from .notify import Notifications
from .play import Play
from .registry import Registry


def computer_seats(table: Table) -> list[int]:
    """The seats a computer plays on its own (no person away behind it), in seat order."""
    return [i for i, s in enumerate(table.seats) if s.is_bot]


def left_by(table: Table, seat: int, user_id: int) -> bool:
    """``user_id`` held ``seat`` earlier in this match and left it (of their own accord:
    a person removed from the table needs the host to sit down again)."""
    return any(
        f.seat == seat and f.user_id == user_id and not f.kicked
        for f in table.settings.former_seats
    )


def next_host(table: Table, after_seat: int) -> int | None:
    """Who hosts when the host of ``after_seat`` leaves: the next seated person in seat
    order from that seat (a person at the table before one a computer stands in for)."""
    order = [(after_seat + k) % 4 for k in range(1, 4)]
    people = [i for i in order if table.seats[i].user_id is not None]
    present = [i for i in people if not table.seats[i].is_away]
    candidates = present or people
    return table.seats[candidates[0]].user_id if candidates else None


class Seats:
    """Taking a computer's seat, the host's answer, the host hand-over, the computers
    finishing a match nobody is left at."""

    def __init__(self, reg: Registry, play: Play, notify: Notifications) -> None:
        self.reg = reg
        self.play = play
        self.notify = notify

    # ------------------------------------------------------------------ taking a seat
    def seat_requests(self, table_id: int) -> list[SeatRequest]:
        """The requests waiting for the host's answer at a table, oldest first."""
        return [r for (t, _), r in self.reg.requests.items() if t == table_id]

    def seat_choices(self, table_id: int, user_id: int) -> list[int]:
        """The computers' seats ``user_id`` could take now, a seat they left first
        (raises the refusal :meth:`take_seat` would give when there is none)."""
        table = self.reg.get(table_id)
        first = self._seat_to_take(table, user_id, None)
        return [first, *(i for i in computer_seats(table) if i != first)]

    async def take_seat(
        self, table_id: int, user_id: int, name: str, seat: int | None = None
    ) -> tuple[int, bool]:
        """A person not seated asks for the seat a computer plays (``seat``; default:
        the one they left, else the first). Returns ``(seat, taken)``: a seat they left
        earlier in the match is theirs again at once; any other waits for the host
        (``taken`` False, the host is asked through the listener)."""
        table = self.reg.get(table_id)
        events: list[TableEvent] = []
        async with self.reg.hold(table):
            chosen = self._seat_to_take(table, user_id, seat)
            if left_by(table, chosen, user_id):
                await self._seat_person_locked(table, chosen, user_id, name, "back", events)
                taken = True
            else:
                if (table.id, user_id) in self.reg.requests:
                    raise ServiceError("error.seat_request_pending")
                request = SeatRequest(table.id, chosen, user_id, name)
                self.reg.requests[(table.id, user_id)] = request
                events.append(self.reg.told(table, request, "asked"))
                taken = False
        await self.reg.emit(events)
        return chosen, taken

    async def answer_seat_request(
        self, table_id: int, host_id: int, user_id: int, approve: bool
    ) -> SeatRequest:
        """The host approves (the person takes the seat at once) or refuses a request."""
        table = self.reg.get(table_id)
        if not self.reg.is_host(table, host_id):
            raise ServiceError("error.host_only")
        events: list[TableEvent] = []
        stale = False
        async with self.reg.hold(table):
            request = self.reg.requests.get((table_id, user_id))
            if request is None:
                raise ServiceError("error.seat_request_gone")
            if not approve:
                del self.reg.requests[(table_id, user_id)]
                events.append(self.reg.told(table, request, "refused"))
            else:
                try:
                    self._seat_to_take(table, user_id, request.seat)
                except ServiceError:  # the seat or the person changed meanwhile
                    self.reg.void_requests(table, events, lambda r: r is request)
                    stale = True
                else:
                    del self.reg.requests[(table_id, user_id)]
                    await self._seat_person_locked(
                        table, request.seat, user_id, request.name, "took", events
                    )
                    events.insert(0, self.reg.told(table, request, "approved"))
        await self.reg.emit(events)
        if stale:
            raise ServiceError("error.seat_request_gone")
        return request

    def _seat_to_take(self, table: Table, user_id: int, seat: int | None) -> int:
        """The seat ``user_id`` may take now (raises a clear refusal otherwise)."""
        if self.reg.tables.get(table.id) is not table:
            raise ServiceError("error.no_table")
        if table.is_daily:
            raise ServiceError("error.sit_daily")
        if table.in_lobby:
            raise ServiceError("error.sit_lobby")
        if table.recording or not table.playing:
            raise ServiceError("error.recording")
        if table.settings.computers_finish:
            raise ServiceError("error.sit_computers_finish")
        if table.seat_of(user_id) is not None:
            raise ServiceError("error.already_seated")
        free = computer_seats(table)
        if seat is None:
            if not free:
                raise ServiceError("error.no_computer_seat")
            theirs = [i for i in free if left_by(table, i, user_id)]
            return (theirs or free)[0]
        if not 0 <= seat < 4:
            raise ServiceError("error.bad_seat", seat=seat + 1)
        if seat not in free:
            raise ServiceError("error.seat_not_computer", seat=seat + 1)
        return seat

    async def _seat_person_locked(
        self,
        table: Table,
        seat: int,
        user_id: int,
        name: str,
        change: str,
        events: list[TableEvent],
    ) -> None:
        try:
            await self.reg.store.games.set_seat(
                table.id, seat, Seat.human(user_id, name), expected=table.seats[seat]
            )
        except SeatError as exc:
            await self.reg.refresh(table)
            raise ServiceError("error.seat_not_computer", seat=seat + 1) from exc
        # the moves the computer made in the seat keep its name
        stint = FormerSeat(seat, table.move, "", None, computer=True)
        former = (*table.settings.former_seats, stint)
        table.game = await self.reg.store.games.set_game_settings(
            table.id, replace(table.settings, former_seats=former).to_dict()
        )
        table.timeouts[seat] = 0
        await self.notify.carry(table, user_id)
        self.reg.void_requests(table, events, lambda r: r.seat == seat or r.user_id == user_id)
        events.append(SeatChanged(Moment.of(table), seat, change, name))
        events.append(TableChanged(Moment.of(table)))
        self.play.schedule(table, events)

    # ------------------------------------------------------------------ the host leaves
    async def hand_over_host_locked(
        self, table: Table, seat: int, events: list[TableEvent]
    ) -> None:
        """The host left ``seat``: the next seated person hosts (nobody when none is)."""
        new = next_host(table, seat)
        if new is None:
            return
        table.game = await self.reg.store.games.set_host(table.id, new)
        new_seat = table.seat_of(new)
        assert new_seat is not None
        name = table.seats[new_seat].name or ""
        events.append(HostChanged(Moment.of(table), new, name))

    # ------------------------------------------------------------------ nobody is left
    async def finish_for_absent(self, table_id: int) -> bool:
        """A tournament table that missed its round's deadline: every person still
        seated is handed to a computer (as a turn timer does after too many time-outs)
        and the computers play the match to its end at once, unrated, the people kept
        on their seats in the record. False if the table is not in play here."""
        table = self.reg.tables.get(table_id)
        if table is None:
            return False
        events: list[TableEvent] = []
        async with self.reg.hold(table):
            if self.reg.tables.get(table_id) is not table or not table.playing:
                return False
            if table.recording:
                return False
            for i, s in enumerate(table.seats):
                if s.user_id is not None and s.bot_level is None:
                    away = Seat(s.user_id, table.bot_level, s.name)
                    await self.reg.store.games.set_seat(table.id, i, away, expected=s)
            await self.reg.refresh(table)
            events.append(TableChanged(Moment.of(table)))
            await self.computers_finish_locked(table, events)
        await self.reg.emit(events)
        return True

    async def computers_finish_locked(self, table: Table, events: list[TableEvent]) -> None:
        """Every person left a match in play: the computers play it to its end, and it
        is recorded unrated (it changes no rating and no standing)."""
        settings = replace(table.settings, computers_finish=True, rated=False, hints=False)
        table.game = await self.reg.store.games.set_game_settings(table.id, settings.to_dict())
        self.reg.void_requests(table, events)
        self.play.schedule(table)
