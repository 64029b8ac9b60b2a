"""Seats in a running match, on Discord: ``/batak sit`` and the Take a seat button, the
host's Approve / Refuse message, and the table told when the host role passes on.

A base of :class:`cogs.batak_cog.BatakCog` (never added on its own), like
:mod:`cogs.settings`; :class:`SeatNotices` is the part of the announcer that posts about
seat requests and hosts.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from tables import HostChanged, Moment, SeatRequestChanged, ServiceError
from tables.model import SeatRequest, SeatRequestState
from tables.seats import left_by

from .components.seats import SeatClick, seat_answer_view, seat_pick_view
from .i18n import ls, t
from .replies import Languages, guild_of, send
from .text.words import clip, display_name, safe_name, table_language

if TYPE_CHECKING:
    from tables import TableService

    from .announcements import Announcer

log = logging.getLogger(__name__)


def _mention_only(user_id: int) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(user_id)], replied_user=False
    )


class SeatNotices:
    """What the table's channel is told about seat requests and a new host."""

    def __init__(self, announcer: Announcer) -> None:
        self.announcer = announcer
        self._asks: dict[tuple[int, int], int] = {}
        """(table, person) -> the message asking the host, edited once it is answered."""

    async def request(self, event: SeatRequestChanged) -> None:
        """Post about a seat request (a permission Discord refuses: the host is told)."""
        async with self.announcer.access.guard(self.announcer.find(event.at.table_id)):
            await self._request(event.at, event.request, event.state)

    async def _request(self, at: Moment, request: SeatRequest, state: SeatRequestState) -> None:
        lang = at.language
        seat = request.seat + 1
        name = safe_name(request.name) or t("seat.player", lang, n=seat)
        channel = self.announcer.where(at.game)
        key = (at.table_id, request.user_id)
        if state == "asked":  # the host is pinged once, with the buttons to answer
            text = t("seat.request_asked", lang, name=name, seat=seat, host=f"<@{at.host_id}>")
            msg = await channel.send(
                clip(text),
                view=seat_answer_view(at.table_id, request.user_id, lang),
                allowed_mentions=_mention_only(at.host_id),
            )
            self._asks[key] = msg.id
            return
        text = t(f"seat.request_{state}", lang, name=name, seat=seat)
        mid = self._asks.pop(key, None)
        if mid is not None:
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(mid).edit(
                    content=clip(text), view=None, allowed_mentions=discord.AllowedMentions.none()
                )
                return
        await channel.send(clip(text), allowed_mentions=discord.AllowedMentions.none())

    async def host(self, event: HostChanged) -> None:
        """The host left: the table is told, and the new host pinged."""
        async with self.announcer.access.guard(self.announcer.find(event.at.table_id)):
            await self._host(event.at, event.user_id, event.name)

    async def _host(self, at: Moment, user_id: int, name: str) -> None:
        lang = at.language
        text = t("seat.host", lang, mention=f"<@{user_id}>")
        self.announcer.notes[at.table_id] = t(
            "seat.host", lang, mention=safe_name(name) or f"<@{user_id}>"
        )
        self.announcer.pacer.request(at.table_id)
        await self.announcer.where(at.game).send(
            clip(text), allowed_mentions=_mention_only(user_id)
        )


class SeatCommands(commands.Cog):
    """``/batak sit`` and the seat buttons; the cog provides the service, the languages
    and the announcer."""

    service: TableService
    languages: Languages
    announcer: Announcer

    @app_commands.command(
        name="sit", description=ls("Take a seat a computer plays in the match here", "cmd.sit")
    )
    @app_commands.describe(
        seat=ls(
            "Which seat, 1 to 4 (default: the one you left, else the first computer's)",
            "opt.sit_seat",
        )
    )
    @app_commands.guild_only()
    async def sit(
        self,
        interaction: discord.Interaction[Any],
        seat: app_commands.Range[int, 1, 4] | None = None,
    ) -> None:
        guild_of(interaction)
        table = self.service.table_here(interaction.channel_id or 0, interaction.user.id)
        if table is None:
            raise ServiceError("error.no_table_here")
        interaction.extras["table"] = table.id
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._take(interaction, table.id, None if seat is None else seat - 1)

    async def on_seat_button(self, interaction: discord.Interaction[Any], click: SeatClick) -> None:
        """Take a seat (which one is asked when several could be taken), or the host's
        answer to a request."""
        user = interaction.user
        table = self.announcer.find(click.table)
        if table is None or not table.playing:
            raise ServiceError("error.table_over")
        if click.what == "answer":
            assert click.user is not None
            await interaction.response.defer(ephemeral=True, thinking=True)
            lang = await self.languages.of(interaction)
            request = await self.service.answer_seat_request(
                table.id, user.id, click.user, click.approve
            )
            key = "sit.approved" if click.approve else "sit.refused"
            name = safe_name(request.name)
            await send(interaction, t(key, lang, name=name, seat=request.seat + 1))
            return
        if click.what == "sit":
            choices = self.service.seat_choices(table.id, user.id)
            if len(choices) > 1 and not left_by(table, choices[0], user.id):
                lang = await self.languages.of(interaction)
                view = seat_pick_view(table, table_language(table))
                await send(interaction, t("sit.pick", lang), view=view)
                return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._take(interaction, table.id, click.seat)

    async def _take(
        self, interaction: discord.Interaction[Any], table_id: int, seat: int | None
    ) -> None:
        user = interaction.user
        lang = await self.languages.of(interaction)
        chosen, taken = await self.service.take_seat(table_id, user.id, display_name(user), seat)
        await send(interaction, t("sit.back" if taken else "sit.asked", lang, seat=chosen + 1))
