"""Open hands that follow the game.

A person's hand is an ephemeral message: the bot cannot fetch or edit it through the
channel, only through the token of the interaction that made it (or of a press on it).
That token lives 15 minutes. A hand that is the interaction's original response (the
answer that replaced its "thinking" message, or the message whose button was pressed)
is edited through the ``@original`` route, a follow-up message through its own id
(developers/interactions/receiving-and-responding.mdx, Edit Original Interaction
Response and Edit Followup Message). :class:`LiveHands` keeps, per person and table,
the latest hand message and the freshest token that can edit it, and redraws the
message whenever what it shows changes (their turn starts, a card lands, a trick, deal
or match ends). Edits are coalesced per message by an :class:`~cogs.pacing.EditPacer`,
and an edit that would show the same thing is not sent at all.

Opening the hand again makes the new message the current one; the old one is edited to
say it was replaced. A press on any hand message makes that message current again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context

from tables import Table

from .components import release
from .i18n import t
from .pacing import EditPacer
from .payload import Drawn, MessagePayload
from .replies import NO_PINGS, original_id

log = logging.getLogger(__name__)

ORIGINAL = "@original"
"""The message id that names an interaction's original response in its webhook's routes:
Edit Original Interaction Response is Edit Webhook Message on ``messages/@original``
(developers/interactions/receiving-and-responding.mdx). discord.py's
``Webhook.edit_message`` only puts the id in the route (its annotation says int); the
webhook, not the whole interaction, is what a hand keeps."""
TOKEN_LIFE = 15 * 60.0
"""How long Discord accepts an interaction token (follow-ups, edits of its messages)."""
TOKEN_MARGIN = 60.0
"""A token this close to its end is not relied upon (an edit could arrive too late)."""

Render = Callable[[Table, int | None, str, Any], Awaitable[Drawn]]
"""``(table, seat, lang, picture_key_shown) -> drawn``: the hand's content and view, its
picture only when its key differs from the one shown (else ``files`` is None: the
message keeps its picture), the picture's key and the :data:`State` it was drawn from
(``seat`` is None for a spectator's view)."""
State = Callable[[Table, int, str], Hashable]
"""``(table, seat, lang) -> key``: everything a hand message is drawn from (the game's
move, the seats, the deadline, the person's looks...). A hand whose key did not change
since it was drawn shows the table as it is: it is not drawn again."""


@dataclass(slots=True)
class LiveHand:
    """One hand message and the token that may edit it."""

    table_id: int
    user_id: int
    message_id: int
    webhook: discord.Webhook
    """The webhook of the interaction whose token edits the message."""
    original: bool
    """The message is that interaction's original response (edited as ``@original``)."""
    issued: float
    lang: str
    shown: str = ""
    """What the message shows (text and buttons): an edit showing the same is skipped."""
    picture: Any = None
    """The key of the picture the message shows."""
    state: Hashable = None
    """The :data:`State` the message was drawn from (None: unknown, draw it)."""
    replaced: bool = False


def signature(payload: MessagePayload) -> str:
    """What a hand payload shows, as one string (text, and each button's id and state)."""
    view = payload.shown_view
    parts = [payload.content]
    if view is not None:  # as Discord gets them: discord.py items, or prebuilt (Prebuilt)
        for row in view.to_components():
            for item in row.get("components", (row,)):
                parts.append(f"{item.get('custom_id', '')}/{item.get('disabled', '')}")
    return "\n".join(parts)


async def edit_hand(webhook: Any, message_id: Any, message: MessagePayload) -> None:
    """Edit a hand message through ``webhook`` as ``Webhook.edit_message`` does (the same
    request), without making a ``WebhookMessage`` of Discord's answer: nobody reads it,
    and parsing it (its components too) was 4 % of the bot process's CPU. Anything that
    is not an interaction's webhook (a stand-in) is asked through its ``edit_message``."""
    edit = message.edit_kwargs()
    if not isinstance(webhook, discord.Webhook):
        await webhook.edit_message(message_id, allowed_mentions=NO_PINGS, **edit)
        return
    if webhook.token is None:
        raise ValueError("This webhook does not have a token associated with it")
    view = edit.get("view", MISSING)
    with handle_message_parameters(
        content=edit["content"],
        attachments=edit.get("attachments", MISSING),
        view=view,
        allowed_mentions=NO_PINGS,
        previous_allowed_mentions=getattr(webhook._state, "allowed_mentions", None),
    ) as params:
        await async_context.get().edit_webhook_message(
            webhook.id,
            webhook.token,
            message_id,
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            thread_id=None,
            with_components=bool(view),
        )


class LiveHands:
    """The latest hand message of each person at each table, kept up to date."""

    def __init__(
        self,
        render: Render,
        find: Callable[[int], Table | None],
        interval: float,
        clock: Callable[[], float] = time.monotonic,
        *,
        spectators: bool = False,
        state: State | None = None,
    ) -> None:
        """``spectators``: the messages are spectator views (drawn from no seat, for people
        not seated at the table) rather than hands."""
        self._render = render
        self.spectators = spectators
        self._state = state
        self._find = find
        self._clock = clock
        self._hands: dict[int, LiveHand] = {}
        self._current: dict[int, dict[int, int]] = {}
        """table -> user -> their current hand message (a table's hands in one look)."""
        self.pacer = EditPacer(interval, self._edit)
        self.edits = 0
        self.skipped = 0

    async def close(self) -> None:
        await self.pacer.close()

    # ------------------------------------------------------------------ tracking
    def opened(
        self,
        table: Table,
        user_id: int,
        interaction: discord.Interaction[Any],
        message_id: int,
        lang: str,
        shown: Drawn | None = None,
    ) -> None:
        """``message_id`` now shows the person's hand and ``interaction``'s token can edit
        it (a new hand, or a press on one, answered already: whether the message is the
        interaction's original response is known from then on). It becomes the
        person's current hand; ``shown`` is what the message shows, if known."""
        current = self._current.setdefault(table.id, {})
        old = current.get(user_id)
        if old is not None and old != message_id and old in self._hands:
            self._hands[old].replaced = True
            self.pacer.request(old)
        original = original_id(interaction) == message_id
        hand = self._hands.get(message_id)
        if hand is None or hand.table_id != table.id:
            hand = LiveHand(
                table.id, user_id, message_id, interaction.followup, original, 0.0, lang
            )
            self._hands[message_id] = hand
        hand.webhook, hand.original = interaction.followup, original
        hand.issued = self._clock()
        hand.lang = lang
        hand.replaced = False
        if shown is not None:
            hand.shown = signature(shown.message)
            hand.state = shown.state
            if shown.picture is not None:
                hand.picture = shown.picture
        current[user_id] = message_id

    def visible(self, table_id: int, user_id: int) -> bool:
        """True when the person has a hand message the bot can still keep up to date."""
        mid = self._current.get(table_id, {}).get(user_id)
        hand = self._hands.get(mid) if mid is not None else None
        return hand is not None and self._alive(hand)

    async def tell(self, table_id: int, user_id: int, content: Callable[[str], str]) -> bool:
        """Send the person a private note (``content(lang)``, in their hand's language)
        through the token of their live hand at the table: an ephemeral follow-up only
        they see. False when they have none, or it is too old, or Discord refused."""
        mid = self._current.get(table_id, {}).get(user_id)
        hand = self._hands.get(mid) if mid is not None else None
        if hand is None or not self._alive(hand):
            return False
        try:
            await hand.webhook.send(content(hand.lang), ephemeral=True, allowed_mentions=NO_PINGS)
        except discord.HTTPException as exc:
            log.info("table %s: could not tell user %s privately: %s", table_id, user_id, exc)
            return False
        return True

    def _alive(self, hand: LiveHand) -> bool:
        return self._clock() - hand.issued < TOKEN_LIFE - TOKEN_MARGIN

    def request(self, table: Table) -> None:
        """Something a hand shows may have changed: redraw the table's live hands."""
        for mid in list(self._current.get(table.id, {}).values()):
            self.pacer.request(mid)

    def redraw(self, message_id: int) -> None:
        """Edit this hand even if it seems to show the table as it is (Refresh)."""
        hand = self._hands.get(message_id)
        if hand is not None:
            hand.shown, hand.state = "", None
            self.pacer.request(message_id)

    def forget(self, message_id: int) -> None:
        hand = self._hands.pop(message_id, None)
        if hand is None:
            return
        current = self._current.get(hand.table_id)
        if current is not None and current.get(hand.user_id) == message_id:
            del current[hand.user_id]
            if not current:
                del self._current[hand.table_id]

    def count(self) -> int:
        return len(self._hands)

    # ------------------------------------------------------------------ editing
    async def _edit(self, message_id: int) -> None:
        hand = self._hands.get(message_id)
        if hand is None:
            return
        if not self._alive(hand):
            self.forget(message_id)
            return
        table = self._find(hand.table_id)
        over = table is None or table.status not in ("lobby", "playing")
        message: MessagePayload
        if hand.replaced:
            replaced = "watch.replaced" if self.spectators else "hand.replaced"
            message = MessagePayload(t(replaced, hand.lang), files=(), view=None)
            self._hands.pop(message_id, None)  # never edited again
        else:
            seat = table.seat_of(hand.user_id) if table is not None else None
            if table is None or table.match is None or (seat is None) != self.spectators:
                self.forget(message_id)  # gone, or a spectator who sat down since
                return
            if (
                self._state is not None
                and seat is not None
                and hand.state is not None
                and self._state(table, seat, hand.lang) == hand.state
            ):
                self.skipped += 1  # nothing it is drawn from changed: not drawn again
                return
            drawn = await self._render(table, seat, hand.lang, hand.picture)
            message = drawn.message
            shown = signature(message)
            hand.state = drawn.state
            if shown == hand.shown and drawn.picture == hand.picture:
                self.skipped += 1
                release(message.shown_view)
                return
            hand.shown, hand.picture = shown, drawn.picture
            if over:
                self.forget(message_id)
        try:
            self.edits += 1
            target: Any = ORIGINAL if hand.original else message_id
            await edit_hand(hand.webhook, target, message)
        except (discord.NotFound, discord.Forbidden):
            self.forget(message_id)  # deleted, or the token is no longer accepted
        except discord.HTTPException as exc:
            if exc.status == 401:  # Invalid Webhook Token: it expired
                self.forget(message_id)
            else:
                raise
        finally:
            release(message.shown_view)
