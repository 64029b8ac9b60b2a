"""Plain value objects the store reads and writes, and its errors."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

LANGUAGES: Final = ("en", "tr", "de", "pt", "uk", "sw", "es", "fr")
PRESETS: Final = ("standard", "classic", "esli", "koz-maca", "kanli")
PACES: Final = ("live", "async")
BOT_LEVELS: Final = ("easy", "normal", "hard")
"""The computer levels a server or table may choose: each a name ``batak.ai.make_player``
knows (a test checks it); the settings refuse any other."""
RETIRED_LEVELS: Final = {"expert": "hard"}
"""Levels that were offered once and are no more, by the level that now plays for them:
a server setting stored with one loads as that level (a stored table's seat keeps its
name, and ``batak.ai.make_player`` seats the same level for it)."""
AUTO_LEVEL: Final = "auto"
BOT_LEVEL_SETTINGS: Final = (AUTO_LEVEL, *BOT_LEVELS)
"""A server's ``bot_level``: a level, or auto (:meth:`GuildSettings.table_level`)."""
GAME_KINDS: Final = ("table", "daily", "tournament")
OPEN_STATUSES: Final = ("lobby", "playing")
CLOSED_STATUSES: Final = ("finished", "cancelled")
ACTORS: Final = ("player", "bot", "timeout")


# --------------------------------------------------------------------------- errors
class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of batak-bot."""


class NotABatakDatabaseError(StoreError):
    """The file is an SQLite database of some other application."""


EXIT_DATABASE_DAMAGED: Final = 65
"""Exit status of ``bot.py`` and ``python -m data`` for a damaged database (sysexits'
EX_DATAERR), so a service manager can tell it from a crash and not restart in a loop."""


class DatabaseDamagedError(StoreError):
    """The database file is damaged (or is not an SQLite file at all): the store
    refuses to open it rather than run with part of the data missing.

    ``str(error)`` is one line naming the file, what is wrong and how to restore;
    ``path`` and ``problem`` hold the parts.
    """

    def __init__(self, path: str, problem: str) -> None:
        problem = "; ".join(p.strip() for p in problem.splitlines() if p.strip())
        super().__init__(
            f"{path} is damaged: {problem}. Stop the bot, move it and its -wal/-shm files "
            "aside (do not delete them), copy your latest backup (`python -m data backup`) "
            f"to {path} and start again; see docs/operator.md, Backups and restoring."
        )
        self.path = path
        self.problem = problem


class GameNotFoundError(StoreError, LookupError):
    """No game with that id."""


class GameClosedError(StoreError):
    """The game is finished or cancelled; it takes no more actions or seat changes."""


class StaleMoveError(StoreError):
    """The caller's move number is out of date (a double click, or another writer won).

    ``current`` is the game's move number in the database.
    """

    def __init__(self, game_id: int, expected: int, current: int) -> None:
        super().__init__(
            f"game {game_id}: expected move {expected} but the table is at move {current}"
        )
        self.game_id = game_id
        self.expected = expected
        self.current = current


class SeatError(StoreError):
    """A join / leave / seat change that the table's seats do not allow."""


class AlreadyRecordedError(StoreError):
    """A finished match for this game was already recorded (nothing was written again).

    ``match_id`` is the match recorded the first time (None when unknown), so a caller
    that retried after a crash can carry on with ``get_match(match_id)``.
    """

    def __init__(
        self, message: str, *, game_id: int | None = None, match_id: int | None = None
    ) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.match_id = match_id


class HostHasOpenTableError(StoreError):
    """The host already hosts an open table in this server (``game_id``); one at a time."""

    def __init__(self, guild_id: int, host_id: int, game_id: int) -> None:
        super().__init__(
            f"user {host_id} already hosts open table {game_id} in guild {guild_id}; "
            "finish, leave or cancel it first"
        )
        self.guild_id = guild_id
        self.host_id = host_id
        self.game_id = game_id


class RematchExistsError(StoreError):
    """The finished table ``rematch_of`` already has its rematch, table ``game_id``."""

    def __init__(self, rematch_of: int, game_id: int) -> None:
        super().__init__(f"table {rematch_of} already has its rematch: table {game_id}")
        self.rematch_of = rematch_of
        self.game_id = game_id


class StorageUnavailableError(StoreError):
    """The storage failed in a way that is an outage, not a bug: the disk is full or
    failing, the file became read-only, the database server stopped or the connection
    to it broke. Nothing of the failed call was stored; the same call may succeed once
    the storage is back. ``reason`` is one line saying what failed."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"storage unavailable: {reason}")
        self.reason = reason


class StoreBusyError(StorageUnavailableError):
    """The database stayed locked by another connection through every retry."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.args = (message,)


class DailyAlreadyPlayedError(StoreError):
    """The player already has a daily result (or a daily match started) for that day.

    ``game_id``: the daily game of that claim, when known (None for an older claim)."""

    def __init__(self, message: str, game_id: int | None = None) -> None:
        super().__init__(message)
        self.game_id = game_id


# --------------------------------------------------------------------------- players
def user_key(user_id: int) -> str:
    """The standings key of a Discord user."""
    return f"user:{user_id}"


def bot_key(level: str) -> str:
    """The standings key of the computer player of a level (all such seats share it)."""
    return f"bot:{level}"


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in one seat of a table.

    - empty seat: ``user_id is None and bot_level is None``
    - a person: ``user_id`` set, ``bot_level is None``
    - a computer player: ``user_id is None``, ``bot_level`` set
    - a person away, a computer player standing in: both set
    """

    user_id: int | None = None
    bot_level: str | None = None
    name: str | None = None

    @classmethod
    def human(cls, user_id: int, name: str | None = None) -> Seat:
        return cls(user_id=user_id, name=name)

    @classmethod
    def bot(cls, level: str) -> Seat:
        return cls(bot_level=level)

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and self.bot_level is None

    @property
    def is_bot(self) -> bool:
        """A computer player (not a person who is away)."""
        return self.user_id is None and self.bot_level is not None

    @property
    def is_human(self) -> bool:
        return self.user_id is not None

    @property
    def is_away(self) -> bool:
        """A person whose turns a computer player takes for now."""
        return self.user_id is not None and self.bot_level is not None

    @property
    def player_key(self) -> str:
        """Standings key: the person when a person holds the seat, else the computer level."""
        if self.user_id is not None:
            return user_key(self.user_id)
        if self.bot_level is not None:
            return bot_key(self.bot_level)
        raise ValueError("an empty seat has no player")


EMPTY_SEATS: Final = (Seat(), Seat(), Seat(), Seat())


# --------------------------------------------------------------------------- games
@dataclass(frozen=True, slots=True)
class ActionEntry:
    """One accepted action in a game's log."""

    move: int
    seat: int | None
    action: str
    actor: str
    at: str


@dataclass(frozen=True, slots=True)
class StoredMessage:
    message_id: int
    kind: str
    channel_id: int | None
    at: str


@dataclass(frozen=True, slots=True)
class Game:
    """A table as stored. ``actions`` is filled by ``store.games.load_game`` only.

    ``move`` is the number of actions in the log. ``snapshot`` (if any) is the
    state the caller stored after move ``snapshot_move``.
    """

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    host_id: int
    kind: str
    status: str
    phase: str
    move: int
    to_act: int | None
    settings: dict[str, Any]
    seats: tuple[Seat, ...]
    snapshot: Any
    snapshot_move: int | None
    table_message_id: int | None
    created_at: str
    updated_at: str
    finished_at: str | None
    actions: tuple[str, ...] = ()
    rematch_of: int | None = None  # the finished table this lobby is the rematch of

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def where_id(self) -> int:
        """The channel the table lives in: its thread if it has one."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None


# --------------------------------------------------------------------------- announcements
ANNOUNCEMENT_KIND: Final = re.compile(r"[a-z][a-z0-9_]{0,31}")


@dataclass(frozen=True, slots=True)
class Announcement:
    """A message to post about an event, stored with the event itself.

    ``kind`` names what to post (lower-case identifier; e.g. "result", "standings",
    "rematch", "channel_link"); ``payload`` is any JSON object the poster needs;
    ``channel_id`` where to post it (None: the poster decides from the table).
    """

    kind: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    channel_id: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not ANNOUNCEMENT_KIND.fullmatch(self.kind):
            raise ValueError(
                f"announcement kind must be a lower-case identifier of at most 32 "
                f"characters, not {self.kind!r}"
            )
        if not isinstance(self.payload, Mapping):
            raise ValueError(f"announcement payload must be a JSON object, not {self.payload!r}")
        try:
            json.dumps(dict(self.payload))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"announcement payload is not JSON: {exc}") from None


@dataclass(frozen=True, slots=True)
class PendingAnnouncement:
    """A stored announcement not yet marked announced (oldest first from the store).

    ``match_id`` is set by ``record_match`` for the announcements stored with a match.
    """

    id: int
    guild_id: int
    game_id: int | None
    match_id: int | None
    channel_id: int | None
    kind: str
    payload: dict[str, Any]
    created_at: str


# --------------------------------------------------------------------------- matches
@dataclass(frozen=True, slots=True)
class MatchPlayer:
    seat: int
    player_key: str
    user_id: int | None
    bot_level: str | None
    total: int
    placement: int
    won: bool
    deals: int
    contracts_taken: int
    contracts_made: int
    went_down: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    rated_matches: int | None = None  # in the server, up to this one (None: not read)

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def rating_before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def rating_after(self) -> float:
        return ordinal(self.mu_after, self.sigma_after)

    @property
    def rating_change(self) -> float:
        return self.rating_after - self.rating_before


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement a person holds in a server."""

    guild_id: int
    user_id: int
    code: str
    earned_at: str
    match_id: int | None = None
    day: str | None = None
    tournament_id: int | None = None
    seen_at: str | None = None

    @property
    def new(self) -> bool:
        """Not told to the person yet (shown as new in their stats)."""
        return self.seen_at is None

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.guild_id, self.user_id, self.code)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    id: int
    guild_id: int
    game_id: int | None
    preset: str
    rules: dict[str, Any]
    seed: int | None
    partnership: bool
    deals: int
    finished_at: str
    players: tuple[MatchPlayer, ...]
    records: tuple[dict[str, Any], ...] | None = None
    rated: bool = True
    """A rated match changed its players' ratings and standings; a casual one did not."""

    computers_finished: bool = False
    """Every person had left: the computers played it to its end (the people are kept
    on the seats they left), and it was recorded unrated."""

    achievements: tuple[Achievement, ...] = ()
    """What recording the match granted its people."""

    @property
    def totals(self) -> list[int]:
        return [p.total for p in self.players]

    @property
    def winners(self) -> list[int]:
        return [p.seat for p in self.players if p.won]


# --------------------------------------------------------------------------- standings
def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating ranked on: ``mu - 3 sigma`` (0 for a new player)."""
    return mu - 3.0 * sigma


RATING_BASE: Final = 1000
RATING_SCALE: Final = 40
PROVISIONAL_MATCHES: Final = 5
"""A player is still settling in (provisional, no rating shown) until this many."""


def display_rating(value: float) -> int:
    """The rating people read: ``1000 + 40 x ordinal``, rounded. A new player shows
    1000; the ordinal (``mu - 3 sigma``) rises as the model grows sure of a player,
    so a steady player settles some hundreds above, a weak one stays near or below
    1000. Ranking by it is ranking by the ordinal."""
    return round(RATING_BASE + RATING_SCALE * value)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line for a server and period ('all' or 'YYYY-MM')."""

    guild_id: int
    period: str
    player_key: str
    user_id: int | None
    bot_level: str | None
    matches: int
    wins: int
    deals: int
    deal_score_sum: int
    contracts_taken: int
    contracts_made: int
    went_down: int
    mu: float
    sigma: float
    rating: float
    start_rating: float
    last_match_at: str
    rank: int | None = None
    rated_matches: int | None = None  # all time, whatever the period (None: not read)

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def average_deal_score(self) -> float:
        return self.deal_score_sum / self.deals if self.deals else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def contract_rate(self) -> float:
        return self.contracts_made / self.contracts_taken if self.contracts_taken else 0.0

    @property
    def rating_change(self) -> float:
        """Rating gained within the period (since the player's first match in it)."""
        return self.rating - self.start_rating

    @property
    def shown_rating(self) -> int:
        """The rating on the familiar scale (:func:`display_rating`)."""
        return display_rating(self.rating)

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_MATCHES` rated matches, all time when read."""
        return (self.rated_matches or self.matches) < PROVISIONAL_MATCHES


# --------------------------------------------------------------------------- daily
@dataclass(frozen=True, slots=True)
class DailyResult:
    guild_id: int
    day: str
    user_id: int
    game_id: int | None
    score: int | None
    placement: int | None
    details: dict[str, Any] | None
    started_at: str
    finished_at: str | None
    rank: int | None = None
    achievements: tuple[Achievement, ...] = ()
    """What recording this result granted (``finish_daily``'s answer only)."""

    @property
    def finished(self) -> bool:
        return self.score is not None
