"""Settings from the environment (and ``.env``); every one is listed in ``.env.example``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from data import (
    DEFAULT_PATH,
    DEFAULT_POOL_SIZE,
    BackupSchedule,
    is_postgres_url,
    sqlite_path,
)
from tables import ServiceConfig

DEFAULT_DATABASE = str(DEFAULT_PATH)  # the data layer owns the default

NO_TOKEN_MESSAGE = """\
DISCORD_TOKEN is not set, so batak-bot cannot log in.

1. Open https://discord.com/developers/applications and create an application
   (New Application), then open its "Bot" page and press "Reset Token" to get a token.
2. Copy .env.example to .env next to bot.py and put the token there:
       DISCORD_TOKEN=your-token-here
   (or export DISCORD_TOKEN in the environment).
3. Invite the bot with the URL described in README.md, then run `make run` again.
"""


SYNC_MODES = ("auto", "always", "never")
"""``SYNC_COMMANDS``: register the command list when it changed since the last start
(auto), at every start (always), or never (someone else registers it)."""

EVENT_LOOPS = ("uvloop", "asyncio")
"""``EVENT_LOOP``: uvloop (libuv's loop, the default where it is installed: the
bot's requests and gateway cost less CPU on it) or the standard library's loop."""


def uvloop_installed() -> bool:
    """Whether uvloop can be imported here (it is not built for Windows)."""
    import importlib.util

    return importlib.util.find_spec("uvloop") is not None


class ConfigError(ValueError):
    """A setting with a bad value; the message names it."""


def _database(e: Mapping[str, str]) -> str:
    """``DATABASE_URL`` (sqlite:///PATH or postgresql://...) if set, else the SQLite file
    ``DATABASE_PATH`` (the setting of old, still honoured), else the default file."""
    url = e.get("DATABASE_URL", "").strip()
    if not url:
        return str(Path(e.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE))
    if is_postgres_url(url):
        return url
    try:
        return sqlite_path(url)
    except ValueError as exc:
        raise ConfigError(f"DATABASE_URL: {exc}") from None


@dataclass(frozen=True, slots=True)
class BotConfig:
    token: str
    database_path: str = DEFAULT_DATABASE
    database_pool_size: int = DEFAULT_POOL_SIZE
    """PostgreSQL: connections the store may hold at once (SQLite has one)."""
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    bot_delay: float = 1.5
    table_edit_interval: float = 1.5
    discord_requests_per_second: float = 35.0
    max_timeouts: int = 2
    daily_deals: int = 3
    turn_timeout: float | None = None
    # shards: None = let Discord recommend the count / run all of them
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # the operator's view
    log_format: str = "text"
    error_webhook_url: str | None = None
    error_webhook_per_minute: int = 5
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    sync_commands: str = "auto"
    """One of :data:`SYNC_MODES`."""
    event_loop: str = "asyncio"
    """One of :data:`EVENT_LOOPS` (``load_config``: uvloop where it is installed)."""
    backups: BackupSchedule | None = None
    """``BACKUP_DIR`` / ``BACKUP_EVERY`` / ``BACKUP_KEEP``: the SQLite file copied into a
    folder every so often; None: no scheduled backups."""

    def owns_guild(self, guild_id: int) -> bool:
        """This process runs the shard of the server (``(guild_id >> 22) % count``)."""
        if self.shard_ids is None or self.shard_count is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    @property
    def runs_shard_zero(self) -> bool:
        """The process that syncs the slash commands (one of them is enough)."""
        return self.shard_ids is None or 0 in self.shard_ids

    hand_edit_interval: float = 1.0
    """At most one edit of a person's open hand per this many seconds (bursts coalesce)."""
    ping_grace_live: float = 20.0
    """A person who sees their turn in their open hand is pinged only after this long."""
    ping_grace_async: float = 1800.0

    def service_config(self) -> ServiceConfig:
        return ServiceConfig(
            bot_delay=self.bot_delay,
            max_timeouts=self.max_timeouts,
            daily_deals=self.daily_deals,
            turn_timeout_override=self.turn_timeout,
        )


def _float(env: Mapping[str, str], name: str, default: float, low: float, high: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be from {low:g} to {high:g}, not {raw}")
    return value


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise ConfigError(f"{name} must be a whole number from {low} to {high}, not {raw!r}")
    return int(raw)


_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def _backups(e: Mapping[str, str], database: str) -> BackupSchedule | None:
    """``BACKUP_DIR`` (empty: none), ``BACKUP_EVERY`` (seconds, or with s, m, h or d;
    at least a minute, default 1h) and ``BACKUP_KEEP`` (default 24)."""
    folder = e.get("BACKUP_DIR", "").strip()
    if not folder:
        return None
    if is_postgres_url(database):
        raise ConfigError(
            "BACKUP_DIR copies SQLite files; back a PostgreSQL database up with pg_dump"
        )
    raw = e.get("BACKUP_EVERY", "").strip().lower() or "1h"
    unit = raw[-1] if raw[-1:] in ("s", "m", "h", "d") else ""
    try:
        every = float(raw.removesuffix(unit)) * _UNITS[unit]
    except ValueError:
        every = -1.0
    if not 60 <= every <= 30 * 86400:
        raise ConfigError(
            f"BACKUP_EVERY must be from 60 s to 30 days (e.g. 3600, 30m, 6h, 1d), not {raw!r}"
        )
    return BackupSchedule(folder, every_s=every, keep=_int(e, "BACKUP_KEEP", 24, 1, 10_000))


def load_config(env: Mapping[str, str] | None = None, *, need_token: bool = True) -> BotConfig:
    """Read the settings; raises :class:`ConfigError` (with :data:`NO_TOKEN_MESSAGE`
    when the token is missing and ``need_token``: ``bot.py --check`` logs in nowhere)."""
    e = os.environ if env is None else env
    token = e.get("DISCORD_TOKEN", "").strip()
    if not token and need_token:
        raise ConfigError(NO_TOKEN_MESSAGE)
    guild_raw = e.get("DEV_GUILD_ID", "").strip()
    if guild_raw and not guild_raw.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), not {guild_raw!r}")
    level = e.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    timeout = _float(e, "TURN_TIMEOUT_SECONDS", 0.0, 0.0, 7 * 86400.0)
    shard_count, shard_ids = _shards(e)
    log_format = e.get("LOG_FORMAT", "").strip().lower() or "text"
    if log_format not in ("text", "json"):
        raise ConfigError(f"LOG_FORMAT must be text or json, not {log_format!r}")
    webhook = e.get("ERROR_WEBHOOK_URL", "").strip()
    if webhook and not webhook.startswith(("https://", "http://")):
        raise ConfigError(f"ERROR_WEBHOOK_URL must be a webhook URL (https://...), not {webhook!r}")
    port = _int(e, "METRICS_PORT", 0, 0, 65535) if e.get("METRICS_PORT", "").strip() else None
    sync = e.get("SYNC_COMMANDS", "").strip().lower() or "auto"
    if sync not in SYNC_MODES:
        raise ConfigError(f"SYNC_COMMANDS must be auto, always or never, not {sync!r}")
    database = _database(e)
    return BotConfig(
        event_loop=_event_loop(e),
        token=token,
        database_path=database,
        database_pool_size=_int(e, "DATABASE_POOL_SIZE", DEFAULT_POOL_SIZE, 1, 1000),
        dev_guild_id=int(guild_raw) if guild_raw else None,
        log_level=level,
        bot_delay=_float(e, "BOT_DELAY_SECONDS", 1.5, 0.0, 60.0),
        table_edit_interval=_float(e, "TABLE_EDIT_INTERVAL_SECONDS", 1.5, 0.0, 60.0),
        discord_requests_per_second=_float(e, "DISCORD_REQUESTS_PER_SECOND", 35.0, 1.0, 50.0),
        max_timeouts=_int(e, "MAX_TIMEOUTS", 2, 1, 20),
        daily_deals=_int(e, "DAILY_DEALS", 3, 1, 20),
        turn_timeout=timeout or None,
        shard_count=shard_count,
        shard_ids=shard_ids,
        log_format=log_format,
        error_webhook_url=webhook or None,
        error_webhook_per_minute=_int(e, "ERROR_WEBHOOK_PER_MINUTE", 5, 1, 60),
        metrics_port=port,
        metrics_host=e.get("METRICS_HOST", "").strip() or "127.0.0.1",
        sync_commands=sync,
        backups=_backups(e, database),
        hand_edit_interval=_float(e, "HAND_EDIT_INTERVAL_SECONDS", 1.0, 0.0, 60.0),
        ping_grace_live=_float(e, "PING_GRACE_SECONDS", 20.0, 0.0, 3600.0),
        ping_grace_async=_float(e, "ASYNC_PING_GRACE_SECONDS", 1800.0, 0.0, 7 * 86400.0),
    )


def _event_loop(e: Mapping[str, str]) -> str:
    """``EVENT_LOOP``: empty means uvloop where it is installed, else asyncio."""
    raw = e.get("EVENT_LOOP", "").strip().lower()
    if not raw:
        return "uvloop" if uvloop_installed() else "asyncio"
    if raw not in EVENT_LOOPS:
        raise ConfigError(f"EVENT_LOOP must be uvloop or asyncio, not {raw!r}")
    if raw == "uvloop" and not uvloop_installed():
        raise ConfigError(
            "EVENT_LOOP=uvloop, but uvloop is not installed here (it does not run on "
            "Windows): leave EVENT_LOOP empty or set it to asyncio"
        )
    return raw


def _shards(e: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` (empty: Discord's recommendation) and ``SHARD_IDS`` (comma
    separated; empty: all), checked together."""
    count = _int(e, "SHARD_COUNT", 0, 1, 4096) if e.get("SHARD_COUNT", "").strip() else None
    raw = e.get("SHARD_IDS", "").strip()
    if not raw:
        return count, None
    if count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
    parts = [p.strip() for p in raw.split(",")]
    if not all(p.isdigit() for p in parts):
        raise ConfigError(f"SHARD_IDS must be shard numbers separated by commas, not {raw!r}")
    ids = tuple(sorted({int(p) for p in parts}))
    if ids[-1] >= count:
        raise ConfigError(
            f"SHARD_IDS must be from 0 to {count - 1} (SHARD_COUNT={count}), not {raw}"
        )
    return count, ids
