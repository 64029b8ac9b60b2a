"""The ``/batak`` command group: the slash commands, and where clicks come in.

Thin on purpose: every decision about the game is the engine's, every state
change goes through :class:`tables.TableService`. The messages a table
posts are :mod:`cogs.announcements`', the hand and the clicks :mod:`cogs.hands`',
the buttons :mod:`cogs.components`', the words :mod:`cogs.text`'.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from tables import ServiceError, Table
from tables.listener import Listeners
from tables.tournament import TournamentService

from .access import Access, close_thread
from .announcements import Announcer
from .budget import mode
from .components import HandButton, Press, TableButton, dispatched, matching
from .components.panel import HouseItem, WatchButton
from .components.seats import SeatButton
from .components.tournament import TournamentButton
from .cooldowns import Cooldowns
from .hands import Hands
from .house import HousePanel
from .i18n import ls, t
from .replies import NOTES, Languages, fail, guild_of, is_admin, send
from .review import CompareButton, ReviewButton, Reviews, compare_view
from .seasons import SeasonKeeper
from .seats import SeatCommands
from .settings import PACE_CHOICES, PRESET_CHOICES, SettingsCommands
from .standings import StandingsCommands
from .text.hints import hint_message
from .text.house import complete, parse_rules
from .text.rules import rules_text
from .text.words import display_name, safe_name, table_language, thread_title
from .tournament import TournamentCommands, TournamentPosts
from .tree import service_error
from .watch import WatchCommand, Watchers

if TYPE_CHECKING:
    from bot import BatakBot

log = logging.getLogger(__name__)


FAMILIES: tuple[type[Press[Any]], ...] = (
    HandButton,
    TableButton,
    SeatButton,
    HouseItem,
    WatchButton,
    ReviewButton,
    CompareButton,
    TournamentButton,
)
"""Every family of buttons (and menus) of the bot, registered once with discord.py. A
press counts anywhere in its table's server (``server_wide``) for a hand, a spectator
view and its Watch button (``/batak watch`` is too), and the Review button of a finished
deal; the table message's buttons, the seat buttons and the host's rules panel count
only where the table is (:meth:`~tables.TableService.check_place`)."""


class BatakCog(
    SettingsCommands,
    StandingsCommands,
    SeatCommands,
    TournamentCommands,
    WatchCommand,
    commands.GroupCog,
    name="Batak",
    group_name="batak",
    group_description=ls("Play İhaleli Batak", "cmd.batak"),
):
    """Play İhaleli Batak."""

    def __init__(self, bot: BatakBot) -> None:
        super().__init__()
        self.bot = bot
        self.store = bot.store
        self.service = bot.service
        self.languages = Languages(bot.store)
        self.access = Access(bot, self.languages)
        self.announcer = Announcer(bot, bot.store, bot.service, bot.config, self.access)
        self.hands = Hands(
            bot.store, bot.service, self.languages, self.announcer, bot.config.hand_edit_interval
        )
        self.tournaments = TournamentService(
            bot.service,
            listener=TournamentPosts(bot, self.announcer),
            on_win=bot.store.achievements.grant_tournament_win,
        )
        """Swiss tournaments (their tables are the service's); a win is granted as an
        achievement (a person's first, once; shown new in their /batak stats)."""
        bot.service.listener = Listeners(self.announcer, self.tournaments)
        self.house = HousePanel(bot.service, self.languages)
        self.watchers = Watchers(
            bot.service, self.languages, self.announcer, bot.config.hand_edit_interval
        )
        self.cooldowns = Cooldowns()
        """Fair shares: how often one person may ask for the heavy work."""
        self.reviews = Reviews(bot, self.languages, self.cooldowns)
        self.seasons = SeasonKeeper(bot, bot.store, lambda: [g.id for g in bot.guilds])

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*FAMILIES)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*FAMILIES)
        self.hands.late.close()
        await self.announcer.close()
        await self.seasons.close()

    async def refresh_all(self) -> None:
        """After a restart: redraw every open table and re-send the turn notices; then
        pick every open tournament up where it was left."""
        await self.announcer.refresh_all()
        self.seasons.start()  # seasons that ended while the bot was down, then a timer
        await self.tournaments.restore()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Every command of the cog: its private answer tells what the bot still has to
        tell its author (a permission Discord refused: :class:`cogs.access.Access`)."""
        interaction.extras[NOTES] = self.access
        self.seasons.poke(interaction.guild_id)  # the first command after a season's end
        return True

    async def _failed(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Answer an error; a permission Discord refused is named (and the host told)."""
        table = self.announcer.find(int(interaction.extras.get("table") or 0))
        await fail(
            interaction, await self.access.explain(interaction, error, table), self.languages
        )

    # ------------------------------------------------------------------ clicks
    async def pressed(self, interaction: discord.Interaction[Any], press: Press[Any]) -> None:
        """Every press of a button (or menu) of ours, answered exactly once.

        discord.py makes the item of the press's family (:class:`cogs.components.Press`,
        the id read strictly); it arrives here. An id the bot never writes is refused
        politely. A button that names a table counts only where that table lives
        (:meth:`~tables.TableService.check_place`, asked before anything touches the
        table): any other press is refused privately and changes nothing. Then the
        family's handler answers; any error is the one private answer of
        :meth:`_failed`."""
        interaction.extras[NOTES] = self.access
        try:
            click = press.click
            if click is None:
                raise ServiceError("error.unknown_button")
            table = press.table_of(click)
            if table is not None:
                interaction.extras["table"] = table
                await self.service.check_place(
                    table,
                    interaction.guild_id,
                    interaction.channel_id,
                    server_wide=press.server_wide,
                )
            await press.handle(self, interaction, click)
        except Exception as exc:
            await self._failed(interaction, exc)
        finally:  # its token may now edit the table message (cogs.table_tokens)
            self.announcer.tokens.answered(interaction)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """The presses discord.py leaves unanswered, answered here exactly once.

        discord.py runs the item of a registered family only when the id matches its
        template and the pressed message has that component
        (:func:`cogs.components.dispatched`). A press whose id matches no family (a
        button of an old version, another bot's, a forged one) gets the polite refusal;
        one that matches but that discord.py drops (sent from another place, without a
        message, or naming a button the message does not have) is read by its family
        here and goes the same way as any press (:meth:`pressed`)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        found = matching(custom_id, FAMILIES)
        if found is None:
            interaction.extras[NOTES] = self.access
            await self._failed(interaction, ServiceError("error.unknown_button"))
            return
        kind = int(data.get("component_type", 0))
        if dispatched(interaction.message, kind, custom_id):
            return  # the family's item answers it
        family, _ = found
        item: discord.ui.Item[Any]
        if kind == discord.ComponentType.select.value:
            item = discord.ui.Select(custom_id=custom_id)
        else:
            item = discord.ui.Button(custom_id=custom_id)
        await self.pressed(interaction, family.received(item, custom_id))

    # ------------------------------------------------------------------ errors
    async def command_failed(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """The tree's ``on_error`` (:class:`cogs.tree.BatakTree`): the one answer of a
        failed command."""
        await self._failed(interaction, service_error(error))

    def _table_here(self, interaction: discord.Interaction[Any]) -> Table:
        channel_id = interaction.channel_id or 0
        table = self.service.table_here(channel_id, interaction.user.id)
        if table is None:
            mine = [
                t_
                for t_ in self.service.tables_of(interaction.user.id)
                if not t_.is_daily and t_.game.guild_id == interaction.guild_id
            ]
            if len(mine) == 1:
                table = mine[0]
            else:
                raise ServiceError("error.no_table_here")
        interaction.extras["table"] = table.id
        return table

    # ------------------------------------------------------------------ commands
    @app_commands.command(name="new", description=ls("Open a Batak table here", "cmd.new"))
    @app_commands.describe(
        preset=ls("Rule set (default: the server's)", "opt.preset"),
        deals=ls("Number of deals, 1 to 20", "opt.deals"),
        pace=ls("live: short turn timer; async: long timer with pings", "opt.pace"),
        casual=ls(
            "A casual table: ratings do not change (hints if the server allows)", "opt.casual"
        ),
        rules=ls("House rules, e.g. min_bid=6 partnership=on (makes it casual)", "opt.rules"),
    )
    @app_commands.choices(
        preset=PRESET_CHOICES,
        pace=PACE_CHOICES,
    )
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction[Any],
        preset: str | None = None,
        deals: app_commands.Range[int, 1, 20] | None = None,
        pace: str | None = None,
        casual: bool = False,
        rules: app_commands.Range[str, 1, 400] | None = None,
    ) -> None:
        guild_id = guild_of(interaction)
        try:  # house rules are read (and judged by the engine) before anything is made
            options = parse_rules(rules) if rules is not None else {}
        except ValueError as exc:
            raise ServiceError("error.bad_rules", reason=exc) from exc
        await interaction.response.defer(ephemeral=True, thinking=True)
        with mode("urgent"):  # someone waits: before table edits for Discord's global limit
            await self._open(interaction, guild_id, options, preset, deals, pace, casual)

    async def _open(
        self,
        interaction: discord.Interaction[Any],
        guild_id: int,
        options: dict[str, Any],
        preset: str | None,
        deals: int | None,
        pace: str | None,
        casual: bool,
    ) -> None:
        lang = await self.languages.of(interaction)
        user = interaction.user
        channel = interaction.channel
        channel_id = interaction.channel_id or 0
        for existing in self.service.tables_in(channel_id):
            if existing.seat_of(user.id) is not None:
                raise ServiceError("error.already_at_table", table=existing.id)
        # One table per host: a second /batak new meanwhile (30 at once, say) is
        # answered at once, before anything is made; the store's unique key holds too.
        async with self.service.opening(guild_id, user.id):
            g = await self.store.guild_settings.get_guild_settings(guild_id)
            threaded = await self.access.where_to_open(
                interaction, g.use_threads and isinstance(channel, discord.TextChannel)
            )
            table = await self.service.create_table(
                guild_id,
                channel_id,
                user.id,
                display_name(user),
                guild=g,
                preset_name=preset,
                deals=deals,
                pace=pace,
                casual=casual,
                language=await self.languages.server(guild_id, interaction.guild_locale),
                options=options,
            )
        thread: discord.Thread | None = None
        if threaded and isinstance(channel, discord.TextChannel):
            thread = await self._open_thread(interaction, table, channel, lang, pace or g.pace)
        try:
            await self.announcer.post_table_message(table)
        except discord.Forbidden as exc:
            await self.service.cancel(table.id, user.id, is_admin=True)
            if thread is not None:
                await close_thread(thread)
            await self.access.told_of(table, exc, interaction)
            raise ServiceError("error.not_opened") from exc
        thread_id = thread.id if thread is not None else None
        if thread_id is not None:
            try:
                await self.announcer.post_link(table, channel_id)
            except discord.HTTPException as exc:
                if not await self.access.told_of(table, exc, interaction):
                    log.info("no link to the thread of table %s: %s", table.id, exc)
        where = f"<#{thread_id}>" if thread_id else f"<#{channel_id}>"
        public = table_language(table)  # the buttons named are the table message's
        text = t(
            "new.opened",
            lang,
            table=table.id,
            where=where,
            join=t("button.join", public),
            start=t("button.start", public),
        )
        text += "\n" + t("new.house_hint", lang, rules=t("button.house_rules", public))
        await send(interaction, text)

    async def _open_thread(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        channel: discord.TextChannel,
        lang: str,
        pace: str,
    ) -> discord.Thread | None:
        """The lobby's thread, made once its table exists and attached to it; None (the
        table stays in the channel) when Discord refuses one."""
        name = thread_title(lang, display_name(interaction.user), interaction.user.id)
        try:
            thread = await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080 if pace == "async" else 1440,
            )
        except discord.HTTPException as exc:
            if not await self.access.told_of(table, exc, interaction):
                log.info("no thread for table %s in %s: %s", table.id, channel.id, exc)
            return None
        try:
            await self.service.attach_thread(table.id, thread.id)
        except Exception:
            log.exception("table %s: its thread %s could not be attached", table.id, thread.id)
            await close_thread(thread)
            return None
        return thread

    @new.autocomplete("rules")
    async def _rules_complete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in complete(current)]

    @app_commands.command(
        name="hand", description=ls("Show your hand (only you see it)", "cmd.hand")
    )
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        table = self._table_here(interaction)
        await self.hands.send_hand(interaction, table)

    @app_commands.command(name="table", description=ls("Post the table message again", "cmd.table"))
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        table = self._table_here(interaction)
        if table.seat_of(interaction.user.id) is None and not is_admin(interaction):
            raise ServiceError("error.table_seated_only")
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        old = table.game.table_message_id
        await self.announcer.post_table_message(table)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self.announcer.channel(table).get_partial_message(old).delete()
        await send(interaction, t("table.reposted", lang))

    @app_commands.command(
        name="hint", description=ls("Advice for your current decision", "cmd.hint")
    )
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        table = self._table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        action, reason = await self.service.hint(table.id, interaction.user.id)
        await send(interaction, hint_message(action, reason, lang))

    @app_commands.command(name="leave", description=ls("Leave the table here", "cmd.leave"))
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        table = self._table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        await self.service.leave(table.id, interaction.user.id)
        await send(interaction, t("lobby.left", lang))

    @app_commands.command(name="kick", description=ls("Remove a player from the table", "cmd.kick"))
    @app_commands.describe(user=ls("Who to remove", "opt.kick_user"))
    @app_commands.guild_only()
    async def kick(self, interaction: discord.Interaction[Any], user: discord.User) -> None:
        guild_of(interaction)
        table = self._table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        await self.service.kick(
            table.id, interaction.user.id, user.id, is_admin=is_admin(interaction)
        )
        await send(interaction, t("kick.done", lang, name=safe_name(display_name(user))))

    @app_commands.command(name="cancel", description=ls("Cancel the table here", "cmd.cancel"))
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        guild_of(interaction)
        table = self._table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        await self.service.cancel(table.id, interaction.user.id, is_admin=is_admin(interaction))
        await send(interaction, t("lobby.cancelled", lang))

    @app_commands.command(
        name="daily",
        description=ls("Today's daily match: you against three computers", "cmd.daily"),
    )
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = guild_of(interaction)
        self.cooldowns.use("daily", interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        user = interaction.user
        try:
            table = await self.service.start_daily(
                guild_id, interaction.channel_id or 0, user.id, display_name(user)
            )
        except ServiceError as exc:
            if exc.key != "error.daily_done":
                raise
            result = await self.store.daily.daily_result(guild_id, user.id)
            if result is None or result.score is None:
                raise
            score = result.score
            text = t("daily.already", lang, score=score) + "\n" + t("daily.compare_offer", lang)
            await send(interaction, text, view=compare_view(result.day, lang))
            return
        await self.hands.send_hand(interaction, table, t("daily.intro", lang))

    @app_commands.command(
        name="replay", description=ls("Replay a finished deal as an animated picture", "cmd.replay")
    )
    @app_commands.describe(
        match=ls("Match number (see /batak history)", "opt.match"),
        deal=ls("Deal number in the match (default: the last)", "opt.deal"),
        file=ls("A batak-deal/1 file: one deal or a JSON Lines match", "opt.file"),
    )
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        match: app_commands.Range[int, 1] | None = None,
        deal: app_commands.Range[int, 1, 99] | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        await self.reviews.replay(interaction, match, deal, file)

    @app_commands.command(
        name="review",
        description=ls("Where a finished deal was won or lost (only you see it)", "cmd.review"),
    )
    @app_commands.describe(
        match=ls("Match number (see /batak history)", "opt.match"),
        deal=ls("Deal number in the match (default: the last)", "opt.deal"),
        file=ls("A batak-deal/1 file: one deal or a JSON Lines match", "opt.file"),
    )
    @app_commands.guild_only()
    async def review(
        self,
        interaction: discord.Interaction[Any],
        match: app_commands.Range[int, 1] | None = None,
        deal: app_commands.Range[int, 1, 99] | None = None,
        file: discord.Attachment | None = None,
    ) -> None:
        await self.reviews.review(interaction, match, deal, file)

    @app_commands.command(name="rules", description=ls("The rules of Batak", "cmd.rules"))
    @app_commands.describe(preset=ls("Which rule set", "opt.rules_preset"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], preset: str | None = None) -> None:
        """A preset's rules; without one, at a table, the rules in force there."""
        lang = await self.languages.of(interaction)
        name = preset or "standard"
        if preset is None and interaction.guild_id is not None:
            here = self._rules_table(interaction)
            if here is not None:
                await send(interaction, rules_text(here.rules, lang, table=here.id))
                return
            name = (await self.store.guild_settings.get_guild_settings(interaction.guild_id)).preset
        await send(interaction, rules_text(name, lang))

    def _rules_table(self, interaction: discord.Interaction[Any]) -> Table | None:
        """The table whose rules ``/batak rules`` shows: the person's own in this channel,
        else the only open one here."""
        channel_id = interaction.channel_id or 0
        mine = self.service.table_here(channel_id, interaction.user.id)
        if mine is not None and mine.seat_of(interaction.user.id) is not None:
            return mine
        here = [t_ for t_ in self.service.tables_in(channel_id) if not t_.is_daily]
        return here[0] if len(here) == 1 else None


async def setup(bot: BatakBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(BatakCog(bot))
