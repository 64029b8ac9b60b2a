"""Durable storage for batak-bot: tables in progress, finished matches, per-server
standings (openskill ratings), daily results and server settings, on SQLite.

    store = await Store.open()          # $DATABASE_PATH or data/batak.sqlite3
    game = await store.create_game(guild_id, channel_id, host_id, settings)
    move = await store.append_action(game.id, game.move, "bid 5", seat=1, phase="auction",
                                     to_act=2)
"""

from .base import KEEP
from .maintenance import Housekeeping
from .models import (
    BOT_LEVELS,
    EXIT_DATABASE_DAMAGED,
    LANGUAGES,
    PACES,
    PRESETS,
    ActionEntry,
    AlreadyRecordedError,
    DailyAlreadyPlayedError,
    DailyResult,
    DatabaseDamagedError,
    Game,
    GameClosedError,
    GameNotFoundError,
    GuildSettings,
    InvalidSettingError,
    MatchPlayer,
    MatchSummary,
    NotABatakDatabaseError,
    SchemaTooNewError,
    Seat,
    SeatError,
    StaleMoveError,
    Standing,
    StoredMessage,
    StoreError,
    bot_key,
    ordinal,
    user_key,
)
from .schema import LATEST_VERSION
from .store import DEFAULT_PATH, Store, default_path

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_PATH",
    "EXIT_DATABASE_DAMAGED",
    "KEEP",
    "LANGUAGES",
    "LATEST_VERSION",
    "PACES",
    "PRESETS",
    "ActionEntry",
    "AlreadyRecordedError",
    "DailyAlreadyPlayedError",
    "DailyResult",
    "DatabaseDamagedError",
    "Game",
    "GameClosedError",
    "GameNotFoundError",
    "GuildSettings",
    "Housekeeping",
    "InvalidSettingError",
    "MatchPlayer",
    "MatchSummary",
    "NotABatakDatabaseError",
    "SchemaTooNewError",
    "Seat",
    "SeatError",
    "StaleMoveError",
    "Standing",
    "Store",
    "StoreError",
    "StoredMessage",
    "bot_key",
    "default_path",
    "ordinal",
    "user_key",
]
