"""Durable storage for batak-bot: tables in progress, finished matches, per-server
standings (openskill ratings), daily results, announcements and server settings, on
SQLite (one process) or PostgreSQL (several processes).

    store = await Store.open()          # $DATABASE_URL, else $DATABASE_PATH, else
                                        # DEFAULT_PATH (data/batak.sqlite3)
    game = await store.games.create_game(guild_id, channel_id, host_id, settings,
                                         seats=seats)
    move = await store.games.append_action(game.id, game.move, "bid 5", seat=1,
                                           phase="auction", to_act=2)
    summary = await store.matches.record_match(guild_id, seats, records, rules=rules,
                                               game_id=game.id,
                                               announcements=[Announcement("result")])
    for a in await store.announcements.pending_announcements():    # post, then
        await store.announcements.mark_announced(a.id)

The store is built from parts, one per kind of record (``store.games``,
``store.matches``, ``store.standings``, ``store.daily``, ``store.announcements``,
``store.guild_settings``, ``store.user_settings``, ``store.maintenance``,
``store.locks``), each a plain object holding the one ``Database`` (``data.base``).

A damaged file raises ``DatabaseDamagedError`` at open (exit with ``EXIT_DATABASE_DAMAGED``);
a path no database can be written at raises ``DatabaseLocationError`` (its ``exit_code``).

Several processes on one PostgreSQL database: ``append_action`` is a compare-and-set under
the table row's lock, so two writers never both apply a move; ``async with
store.locks.table_lock(game_id):`` also keeps other processes out of a table while one
loads, decides and appends (an advisory lock, released with the connection if the process dies).
On PostgreSQL the store holds a pool of up to ``pool_size`` connections
(``Store.open(url, pool_size=...)``, the bot's ``DATABASE_POOL_SIZE``).
"""

from .backup import BackupSchedule
from .base import KEEP
from .location import (
    EXIT_DATABASE_PATH,
    EXIT_DATABASE_READ_ONLY,
    DatabaseLocationError,
)
from .maintenance import Housekeeping
from .models import (
    BOT_LEVEL_SETTINGS,
    BOT_LEVELS,
    EXIT_DATABASE_DAMAGED,
    LANGUAGES,
    PACES,
    PRESETS,
    PROVISIONAL_MATCHES,
    RETIRED_LEVELS,
    Achievement,
    ActionEntry,
    AlreadyRecordedError,
    Announcement,
    DailyAlreadyPlayedError,
    DailyResult,
    DatabaseDamagedError,
    Game,
    GameClosedError,
    GameNotFoundError,
    HostHasOpenTableError,
    MatchPlayer,
    MatchSummary,
    NotABatakDatabaseError,
    PendingAnnouncement,
    RematchExistsError,
    SchemaTooNewError,
    Seat,
    SeatError,
    StaleMoveError,
    Standing,
    StorageUnavailableError,
    StoreBusyError,
    StoredMessage,
    StoreError,
    bot_key,
    display_rating,
    ordinal,
    user_key,
)
from .schema import LATEST_VERSION
from .settings import (
    NOTIFICATION_MODES,
    THEMES,
    GuildSettings,
    InvalidSettingError,
    UserSettings,
)
from .store import (
    DEFAULT_PATH,
    DEFAULT_POOL_SIZE,
    Store,
    default_path,
    default_url,
    is_postgres_url,
    sqlite_path,
)
from .tournaments import (
    AlreadySignedUpError,
    Entrant,
    NotSignedUpError,
    RoundStartedError,
    SignupClosedError,
    Tournament,
    TournamentClosedError,
    TournamentError,
    TournamentNotFoundError,
    TournamentTable,
)

__all__ = [
    "BOT_LEVELS",
    "BOT_LEVEL_SETTINGS",
    "DEFAULT_PATH",
    "DEFAULT_POOL_SIZE",
    "EXIT_DATABASE_DAMAGED",
    "EXIT_DATABASE_PATH",
    "EXIT_DATABASE_READ_ONLY",
    "KEEP",
    "LANGUAGES",
    "LATEST_VERSION",
    "NOTIFICATION_MODES",
    "PACES",
    "PRESETS",
    "PROVISIONAL_MATCHES",
    "RETIRED_LEVELS",
    "THEMES",
    "Achievement",
    "ActionEntry",
    "AlreadyRecordedError",
    "AlreadySignedUpError",
    "Announcement",
    "BackupSchedule",
    "DailyAlreadyPlayedError",
    "DailyResult",
    "DatabaseDamagedError",
    "DatabaseLocationError",
    "Entrant",
    "Game",
    "GameClosedError",
    "GameNotFoundError",
    "GuildSettings",
    "HostHasOpenTableError",
    "Housekeeping",
    "InvalidSettingError",
    "MatchPlayer",
    "MatchSummary",
    "NotABatakDatabaseError",
    "NotSignedUpError",
    "PendingAnnouncement",
    "RematchExistsError",
    "RoundStartedError",
    "SchemaTooNewError",
    "Seat",
    "SeatError",
    "SignupClosedError",
    "StaleMoveError",
    "Standing",
    "StorageUnavailableError",
    "Store",
    "StoreBusyError",
    "StoreError",
    "StoredMessage",
    "Tournament",
    "TournamentClosedError",
    "TournamentError",
    "TournamentNotFoundError",
    "TournamentTable",
    "UserSettings",
    "bot_key",
    "default_path",
    "default_url",
    "display_rating",
    "is_postgres_url",
    "ordinal",
    "sqlite_path",
    "user_key",
]
