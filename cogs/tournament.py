"""``/batak tournament new | start | cancel | standings | withdraw``, the sign-up
buttons, and what a tournament posts in its channel.

A base of :class:`cogs.batak_cog.BatakCog` (never added on its own). The decisions
are :class:`tables.tournament.TournamentService`'s; here the commands call it and
:class:`TournamentPosts` (its listener) posts what it reports: the sign-up message
kept up to date, each round's tables (their table messages, as any table's), the
standings after each round as text and a picture, the final result.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from images.views import TournamentRow
from tables import ServiceError
from tables.tournament import (
    Board,
    RoundFinished,
    RoundStarted,
    SignupChanged,
    TournamentCancelled,
    TournamentEvent,
    TournamentFinished,
    TournamentService,
)

from . import pictures
from .components.tournament import TournamentClick, signup_view
from .i18n import ls, t
from .pictures import files_of
from .replies import NO_PINGS, Languages, defer_public, guild_of, is_admin, send
from .settings import PACE_CHOICES
from .text.tournament import final_text, round_text, signup_text, standings_text
from .text.words import display_name

if TYPE_CHECKING:
    from bot import BatakBot
    from data import GuildSettings, Store

    from .announcements import Announcer

log = logging.getLogger(__name__)


def may_organise(admin: bool, role_ids: Iterable[int], g: GuildSettings) -> bool:
    """Who may open a tournament: Manage Server, or the role the server named."""
    return admin or (g.tournament_role is not None and g.tournament_role in set(role_ids))


def standing_rows(board: Board) -> list[TournamentRow]:
    return [
        TournamentRow(
            rank=s.rank,
            name=board.name_of(s.player),
            points=s.points,
            opponents=s.opponents_points,
            score=s.score,
            tables=s.tables,
            withdrawn=s.withdrawn,
        )
        for s in board.standings
    ]


def language_of(board: Board) -> str:
    lang = board.tournament.settings.get("language")
    return lang if isinstance(lang, str) else "en"


class TournamentPosts:
    """The tournament service's listener: what a tournament posts in its channel."""

    def __init__(self, bot: BatakBot, announcer: Announcer) -> None:
        self.bot = bot
        self.announcer = announcer

    def _channel(self, board: Board) -> discord.PartialMessageable:
        tour = board.tournament
        return self.bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)

    async def on_tournament(self, event: TournamentEvent) -> None:
        board = event.board
        lang = language_of(board)
        channel = self._channel(board)
        match event:
            case SignupChanged():
                await self.edit_signup(board)
            case RoundStarted(round_no=round_no, table_ids=ids):
                for gid in ids:
                    table = self.announcer.service.tables.get(gid)
                    if table is not None and table.game.table_message_id is None:
                        await self.announcer.post_table_message(table)
                await channel.send(round_text(board, round_no, lang), allowed_mentions=NO_PINGS)
                await self.edit_signup(board)
            case RoundFinished(round_no=round_no):
                await self.post_standings(channel, board, standings_text(board, round_no, lang))
            case TournamentFinished(winner_id=winner):
                await self.post_standings(channel, board, final_text(board, winner, lang))
                await self.edit_signup(board)
            case TournamentCancelled():
                await channel.send(
                    t("tournament.cancelled", lang, id=board.tournament.id),
                    allowed_mentions=NO_PINGS,
                )
                await self.edit_signup(board)

    async def post_standings(
        self, channel: discord.PartialMessageable, board: Board, text: str
    ) -> None:
        lang = language_of(board)
        tour = board.tournament
        title = t("tournament.picture_title", lang, id=tour.id)
        subtitle = t(
            "tournament.picture_subtitle", lang, round=tour.current_round, rounds=tour.rounds or 0
        )
        pic = await pictures.draw(
            pictures.tournament_picture(standing_rows(board), title, subtitle, lang)
        )
        await channel.send(text, files=files_of(pic), allowed_mentions=NO_PINGS)

    async def edit_signup(self, board: Board) -> None:
        """The sign-up message: who is in; Withdraw alone once it runs, no button once
        it is over."""
        tour = board.tournament
        if tour.signup_message_id is None:
            return
        lang = language_of(board)
        view = (
            signup_view(tour.id, lang, open_=tour.status == "signup")
            if tour.is_open
            else discord.ui.View()
        )
        message = self._channel(board).get_partial_message(tour.signup_message_id)
        with contextlib.suppress(discord.NotFound):
            await message.edit(
                content=signup_text(board, lang), view=view, allowed_mentions=NO_PINGS
            )


class TournamentCommands(commands.Cog):
    """The tournament group; the cog provides the store, the languages and the service."""

    store: Store
    languages: Languages
    tournaments: TournamentService

    tournament_group = app_commands.Group(
        name="tournament",
        description=ls("Swiss tournaments of four-player tables", "cmd.tournament_group"),
        guild_only=True,
    )

    async def _which(self, interaction: discord.Interaction[Any], number: int | None) -> int:
        guild_id = guild_of(interaction)
        if number is not None:
            return (await self.tournaments.get(number, guild_id)).id
        return (await self.tournaments.current(guild_id, interaction.channel_id)).id

    @tournament_group.command(
        name="new",
        description=ls(
            "Open a tournament here, with sign-ups (Manage Server)", "cmd.tournament_new"
        ),
    )
    @app_commands.describe(
        rounds=ls("Rounds, 1 to 12 (default: enough to separate the field)", "opt.t_rounds"),
        pace=ls("live: short turn timer; async: long timer with pings", "opt.pace"),
        hours=ls("Hours a round may last (default: 2 live, 72 async)", "opt.t_hours"),
        deals=ls("Number of deals, 1 to 20", "opt.deals"),
    )
    @app_commands.choices(pace=PACE_CHOICES)
    async def tournament_new(
        self,
        interaction: discord.Interaction[Any],
        rounds: app_commands.Range[int, 1, 12] | None = None,
        pace: str = "live",
        hours: app_commands.Range[int, 1, 336] | None = None,
        deals: app_commands.Range[int, 1, 20] | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        g = await self.store.guild_settings.get_guild_settings(guild_id)
        roles = [r.id for r in getattr(interaction.user, "roles", ())]
        if not may_organise(is_admin(interaction), roles, g):
            raise ServiceError("tournament.error.may_not_organise")
        channel_id = interaction.channel_id or 0
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        public = await self.languages.server(guild_id, interaction.guild_locale)
        board = await self.tournaments.create(
            guild_id,
            channel_id,
            interaction.user.id,
            rounds=rounds,
            pace=pace,
            deadline_s=None if hours is None else hours * 3600,
            deals=deals,
            language=public,
        )
        tid = board.tournament.id
        channel = interaction.client.get_partial_messageable(channel_id, guild_id=guild_id)
        msg = await channel.send(
            signup_text(board, public), view=signup_view(tid, public), allowed_mentions=NO_PINGS
        )
        await self.tournaments.set_signup_message(tid, msg.id)
        await send(interaction, t("tournament.opened", lang, id=tid, where=f"<#{channel_id}>"))

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        tournament: int | None,
        done: str,
        act: Callable[[int], Awaitable[object]],
    ) -> None:
        """A tournament command: which tournament, the private answer deferred, the
        service's ``act`` (its refusals answered at the tree), then ``done``."""
        tid = await self._which(interaction, tournament)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        await act(tid)
        await send(interaction, t(done, lang, id=tid))

    @tournament_group.command(
        name="start",
        description=ls(
            "Start the tournament's first round (its organiser)", "cmd.tournament_start"
        ),
    )
    @app_commands.describe(
        tournament=ls("Tournament number (default: the one open here)", "opt.t_id")
    )
    async def tournament_start(
        self,
        interaction: discord.Interaction[Any],
        tournament: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await self._act(
            interaction,
            tournament,
            "tournament.started",
            lambda tid: self.tournaments.start(
                tid, guild_of(interaction), interaction.user.id, is_admin=is_admin(interaction)
            ),
        )

    @tournament_group.command(
        name="cancel",
        description=ls("Cancel the tournament (its organiser)", "cmd.tournament_cancel"),
    )
    @app_commands.describe(
        tournament=ls("Tournament number (default: the one open here)", "opt.t_id")
    )
    async def tournament_cancel(
        self,
        interaction: discord.Interaction[Any],
        tournament: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await self._act(
            interaction,
            tournament,
            "tournament.cancelled",
            lambda tid: self.tournaments.cancel(
                tid, guild_of(interaction), interaction.user.id, is_admin=is_admin(interaction)
            ),
        )

    @tournament_group.command(
        name="withdraw",
        description=ls("Withdraw from the tournament", "cmd.tournament_withdraw"),
    )
    @app_commands.describe(
        tournament=ls("Tournament number (default: the one open here)", "opt.t_id")
    )
    async def tournament_withdraw(
        self,
        interaction: discord.Interaction[Any],
        tournament: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await self._act(
            interaction,
            tournament,
            "tournament.withdrawn",
            lambda tid: self.tournaments.withdraw(tid, guild_of(interaction), interaction.user.id),
        )

    @tournament_group.command(
        name="standings",
        description=ls("The tournament's standings", "cmd.tournament_standings"),
    )
    @app_commands.describe(
        tournament=ls("Tournament number (default: the one open here)", "opt.t_id")
    )
    async def tournament_standings(
        self,
        interaction: discord.Interaction[Any],
        tournament: app_commands.Range[int, 1] | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        tid = await self._which(interaction, tournament)
        await defer_public(interaction)
        lang = await self.languages.of(interaction)
        board = await self.tournaments.board(tid, guild_id)
        text = standings_text(board, board.tournament.current_round, lang)
        title = t("tournament.picture_title", lang, id=tid)
        subtitle = t(
            "tournament.picture_subtitle",
            lang,
            round=board.tournament.current_round,
            rounds=board.tournament.rounds or 0,
        )
        pic = await pictures.draw(
            pictures.tournament_picture(standing_rows(board), title, subtitle, lang)
        )
        await send(interaction, text, ephemeral=False, files=files_of(pic))

    async def tournament_clicked(
        self, interaction: discord.Interaction[Any], click: TournamentClick
    ) -> None:
        """Sign up or Withdraw under the sign-up message; answered privately."""
        guild_id = guild_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        user = interaction.user
        if click.what == "join":
            await self.tournaments.sign_up(click.tournament, guild_id, user.id, display_name(user))
            await send(interaction, t("tournament.signed_up", lang, id=click.tournament))
        else:
            await self.tournaments.withdraw(click.tournament, guild_id, user.id)
            await send(interaction, t("tournament.withdrawn", lang, id=click.tournament))
