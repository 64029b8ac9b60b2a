"""What the service reports: one frozen event per kind of change.

The service makes an event while it holds the table's lock, right where the change
happened, and delivers the events in order once the lock is let go
(:meth:`tables.registry.Registry.emit`). Each event carries a :class:`Moment`: the
table's stored row (:class:`data.Game`, itself frozen), its settings and its move
number *as they were when the event was made*, plus the event's own values. So an
event says what was true when it happened, even if the table has moved on by the time
the listener reads it.

The engine's :class:`batak.Match` is not copied into events (copying it for every move
would cost CPU on every move). Whoever draws a picture or a hand after an event asks
for the table's *current* state by its id, which is right: a redraw shows the latest
state. What the listener decides from (a daily match or not, who sits where, the
person's notification setting, the pace, the status) comes from the event.
"""

from __future__ import annotations

from dataclasses import dataclass

from batak import Action
from data import Game, MatchSummary, Seat

from .model import (
    DAILY,
    Actor,
    CloseReason,
    Pace,
    SeatRequest,
    SeatRequestState,
    Table,
    TableSettings,
)


@dataclass(frozen=True, slots=True)
class Moment:
    """A table as it was when an event was made (taken under its lock)."""

    table_id: int
    game: Game
    """The stored row at that moment (``game.move`` is the row's, which a move does not
    rewrite: :attr:`move` is the match's)."""
    settings: TableSettings
    """The row's settings, as the table had read them."""
    move: int
    """The match's move number then (0 in the lobby)."""

    @classmethod
    def of(cls, table: Table) -> Moment:
        """The table now; nothing is copied (the row and its settings are frozen)."""
        return cls(table.id, table.game, table.settings, table.move)

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
    def host_id(self) -> int:
        return self.game.host_id

    @property
    def pace(self) -> Pace:
        return self.settings.pace

    @property
    def language(self) -> str:
        """The language of the table's public messages."""
        return self.settings.language


@dataclass(frozen=True, slots=True)
class TableChanged:
    """The table's public state changed (lobby seats, a card, a bid, a rule...)."""

    at: Moment


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A person is to act at ``seat`` (never made for computer players)."""

    at: Moment
    seat: int


@dataclass(frozen=True, slots=True)
class ActionApplied:
    """An action was committed; ``at.move`` is the move number after it."""

    at: Moment
    seat: int
    action: Action
    actor: Actor
    """player, bot or timeout."""


@dataclass(frozen=True, slots=True)
class DealFinished:
    """Deal ``index`` (0-based) ended; the match's ``finished[index]`` holds it."""

    at: Moment
    index: int


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """The match ended and was recorded (``summary`` is None for a daily match)."""

    at: Moment
    summary: MatchSummary | None


@dataclass(frozen=True, slots=True)
class TableClosed:
    """The table was closed before its end (``reason``: cancelled, empty)."""

    at: Moment
    reason: CloseReason


@dataclass(frozen=True, slots=True)
class RecordingFailed:
    """Storing the finished match failed ``attempt`` times; it is tried again in
    ``retry_in`` seconds (:class:`MatchFinished` follows once it is stored)."""

    at: Moment
    attempt: int
    retry_in: float


@dataclass(frozen=True, slots=True)
class SeatTimedOut:
    """The computer played a person's turn (``action``); ``handed_over`` when it keeps
    the seat from now on."""

    at: Moment
    seat: int
    action: Action
    handed_over: bool


@dataclass(frozen=True, slots=True)
class SeatChanged:
    """A person left the seat (``change``: left, kicked; left_last when nobody is left
    and the computers finish the match), took it back (back) or took a computer's seat
    (took); ``name`` is the person's."""

    at: Moment
    seat: int
    change: str
    name: str


@dataclass(frozen=True, slots=True)
class SeatRequestChanged:
    """A person asks for a computer's seat (``state`` asked: the host is to answer), or
    the request was approved, refused or came to nothing (void)."""

    at: Moment
    request: SeatRequest
    state: SeatRequestState


@dataclass(frozen=True, slots=True)
class HostChanged:
    """The host left; ``user_id`` (``name``) hosts the table now."""

    at: Moment
    user_id: int
    name: str


TableEvent = (
    TableChanged
    | TurnStarted
    | ActionApplied
    | DealFinished
    | MatchFinished
    | TableClosed
    | RecordingFailed
    | SeatTimedOut
    | SeatChanged
    | SeatRequestChanged
    | HostChanged
)
"""Every event the service reports."""
