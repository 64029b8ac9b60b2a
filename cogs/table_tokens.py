"""The table message edited through the token of a press on it.

Discord's global limit (50 requests per second per bot token) leaves out the
interaction endpoints: "Interaction endpoints are not bound to the bot's Global Rate
Limit" (discord/discord-api-docs, developers/topics/rate-limits.mdx, Global Rate
Limit), and those are the callback and the webhook routes of the interaction's token
(developers/interactions/receiving-and-responding.mdx, Followup Messages › Endpoints:
"The endpoints below are not bound to the application's Global Rate Limit").

A press of a button on the table message (Join, Start, Leave, Add bot, Cancel, Rematch)
is acknowledged with a deferred update (``DEFERRED_UPDATE_MESSAGE``, type 6: "ACK an
interaction and edit the original message later"; same page, Interaction Callback
Type), so its original response is the message the button is on, and the token edits
it through ``PATCH /webhooks/{application.id}/{token}/messages/@original`` (Edit
Original Interaction Response) for 15 minutes ("Interaction tokens are valid for 15
minutes", same page). The person's private answer is an ephemeral follow-up
(Create Followup Message: the ``EPHEMERAL`` flag), as before it was the edit of an
ephemeral "thinking" message: the words they read are the same.

:class:`TableTokens` keeps, per table, the freshest such token with the message it
edits and when it was issued. A table message edit goes through it while it is younger
than :data:`TOKEN_LIFE` less :data:`TOKEN_MARGIN` and names the table's current
message; otherwise, or when Discord no longer accepts it (401 / 50027 Invalid Webhook
Token, 404 Unknown Webhook or Unknown Message, 403), through the channel with the bot's
token (the global limit). So the table message after Start (the Start press's own
token) never waits for the other tables' share of the global limit.

Webhook routes have their own buckets per webhook id and token (rate-limits.mdx:
top-level resources include "webhooks (``webhook_id`` or ``webhook_id + webhook_token``)";
"Interactions webhooks share the same rate limit properties as normal webhooks").
Discord answers 5 edits per 2 seconds there in practice (not documented; the fake's
``--rate-limits`` answers the same): :meth:`TableTokens.edit` spaces one token's edits
to stay within :data:`EDITS_PER_WINDOW` per :data:`WINDOW`, and a 429 that comes anyway
is waited out by discord.py under that token's own lock (other tables go on).

The edit waits until the press that gave the token was answered (:meth:`answered`,
at most :data:`ANSWER_WAIT`), so the person's answer comes before the table changes, as
it did when the press's answer and the table edit were two separate messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from tables import Table

from .payload import MessagePayload
from .replies import NO_PINGS

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

ORIGINAL = "@original"
"""The message id naming an interaction's original response in its webhook's routes."""
TOKEN_LIFE = 15 * 60.0
"""How long Discord accepts an interaction token (receiving-and-responding.mdx)."""
TOKEN_MARGIN = 60.0
"""A token this close to its end is not used: an edit could arrive after it expired."""
EDITS_PER_WINDOW = 5
WINDOW = 2.0
"""One token edits its message at most :data:`EDITS_PER_WINDOW` times per ``WINDOW``
seconds (the bucket Discord answers for webhook message edits)."""
ANSWER_WAIT = 3.0
"""Seconds an edit waits for the press that gave its token to be answered."""
INVALID_WEBHOOK_TOKEN = 50027
PRESS_TOKEN = "table_token"
"""``interaction.extras`` key: the :class:`TableToken` a press gave (see :meth:`answered`)."""


@dataclass(slots=True)
class TableToken:
    """The freshest token of a press on one table's message."""

    message_id: int
    """The message the press was on: the token's ``@original``."""
    webhook: discord.Webhook
    """The interaction's webhook (its token), as discord.py makes it for follow-ups."""
    issued: float
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    sent: deque[float] = field(default_factory=lambda: deque(maxlen=EDITS_PER_WINDOW))
    """When its last edits were sent (at most :data:`EDITS_PER_WINDOW`)."""


class TableTokens:
    """Per table, the freshest token that can edit its message (:mod:`cogs.table_tokens`)."""

    def __init__(
        self,
        find: Callable[[int], Table | None],
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        """``find``: the table of an id (its message is the one whose tokens are kept)."""
        self._find = find
        self._clock = clock
        self._sleep = sleep
        self._tokens: dict[int, TableToken] = {}
        """Table -> its token, oldest first (re-inserted when a fresher one comes)."""
        self.edits = 0
        """Table message edits made through a token."""
        self.refused = 0
        """Edits Discord refused through a token (sent again through the channel)."""

    def __len__(self) -> int:
        return len(self._tokens)

    async def acknowledge(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """Acknowledge a press of a table button. On the table's message: a deferred
        update (type 6), its token kept to edit that message, its answer a follow-up.
        Elsewhere (Rematch on the result post, a forged press on another message): as
        before, a private "thinking" message that the answer replaces."""
        message, table = interaction.message, self._find(table_id)
        if message is None or table is None or table.game.table_message_id != message.id:
            await interaction.response.defer(ephemeral=True, thinking=True)
            return
        await interaction.response.defer()  # a component: DEFERRED_UPDATE_MESSAGE
        interaction.extras[PRESS_TOKEN] = self.offer(table_id, message.id, interaction.followup)

    def offer(self, table_id: int, message_id: int, webhook: discord.Webhook) -> TableToken:
        """A press on ``message_id`` of ``table_id`` was acknowledged with a deferred
        update: its token is the freshest for that message."""
        now = self._clock()
        self._forget_old(now)
        self._tokens.pop(table_id, None)
        token = self._tokens[table_id] = TableToken(message_id, webhook, now)
        return token

    def answered(self, interaction: discord.Interaction[Any]) -> None:
        """The press ``interaction`` was answered (or refused): its token may edit."""
        token = interaction.extras.get(PRESS_TOKEN)
        if isinstance(token, TableToken):
            token.answered.set()

    def _forget_old(self, now: float) -> None:
        tokens = self._tokens
        while tokens:
            key = next(iter(tokens))
            if self._usable(tokens[key], now):
                break
            del tokens[key]

    def _usable(self, token: TableToken, now: float) -> bool:
        return now - token.issued < TOKEN_LIFE - TOKEN_MARGIN

    def fresh(self, table_id: int) -> TableToken | None:
        """The token that would edit the message of ``table_id`` now, if any."""
        token = self._tokens.get(table_id)
        if token is None:
            return None
        if not self._usable(token, self._clock()):
            del self._tokens[table_id]
            return None
        return token

    def exempt(self, table_id: int) -> bool:
        """The next edit of ``table_id``'s message is likely to go through a token (no
        request of the global limit). The message it names is checked at the edit."""
        return self.fresh(table_id) is not None

    async def edit(
        self, table_id: int, message: discord.PartialMessage, payload: MessagePayload
    ) -> None:
        """Edit ``message``, the message of ``table_id``, through its fresh token if it has
        one (and Discord takes it), else through the channel (the bot's token: the global
        limit). Raises what the channel's edit raises (NotFound: the message is gone)."""
        if not await self._through_token(table_id, message.id, payload):
            await message.edit(allowed_mentions=NO_PINGS, **payload.edit_kwargs())

    async def _through_token(self, table_id: int, message_id: int, payload: MessagePayload) -> bool:
        """Edit ``message_id`` through the fresh token of ``table_id``; False when there
        is none for that message or Discord refused it (then forgotten)."""
        token = self.fresh(table_id)
        if token is None or token.message_id != message_id:
            return False
        if not token.answered.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(token.answered.wait(), ANSWER_WAIT)
        if len(token.sent) == EDITS_PER_WINDOW:  # its bucket: wait for the oldest to pass
            wait = token.sent[0] + WINDOW - self._clock()
            if wait > 0:
                await self._sleep(wait)
        if self.fresh(table_id) is not token:  # expired, or a fresher one came meanwhile
            return await self._through_token(table_id, message_id, payload)
        token.sent.append(self._clock())
        try:
            original: Any = ORIGINAL  # discord.py only puts the id in the route
            await token.webhook.edit_message(
                original, allowed_mentions=NO_PINGS, **payload.edit_kwargs()
            )
        except (discord.NotFound, discord.Forbidden):
            return self._refused(table_id, token)
        except discord.HTTPException as exc:
            if exc.status == 401 or exc.code == INVALID_WEBHOOK_TOKEN:
                return self._refused(table_id, token)
            raise
        self.edits += 1
        return True

    def _refused(self, table_id: int, token: TableToken) -> bool:
        """Discord no longer takes ``token``: forget it (unless a fresher one came)."""
        self.refused += 1
        if self._tokens.get(table_id) is token:
            del self._tokens[table_id]
        return False
