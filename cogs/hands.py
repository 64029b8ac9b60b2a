"""A person's hand message and the buttons people click (hands and table messages).

The hand is an ephemeral message only its owner sees. A click on it by its owner is
answered by editing it (a refused one with a warning on top of the hand drawn again);
any other press of a hand button gets a new private message and touches nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from typing import Any, cast

import discord

from data import Store
from tables import ServiceError, StaleAction, Table, TableService

from . import pictures
from .achievements import daily_week_note
from .announcements import Announcer
from .components import HINT, REFRESH, WAIT, HandClick, hand_components, hand_view, release
from .i18n import t
from .live import LiveHands
from .payload import Drawn, MessagePayload
from .pictures import LATE, Late, Picture, files_of
from .replies import MOVE, NO_PINGS, Languages, is_admin, send
from .text.hints import hint_message
from .text.refusals import error_text
from .text.summaries import deal_summary_text, hand_text
from .text.words import clip, display_name, table_language

log = logging.getLogger(__name__)


class Hands:
    """Hand messages, and the clicks on hand and table buttons."""

    def __init__(
        self,
        store: Store,
        service: TableService,
        languages: Languages,
        announcer: Announcer,
        interval: float = 1.0,
    ) -> None:
        self.store = store
        self.service = service
        self.languages = languages
        self.announcer = announcer
        self.live = LiveHands(self.live_payload, announcer.find, interval, state=self.hand_state)
        announcer.live = self.live
        # hand pictures drawn after their message went (a starved drawing worker)
        self.late = pictures.LateDrawings(self._drawn_late)

    def hand_state(self, table: Table, seat: int, lang: str) -> Hashable:
        """Everything the hand message of ``seat`` is drawn from (see
        :data:`cogs.live.State`): the match and its move, the seats (names, away), the
        turn's deadline, the reader's language and looks (as last read)."""
        match = table.match
        return (
            table.status,
            id(match),
            match.move_number if match is not None else None,
            match.is_over if match is not None else None,
            tuple(table.seats),
            table.settings.former_seats,
            table.deadline_now(),
            lang,
            self.languages.known_looks(table.seats[seat].user_id),
        )

    async def live_payload(
        self, table: Table, seat: int | None, lang: str, shown_picture: Any
    ) -> Drawn:
        """A hand as :class:`~cogs.live.LiveHands` edits it: the picture is drawn (and sent)
        only when it differs from ``shown_picture`` (the hand, and which cards are legal,
        in the person's looks)."""
        assert seat is not None  # hands are seated people's (spectators: cogs.watch)
        looks = await self.looks(table, seat)
        # One consistent state: text, buttons, picture model and state, with no await between.
        state = self.hand_state(table, seat, lang)
        content = hand_text(table, seat, lang)
        view = hand_components(table, seat, lang)  # the same buttons, no discord.py items
        drawing = pictures.hand_picture(table, seat, lang, looks)
        key = (looks, drawing.view) if drawing is not None else None
        files = None
        if key != shown_picture:
            pic = await self._hand_picture(table, seat, drawing)
            if pic is LATE:  # the buttons now, the picture with a later edit
                payload = MessagePayload(clip(content), files=None, view=view)
                return Drawn(payload, shown_picture, None, late=True)
            files = files_of(pic)
        return Drawn(MessagePayload(clip(content), files=files, view=view), key, state)

    async def _hand_picture(
        self, table: Table, seat: int, drawing: pictures.Drawing | None
    ) -> Picture | Late | None:
        """A hand's picture, or :data:`~cogs.pictures.LATE` when it takes more than
        :data:`~cogs.pictures.LATE_PICTURE` (a daily match's hand is not live: it waits)."""
        if drawing is None or table.is_daily:
            return await pictures.draw(drawing)
        return await self.late.draw((table.id, seat), drawing, pictures.LATE_PICTURE)

    def _drawn_late(self, key: Hashable) -> None:
        """A hand's late picture is drawn: its live message is edited to show it."""
        table_id, _ = cast(tuple[int, int], key)
        table = self.announcer.find(table_id)
        if table is not None:
            self.live.request(table)

    async def hand_payload(
        self,
        table: Table,
        seat: int,
        lang: str,
        notice: str | None = None,
        extra: list[Picture | None] | None = None,
    ) -> Drawn:
        looks = await self.looks(table, seat)
        # One consistent state: text, buttons and view models before any other await.
        state = self.hand_state(table, seat, lang)
        content = hand_text(table, seat, lang, notice)
        view = hand_view(table, seat, lang)
        drawings = [pictures.hand_picture(table, seat, lang, looks)]
        if table.is_daily:
            drawings.insert(0, pictures.daily_table_picture(table, lang, looks))
        pics: list[Picture | None] = list(extra or [])
        for drawing in drawings[:-1]:
            pics.append(await pictures.draw(drawing))
        last = drawings[-1]
        pic = await self._hand_picture(table, seat, last)
        late = pic is LATE
        pics.append(None if isinstance(pic, Late) else pic)
        files = [f for p in pics for f in files_of(p)]
        key = (looks, last.view) if last is not None and not late else None
        return Drawn(
            MessagePayload(clip(content), files=files, view=view),
            key,
            # a hand with a notice on top is not the plain hand: the next change redraws it
            state if notice is None and not extra and not late else None,
            late=late,
        )

    async def looks(self, table: Table, seat: int) -> pictures.Looks:
        """How the person in ``seat`` chose to see their private pictures."""
        return pictures.Looks.of(await self.languages.personal(table.seats[seat].user_id))

    async def send_hand(
        self, interaction: discord.Interaction[Any], table: Table, notice: str | None = None
    ) -> None:
        """A new ephemeral hand message for the user (defer first: drawing takes time)."""
        seat = table.seat_of(interaction.user.id)
        if seat is None and table.playing and table.settings.watching and not table.is_daily:
            watch = t("button.watch", table_language(table))  # the table message's button
            raise ServiceError("error.not_seated_watch", watch=watch)
        if seat is None:
            raise ServiceError("error.not_seated")
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        if table.playing and table.seats[seat].is_away:
            await self.service.come_back(table.id, interaction.user.id)
            notice = t("hand.back", lang)
        if table.match is None:
            raise ServiceError("error.not_started")
        drawn = await self.hand_payload(table, seat, lang, notice)
        hand = drawn.message
        msg = await send(interaction, hand.content, files=hand.files, view=hand.shown_view)
        if msg is not None and not table.is_daily:
            self.live.opened(table, interaction.user.id, interaction, msg.id, lang, shown=drawn)
            if drawn.late and not self.late.busy((table.id, seat)):
                self.live.request(table)  # drawn while it was sent: shown now

    async def on_hand_button(self, interaction: discord.Interaction[Any], click: HandClick) -> None:
        """A hand button. Only its owner's own hand message is ever edited (the click is
        answered by that edit); any other press gets a new message only the clicker
        sees. Either way, one answer per click."""
        if not self._own_hand(interaction, click):
            await self._answer_elsewhere(interaction, click)
            return
        await self._hand_button(interaction, click)

    def _own_hand(self, interaction: discord.Interaction[Any], click: HandClick) -> bool:
        """The pressed message is the clicker's own private message, and the button is
        for the seat the clicker holds at that table."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return False
        meta = message.interaction_metadata
        if meta is not None and meta.user.id != interaction.user.id:
            return False
        table = self.announcer.find(click.table)
        return table is not None and table.seat_of(interaction.user.id) == click.seat

    async def _answer_elsewhere(
        self, interaction: discord.Interaction[Any], click: HandClick
    ) -> None:
        """Someone else's hand button (or a hand button where no hand is): change
        nothing, say so privately and give the clicker their own hand if they have one."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = await self.languages.of(interaction)
        table = self.announcer.find(click.table)
        if table is None or table.status not in ("lobby", "playing"):
            raise ServiceError("error.no_table")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("error.not_seated")
        key = "error.not_your_hand" if seat != click.seat else "error.forged"
        if table.match is None:
            await send(interaction, t(key, lang) + "\n" + t("error.not_started", lang))
            return
        hand = (await self.hand_payload(table, seat, lang, "⚠️ " + t(key, lang))).message
        # An answer, not a hand that follows the game: the hand they opened stays the one.
        await send(interaction, hand.content, files=hand.files, view=hand.shown_view)

    async def _hand_button(self, interaction: discord.Interaction[Any], click: HandClick) -> None:
        table_id, seat, move, code = click.table, click.seat, click.move, click.code
        user = interaction.user.id
        table = self.announcer.find(table_id)
        if table is None:
            raise ServiceError("error.no_table")
        my_seat = table.seat_of(user)
        if my_seat is None:
            raise ServiceError("error.not_seated")
        if table.match is None:
            raise ServiceError("error.not_started")
        # Acknowledge first (Discord allows 3 s), before anything that may wait for the
        # store or a worker: this message will be updated in place.
        await interaction.response.defer()
        lang = await self.languages.of(interaction)
        looks = await self.looks(table, my_seat)
        live = not table.is_daily and my_seat == seat and interaction.message is not None
        if live and interaction.message is not None:
            # This press's token is the freshest that can edit this hand: the hand
            # follows the game through it (and the edit answers the press).
            self.live.opened(table, user, interaction, interaction.message.id, lang)
        notice: str | None = None
        alert: str | None = None
        extra: list[Picture | None] = []
        if code == WAIT:
            code = REFRESH  # a greyed label: a press of it can only be forged, shown anew
        if code == REFRESH:
            if table.playing and table.seats[seat].is_away:
                await self.service.come_back(table.id, user)
                notice = t("hand.back", lang)
        elif code == HINT:
            try:
                action, reason = await self.service.hint(table.id, user)
                notice = hint_message(action, reason, lang)
            except ServiceError as exc:
                notice = error_text(exc, lang)
        else:
            wanted = click.action
            assert wanted is not None  # parse_hand_id gives an action for every other code
            deals_before = len(table.match.finished) if table.match is not None else 0
            interaction.extras[MOVE] = True
            try:
                await self.service.act(table.id, user, seat, move, wanted)
            except StaleAction:
                alert = t("error.stale", lang)
            except ServiceError as exc:
                alert = error_text(exc, lang)
            else:
                if table.is_daily and table.match is not None:
                    for index in range(deals_before, len(table.match.finished)):
                        extra.append(
                            await pictures.draw(pictures.deal_picture(table, index, lang, looks))
                        )
                        notice = deal_summary_text(table, index, lang)
                    if table.match.is_over:
                        notice = await self._daily_result_text(table, lang)
                        extra.append(
                            await pictures.draw(pictures.result_picture(table, lang, looks))
                        )
        if alert is not None:
            notice = "⚠️ " + alert  # the answer is this edit: one answer per click
        if live and notice is None and not extra and interaction.message is not None:
            # The live hand shows the new state (one edit, through this press's token).
            if code == REFRESH:
                self.live.redraw(interaction.message.id)
            self.live.request(table)
            return
        drawn = await self.hand_payload(table, my_seat, lang, notice, extra)
        try:
            edit = drawn.message.edit_kwargs()
            await interaction.edit_original_response(allowed_mentions=NO_PINGS, **edit)
        finally:
            release(drawn.message.shown_view)
        if live and interaction.message is not None:
            self.live.opened(table, user, interaction, interaction.message.id, lang, shown=drawn)
            if drawn.late and not self.late.busy((table_id, my_seat)):
                self.live.request(table)  # drawn while it was sent: shown now

    async def _daily_result_text(self, table: Table, lang: str) -> str:
        match = table.match
        assert match is not None
        result = await self.store.daily.daily_result(
            table.game.guild_id, table.game.host_id, day=table.settings.day
        )
        board = await self.store.daily.daily_leaderboard(
            table.game.guild_id, day=table.settings.day, limit=50
        )
        rank = next((r.rank for r in board if r.user_id == table.game.host_id), None)
        text = t(
            "daily.finished",
            lang,
            score=result.score if result and result.score is not None else match.totals[0],
            place=match.placements()[0],
            rank=rank or "?",
        )
        return text + await daily_week_note(self.store, table, lang)

    # ------------------------------------------------------------------ table buttons
    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, what: str
    ) -> None:
        """A button of a table's public message: every answer is a new private message.
        Show hand's is the hand (acknowledged first: it says "thinking" while it is
        drawn); the others', pressed on the table message, a follow-up of a deferred
        update whose token then edits that message (:mod:`cogs.table_tokens`)."""
        if what == "show":
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await self.announcer.tokens.acknowledge(interaction, table_id)
        lang = await self.languages.of(interaction)
        user = interaction.user
        table = self.announcer.find(table_id)
        if what == "rematch":
            new = await self.service.rematch(table_id, user.id, display_name(user))
            await self.announcer.post_table_message(new)
            self.announcer.pacer.request(table_id)  # its Rematch button names the new table
            await self.announcer.call_rematch(new)
            start = t("button.start", table_language(new))
            await send(interaction, t("rematch.opened", lang, table=new.id, start=start))
            return
        if table is None or table.status not in ("lobby", "playing"):
            raise ServiceError("error.table_over")
        if what == "show":
            await self.send_hand(interaction, table)
            return
        if what == "join":
            seat = await self.service.join(table_id, user.id, display_name(user))
            text = t("lobby.joined", lang, seat=seat + 1)
        elif what == "leave":
            await self.service.leave(table_id, user.id)
            text = t("lobby.left", lang)
        elif what == "bot":
            seat = await self.service.add_bot(table_id, user.id)
            text = t("lobby.bot_added", lang, seat=seat + 1)
        elif what == "start":
            await self.service.start(table_id, user.id)
            text = t("lobby.started", lang, show=t("button.show_hand", table_language(table)))
        elif what == "cancel":
            await self.service.cancel(table_id, user.id, is_admin=is_admin(interaction))
            text = t("lobby.cancelled", lang)
        else:
            raise ServiceError("error.forged")
        await send(interaction, text)
