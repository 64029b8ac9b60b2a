"""The service's data: its settings, a table's stored settings, and one open table."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from batak import Action, Match, Observation, Rules
from batak.rules import MIN_RATED_DEALS
from data import BOT_LEVELS as BOT_LEVELS  # re-exported: the one list lives in data
from data import Game, MatchSummary, Seat

DAILY = "daily"
TOURNAMENT = "tournament"
TABLE = "table"

Pace = Literal["live", "async"]
"""live: a short turn timer; async: a long one, and a ping on each turn."""
TableStatus = Literal["lobby", "playing", "finished", "cancelled"]
"""A table's stored status (the store's schema allows these four)."""
Actor = Literal["player", "bot", "timeout"]
"""Who made a move: the person, a computer player, or the computer on a time-out."""
CloseReason = Literal["cancelled", "empty"]
"""Why a table closed before its end: cancelled by its host, or everyone left."""

_STATUSES: dict[str, TableStatus] = {
    "lobby": "lobby",
    "playing": "playing",
    "finished": "finished",
    "cancelled": "cancelled",
}


def as_pace(value: str) -> Pace | None:
    """``value`` as a pace, or None when it is none of them."""
    if value == "live":
        return "live"
    if value == "async":
        return "async"
    return None


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _seconds(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return value if value >= 0 else None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if seconds >= 0 else None


NotifyMode = Literal["needed", "every", "never"]
NOTIFY_MODES: tuple[NotifyMode, ...] = ("needed", "every", "never")
"""When a person is pinged for their turn: only when they cannot see it, every turn, never."""


def as_notify(value: Any) -> NotifyMode | None:
    for mode in NOTIFY_MODES:
        if value == mode:
            return mode
    return None


@dataclass(frozen=True, slots=True)
class FormerSeat:
    """A person who left a seat in play: their name stays on the moves before ``until``."""

    seat: int
    until: int
    name: str
    user_id: int | None = None
    """Who it was (rows stored before seats could be taken back hold no id)."""
    kicked: bool = False
    """They were removed (by the host or a server manager), so the seat is not theirs
    to take back without the host."""
    computer: bool = False
    """Not a person: a computer played the seat until a person took it."""


def _former(raw: Any) -> tuple[FormerSeat, ...]:
    out: list[FormerSeat] = []
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, Mapping):
            continue
        seat, until = _int(entry.get("seat")), _int(entry.get("until"))
        if seat is not None and 0 <= seat < 4 and until is not None:
            user = _int(entry.get("user_id"))
            kicked, computer = entry.get("kicked") is True, entry.get("computer") is True
            name = str(entry.get("name") or "")
            out.append(FormerSeat(seat, until, name, user, kicked, computer))
    return tuple(out)


def _former_dict(f: FormerSeat) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": f.seat, "until": f.until, "name": f.name}
    if f.user_id is not None:
        out["user_id"] = f.user_id
    if f.kicked:
        out["kicked"] = True
    if f.computer:
        out["computer"] = True
    return out


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's settings, stored with its game as a JSON object (``Game.settings``).

    :meth:`from_dict` reads every row stored so far: a missing or unreadable value
    takes its default, keys it does not know are kept in :attr:`extra` and written
    back by :meth:`to_dict`.
    """

    rules: Mapping[str, Any] = field(default_factory=dict)
    """The rule set, as :meth:`batak.Rules.to_dict` wrote it."""
    pace: Pace = "live"
    turn_timeout_s: float | None = None
    """Seconds a person has for a turn; None: no timer (the daily match)."""
    bot_level: str = "normal"
    """The level of the computer players that fill seats or take over."""
    language: str = "en"
    """The language of the table's public messages."""
    first_dealer: int = 0
    seed: int | None = None
    """The match's deal seed, set when the match starts."""
    day: str | None = None
    """The day (ISO date) of a daily match."""
    rematch_of: int | None = None
    """The table this one is the rematch of."""
    rated: bool = True
    """Rated tables play a preset unchanged, at least 3 deals long (:func:`can_be_rated`),
    without hints; only their matches change
    ratings and standings. A row stored before rated tables existed is rated."""
    hints: bool = False
    """Hints are given at this table (only ever at a casual one)."""
    notify: Mapping[str, NotifyMode] = field(default_factory=dict)
    """Each seated person's notification setting (by user id), carried to their next
    tables."""
    former_seats: tuple[FormerSeat, ...] = ()
    """People who left their seat during play (past tricks keep their names)."""
    computers_finish: bool = False
    """Every person left the match in play: the computers finish it, and it is recorded
    unrated (``rated`` is False from then on)."""
    watching: bool = True
    """Anyone may follow the match in a private spectator view (the host may turn it off)."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    _KEYS = (
        "rules",
        "pace",
        "turn_timeout_s",
        "bot_level",
        "language",
        "first_dealer",
        "seed",
        "day",
        "rematch_of",
        "rated",
        "hints",
        "notify",
        "former_seats",
        "computers_finish",
        "watching",
    )

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> TableSettings:
        rules = raw.get("rules")
        first_dealer = _int(raw.get("first_dealer"))
        day = raw.get("day")
        return cls(
            rules=dict(rules) if isinstance(rules, Mapping) else {},
            pace=as_pace(str(raw.get("pace", "live"))) or "live",
            turn_timeout_s=_seconds(raw.get("turn_timeout_s")),
            bot_level=str(raw.get("bot_level") or "normal"),
            language=str(raw.get("language") or "en"),
            first_dealer=first_dealer if first_dealer is not None and 0 <= first_dealer < 4 else 0,
            seed=_int(raw.get("seed")),
            day=day if isinstance(day, str) else None,
            rematch_of=_int(raw.get("rematch_of")),
            rated=raw.get("rated", True) is not False,
            hints=raw.get("hints") is True and raw.get("rated") is False,
            notify={
                str(k): mode
                for k, v in (raw.get("notify") or {}).items()
                if (mode := as_notify(v)) is not None
            }
            if isinstance(raw.get("notify"), Mapping)
            else {},
            former_seats=_former(raw.get("former_seats")),
            computers_finish=raw.get("computers_finish") is True,
            watching=raw.get("watching") is not False,
            extra={k: v for k, v in raw.items() if k not in cls._KEYS},
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON object to store (optional values only when set)."""
        out: dict[str, Any] = {
            "rules": dict(self.rules),
            "pace": self.pace,
            "turn_timeout_s": self.turn_timeout_s,
            "bot_level": self.bot_level,
            "language": self.language,
            "first_dealer": self.first_dealer,
        }
        if not self.rated:  # a row without the key is rated (so older rows read back)
            out["rated"] = False
            if self.hints:
                out["hints"] = True
        if self.seed is not None:
            out["seed"] = self.seed
        if self.day is not None:
            out["day"] = self.day
        if self.rematch_of is not None:
            out["rematch_of"] = self.rematch_of
        if self.notify:
            out["notify"] = dict(self.notify)
        if self.former_seats:
            out["former_seats"] = [_former_dict(f) for f in self.former_seats]
        if self.computers_finish:
            out["computers_finish"] = True
        if not self.watching:  # a row without the key lets people watch
            out["watching"] = False
        out.update(self.extra)
        return out

    def rule_set(self) -> Rules:
        """The rules of the table (raises when the row holds none, or bad ones)."""
        if not self.rules:
            raise ValueError("the table's settings hold no rule set")
        return Rules.from_dict(dict(self.rules))

    def match_seed(self) -> int:
        """The seed of a started match (raises when the row holds none)."""
        if self.seed is None:
            raise ValueError("the table's settings hold no seed")
        return self.seed


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
    _settings: tuple[Game, TableSettings] | None = field(
        default=None, init=False, repr=False, compare=False
    )

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
    def status(self) -> TableStatus:
        return _STATUSES[self.game.status]

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.game.seats

    @property
    def settings(self) -> TableSettings:
        """The stored settings, read once per stored row."""
        cached = self._settings
        if cached is None or cached[0] is not self.game:
            cached = (self.game, TableSettings.from_dict(self.game.settings))
            self._settings = cached
        return cached[1]

    @property
    def pace(self) -> Pace:
        return self.settings.pace

    @property
    def bot_level(self) -> str:
        return self.settings.bot_level

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
    def recording(self) -> bool:
        """The match is over and its result not stored yet (a storage error is being
        retried): nothing more is played, left or cancelled at this table."""
        return self.game.status == "playing" and self.match is not None and self.match.is_over

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
        entry = self.former_seat(seat, move)
        return None if entry is None or entry.computer else entry.name

    def former_seat(self, seat: int, move: int) -> FormerSeat | None:
        """Who held ``seat`` at ``move`` if another holds it now (a person who left, or
        the computer a person took the seat from)."""
        for entry in self.settings.former_seats:
            if entry.seat == seat and move < entry.until:
                return entry
        return None

    def recorded_seats(self) -> tuple[Seat, ...]:
        """The seats a finished match is recorded with: as they are, but in a match the
        computers finished for everyone (``computers_finish``) each seat a person left
        is recorded as theirs with the computer standing in, so it is in their history
        (unrated, it changes no standing)."""
        if not self.settings.computers_finish:
            return self.seats
        out = list(self.seats)
        done: set[int] = set()
        for f in reversed(self.settings.former_seats):  # the last to leave a seat counts
            s = out[f.seat]
            if f.user_id is None or f.user_id in done or not s.is_bot or s.bot_level is None:
                continue
            out[f.seat] = Seat(f.user_id, s.bot_level, f.name or None)
            done.add(f.user_id)
        return tuple(out)

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


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A person not seated asks for the seat a computer plays (the host answers)."""

    table: int
    seat: int
    user_id: int
    name: str


SeatRequestState = Literal["asked", "approved", "refused", "void"]
"""A request was made, the host approved or refused it, or it came to nothing (the seat
was taken or the match ended first)."""


def is_preset_unchanged(rules: Rules) -> bool:
    """The rules are their preset's, every option as the preset has it; only the match
    length may be chosen (a shorter match is the same game)."""
    return rules == Rules.from_preset(rules.preset, deals=rules.deals)


def is_tryout(rules: Rules) -> bool:
    """A match of fewer than :data:`~batak.rules.MIN_RATED_DEALS` deals: a try-out,
    never rated whatever its other rules."""
    return rules.deals < MIN_RATED_DEALS


def can_be_rated(rules: Rules) -> bool:
    """The one rule of what a rated table plays: its preset unchanged
    (:func:`is_preset_unchanged`) and a match of at least
    :data:`~batak.rules.MIN_RATED_DEALS` deals (:func:`is_tryout`)."""
    return is_preset_unchanged(rules) and not is_tryout(rules)


def phase_of(match: Match | None) -> str:
    if match is None:
        return "lobby"
    return "done" if match.is_over else match.deal.phase.value
