"""Settings from the environment (and ``.env``); every one is listed in ``.env.example``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from data import DEFAULT_PATH

from .service import ServiceConfig

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


class ConfigError(ValueError):
    """A setting with a bad value; the message names it."""


@dataclass(frozen=True, slots=True)
class BotConfig:
    token: str
    database_path: str = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    bot_delay: float = 1.5
    table_edit_interval: float = 1.5
    max_timeouts: int = 2
    daily_deals: int = 3
    turn_timeout: float | None = None
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


def load_config(env: Mapping[str, str] | None = None) -> BotConfig:
    """Read the settings; raises :class:`ConfigError` (with :data:`NO_TOKEN_MESSAGE`
    when the token is missing)."""
    e = os.environ if env is None else env
    token = e.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(NO_TOKEN_MESSAGE)
    guild_raw = e.get("DEV_GUILD_ID", "").strip()
    if guild_raw and not guild_raw.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), not {guild_raw!r}")
    level = e.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
    timeout = _float(e, "TURN_TIMEOUT_SECONDS", 0.0, 0.0, 7 * 86400.0)
    return BotConfig(
        token=token,
        database_path=str(Path(e.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)),
        dev_guild_id=int(guild_raw) if guild_raw else None,
        log_level=level,
        bot_delay=_float(e, "BOT_DELAY_SECONDS", 1.5, 0.0, 60.0),
        table_edit_interval=_float(e, "TABLE_EDIT_INTERVAL_SECONDS", 1.5, 0.0, 60.0),
        max_timeouts=_int(e, "MAX_TIMEOUTS", 2, 1, 20),
        daily_deals=_int(e, "DAILY_DEALS", 3, 1, 20),
        turn_timeout=timeout or None,
        hand_edit_interval=_float(e, "HAND_EDIT_INTERVAL_SECONDS", 1.0, 0.0, 60.0),
        ping_grace_live=_float(e, "PING_GRACE_SECONDS", 20.0, 0.0, 3600.0),
        ping_grace_async=_float(e, "ASYNC_PING_GRACE_SECONDS", 1800.0, 0.0, 7 * 86400.0),
    )
