"""Server settings: one row per server, defaults for anything never set."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .base import (
    Database,
    Row,
    _iso,
)
from .models import RETIRED_LEVELS
from .settings import (
    SETTING_NAMES,
    GuildSettings,
    validate_setting,
)


class SettingsStore:
    """Each server's settings (``store.guild_settings``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    @staticmethod
    def _settings(guild_id: int, row: Row | None) -> GuildSettings:
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(
            guild_id=guild_id,
            language=row["language"],
            preset=row["preset"],
            deals=row["deals"],
            pace=row["pace"],
            live_turn_timeout_s=row["live_turn_timeout_s"],
            async_turn_timeout_s=row["async_turn_timeout_s"],
            bot_level=RETIRED_LEVELS.get(row["bot_level"], row["bot_level"]),
            use_threads=bool(row["use_threads"]),
            casual_hints=bool(row["casual_hints"]),
            achievements_line=bool(row["achievements_line"]),
            season=row["season"],
            timezone=row["timezone"],
            announce_channel=row["announce_channel"],
            tournament_role=row["tournament_role"],
            updated_at=row["updated_at"],
        )

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings, with the defaults for anything never set."""
        async with self.database.read():
            row = await self.database.scalar_row(
                "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        return self._settings(guild_id, row)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings (names as in ``GuildSettings``); returns the new settings.

        Raises ``InvalidSettingError`` (nothing changed) for an unknown name or bad value.
        """
        clean = {name: validate_setting(name, value) for name, value in changes.items()}
        now = _iso(self.database.now())
        cols = ", ".join(SETTING_NAMES)
        marks = ", ".join("?" for _ in SETTING_NAMES)
        sets = ", ".join(f"{n} = excluded.{n}" for n in SETTING_NAMES)
        async with self.database.tx() as db:
            await self.database.key_lock("settings", guild_id)
            row = await self.database.scalar_row(
                "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            current = self._settings(guild_id, row)
            values = {n: getattr(current, n) for n in SETTING_NAMES} | clean
            await db.execute(
                f"INSERT INTO guild_settings (guild_id, {cols}, updated_at) "
                f"VALUES (?, {marks}, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                f"{sets}, updated_at = excluded.updated_at",
                (guild_id, *(values[n] for n in SETTING_NAMES), now),
            )
        return replace(current, **clean, updated_at=now)

    async def reset_guild_settings(self, guild_id: int) -> GuildSettings:
        """Back to the defaults."""
        async with self.database.tx() as db:
            await db.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return GuildSettings(guild_id)
