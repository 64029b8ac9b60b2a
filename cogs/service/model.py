"""The service's data: its settings and one open table."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from batak import Action, Match, Observation, Rules
from data import Game, MatchSummary, Seat

BOT_LEVELS = ("easy", "normal", "hard")
DAILY = "daily"
TABLE = "table"


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
    deadline: float | None = None
    """When the person to act runs out of time (Unix seconds), or None (no timer)."""
    deadline_move: int = -1
    """The move ``deadline`` belongs to."""

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

    def deadline_now(self) -> float | None:
        """The deadline of the turn being played now (None: no timer, or a computer's turn)."""
        if self.deadline is None or self.deadline_move != self.move:
            return None
        return self.deadline

    def former_name(self, seat: int, move: int) -> str | None:
        """The name of the person who held ``seat`` at ``move`` if they have left since."""
        for entry in self.settings.get("former_seats", ()):
            if int(entry["seat"]) == seat and move < int(entry["until"]):
                return str(entry["name"])
        return None

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


def phase_of(match: Match | None) -> str:
    if match is None:
        return "lobby"
    return "done" if match.is_over else match.deal.phase.value
