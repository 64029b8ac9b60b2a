"""``/batak leaderboard``, ``/batak stats`` and ``/batak history``: a server's standings,
a player's statistics, recent matches with their deal records.

A base of :class:`cogs.batak_cog.BatakCog` (never added on its own): discord.py collects
the commands from the cog's bases, so they stay under ``/batak``.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from data import user_key
from tables import ServiceError

from . import pictures
from .i18n import ls, t
from .names import names_of, seat_names_of
from .pictures import files_of
from .replies import Languages, defer_public, guild_of, send
from .seasons import SeasonKeeper, chosen_season, season_board_reply, season_choices
from .text.achievements import achievements_section
from .text.seasons import champion_text
from .text.standings import (
    board_text,
    daily_board_text,
    history_text,
    match_deals_text,
    named_standings,
    stats_text,
)
from .text.words import display_name, safe_name
from .tree import INTEGER_MAX

if TYPE_CHECKING:
    from bot import BatakBot
    from data import Store


class StandingsCommands(commands.Cog):
    """The standings commands; the cog provides the bot, the store and the languages."""

    bot: BatakBot
    store: Store
    languages: Languages
    seasons: SeasonKeeper

    @app_commands.command(
        name="leaderboard", description=ls("The server's standings", "cmd.leaderboard")
    )
    @app_commands.describe(
        by=ls("Rank by rating, wins, or today's daily match", "opt.by"),
        season=ls("Which season: this one (default), a past one, or all time", "opt.season"),
    )
    @app_commands.choices(
        by=[
            app_commands.Choice(name=ls("rating", "by.rating"), value="rating"),
            app_commands.Choice(name=ls("wins", "by.wins"), value="wins"),
            app_commands.Choice(name=ls("daily", "by.daily"), value="daily"),
        ],
    )
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        by: str | None = None,
        season: str | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        chosen = None
        if by != "daily":  # an unknown season is refused privately, before deferring
            g = await self.store.guild_settings.get_guild_settings(guild_id)
            chosen = chosen_season(season, g, self.seasons.clock())
        await defer_public(interaction)
        lang = await self.languages.of(interaction)
        if chosen is not None:
            await season_board_reply(self, interaction, guild_id, chosen, by or "wins", lang)
            return
        by, period = by or "rating", "all"
        if by == "daily":
            daily = await self.store.daily.daily_leaderboard(guild_id, limit=10)
            if not daily:
                await send(interaction, t("leaderboard.daily_empty", lang), ephemeral=False)
                return
            names = await names_of(self.bot, interaction, [r.user_id for r in daily])
            subtitle = daily[0].day
            pic = await pictures.draw(pictures.daily_picture(daily, names, subtitle, lang))
            text = daily_board_text(daily, names, lang)
            await send(interaction, text, ephemeral=False, files=files_of(pic))
            return
        # People only, ranked once settled; those still settling in named apart; the
        # computer levels on a line apart (their own ranks).
        rows = await self.store.standings.leaderboard(
            guild_id, by=by, period=period, limit=10, include_bots=False, settled=True
        )
        newcomers = await self.store.standings.leaderboard(
            guild_id, by=by, period=period, limit=10, include_bots=False, settled=False
        )
        bots = await self.store.standings.leaderboard(
            guild_id, by=by, period=period, limit=3, bots_only=True
        )
        if not rows and not bots and not newcomers:
            await send(interaction, t("leaderboard.empty", lang), ephemeral=False)
            return
        names = await names_of(
            self.bot,
            interaction,
            [s.user_id for s in (*rows, *newcomers) if s.user_id is not None],
        )
        named = named_standings(rows, names, lang)
        settling = named_standings(newcomers, names, lang)
        title = t(f"leaderboard.title_{by}", lang)
        subtitle = t(f"period.{period}", lang)
        text = board_text(named, title, subtitle, lang, bots, settling)
        drawing = pictures.leaderboard_picture(named, title, subtitle, lang, bots, settling)
        pic = await pictures.draw(drawing)
        await send(interaction, text, ephemeral=False, files=files_of(pic))

    @leaderboard.autocomplete("season")
    async def _season_complete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        lang = await self.languages.of(interaction)
        now = self.seasons.clock()
        return await season_choices(self.store, guild_of(interaction), current, lang, now)

    @app_commands.command(name="stats", description=ls("A player's statistics", "cmd.stats"))
    @app_commands.describe(user=ls("Whose statistics (default: yours)", "opt.stats_user"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        guild_id = guild_of(interaction)
        who = user or interaction.user
        await defer_public(interaction)
        lang = await self.languages.of(interaction)
        key = user_key(who.id)
        overall = await self.store.standings.player_stats(guild_id, key, include_bots=False)
        month = await self.store.standings.player_stats(
            guild_id, key, period="month", include_bots=False
        )
        held = await self.store.achievements.of_player(guild_id, who.id)
        own = who.id == interaction.user.id  # new ones are marked to their owner only
        won = await self.store.tournaments.wins(guild_id, who.id)
        if overall is None:
            text = t("stats.none", lang, name=safe_name(display_name(who)))
        else:
            text = stats_text(display_name(who), overall, month, lang)
            champion = champion_text(await self.store.seasons.titles(guild_id, key), lang)
            text += f"\n{champion}" if champion else ""
        if won:  # a tournament's tables may all be try-outs: no rated match at all
            text += "\n" + t("stats.tournament_wins", lang, count=won)
        section = achievements_section(held, lang, mark_new=own)
        await send(interaction, "\n".join(filter(None, (text, section))), ephemeral=False)
        if own and any(a.new for a in held):
            await self.store.achievements.mark_seen(guild_id, who.id)

    @app_commands.command(
        name="history", description=ls("Recent matches, with the deal records", "cmd.history")
    )
    @app_commands.describe(
        user=ls("Whose matches (default: yours)", "opt.history_user"),
        match=ls("Open one match's deals (its number, #)", "opt.history_match"),
    )
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        match: app_commands.Range[int, 1, INTEGER_MAX] | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        who = user or interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        if match is not None:
            await self._one_match(interaction, guild_id, match, lang)
            return
        matches = await self.store.matches.recent_matches(guild_id, user_key(who.id), limit=10)
        if not matches:
            await send(interaction, t("history.none", lang, name=safe_name(display_name(who))))
            return
        seat_names = await seat_names_of(self.bot, interaction, matches, lang)
        text = history_text(display_name(who), who.id, matches, lang)
        looks = pictures.Looks.of(await self.languages.personal(interaction.user.id))
        drawing = pictures.history_picture(
            matches, seat_names, who.id, display_name(who), lang, looks
        )
        pic = await pictures.draw(drawing)
        jsonl = await self.store.matches.match_records_jsonl([m.id for m in matches])
        files = files_of(pic)
        files.append(discord.File(io.BytesIO(jsonl.encode()), filename=f"batak-{who.id}.jsonl"))
        await send(interaction, text, files=files)

    async def _one_match(
        self, interaction: discord.Interaction[Any], guild_id: int, match_id: int, lang: str
    ) -> None:
        """One match of this server, deal by deal, with its records attached."""
        found = await self.store.matches.get_match(match_id)
        if found is None or found.guild_id != guild_id:
            raise ServiceError("error.no_match", id=match_id)
        names = (await seat_names_of(self.bot, interaction, [found], lang))[found.id]
        text = match_deals_text(found, names, lang)
        jsonl = await self.store.matches.match_records_jsonl([found.id])
        files = [discord.File(io.BytesIO(jsonl.encode()), filename=f"batak-match-{found.id}.jsonl")]
        await send(interaction, text, files=files)
