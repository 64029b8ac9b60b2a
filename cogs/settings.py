"""``/batak settings server`` and ``/batak settings me``, and the choices the commands share.

A base of :class:`cogs.batak_cog.BatakCog` (never added on its own): discord.py
collects the group from the cog's bases, so the commands stay under ``/batak``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from batak import PRESET_NAMES
from data import BOT_LEVEL_SETTINGS, InvalidSettingError
from data.season_calendar import SEASON_MODES, timezone_names
from tables import ServiceError
from tables.tables import NOTIFY_MODES

from .i18n import ls, t
from .replies import Languages, guild_of, is_admin, send
from .text.seasons import season_settings_text
from .text.standings import (
    LANGUAGE_NAMES,
    notifications_saved_text,
    personal_text,
    settings_text,
)

if TYPE_CHECKING:
    from data import Store
    from tables import TableService

    from .seasons import SeasonKeeper


def choice(key: str) -> app_commands.locale_str:
    """A choice name: the English catalogue text, translated by the same key."""
    return ls(t(key, "en"), key)


# Choices shared by several commands (names are translated by the tree's translator).
PRESET_CHOICES = [app_commands.Choice(name=choice(f"preset.{n}"), value=n) for n in PRESET_NAMES]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()
]
PACE_CHOICES = [
    app_commands.Choice(name=ls("live", "pace.live"), value="live"),
    app_commands.Choice(name=ls("async", "pace.async"), value="async"),
]


class SettingsCommands(commands.Cog):
    """The settings group; the cog provides the store, the service and the languages."""

    store: Store
    service: TableService
    languages: Languages
    seasons: SeasonKeeper

    settings_group = app_commands.Group(
        name="settings",
        description=ls("Settings of the server or your own", "cmd.settings_group"),
        guild_only=True,
    )

    @settings_group.command(
        name="server", description=ls("Server settings (Manage Server)", "cmd.settings")
    )
    @app_commands.describe(
        language=ls("Language of public messages", "opt.language"),
        preset=ls("Default rule set", "opt.preset"),
        deals=ls("Default number of deals (0: the preset's)", "opt.deals_default"),
        pace=ls("Default pace", "opt.pace"),
        live_timer=ls("Turn timer of live tables, seconds (10-3600)", "opt.live_timer"),
        async_timer=ls("Turn timer of async tables, hours (1-168)", "opt.async_timer"),
        computer=ls("Computer player level", "opt.computer"),
        threads=ls("Open each table in a new thread", "opt.threads"),
        hints=ls("Hints at casual tables (never at rated ones)", "opt.hints"),
        achievements_line=ls(
            "One line at a table's end naming the achievements earned", "opt.achievements_line"
        ),
        season=ls("Seasons: monthly (default), quarterly or none", "opt.season_mode"),
        timezone=ls(
            "Time zone of the season boundaries (IANA, e.g. Europe/Istanbul)", "opt.timezone"
        ),
        channel=ls("Channel where the end of a season is announced", "opt.announce_channel"),
        tournament_role=ls(
            "A role that may open tournaments (@everyone: none)", "opt.tournament_role"
        ),
    )
    @app_commands.choices(
        language=LANGUAGE_CHOICES,
        preset=PRESET_CHOICES,
        pace=PACE_CHOICES,
        computer=[
            app_commands.Choice(name=choice(f"level.{n}"), value=n) for n in BOT_LEVEL_SETTINGS
        ],
        season=[app_commands.Choice(name=choice(f"season.{n}"), value=n) for n in SEASON_MODES],
    )
    async def settings_server(
        self,
        interaction: discord.Interaction[Any],
        language: str | None = None,
        preset: str | None = None,
        deals: app_commands.Range[int, 0, 20] | None = None,
        pace: str | None = None,
        live_timer: app_commands.Range[int, 10, 3600] | None = None,
        async_timer: app_commands.Range[int, 1, 168] | None = None,
        computer: str | None = None,
        threads: bool | None = None,
        hints: bool | None = None,
        achievements_line: bool | None = None,
        season: str | None = None,
        timezone: str | None = None,
        channel: discord.TextChannel | None = None,
        tournament_role: discord.Role | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        if not is_admin(interaction):
            raise ServiceError("error.manage_server")
        changes: dict[str, Any] = {}
        if language is not None:
            changes["language"] = language
        if preset is not None:
            changes["preset"] = preset
        if deals is not None:
            changes["deals"] = deals or None
        if pace is not None:
            changes["pace"] = pace
        if live_timer is not None:
            changes["live_turn_timeout_s"] = live_timer
        if async_timer is not None:
            changes["async_turn_timeout_s"] = async_timer * 3600
        if computer is not None:
            changes["bot_level"] = computer
        if threads is not None:
            changes["use_threads"] = threads
        if hints is not None:
            changes["casual_hints"] = hints
        if achievements_line is not None:
            changes["achievements_line"] = achievements_line
        if season is not None:
            changes["season"] = season
        if timezone is not None:
            changes["timezone"] = timezone.strip()
        if channel is not None:
            changes["announce_channel"] = channel.id
        if tournament_role is not None:  # @everyone (the server's id) takes it away
            changes["tournament_role"] = (
                None if tournament_role.id == guild_id else tournament_role.id
            )
        if changes:
            try:
                g = await self.store.guild_settings.update_guild_settings(guild_id, **changes)
            except InvalidSettingError as exc:
                raise ServiceError("error.bad_setting", reason=exc) from exc
            self.languages.remember(guild_id, g.language)
            self.seasons.forget(guild_id)  # a new length or zone: its end is looked at again
        else:
            g = await self.store.guild_settings.get_guild_settings(guild_id)
        lang = await self.languages.of(interaction)
        text = settings_text(g, lang) + "\n" + season_settings_text(g, lang)
        if changes:
            text = t("settings.saved", lang) + "\n" + text
        await send(interaction, text)

    @settings_server.autocomplete("timezone")
    async def _timezone_complete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower().replace(" ", "_")
        names = [n for n in timezone_names() if typed in n.lower()]
        names.sort(key=lambda n: (not n.lower().startswith(typed), "/" not in n, n))
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]

    @settings_group.command(
        name="me", description=ls("Your own settings, in every server", "cmd.settings_me")
    )
    @app_commands.describe(
        language=ls("The language the bot speaks to you", "opt.my_language"),
        four_colour=ls("Four-colour deck: diamonds blue, clubs green", "opt.four_colour"),
        theme=ls("Light or dark pictures", "opt.theme"),
        notifications=ls("When you are pinged for your turn (just you)", "opt.notifications"),
        reset=ls("Forget your choices (back to the defaults)", "opt.reset"),
    )
    @app_commands.choices(
        language=LANGUAGE_CHOICES,
        theme=[
            app_commands.Choice(name=choice("settings.theme_dark"), value="dark"),
            app_commands.Choice(name=choice("settings.theme_light"), value="light"),
        ],
        notifications=[
            app_commands.Choice(name=choice(f"notify.{n}"), value=n) for n in NOTIFY_MODES
        ],
    )
    async def settings_me(
        self,
        interaction: discord.Interaction[Any],
        language: str | None = None,
        four_colour: bool | None = None,
        theme: str | None = None,
        notifications: str | None = None,
        reset: bool = False,
    ) -> None:
        """A person's own choices; applied to everything they are shown privately."""
        changes: dict[str, Any] = {}
        if reset:
            changes = dict.fromkeys(("language", "four_colour", "theme", "notifications"))
        if language is not None:
            changes["language"] = language
        if four_colour is not None:
            changes["four_colour"] = four_colour
        if theme is not None:
            changes["theme"] = theme
        if notifications is not None:
            changes["notifications"] = notifications
        uid = interaction.user.id
        if changes:
            try:
                me = await self.store.user_settings.update_user_settings(uid, **changes)
            except InvalidSettingError as exc:
                raise ServiceError("error.bad_setting", reason=exc) from exc
            self.languages.remember_personal(me)
        else:
            me = await self.languages.personal(uid)
        lang = await self.languages.of(interaction)
        text = personal_text(me, lang)
        mode = me.notifications or "needed"
        if "notifications" in changes:
            # the open tables keep a copy: turn notices read it from the table
            n = await self.service.set_notifications(uid, mode)
            text += "\n" + notifications_saved_text(mode, n, lang)
        else:
            text += "\n" + t("settings.notify_show", lang, mode=t(f"notify.{mode}", lang))
        if changes:
            text = t("settings.saved", lang) + "\n" + text
        await send(interaction, text)
