"""A person's own settings (language, deck, picture theme, notifications): one row per
Discord user, the same in every server."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .base import Database, Row, _iso
from .settings import (
    USER_SETTING_NAMES,
    UserSettings,
    validate_user_setting,
)


class UserSettingsStore:
    """Each person's own settings (``store.user_settings``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    @staticmethod
    def _user_settings(user_id: int, row: Row | None) -> UserSettings:
        if row is None:
            return UserSettings(user_id)
        four = row["four_colour"]
        return UserSettings(
            user_id=user_id,
            language=row["language"],
            four_colour=None if four is None else bool(four),
            theme=row["theme"],
            notifications=row["notifications"],
            updated_at=row["updated_at"],
        )

    async def get_user_settings(self, user_id: int) -> UserSettings:
        """The person's settings; nothing chosen for a person never seen."""
        async with self.database.read():
            row = await self.database.scalar_row(
                "SELECT * FROM user_settings WHERE user_id = ?", (user_id,)
            )
        return self._user_settings(user_id, row)

    async def update_user_settings(self, user_id: int, **changes: Any) -> UserSettings:
        """Change some of a person's settings (None clears one); returns them all.

        Raises ``InvalidSettingError`` (nothing changed) for an unknown name or bad value.
        """
        clean = {n: validate_user_setting(n, v) for n, v in changes.items()}
        now = _iso(self.database.now())
        cols = ", ".join(USER_SETTING_NAMES)
        marks = ", ".join("?" for _ in USER_SETTING_NAMES)
        sets = ", ".join(f"{n} = excluded.{n}" for n in USER_SETTING_NAMES)
        async with self.database.tx() as db:
            row = await self.database.scalar_row(
                "SELECT * FROM user_settings WHERE user_id = ?", (user_id,)
            )
            current = self._user_settings(user_id, row)
            values = {n: getattr(current, n) for n in USER_SETTING_NAMES} | clean
            if values["four_colour"] is not None:
                values["four_colour"] = int(values["four_colour"])
            await db.execute(
                f"INSERT INTO user_settings (user_id, {cols}, updated_at) VALUES (?, {marks}, ?) "
                f"ON CONFLICT (user_id) DO UPDATE SET {sets}, updated_at = excluded.updated_at",
                (user_id, *(values[n] for n in USER_SETTING_NAMES), now),
            )
        return replace(current, **clean, updated_at=now)
