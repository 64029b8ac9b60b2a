"""Announcements: what the table's channel sees when the service reports a change.

:class:`Announcer` is the service's :class:`~tables.TableListener`. It keeps the
table's public message up to date (edits paced by :class:`~cogs.pacing.EditPacer`), keeps
the open hands following the game (:mod:`cogs.live`), tells the table about seat changes,
posts deal summaries and the match result, and redraws every table after a restart.
Turn notices: one message per table, edited as the turns go by (edits never ping). A
person is pinged (a new notice, replacing the old one) only when they cannot see their
turn (no open hand the bot keeps up to date, or no action within a grace period), at
most once per turn streak and as their notification setting says.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from data import Game, PendingAnnouncement, Store
from tables import (
    ActionApplied,
    DealFinished,
    HostChanged,
    MatchFinished,
    Moment,
    RecordingFailed,
    SeatChanged,
    SeatRequestChanged,
    SeatTimedOut,
    Table,
    TableChanged,
    TableClosed,
    TableEvent,
    TableService,
    TurnStarted,
)

from . import pictures
from .access import Access
from .achievements import tell_achievements, with_achievements_line
from .budget import GlobalBudget
from .components import TableButton, has_component, table_id, view_of
from .i18n import t
from .live import LiveHands
from .pacing import EditPacer
from .payload import KEEP, Keep, MessagePayload
from .pictures import files_of
from .replies import NO_PINGS, Languages
from .review import review_view
from .seats import SeatNotices
from .table_message import LatePictures, Lobbies, edit_table, rematch_of, table_parts
from .table_tokens import TableTokens
from .text.summaries import (
    deal_summary_text,
    event_note,
    match_result_text,
    result_link_text,
    turn_notice_text,
)
from .text.words import clip, seat_names, table_language

if TYPE_CHECKING:
    from .config import BotConfig

log = logging.getLogger(__name__)

Style = discord.ButtonStyle


class Announcer:
    """The messages a table posts in its channel, in the table's language."""

    def __init__(
        self,
        bot: commands.Bot | commands.AutoShardedBot,
        store: Store,
        service: TableService,
        config: BotConfig,
        access: Access | None = None,
    ) -> None:
        self.bot = bot
        self.store = store
        self.service = service
        self.access = access or Access(bot, Languages(store))  # refused permissions, told
        edit_table = self.access.guarded(self.find, self._edit_table_message)
        self.lobbies = Lobbies()  # the first edit after Start: the text before the picture
        budget: GlobalBudget | None = getattr(bot, "budget", None)  # see cogs.budget
        self.tokens = TableTokens(self.find)  # presses' tokens edit the table message
        self.late = LatePictures(lambda table_id: self.pacer.request(table_id), self.lobbies)
        urgent, exempt = self.late.urgent, self.tokens.exempt
        self.pacer = EditPacer(
            config.table_edit_interval, edit_table, budget=budget, urgent=urgent, exempt=exempt
        )
        edit_notice = self.access.guarded(self.find, self._edit_turn_notice)
        self.notice_pacer = EditPacer(max(2.0, config.table_edit_interval), edit_notice)
        self.grace = {"live": config.ping_grace_live, "async": config.ping_grace_async}
        self.live: LiveHands | None = None  # set by cogs.hands.Hands
        self.watchers: LiveHands | None = None  # set by cogs.watch.Watchers
        self.notes: dict[int, str] = {}
        self.closed: dict[int, Table] = {}  # finished, loaded to post what they still owe
        self._notice_locks: dict[int, asyncio.Lock] = {}
        # table -> (channel, message, content, person pinged) of its turn notice, until played
        self._notices: dict[int, tuple[int, int, str, int | None]] = {}
        self._streaks: dict[int, list[Any]] = {}  # table -> [user to act, pinged already]
        self._graces: dict[int, asyncio.TimerHandle] = {}
        self._announced: set[int] = set()  # posted and marked here (a second poster skips)
        self._failures: dict[int, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.pings = 0
        self.seat_notices = SeatNotices(self)

    async def close(self) -> None:
        self.late.close()
        await self.pacer.close()
        await self.notice_pacer.close()
        for live in (self.live, self.watchers):
            if live is not None:
                await live.close()
        for handle in self._graces.values():
            handle.cancel()
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, coro: Any, table: Table | None = None) -> None:
        """Run ``coro``; a permission refused at ``table`` is told (Access.guard)."""
        task = asyncio.get_running_loop().create_task(self.access.run(coro, table))
        self._tasks.add(task)

        def done(t_: asyncio.Task[Any]) -> None:
            coro.close()  # a task cancelled before it ran never awaited it
            self._tasks.discard(t_)
            if not t_.cancelled() and t_.exception() is not None:
                log.error("background task failed", exc_info=t_.exception())

        task.add_done_callback(done)

    def find(self, table_id: int) -> Table | None:
        return (
            self.service.tables.get(table_id)
            or self.service.finished.get(table_id)
            or self.service.cancelled.get(table_id)
            or self.closed.get(table_id)
        )

    def _table_parts(self, table: Table) -> tuple[MessagePayload, pictures.Drawing | None]:
        return table_parts(table, self.notes.get(table.id), rematch_of(self.service, table))

    def channel(self, table: Table) -> discord.PartialMessageable:
        return self.where(table.game)

    def where(self, game: Game) -> discord.PartialMessageable:
        """The channel a table (as ``game`` stores it) lives in: its thread if it has one."""
        return self.bot.get_partial_messageable(game.where_id, guild_id=game.guild_id)

    async def post_table_message(self, table: Table) -> discord.Message:
        """Post the table's public message (again) and remember it."""
        bare, drawing = self._table_parts(table)
        payload = replace(bare, files=files_of(await pictures.draw(drawing)))
        msg = await self.channel(table).send(allowed_mentions=NO_PINGS, **payload.send_kwargs())
        await self.store.games.set_table_message(table.id, msg.id)
        table.game = replace(table.game, table_message_id=msg.id)
        self.lobbies.shows(table)
        return msg

    async def _edit_table_message(self, table_id: int) -> None:
        table = self.find(table_id)
        if table is None or table.is_daily:
            return
        mid = table.game.table_message_id
        if mid is None:  # not posted yet: whoever opened the table posts it
            return
        bare, drawing = self._table_parts(table)
        edit = partial(self._edit_message, table, mid)
        await edit_table(edit, bare, drawing, self.lobbies.shows(table), self.late, table_id)

    async def _edit_message(self, table: Table, mid: int, payload: MessagePayload) -> bool:
        """Edit the table message ``mid`` (through a press's token if one is fresh, else
        the channel's route); False when it was gone (then posted again)."""
        try:
            await self.tokens.edit(table.id, self.channel(table).get_partial_message(mid), payload)
        except discord.NotFound:
            # Deleted by someone: post it again (unless /batak table just replaced it).
            if table.status in ("lobby", "playing") and table.game.table_message_id == mid:
                await self.post_table_message(table)
            return False
        return True

    # ------------------------------------------------------------------ listener
    async def on_event(self, event: TableEvent) -> None:
        """What the service reports (:mod:`tables.events`). Each decision is made from
        the event's snapshot (what was true when it happened); what is drawn or posted
        later (the table message, hands, a deal summary) is drawn from the table as it
        is then, found by its id."""
        if event.at.is_daily:
            return  # a daily match has no public messages: its hand shows everything
        match event:
            case TableChanged():
                self.pacer.request(event.at.table_id)
                self._follow(event.at)
            case TurnStarted():
                self._turn_started(event)
            case ActionApplied():
                self._action_applied(event)
            case DealFinished():
                self._follow(event.at)
                table = self.find(event.at.table_id)
                if table is not None:
                    self._spawn(self._post_deal_summary(table, event.index), table)
            case MatchFinished():
                self.notes.pop(event.at.table_id, None)
                self._end(event.at)
                self._spawn(tell_achievements(self, event.at, event.summary))
                # stored with the result, posted from there
                self._spawn(self.post_pending(event.at.table_id))
            case RecordingFailed():
                self.notes[event.at.table_id] = event_note(event)
                self.pacer.request(event.at.table_id)
            case TableClosed():
                self._end(event.at)
                cancelled = t("table.cancelled", event.at.language, table=event.at.table_id)
                self._spawn(self._edit_links(event.at, cancelled), self.find(event.at.table_id))
            case SeatChanged() | SeatTimedOut():
                text = event_note(event)
                self.notes[event.at.table_id] = text
                self.pacer.request(event.at.table_id)
                if isinstance(event, SeatChanged) or event.handed_over:
                    # a computer taking the seat is told once at the table
                    self._spawn(self._post(event.at, text), self.find(event.at.table_id))
            case SeatRequestChanged():
                await self.seat_notices.request(event)
            case HostChanged():
                await self.seat_notices.host(event)

    def _follow(self, at: Moment) -> None:
        """Open hands and the turn notice show the table as it is now."""
        table = self.find(at.table_id)
        for live in (self.live, self.watchers):
            if live is not None and table is not None:
                live.request(table)
        if at.table_id in self._notices or at.status in ("finished", "cancelled"):
            self.notice_pacer.request(at.table_id)

    def _turn_started(self, event: TurnStarted) -> None:
        at, seat = event.at, event.seat
        self._follow(at)
        user_id = at.seats[seat].user_id
        if user_id is None or at.seats[seat].is_away:
            return
        streak = self._streaks.get(at.table_id)
        if streak is None or streak[0] != user_id:
            streak = self._streaks[at.table_id] = [user_id, False]
        old = self._graces.pop(at.table_id, None)
        if old is not None:
            old.cancel()
        mode = at.settings.notify.get(str(user_id), "needed")
        if streak[1] or mode == "never":
            return
        visible = self.live is not None and self.live.visible(at.table_id, user_id)
        table_id, move = at.table_id, at.move
        if mode == "every" or not visible:
            self._spawn(self._turn_notice(table_id, seat, move), self.find(table_id))
        else:  # they see their turn in their hand; a ping only if they do not act
            self._graces[table_id] = asyncio.get_running_loop().call_later(
                self.grace.get(at.pace, self.grace["live"]),
                lambda: self._spawn(self._turn_notice(table_id, seat, move), self.find(table_id)),
            )

    def _action_applied(self, event: ActionApplied) -> None:
        if event.actor == "player":  # a time-out note stays until a person acts again
            self.notes.pop(event.at.table_id, None)
        streak = self._streaks.get(event.at.table_id)
        if streak is not None and event.at.seats[event.seat].user_id != streak[0]:
            del self._streaks[event.at.table_id]  # someone else acted: the streak is over
        self._follow(event.at)

    def _end(self, at: Moment) -> None:
        handle = self._graces.pop(at.table_id, None)
        if handle is not None:
            handle.cancel()
        self._streaks.pop(at.table_id, None)
        self.pacer.request(at.table_id)
        self._follow(at)
        self.notice_pacer.request(at.table_id)

    # ------------------------------------------------------------------ notices and posts
    def _notice_lock(self, table_id: int) -> asyncio.Lock:
        return self._notice_locks.setdefault(table_id, asyncio.Lock())

    async def _stored_notice(self, table: Table) -> tuple[int, int, str, int | None] | None:
        known = self._notices.get(table.id)
        if known is None and not table.playing:  # after a restart: the end is told
            stored = await self.store.messages.of(table.id, "turn")
            if stored:
                m = stored[-1]
                known = (m.channel_id or table.game.where_id, m.message_id, "", None)
        return known

    async def _edit_turn_notice(self, table_id: int) -> None:
        """Edit the table's turn notice to the turn being played (never pings)."""
        table = self.find(table_id)
        if table is None:
            return
        async with self._notice_lock(table_id):
            known = await self._stored_notice(table)
            if known is None or known[1] == 0:
                return
            channel_id, mid, shown, pinged = known
            to_act = table.seats[table.to_act].user_id if table.to_act is not None else None
            view: discord.ui.View | Keep | None = KEEP
            if not table.playing:
                self._notices.pop(table_id, None)
                content = turn_notice_text(table)
                view = None  # the match is over: no Show hand any more
            elif pinged is not None and pinged == to_act:
                # Still their turn (a streak: trump then lead, a trick won then a lead).
                content = turn_notice_text(table, mention=pinged)
                self._notices[table_id] = (channel_id, mid, content, pinged)
            else:
                # They played: one last edit says so, then the notice rests (the table
                # message shows the game; a later ping replaces this notice).
                self._notices.pop(table_id, None)
                lang = table_language(table)
                seat = table.seat_of(pinged) if pinged is not None else None
                if seat is None:
                    return
                name = seat_names(table, lang)[seat]
                content = t("notice.done", lang, name=name, table=table.id)
            if content == shown:
                return
            channel = self.bot.get_partial_messageable(channel_id)
            edit = MessagePayload(content, view=view).edit_kwargs()
            try:
                await channel.get_partial_message(mid).edit(allowed_mentions=NO_PINGS, **edit)
            except discord.NotFound:
                self._notices.pop(table_id, None)
                await self.store.messages.remove_messages(table_id, [mid])

    async def _turn_notice(self, table_id: int, seat: int, move: int) -> None:
        """Ping the person to act: a new notice (Show hand button) replaces the old one
        (only if it is still the turn of ``move``: the table as it is now decides)."""
        async with self._notice_lock(table_id):
            self._graces.pop(table_id, None)
            table = self.find(table_id)
            if table is None or table.move != move or not table.playing or table.to_act != seat:
                return
            user_id = table.seats[seat].user_id
            streak = self._streaks.get(table.id)
            if user_id is None or table.seats[seat].is_away or streak is None or streak[1]:
                return
            streak[1] = True
            old = await self.store.messages.take_messages(table.id, "turn")
            self._notices.pop(table.id, None)
            channel = self.channel(table)
            for m in old:
                with contextlib.suppress(discord.HTTPException):
                    await (
                        self.bot.get_partial_messageable(m.channel_id or table.game.where_id)
                        .get_partial_message(m.message_id)
                        .delete()
                    )
            lang = table_language(table)
            content = turn_notice_text(table, mention=user_id)
            show = t("button.show_hand", lang)
            view = view_of([TableButton(table.id, "show", label=show, style=Style.primary)])
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
            self.pings += 1
            await self.store.messages.add_message(
                table.id, msg.id, kind="turn", channel_id=table.game.where_id
            )
            self._notices[table.id] = (table.game.where_id, msg.id, content, user_id)

    async def _post(self, at: Moment, text: str) -> None:
        """A short public line at the table (no pings)."""
        async with self._notice_lock(at.table_id):
            await self.where(at.game).send(clip(text), allowed_mentions=NO_PINGS)

    async def call_rematch(self, table: Table) -> None:
        """A rematch is open: the seated people are mentioned once, the host named."""
        lang = table_language(table)
        people = [s.user_id for s in table.seats if s.user_id is not None]
        host = next((s.name for s in table.seats if s.user_id == table.host_id), None)
        text = t(
            "rematch.call",
            lang,
            mentions=" ".join(f"<@{u}>" for u in people),
            table=table.id,
            host=host or t("seat.player", lang, n=1),
        )
        await self.channel(table).send(
            clip(text),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in people]
            ),
        )

    async def post_link(self, table: Table, channel_id: int) -> None:
        """The lobby is in a thread: one short message in the channel links to it."""
        lang = table_language(table)
        text = t("link.lobby", lang, table=table.id, thread=f"<#{table.game.where_id}>")
        msg = await self.bot.get_partial_messageable(channel_id).send(
            text, allowed_mentions=NO_PINGS
        )
        await self.store.messages.add_message(table.id, msg.id, kind="link", channel_id=channel_id)

    async def _edit_links(self, at: Moment, text: str) -> None:
        """Edit the table's link line in the channel (the table was cancelled)."""
        for m in await self.store.messages.of(at.table_id, "link"):
            channel = self.bot.get_partial_messageable(m.channel_id or at.game.channel_id)
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(m.message_id).edit(
                    content=clip(text), allowed_mentions=NO_PINGS
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

    # ------------------------------------------------------------------ the match end
    async def post_pending(self, game_id: int | None = None) -> None:
        """Post the announcements the store holds (of one table, or all), oldest first,
        each marked announced once it is out.

        They were stored with the match result in one transaction, so a crash at any
        moment leaves them here for the next start. Each table's are posted under its
        notice lock (after its deal summaries, never by two posters at once); a post
        that was made just before a crash, but not marked, is found in the channel and
        only marked (:meth:`_already_posted`), so the result is posted exactly once.
        """
        try:
            pending = await self.store.announcements.pending_announcements(
                game_id=game_id, limit=500
            )
        except Exception:
            log.exception("could not read the pending announcements")
            return
        by_game: dict[int | None, list[PendingAnnouncement]] = {}
        for ann in pending:
            by_game.setdefault(ann.game_id, []).append(ann)
        for gid, anns in by_game.items():
            if gid is None:
                for ann in anns:  # nothing else of ours makes these; do not keep them forever
                    if ann.kind == "season_end":  # cogs.seasons posts these
                        continue
                    log.warning("announcement %s (%s) has no table; dropped", ann.id, ann.kind)
                    await self.store.announcements.mark_announced(ann.id)
                continue
            async with self._notice_lock(gid):
                await self._post_game(gid, anns)

    async def _post_game(self, game_id: int, anns: list[PendingAnnouncement]) -> None:
        try:
            table = self.find(game_id) or await self.service.load(game_id)
        except Exception:
            log.exception("table %s: cannot load it to post its announcements", game_id)
            return
        if table.status == "finished" and table.summary is None:
            match_id = next((a.match_id for a in anns if a.match_id is not None), None)
            if match_id is not None:
                table.summary = await self.store.matches.get_match(match_id, with_records=False)
        self.closed.setdefault(table.id, table)
        while len(self.closed) > 100:
            self.closed.pop(next(iter(self.closed)))
        for ann in anns:
            if ann.id in self._announced:
                continue  # posted by another poster since the list was read
            try:
                await self._post_announcement(table, ann)
            except discord.HTTPException as exc:
                await self.access.told_of(table, exc)  # a permission: the host hears which
                tries = self._failures[ann.id] = self._failures.get(ann.id, 0) + 1
                if 400 <= exc.status < 500 and exc.status != 429 and tries >= 5:
                    log.error(
                        "table %s: %s refused %d times (%s); dropped", game_id, ann.kind, tries, exc
                    )
                else:
                    log.warning(
                        "table %s: posting %s failed (%s); will retry", game_id, ann.kind, exc
                    )
                    return  # keep the order: the rest waits for this one
            except Exception:
                log.exception("table %s: posting %s failed; will retry", game_id, ann.kind)
                return
            self._announced.add(ann.id)
            self._failures.pop(ann.id, None)
            await self.store.announcements.mark_announced(ann.id)

    async def _post_announcement(self, table: Table, ann: PendingAnnouncement) -> None:
        lang = table_language(table)
        if ann.kind == "table_final":
            await self._edit_table_message(table.id)
            self.notice_pacer.request(table.id)  # the notice says the match is over
            return
        if ann.kind not in ("result", "channel_link"):
            log.warning("table %s: unknown announcement %r; skipped", table.id, ann.kind)
            return
        view = view_of(
            [TableButton(table.id, "rematch", label=t("button.rematch", lang), style=Style.success)]
        )
        if ann.kind == "result":
            channel = self.channel(table)
        else:
            links = await self.store.messages.of(table.id, "link")
            if links:  # a line about this table is already in the channel: it says the result
                for m in links:
                    where = self.bot.get_partial_messageable(m.channel_id or table.game.channel_id)
                    with contextlib.suppress(discord.NotFound):  # deleted: nothing to update
                        await where.get_partial_message(m.message_id).edit(
                            content=clip(result_link_text(table, lang)),
                            view=view,
                            allowed_mentions=NO_PINGS,
                        )
                return
            channel = self.bot.get_partial_messageable(
                ann.channel_id or table.game.channel_id, guild_id=table.game.guild_id
            )
        if await self._already_posted(channel, table):
            log.info("table %s: %s was posted before a restart; marked", table.id, ann.kind)
            return
        if ann.kind == "result":
            pic = await pictures.draw(pictures.result_picture(table, lang))
            text = match_result_text(table, table.summary, lang)
            content = clip(await with_achievements_line(self.store, table, text, lang))
            files = files_of(pic)
        else:
            content = clip(result_link_text(table, lang))
            files = []
        await channel.send(
            content,
            files=files,
            view=view,
            allowed_mentions=NO_PINGS,
            nonce=f"batak-{ann.id}",  # Discord drops a second send within minutes
        )

    async def _already_posted(self, channel: discord.PartialMessageable, table: Table) -> bool:
        """A message of ours with this table's Rematch button among the channel's latest
        (other than the table message, which has one too once the match is over)."""
        marker = table_id(table.id, "rematch")
        me = self.bot.user.id if self.bot.user is not None else None
        try:
            async for message in channel.history(limit=50):
                if (
                    message.author.id == me
                    and message.id != table.game.table_message_id
                    and has_component(message, marker)
                ):
                    return True
        except discord.HTTPException as exc:  # no Read Message History here: rely on nonce
            log.info("table %s: cannot read the channel's history: %s", table.id, exc)
            await self.access.told_of(table, exc)
        return False

    async def sweep(self, every: float = 60.0) -> None:
        """Post what is still pending (Discord was down, a channel refused) now and then."""
        while True:
            await asyncio.sleep(every)
            await self.post_pending()

    # ------------------------------------------------------------------ start-up
    async def refresh_all(self) -> None:
        """After a restart: post what a finished match still owes (its result, stored
        with it), redraw every open table and re-send the turn notices."""
        self._spawn(self.post_pending())
        self._spawn(self.sweep())
        for table in list(self.service.tables.values()):
            if table.is_daily:
                continue
            if table.game.table_message_id is None:
                self._spawn(self.post_table_message(table), table)
            else:
                self.pacer.request(table.id)
            self.notice_pacer.request(table.id)
            if table.playing and table.to_act is not None:
                seat = table.to_act
                if not table.controlled_by_bot(seat):
                    # Nobody's hand is live after a restart: they are told of their turn.
                    await self.on_event(TurnStarted(Moment.of(table), seat))
