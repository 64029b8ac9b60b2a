"""What the service tells the presentation layer, and a listener that ignores it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from batak import Action
from data import MatchSummary

from .model import Actor, CloseReason, SeatRequest, SeatRequestState, Table


class TableListener(Protocol):
    """What the service tells the presentation layer (the Discord cog, or a test)."""

    async def table_changed(self, table: Table) -> None:
        """The table's public state changed (lobby seats, a card, a bid...)."""

    async def turn_started(self, table: Table, seat: int) -> None:
        """A person is to act at ``seat`` (not sent for computer players)."""

    async def action_applied(self, table: Table, seat: int, action: Action, actor: Actor) -> None:
        """An action was committed; ``actor`` is player, bot or timeout."""

    async def deal_finished(self, table: Table, index: int) -> None:
        """Deal ``index`` (0-based) ended; ``table.match.finished[index]`` holds it."""

    async def match_finished(self, table: Table, summary: MatchSummary | None) -> None:
        """The match ended and was recorded (``summary`` is None for a daily match)."""

    async def table_closed(self, table: Table, reason: CloseReason) -> None:
        """The table was cancelled (``reason``: cancelled, empty)."""

    async def match_recording_failed(self, table: Table, attempt: int, retry_in: float) -> None:
        """Storing the finished match failed (``attempt`` times); tried again in
        ``retry_in`` seconds. ``match_finished`` follows once it is stored."""

    async def seat_timed_out(
        self, table: Table, seat: int, action: Action, handed_over: bool
    ) -> None:
        """The computer played a person's turn; ``handed_over`` when it keeps the seat."""

    async def seat_changed(self, table: Table, seat: int, change: str, name: str) -> None:
        """A person left the seat (``change``: left, kicked; left_last when nobody is left
        and the computers finish the match), took it back (back) or took a computer's
        seat (took); ``name`` is the person's."""

    async def seat_request(
        self, table: Table, request: SeatRequest, state: SeatRequestState
    ) -> None:
        """A person asks for a computer's seat (``state`` asked: the host is to answer),
        or the request was approved, refused or came to nothing (void)."""

    async def host_changed(self, table: Table, user_id: int, name: str) -> None:
        """The host left; ``user_id`` (``name``) hosts the table now."""


class NullListener:
    """A listener that ignores everything."""

    async def table_changed(self, table: Table) -> None:
        return None

    async def turn_started(self, table: Table, seat: int) -> None:
        return None

    async def action_applied(self, table: Table, seat: int, action: Action, actor: Actor) -> None:
        return None

    async def deal_finished(self, table: Table, index: int) -> None:
        return None

    async def match_finished(self, table: Table, summary: MatchSummary | None) -> None:
        return None

    async def table_closed(self, table: Table, reason: CloseReason) -> None:
        return None

    async def match_recording_failed(self, table: Table, attempt: int, retry_in: float) -> None:
        return None

    async def seat_timed_out(
        self, table: Table, seat: int, action: Action, handed_over: bool
    ) -> None:
        return None

    async def seat_changed(self, table: Table, seat: int, change: str, name: str) -> None:
        return None

    async def seat_request(
        self, table: Table, request: SeatRequest, state: SeatRequestState
    ) -> None:
        return None

    async def host_changed(self, table: Table, user_id: int, name: str) -> None:
        return None


Event = Callable[[], Awaitable[None]]
