"""The ``/batak`` command group, the table's public message, hands and turn notices.

Thin on purpose: every decision about the game is the engine's, every state
change goes through :class:`cogs.service.TableService`. This module turns
interactions into service calls and service events into Discord messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from batak import PRESET_NAMES, Action, Bid, ChooseTrump, Pass, Play, card_code, preset
from batak.ai.hints import Hint
from batak.deal import Phase
from data import (
    InvalidSettingError,
    MatchSummary,
    Standing,
    Store,
    user_key,
)
from images.build import sort_hand

from . import render
from .components import HAND_RE, TABLE_RE, HandButton, TableButton, release, view_of
from .i18n import ls, resolve, t
from .pacing import EditPacer
from .service import (
    ServiceError,
    StaleAction,
    Table,
    TableService,
)

if TYPE_CHECKING:
    from .config import BotConfig

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
MAX_CONTENT = 2000

Style = discord.ButtonStyle


def _file(pic: render.Picture | None) -> list[discord.File]:
    if pic is None:
        return []
    return [discord.File(io.BytesIO(pic.data), filename=pic.filename, description=pic.description)]


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


def choice(key: str) -> app_commands.locale_str:
    """A choice name: the English catalogue text, translated by the same key."""
    return ls(t(key, "en"), key)


# Choices shared by several commands (names are translated by the tree's translator).
PRESET_CHOICES = [app_commands.Choice(name=choice(f"preset.{n}"), value=n) for n in PRESET_NAMES]
PACE_CHOICES = [
    app_commands.Choice(name=ls("live", "pace.live"), value="live"),
    app_commands.Choice(name=ls("async", "pace.async"), value="async"),
]


class BatakCog(
    commands.GroupCog,
    name="Batak",
    group_name="batak",
    group_description=ls("Play İhaleli Batak", "cmd.batak"),
):
    """Play İhaleli Batak."""

    def __init__(
        self, bot: commands.Bot, store: Store, service: TableService, config: BotConfig
    ) -> None:
        super().__init__()
        self.bot = bot
        self.store = store
        self.service = service
        self.config = config
        self.pacer = EditPacer(config.table_edit_interval, self._edit_table_message)
        self.notes: dict[int, str] = {}
        self.closed: dict[int, Table] = {}
        self._notice_locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._languages: dict[int, str] = {}
        service.listener = self

    async def cog_unload(self) -> None:
        await self.pacer.close()
        for task in list(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ helpers
    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def done(t_: asyncio.Task[Any]) -> None:
            self._tasks.discard(t_)
            if not t_.cancelled() and t_.exception() is not None:
                log.error("background task failed", exc_info=t_.exception())

        task.add_done_callback(done)

    async def server_language(self, guild_id: int | None) -> str:
        if guild_id is None:
            return "en"
        lang = self._languages.get(guild_id)
        if lang is None:
            lang = (await self.store.get_guild_settings(guild_id)).language
            self._languages[guild_id] = lang
        return lang

    async def lang(self, interaction: discord.Interaction[Any]) -> str:
        return resolve(interaction.locale, await self.server_language(interaction.guild_id))

    def find(self, table_id: int) -> Table | None:
        return (
            self.service.tables.get(table_id)
            or self.service.finished.get(table_id)
            or self.closed.get(table_id)
        )

    async def send(
        self,
        interaction: discord.Interaction[Any],
        content: str,
        *,
        ephemeral: bool = True,
        files: list[discord.File] | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        """Answer an interaction (first response or follow-up), never pinging anyone."""
        kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": NO_PINGS}
        if files:
            kwargs["files"] = files
        if view is not None:
            kwargs["view"] = view
        try:
            if interaction.response.is_done():
                await interaction.followup.send(_clip(content), **kwargs)
            else:
                await interaction.response.send_message(_clip(content), **kwargs)
        finally:
            release(view)

    async def fail(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Turn any error into a polite ephemeral message (and a log line when unexpected)."""
        lang = await self.lang(interaction)
        if isinstance(error, ServiceError):
            text = t(error.key, lang, **error.params)
        else:
            log.error(
                "interaction %s by %s failed",
                getattr(interaction.command, "qualified_name", None) or interaction.data,
                interaction.user.id,
                exc_info=error,
            )
            text = t("error.unexpected", lang)
        with contextlib.suppress(discord.HTTPException):
            await self.send(interaction, text)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.MissingPermissions):
            original = ServiceError("error.manage_server")
        elif isinstance(error, app_commands.NoPrivateMessage):
            original = ServiceError("error.guild_only")
        await self.fail(interaction, original)

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
                return mine[0]
            raise ServiceError("error.no_table_here")
        return table

    @staticmethod
    def _guild(interaction: discord.Interaction[Any]) -> int:
        if interaction.guild_id is None:
            raise ServiceError("error.guild_only")
        return interaction.guild_id

    @staticmethod
    def _is_admin(interaction: discord.Interaction[Any]) -> bool:
        perms = interaction.permissions
        return bool(perms.manage_guild or perms.administrator)

    @staticmethod
    def _name(user: discord.abc.User) -> str:
        return getattr(user, "display_name", None) or user.name

    # ------------------------------------------------------------------ messages: table
    def table_view(self, table: Table, lang: str) -> discord.ui.View | None:
        tid = table.id
        if table.in_lobby:
            return view_of(
                [
                    TableButton(tid, "join", label=t("button.join", lang), style=Style.success),
                    TableButton(tid, "leave", label=t("button.leave", lang)),
                    TableButton(tid, "bot", label=t("button.add_bot", lang)),
                    TableButton(tid, "start", label=t("button.start", lang), style=Style.primary),
                    TableButton(tid, "cancel", label=t("button.cancel", lang), style=Style.danger),
                ]
            )
        if table.playing:
            return view_of(
                [TableButton(tid, "show", label=t("button.show_hand", lang), style=Style.primary)]
            )
        if table.finished and not table.is_daily:
            return view_of(
                [TableButton(tid, "rematch", label=t("button.rematch", lang), style=Style.success)]
            )
        return None

    async def _table_payload(self, table: Table) -> dict[str, Any]:
        lang = render.table_language(table)
        if table.status == "cancelled":
            return {
                "content": t("table.cancelled", lang, table=table.id),
                "attachments": [],
                "view": None,
            }
        content = render.public_summary(table, lang, self.notes.get(table.id))
        view = self.table_view(table, lang)
        pic = await render.draw(render.table_picture(table, lang))
        return {"content": _clip(content), "attachments": _file(pic), "view": view}

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.game.where_id, guild_id=table.game.guild_id)

    async def post_table_message(self, table: Table) -> discord.Message:
        """Post the table's public message (again) and remember it."""
        payload = await self._table_payload(table)
        files = payload.pop("attachments")
        view = payload.pop("view")
        kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS, "files": files}
        if view is not None:
            kwargs["view"] = view
        msg = await self._channel(table).send(payload["content"], **kwargs)
        await self.store.set_table_message(table.id, msg.id)
        table.game = replace(table.game, table_message_id=msg.id)
        return msg

    async def _edit_table_message(self, table_id: int) -> None:
        table = self.find(table_id)
        if table is None or table.is_daily:
            return
        mid = table.game.table_message_id
        if mid is None:  # not posted yet: whoever opened the table posts it
            return
        payload = await self._table_payload(table)
        try:
            await (
                self._channel(table)
                .get_partial_message(mid)
                .edit(allowed_mentions=NO_PINGS, **payload)
            )
        except discord.NotFound:
            # Deleted by someone: post it again (unless /batak table just replaced it).
            if table.status in ("lobby", "playing") and table.game.table_message_id == mid:
                await self.post_table_message(table)

    # ------------------------------------------------------------------ listener
    async def table_changed(self, table: Table) -> None:
        if not table.is_daily:
            self.pacer.request(table.id)

    async def turn_started(self, table: Table, seat: int) -> None:
        if table.is_daily:
            return
        self._spawn(self._turn_notice(table, seat, table.move))

    async def action_applied(self, table: Table, seat: int, action: Action, actor: str) -> None:
        if table.is_daily:
            return
        if actor == "player":  # a time-out note stays until a person acts again
            self.notes.pop(table.id, None)
        if actor in ("player", "timeout"):
            self._spawn(self._clear_notices(table))

    async def deal_finished(self, table: Table, index: int) -> None:
        if table.is_daily:
            return
        self._spawn(self._post_deal_summary(table, index))

    async def match_finished(self, table: Table, summary: MatchSummary | None) -> None:
        if table.is_daily:
            return
        self.pacer.request(table.id)
        self._spawn(self._post_result(table, summary))
        self._spawn(self._clear_notices(table))

    async def table_closed(self, table: Table, reason: str) -> None:
        if table.is_daily:
            return
        self.closed[table.id] = table
        while len(self.closed) > 100:
            self.closed.pop(next(iter(self.closed)))
        self.pacer.request(table.id)
        self._spawn(self._clear_notices(table))

    async def seat_timed_out(
        self, table: Table, seat: int, action: Action, handed_over: bool
    ) -> None:
        if table.is_daily:
            return
        lang = render.table_language(table)
        name = table.seats[seat].name or t("seat.player", lang, n=seat + 1)
        key = "note.handed_over" if handed_over else "note.timeout"
        self.notes[table.id] = t(key, lang, name=name, action=render.action_text(action, lang))
        self.pacer.request(table.id)

    # ------------------------------------------------------------------ notices and posts
    def _notice_lock(self, table_id: int) -> asyncio.Lock:
        return self._notice_locks.setdefault(table_id, asyncio.Lock())

    async def _clear_notices(self, table: Table) -> None:
        async with self._notice_lock(table.id):
            old = await self.store.take_messages(table.id, "turn")
            for m in old:
                channel = self.bot.get_partial_messageable(m.channel_id or table.game.where_id)
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(m.message_id).delete()

    async def _turn_notice(self, table: Table, seat: int, move: int) -> None:
        async with self._notice_lock(table.id):
            if table.move != move or not table.playing:
                return
            user_id = table.seats[seat].user_id
            if user_id is None or table.seats[seat].is_away:
                return
            old = await self.store.take_messages(table.id, "turn")
            channel = self._channel(table)
            for m in old:
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(m.message_id).delete()
            lang = render.table_language(table)
            assert table.match is not None
            phase = table.match.deal.phase
            what = {
                Phase.AUCTION: "turn.bid",
                Phase.TRUMP: "turn.trump",
                Phase.PLAY: "turn.play",
            }.get(phase, "turn.play")
            content = t(what, lang, mention=f"<@{user_id}>", table=table.id)
            if table.pace == "async":
                content += "\n" + t("turn.async_hint", lang)
            view = view_of(
                [
                    TableButton(
                        table.id, "show", label=t("button.show_hand", lang), style=Style.primary
                    )
                ]
            )
            msg = await channel.send(
                content,
                view=view,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False,
                    roles=False,
                    replied_user=False,
                    users=[discord.Object(user_id)],
                ),
            )
            await self.store.add_message(
                table.id, msg.id, kind="turn", channel_id=table.game.where_id
            )

    async def _post_deal_summary(self, table: Table, index: int) -> None:
        async with self._notice_lock(table.id):  # keeps deal summaries before the result
            lang = render.table_language(table)
            pic = await render.draw(render.deal_picture(table, index, lang))
            await self._channel(table).send(
                _clip(render.deal_summary_text(table, index, lang)),
                files=_file(pic),
                allowed_mentions=NO_PINGS,
            )

    async def _post_result(self, table: Table, summary: MatchSummary | None) -> None:
        async with self._notice_lock(table.id):
            lang = render.table_language(table)
            pic = await render.draw(render.result_picture(table, lang))
            view = view_of(
                [
                    TableButton(
                        table.id, "rematch", label=t("button.rematch", lang), style=Style.success
                    )
                ]
            )
            await self._channel(table).send(
                _clip(render.match_result_text(table, summary, lang)),
                files=_file(pic),
                view=view,
                allowed_mentions=NO_PINGS,
            )

    # ------------------------------------------------------------------ the hand
    def hand_view(self, table: Table, seat: int, lang: str) -> discord.ui.View | None:
        match = table.match
        if match is None or match.is_over:
            return None
        obs = match.observation(seat)
        move = match.move_number
        tid = table.id
        mine = obs.to_act == seat
        items: list[discord.ui.Item[Any]] = []
        if obs.phase is Phase.AUCTION and mine:
            for i, bid in enumerate(a for a in obs.legal if isinstance(a, Bid)):
                items.append(
                    HandButton(
                        tid,
                        seat,
                        move,
                        f"b{bid.tricks}",
                        label=str(bid.tricks),
                        style=Style.primary,
                        row=i // 5,
                    )
                )
            if any(isinstance(a, Pass) for a in obs.legal):
                items.append(
                    HandButton(
                        tid,
                        seat,
                        move,
                        "p",
                        label=t("button.pass", lang),
                        style=Style.danger,
                        row=3,
                    )
                )
        elif obs.phase is Phase.TRUMP and mine:
            for choice in obs.legal:
                if isinstance(choice, ChooseTrump):
                    items.append(
                        HandButton(
                            tid,
                            seat,
                            move,
                            f"t{choice.suit.letter}",
                            label=render.suit_text(choice.suit, lang),
                            style=Style.primary,
                            row=0,
                        )
                    )
        elif obs.phase is Phase.PLAY and obs.hand is not None:
            legal = {a.card for a in obs.legal if isinstance(a, Play)} if mine else set()
            from batak import parse_card

            codes = sort_hand([card_code(c) for c in _cards(obs.hand)])
            for i, code in enumerate(codes):
                card = parse_card(code)
                ok = card in legal
                items.append(
                    HandButton(
                        tid,
                        seat,
                        move,
                        f"c{code}",
                        label=render.action_text(Play(card), lang),
                        style=Style.primary if ok else Style.secondary,
                        disabled=not ok,
                        row=i // 5,
                    )
                )
        items.append(
            HandButton(
                tid, seat, move, "hint", label=t("button.hint", lang), disabled=not mine, row=4
            )
        )
        items.append(HandButton(tid, seat, move, "ref", label=t("button.refresh", lang), row=4))
        return view_of(items)

    async def hand_payload(
        self,
        table: Table,
        seat: int,
        lang: str,
        notice: str | None = None,
        extra: list[render.Picture | None] | None = None,
    ) -> dict[str, Any]:
        # One consistent state: text, buttons and view models before any await.
        content = render.hand_text(table, seat, lang, notice)
        view = self.hand_view(table, seat, lang)
        drawings = [render.hand_picture(table, seat, lang)]
        if table.is_daily:
            drawings.insert(0, render.daily_table_picture(table, lang))
        pics: list[render.Picture | None] = list(extra or [])
        for drawing in drawings:
            pics.append(await render.draw(drawing))
        files = [f for p in pics for f in _file(p)]
        return {"content": _clip(content), "files": files, "view": view}

    async def send_hand(
        self, interaction: discord.Interaction[Any], table: Table, notice: str | None = None
    ) -> None:
        """A new ephemeral hand message for the user (defer first: drawing takes time)."""
        lang = await self.lang(interaction)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("error.not_seated")
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        if table.playing and table.seats[seat].is_away:
            await self.service.come_back(table.id, interaction.user.id)
            notice = t("hand.back", lang)
        if table.match is None:
            raise ServiceError("error.not_started")
        payload = await self.hand_payload(table, seat, lang, notice)
        await self.send(
            interaction, payload["content"], files=payload["files"], view=payload["view"]
        )

    async def on_hand_button(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        seat: int,
        move: int,
        code: str,
    ) -> None:
        try:
            await self._hand_button(interaction, table_id, seat, move, code)
        except Exception as exc:
            await self.fail(interaction, exc)

    async def _hand_button(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        seat: int,
        move: int,
        code: str,
    ) -> None:
        lang = await self.lang(interaction)
        user = interaction.user.id
        table = self.find(table_id)
        if table is None:
            raise ServiceError("error.no_table")
        my_seat = table.seat_of(user)
        if my_seat is None:
            raise ServiceError("error.not_seated")
        if table.match is None:
            raise ServiceError("error.not_started")
        await interaction.response.defer()  # this message will be updated in place
        notice: str | None = None
        alert: str | None = None
        extra: list[render.Picture | None] = []
        if my_seat != seat:
            alert = t("error.not_your_hand", lang)
        elif code == "ref":
            if table.playing and table.seats[seat].is_away:
                await self.service.come_back(table.id, user)
                notice = t("hand.back", lang)
        elif code == "hint":
            try:
                action, reason = await self.service.hint(table.id, user)
                notice = self._hint_text(action, reason, lang)
            except ServiceError as exc:
                notice = t(exc.key, lang, **exc.params)
        else:
            wanted = render.parse_button_code(code)
            if wanted is None:
                alert = t("error.forged", lang)
            else:
                deals_before = len(table.match.finished) if table.match is not None else 0
                try:
                    await self.service.act(table.id, user, seat, move, wanted)
                except StaleAction:
                    alert = t("error.stale", lang)
                except ServiceError as exc:
                    alert = t(exc.key, lang, **exc.params)
                else:
                    if table.is_daily and table.match is not None:
                        for index in range(deals_before, len(table.match.finished)):
                            extra.append(await render.draw(render.deal_picture(table, index, lang)))
                            notice = render.deal_summary_text(table, index, lang)
                        if table.match.is_over:
                            notice = await self._daily_result_text(table, lang)
                            extra.append(await render.draw(render.result_picture(table, lang)))
        if alert is not None:
            notice = "⚠️ " + alert
            await interaction.followup.send(alert, ephemeral=True, allowed_mentions=NO_PINGS)
        payload = await self.hand_payload(table, my_seat, lang, notice, extra)
        await interaction.edit_original_response(
            content=payload["content"],
            attachments=payload["files"],
            view=payload["view"],
            allowed_mentions=NO_PINGS,
        )

    def _hint_text(self, action: Action, reason: Hint, lang: str) -> str:
        return "💡 " + render.hint_text(action, reason, lang)

    async def _daily_result_text(self, table: Table, lang: str) -> str:
        match = table.match
        assert match is not None
        result = await self.store.daily_result(
            table.game.guild_id, table.game.host_id, day=table.settings.get("day")
        )
        board = await self.store.daily_leaderboard(
            table.game.guild_id, day=table.settings.get("day"), limit=50
        )
        rank = next((r.rank for r in board if r.user_id == table.game.host_id), None)
        return t(
            "daily.finished",
            lang,
            score=result.score if result and result.score is not None else match.totals[0],
            place=match.placements()[0],
            rank=rank or "?",
        )

    # ------------------------------------------------------------------ stale copies
    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Clicks on buttons the message no longer has (a doubled click, an old client, a
        forged id). discord.py drops those silently, which Discord shows as "This
        interaction failed"; answer them like any stale click instead."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        cid = str(data.get("custom_id", ""))
        if not cid.startswith(("bt:", "bx:")) or _has_component(interaction.message, cid):
            return  # ours only; a button still on the message goes to its DynamicItem
        hand = re.fullmatch(HAND_RE, cid)
        if hand is not None:
            await self.on_hand_button(
                interaction,
                int(hand["table"]),
                int(hand["seat"]),
                int(hand["move"]),
                hand["code"],
            )
            return
        table = re.fullmatch(TABLE_RE, cid)
        if table is not None:
            await self.on_table_button(interaction, int(table["table"]), table["what"])
            return
        await self.fail(interaction, ServiceError("error.forged"))

    # ------------------------------------------------------------------ table buttons
    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, what: str
    ) -> None:
        try:
            await self._table_button(interaction, table_id, what)
        except Exception as exc:
            await self.fail(interaction, exc)

    async def _table_button(
        self, interaction: discord.Interaction[Any], table_id: int, what: str
    ) -> None:
        lang = await self.lang(interaction)
        user = interaction.user
        table = self.find(table_id)
        if what == "rematch":
            await interaction.response.defer(ephemeral=True, thinking=True)
            new = await self.service.rematch(table_id, user.id, self._name(user))
            await self.post_table_message(new)
            await self.send(interaction, t("rematch.opened", lang, table=new.id))
            return
        if table is None or table.status not in ("lobby", "playing"):
            raise ServiceError("error.table_over")
        if what == "show":
            await self.send_hand(interaction, table)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        if what == "join":
            seat = await self.service.join(table_id, user.id, self._name(user))
            text = t("lobby.joined", lang, seat=seat + 1)
        elif what == "leave":
            await self.service.leave(table_id, user.id)
            text = t("lobby.left", lang)
        elif what == "bot":
            seat = await self.service.add_bot(table_id, user.id)
            text = t("lobby.bot_added", lang, seat=seat + 1)
        elif what == "start":
            await self.service.start(table_id, user.id)
            text = t("lobby.started", lang)
        elif what == "cancel":
            await self.service.cancel(table_id, user.id, is_admin=self._is_admin(interaction))
            text = t("lobby.cancelled", lang)
        else:
            raise ServiceError("error.forged")
        await self.send(interaction, text)

    # ------------------------------------------------------------------ commands
    @app_commands.command(name="new", description=ls("Open a Batak table here", "cmd.new"))
    @app_commands.describe(
        preset=ls("Rule set (default: the server's)", "opt.preset"),
        deals=ls("Number of deals, 1 to 20", "opt.deals"),
        pace=ls("live: short turn timer; async: long timer with pings", "opt.pace"),
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
    ) -> None:
        guild_id = self._guild(interaction)
        lang = await self.lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        channel = interaction.channel
        channel_id = interaction.channel_id or 0
        for existing in self.service.tables_in(channel_id):
            if existing.seat_of(user.id) is not None:
                raise ServiceError("error.already_at_table", table=existing.id)
        g = await self.store.get_guild_settings(guild_id)
        thread_id: int | None = None
        if g.use_threads and isinstance(channel, discord.TextChannel):
            try:
                thread = await channel.create_thread(
                    name=t("thread.name", lang, name=self._name(user))[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=10080 if (pace or g.pace) == "async" else 1440,
                )
                thread_id = thread.id
            except discord.HTTPException as exc:
                log.info("no thread for a new table in %s: %s", channel_id, exc)
        table = await self.service.create_table(
            guild_id,
            channel_id,
            user.id,
            self._name(user),
            guild=g,
            preset_name=preset,
            deals=deals,
            pace=pace,
            thread_id=thread_id,
        )
        try:
            await self.post_table_message(table)
        except discord.Forbidden as exc:
            await self.service.cancel(table.id, user.id, is_admin=True)
            raise ServiceError("error.cannot_post") from exc
        where = f"<#{thread_id}>" if thread_id else f"<#{channel_id}>"
        await self.send(interaction, t("new.opened", lang, table=table.id, where=where))

    @app_commands.command(
        name="hand", description=ls("Show your hand (only you see it)", "cmd.hand")
    )
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        self._guild(interaction)
        table = self._table_here(interaction)
        await self.send_hand(interaction, table)

    @app_commands.command(name="table", description=ls("Post the table message again", "cmd.table"))
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        self._guild(interaction)
        lang = await self.lang(interaction)
        table = self._table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        old = table.game.table_message_id
        await self.post_table_message(table)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._channel(table).get_partial_message(old).delete()
        await self.send(interaction, t("table.reposted", lang))

    @app_commands.command(
        name="hint", description=ls("Advice for your current decision", "cmd.hint")
    )
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        self._guild(interaction)
        lang = await self.lang(interaction)
        table = self._table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        action, reason = await self.service.hint(table.id, interaction.user.id)
        await self.send(interaction, self._hint_text(action, reason, lang))

    @app_commands.command(name="leave", description=ls("Leave the table here", "cmd.leave"))
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        self._guild(interaction)
        lang = await self.lang(interaction)
        table = self._table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.leave(table.id, interaction.user.id)
        await self.send(interaction, t("lobby.left", lang))

    @app_commands.command(name="kick", description=ls("Remove a player from the table", "cmd.kick"))
    @app_commands.describe(user=ls("Who to remove", "opt.kick_user"))
    @app_commands.guild_only()
    async def kick(self, interaction: discord.Interaction[Any], user: discord.User) -> None:
        self._guild(interaction)
        lang = await self.lang(interaction)
        table = self._table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.kick(
            table.id, interaction.user.id, user.id, is_admin=self._is_admin(interaction)
        )
        await self.send(interaction, t("kick.done", lang, name=self._name(user)))

    @app_commands.command(name="cancel", description=ls("Cancel the table here", "cmd.cancel"))
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        self._guild(interaction)
        lang = await self.lang(interaction)
        table = self._table_here(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.cancel(
            table.id, interaction.user.id, is_admin=self._is_admin(interaction)
        )
        await self.send(interaction, t("lobby.cancelled", lang))

    @app_commands.command(
        name="leaderboard", description=ls("The server's standings", "cmd.leaderboard")
    )
    @app_commands.describe(
        by=ls("Rank by rating, wins, or today's daily match", "opt.by"),
        period=ls("All time or this month", "opt.period"),
    )
    @app_commands.choices(
        by=[
            app_commands.Choice(name=ls("rating", "by.rating"), value="rating"),
            app_commands.Choice(name=ls("wins", "by.wins"), value="wins"),
            app_commands.Choice(name=ls("daily", "by.daily"), value="daily"),
        ],
        period=[
            app_commands.Choice(name=ls("all time", "period.all"), value="all"),
            app_commands.Choice(name=ls("this month", "period.month"), value="month"),
        ],
    )
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        by: str = "rating",
        period: str = "all",
    ) -> None:
        guild_id = self._guild(interaction)
        lang = await self.lang(interaction)
        await interaction.response.defer(thinking=True)
        if by == "daily":
            daily = await self.store.daily_leaderboard(guild_id, limit=10)
            if not daily:
                await self.send(interaction, t("leaderboard.daily_empty", lang), ephemeral=False)
                return
            names = await self._names(interaction, [r.user_id for r in daily])
            lines = [t("leaderboard.daily_title", lang)]
            for r in daily:
                lines.append(
                    t(
                        "leaderboard.daily_line",
                        lang,
                        rank=r.rank,
                        name=names[r.user_id],
                        score=r.score,
                    )
                )
            await self.send(interaction, "\n".join(lines), ephemeral=False)
            return
        rows = await self.store.leaderboard(guild_id, by=by, period=period, limit=10)
        if not rows:
            await self.send(interaction, t("leaderboard.empty", lang), ephemeral=False)
            return
        names = await self._names(interaction, [s.user_id for s in rows if s.user_id is not None])
        named: list[tuple[Standing, str]] = []
        for s in rows:
            if s.user_id is not None:
                named.append((s, names[s.user_id]))
            else:
                named.append((s, t("seat.bot_level", lang, level=t(f"level.{s.bot_level}", lang))))
        title = t(f"leaderboard.title_{by}", lang)
        subtitle = t(f"period.{period}", lang)
        lines = [f"{title} · {subtitle}"]
        for s, name in named:
            lines.append(
                t(
                    "leaderboard.line",
                    lang,
                    rank=s.rank,
                    name=name,
                    rating=f"{s.rating:.1f}",
                    wins=s.wins,
                    matches=s.matches,
                )
            )
        pic = await render.draw(render.leaderboard_picture(named, title, subtitle, lang))
        await self.send(interaction, "\n".join(lines), ephemeral=False, files=_file(pic))

    async def _names(
        self, interaction: discord.Interaction[Any], user_ids: list[int]
    ) -> dict[int, str]:
        out: dict[int, str] = {}
        guild = interaction.guild
        for uid in user_ids:
            member = guild.get_member(uid) if guild is not None else None
            if member is not None:
                out[uid] = member.display_name
                continue
            user = self.bot.get_user(uid)
            if user is None:
                try:
                    user = await self.bot.fetch_user(uid)
                except discord.HTTPException:
                    user = None
            out[uid] = self._name(user) if user is not None else f"#{uid}"
        return out

    @app_commands.command(name="stats", description=ls("A player's statistics", "cmd.stats"))
    @app_commands.describe(user=ls("Whose statistics (default: yours)", "opt.stats_user"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        guild_id = self._guild(interaction)
        lang = await self.lang(interaction)
        who = user or interaction.user
        await interaction.response.defer(thinking=True)
        key = user_key(who.id)
        overall = await self.store.player_stats(guild_id, key)
        month = await self.store.player_stats(guild_id, key, period="month")
        if overall is None:
            await self.send(
                interaction, t("stats.none", lang, name=self._name(who)), ephemeral=False
            )
            return
        lines = [t("stats.title", lang, name=self._name(who))]
        for label, s in ((t("period.all", lang), overall), (t("period.month", lang), month)):
            if s is None:
                continue
            lines.append(
                t(
                    "stats.line",
                    lang,
                    period=label,
                    rank=s.rank,
                    rating=f"{s.rating:.1f}",
                    matches=s.matches,
                    wins=s.wins,
                    win_rate=f"{100 * s.win_rate:.0f}",
                    avg=f"{s.average_deal_score:.1f}",
                    taken=s.contracts_taken,
                    made=s.contracts_made,
                    down=s.went_down,
                )
            )
        await self.send(interaction, "\n".join(lines), ephemeral=False)

    @app_commands.command(
        name="history", description=ls("Recent matches, with the deal records", "cmd.history")
    )
    @app_commands.describe(user=ls("Whose matches (default: yours)", "opt.history_user"))
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        guild_id = self._guild(interaction)
        lang = await self.lang(interaction)
        who = user or interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        matches = await self.store.recent_matches(guild_id, user_key(who.id), limit=10)
        if not matches:
            await self.send(interaction, t("history.none", lang, name=self._name(who)))
            return
        lines = [t("history.title", lang, name=self._name(who))]
        for m in matches:
            me = next((p for p in m.players if p.user_id == who.id), None)
            lines.append(
                t(
                    "history.line",
                    lang,
                    id=m.id,
                    date=m.finished_at[:10],
                    preset=t(f"preset.{m.preset}", lang),
                    deals=m.deals,
                    place=me.placement if me else "?",
                    total=me.total if me else "?",
                )
            )
        jsonl = await self.store.match_records_jsonl([m.id for m in matches])
        files = [discord.File(io.BytesIO(jsonl.encode()), filename=f"batak-{who.id}.jsonl")]
        lines.append(t("history.file", lang))
        await self.send(interaction, "\n".join(lines), files=files)

    @app_commands.command(
        name="daily",
        description=ls("Today's daily match: you against three computers", "cmd.daily"),
    )
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        guild_id = self._guild(interaction)
        lang = await self.lang(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        try:
            table = await self.service.start_daily(
                guild_id, interaction.channel_id or 0, user.id, self._name(user)
            )
        except ServiceError as exc:
            if exc.key != "error.daily_done":
                raise
            result = await self.store.daily_result(guild_id, user.id)
            score = result.score if result is not None else None
            if score is None:
                raise
            await self.send(interaction, t("daily.already", lang, score=score))
            return
        await self.send_hand(interaction, table, t("daily.intro", lang))

    @app_commands.command(name="rules", description=ls("The rules of Batak", "cmd.rules"))
    @app_commands.describe(preset=ls("Which rule set", "opt.rules_preset"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: discord.Interaction[Any], preset: str | None = None) -> None:
        lang = await self.lang(interaction)
        name = preset or "standard"
        if preset is None and interaction.guild_id is not None:
            name = (await self.store.get_guild_settings(interaction.guild_id)).preset
        await self.send(interaction, rules_text(name, lang))

    @app_commands.command(
        name="settings", description=ls("Server settings (Manage Server)", "cmd.settings")
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
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(name="English", value="en"),
            app_commands.Choice(name="Türkçe", value="tr"),
            app_commands.Choice(name="Deutsch", value="de"),
            app_commands.Choice(name="Português (Brasil)", value="pt"),
            app_commands.Choice(name="Українська", value="uk"),
            app_commands.Choice(name="Kiswahili", value="sw"),
            app_commands.Choice(name="Español", value="es"),
            app_commands.Choice(name="Français", value="fr"),
        ],
        preset=PRESET_CHOICES,
        pace=[
            app_commands.Choice(name=ls("live", "pace.live"), value="live"),
            app_commands.Choice(name=ls("async", "pace.async"), value="async"),
        ],
        computer=[
            app_commands.Choice(name=choice(f"level.{n}"), value=n)
            for n in ("easy", "normal", "hard")
        ],
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
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
    ) -> None:
        guild_id = self._guild(interaction)
        if not self._is_admin(interaction):
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
        if changes:
            try:
                g = await self.store.update_guild_settings(guild_id, **changes)
            except InvalidSettingError as exc:
                raise ServiceError("error.bad_setting", reason=str(exc)) from exc
            self._languages[guild_id] = g.language
        else:
            g = await self.store.get_guild_settings(guild_id)
        lang = await self.lang(interaction)
        text = t(
            "settings.show",
            lang,
            language=g.language,
            preset=t(f"preset.{g.preset}", lang),
            deals=g.deals if g.deals is not None else t("settings.preset_deals", lang),
            pace=t(f"pace.{g.pace}", lang),
            live=g.live_turn_timeout_s,
            hours=f"{g.async_turn_timeout_s / 3600:g}",
            computer=t(f"level.{g.bot_level}", lang),
            threads=t("yes" if g.use_threads else "no", lang),
        )
        if changes:
            text = t("settings.saved", lang) + "\n" + text
        await self.send(interaction, text)

    # ------------------------------------------------------------------ start-up
    async def refresh_all(self) -> None:
        """After a restart: redraw every open table and re-send the turn notices."""
        for table in list(self.service.tables.values()):
            if table.is_daily:
                continue
            if table.game.table_message_id is None:
                self._spawn(self.post_table_message(table))
            else:
                self.pacer.request(table.id)
            if table.playing and table.to_act is not None:
                seat = table.to_act
                if not table.controlled_by_bot(seat):
                    self._spawn(self._turn_notice(table, seat, table.move))


def _has_component(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        c = stack.pop()
        if getattr(c, "custom_id", None) == custom_id:
            return True
        stack.extend(getattr(c, "children", None) or [])
    return False


def _cards(mask: int) -> list[int]:
    from batak import cards_of

    return cards_of(mask)


def rules_text(name: str, lang: str) -> str:
    """The rules of a preset in the reader's language."""
    r = preset(name)
    lines = [
        t("rules.title", lang, preset=t(f"preset.{name}", lang)),
        t("rules.basics", lang),
        t("rules.auction", lang, min_bid=r.min_bid),
    ]
    if r.all_pass == "dealer-forced":
        lines.append(t("rules.all_pass_forced", lang, forced=r.forced_bid))
    else:
        lines.append(t("rules.all_pass_must", lang, min_bid=r.min_bid))
    if r.blind_bidding:
        lines.append(t("rules.blind", lang))
    if r.fixed_trump is not None:
        lines.append(t("rules.fixed_trump", lang))
    else:
        lines.append(t("rules.trump", lang))
    lines.append(t("rules.follow", lang))
    if not r.overtake_when_trumped:
        lines.append(t("rules.no_overtake", lang))
    lines.append(t(f"rules.trump_lead.{r.trump_lead}", lang))
    if r.partnership:
        lines.append(t("rules.partnership", lang))
    lines.append(t(f"rules.scoring.{r.scoring}", lang))
    lines.append(t("rules.match", lang, deals=r.deals))
    return "\n".join(lines)


Scope = Literal["rating", "wins", "daily"]


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point: ``bot.store``, ``bot.service``, ``bot.config``."""
    store: Store = bot.store  # type: ignore[attr-defined]
    service: TableService = bot.service  # type: ignore[attr-defined]
    config: BotConfig = bot.config  # type: ignore[attr-defined]
    bot.add_dynamic_items(HandButton, TableButton)
    await bot.add_cog(BatakCog(bot, store, service, config))
