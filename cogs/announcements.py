"""Announcements: what the table's channel sees when the service reports a change.

:class:`Announcer` is the service's :class:`~cogs.service.TableListener`. It keeps the
table's public message up to date (edits paced by :class:`~cogs.pacing.EditPacer`),
pings the person to act (turn notices, deleted once they are answered), posts deal
summaries and the match result, and redraws every table after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from batak import Action
from batak.deal import Phase
from data import MatchSummary, Store

from . import pictures
from .components import TableButton, table_view, view_of
from .i18n import t
from .pacing import EditPacer
from .pictures import files_of
from .replies import NO_PINGS
from .review import review_view
from .service import Actor, CloseReason, Table, TableService
from .text.summaries import deal_summary_text, match_result_text, public_summary
from .text.words import action_text, clip, table_language

if TYPE_CHECKING:
    from .config import BotConfig

log = logging.getLogger(__name__)

Style = discord.ButtonStyle


class Announcer:
    """The messages a table posts in its channel, in the table's language."""

    def __init__(
        self, bot: commands.Bot, store: Store, service: TableService, config: BotConfig
    ) -> None:
        self.bot = bot
        self.store = store
        self.service = service
        self.pacer = EditPacer(config.table_edit_interval, self._edit_table_message)
        self.notes: dict[int, str] = {}
        self.closed: dict[int, Table] = {}
        self._notice_locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    async def close(self) -> None:
        await self.pacer.close()
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def done(t_: asyncio.Task[Any]) -> None:
            self._tasks.discard(t_)
            if not t_.cancelled() and t_.exception() is not None:
                log.error("background task failed", exc_info=t_.exception())

        task.add_done_callback(done)

    def find(self, table_id: int) -> Table | None:
        return (
            self.service.tables.get(table_id)
            or self.service.finished.get(table_id)
            or self.closed.get(table_id)
        )

    async def _table_payload(self, table: Table) -> dict[str, Any]:
        lang = table_language(table)
        if table.status == "cancelled":
            return {
                "content": t("table.cancelled", lang, table=table.id),
                "attachments": [],
                "view": None,
            }
        content = public_summary(table, lang, self.notes.get(table.id))
        view = table_view(table, lang)
        pic = await pictures.draw(pictures.table_picture(table, lang))
        return {"content": clip(content), "attachments": files_of(pic), "view": view}

    def channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.game.where_id, guild_id=table.game.guild_id)

    async def post_table_message(self, table: Table) -> discord.Message:
        """Post the table's public message (again) and remember it."""
        payload = await self._table_payload(table)
        files = payload.pop("attachments")
        view = payload.pop("view")
        kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS, "files": files}
        if view is not None:
            kwargs["view"] = view
        msg = await self.channel(table).send(payload["content"], **kwargs)
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
                self.channel(table)
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

    async def action_applied(self, table: Table, seat: int, action: Action, actor: Actor) -> None:
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

    async def table_closed(self, table: Table, reason: CloseReason) -> None:
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
        lang = table_language(table)
        name = table.seats[seat].name or t("seat.player", lang, n=seat + 1)
        key = "note.handed_over" if handed_over else "note.timeout"
        self.notes[table.id] = t(key, lang, name=name, action=action_text(action, lang))
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
            channel = self.channel(table)
            for m in old:
                with contextlib.suppress(discord.HTTPException):
                    await channel.get_partial_message(m.message_id).delete()
            lang = table_language(table)
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
            lang = table_language(table)
            pic = await pictures.draw(pictures.deal_picture(table, index, lang))
            await self.channel(table).send(
                clip(deal_summary_text(table, index, lang)),
                files=files_of(pic),
                view=review_view(table.id, index, lang),
                allowed_mentions=NO_PINGS,
            )

    async def _post_result(self, table: Table, summary: MatchSummary | None) -> None:
        async with self._notice_lock(table.id):
            lang = table_language(table)
            pic = await pictures.draw(pictures.result_picture(table, lang))
            view = view_of(
                [
                    TableButton(
                        table.id, "rematch", label=t("button.rematch", lang), style=Style.success
                    )
                ]
            )
            await self.channel(table).send(
                clip(match_result_text(table, summary, lang)),
                files=files_of(pic),
                view=view,
                allowed_mentions=NO_PINGS,
            )

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
