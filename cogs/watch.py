"""Spectators: a private view of a table that follows the game, for anyone not seated.

``/batak watch`` or the Watch button of the table message opens it: the table picture
drawn from no seat and a short text, both built from public facts only (the hands of a
deal appear once it is over). It is kept up to date like an open hand
(:class:`~cogs.live.LiveHands`: the latest view per person and table, edited through its
interaction token while Discord accepts it, edits paced); its Refresh button makes a
view current again. The host can turn watching off in the lobby.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from tables import ServiceError, Table, TableService

from . import pictures
from .announcements import Announcer
from .components.panel import HouseClick, spectator_view
from .i18n import ls, t
from .live import LiveHands
from .payload import Drawn, MessagePayload
from .pictures import files_of
from .replies import Languages, guild_of, send
from .text.spectators import between_deals, dealt_hands_text
from .text.summaries import public_summary
from .text.words import clip
from .tree import INTEGER_MAX


def spectator_text(table: Table, lang: str) -> str:
    """A spectator's private view: the public table, and the last deal's hands while the
    next deal has not reached its first card."""
    lines = [t("watch.title", lang, table=table.id)]
    if table.status == "cancelled":
        lines.append(t("table.cancelled", lang, table=table.id))
        return "\n".join(lines)
    lines.append(public_summary(table, lang))
    match = table.match
    if match is not None and between_deals(table):
        lines.append(dealt_hands_text(table, len(match.finished) - 1, lang))
    return "\n".join(lines)


class Watchers:
    """The spectator views of every table."""

    def __init__(
        self,
        service: TableService,
        languages: Languages,
        announcer: Announcer,
        interval: float = 1.0,
    ) -> None:
        self.service = service
        self.languages = languages
        self.live = LiveHands(self.payload, announcer.find, interval, spectators=True)
        announcer.watchers = self.live

    async def payload(self, table: Table, seat: int | None, lang: str, shown_picture: Any) -> Drawn:
        """A spectator view; its picture is drawn only when it differs from the one shown."""
        assert seat is None  # a spectator's view is drawn from no seat
        content = spectator_text(table, lang)
        view = spectator_view(table, lang)
        drawing = pictures.table_picture(table, lang)
        key = drawing.view if drawing is not None else None
        files = files_of(await pictures.draw(drawing)) if key != shown_picture else None
        return Drawn(MessagePayload(clip(content), files=files, view=view), key)

    async def watch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """A new private spectator view of the table (the person's current one)."""
        table = self.service.watchable(table_id, interaction.user.id)
        lang = await self.languages.of(interaction)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        drawn = await self.payload(table, None, lang, None)
        shown = drawn.message
        msg = await send(interaction, shown.content, files=shown.files, view=shown.shown_view)
        if msg is not None:
            self.live.opened(table, interaction.user.id, interaction, msg.id, lang, shown=drawn)

    async def on_click(self, interaction: discord.Interaction[Any], click: HouseClick) -> None:
        if click.what == "watch":
            await self.watch(interaction, click.table)
            return
        # Refresh on a view: this press's token keeps it following the game.
        message = interaction.message
        meta = message.interaction_metadata if message is not None else None
        own = message is not None and message.flags.ephemeral
        if not own or (meta is not None and meta.user.id != interaction.user.id):
            await self.watch(interaction, click.table)
            return
        table = self.service.watchable(click.table, interaction.user.id)
        assert message is not None
        await interaction.response.defer()  # the view is edited in place
        lang = await self.languages.of(interaction)
        self.live.opened(table, interaction.user.id, interaction, message.id, lang)
        self.live.redraw(message.id)


class WatchCommand(commands.Cog):
    """``/batak watch``. A base of :class:`cogs.batak_cog.BatakCog` (never added on its
    own), which provides the service and the spectator views."""

    service: TableService
    watchers: Watchers

    @app_commands.command(
        name="watch",
        description=ls("Watch a match here privately (only public cards)", "cmd.watch"),
    )
    @app_commands.describe(table=ls("Which table (its number; default: the one here)", "opt.watch"))
    @app_commands.guild_only()
    async def watch(
        self,
        interaction: discord.Interaction[Any],
        table: app_commands.Range[int, 1, INTEGER_MAX] | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        if table is None:
            here = [
                t_
                for t_ in self.service.tables_in(interaction.channel_id or 0)
                if t_.playing and not t_.is_daily
            ]
            if len(here) != 1:
                raise ServiceError("error.watch_which")
            table = here[0].id
        interaction.extras["table"] = table
        # Anywhere in the table's server (a spectator sees only public facts), never
        # from another one: the same rule as the table's Watch button.
        await self.service.check_place(table, guild_id, interaction.channel_id, server_wide=True)
        await self.watchers.watch(interaction, table)
