"""A person's notification setting (turn notices: when needed, every turn, never):
their own in their personal settings, a copy in the settings of each table they sit at.
"""

from __future__ import annotations

from dataclasses import replace

from data import NOTIFICATION_MODES, InvalidSettingError

from .errors import ServiceError
from .model import NotifyMode, Table, TableSettings, as_notify
from .registry import Registry


class Notifications:
    """Reads a person's notification setting and copies it to their tables."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg

    async def mode(self, user_id: int) -> NotifyMode:
        """A person's notification setting (needed, every, never), kept in the settings of
        their tables and carried to each new one; ``needed`` if never chosen.

        Their own setting (``/batak settings me``, stored with their personal settings)
        comes first; a table's copy is what a person chose before personal settings
        existed."""
        own = as_notify(
            (await self.reg.store.user_settings.get_user_settings(user_id)).notifications
        )
        if own is not None:
            return own
        for table in self.reg.tables_of(user_id):
            mode = table.settings.notify.get(str(user_id))
            if mode is not None:
                return mode
        for game in await self.reg.store.games.list_games(user_id=user_id, status=None, limit=5):
            mode = TableSettings.from_dict(game.settings).notify.get(str(user_id))
            if mode is not None:
                return mode
        return "needed"

    async def set_mode(self, user_id: int, mode: str) -> int:
        """Copy a person's notification setting to every open table of theirs (turn notices
        read it there); returns how many. Their own copy is in their personal settings."""
        chosen = as_notify(mode)
        if chosen is None:
            why = InvalidSettingError(
                f"notifications {mode!r}",
                "not-one-of",
                name="notifications",
                value=repr(mode)[:40],
                allowed=NOTIFICATION_MODES,
            )
            raise ServiceError("error.bad_setting", reason=why)
        done = 0
        for table in self.reg.tables_of(user_id):
            async with table.lock:
                if table.is_daily or not table.game.is_open:
                    continue
                await self.write(table, user_id, chosen)
                done += 1
        return done

    async def write(self, table: Table, user_id: int, mode: NotifyMode) -> None:
        notify = dict(table.settings.notify) | {str(user_id): mode}
        settings = replace(table.settings, notify=notify)
        table.game = await self.reg.store.games.set_game_settings(table.id, settings.to_dict())

    async def carry(self, table: Table, user_id: int) -> None:
        mode = await self.mode(user_id)
        if mode != "needed" and table.settings.notify.get(str(user_id)) != mode:
            await self.write(table, user_id, mode)
