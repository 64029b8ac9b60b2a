"""The table message edited through a press's interaction token (:mod:`cogs.table_tokens`),
on a fake clock: which route each edit takes, when a token is too old or refused, the
token's own bucket, and that such an edit takes no request of the global limit."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.budget import GlobalBudget
from cogs.pacing import EditPacer
from cogs.payload import MessagePayload
from cogs.replies import NO_PINGS
from cogs.table_tokens import (
    EDITS_PER_WINDOW,
    ORIGINAL,
    TOKEN_LIFE,
    TOKEN_MARGIN,
    WINDOW,
    TableTokens,
)
from tests.bot.test_bot_pacing import FakeClock, settle

TABLE, MESSAGE = 7, 7007


def http_error(status: int, code: int) -> discord.HTTPException:
    response: Any = SimpleNamespace(status=status, reason="refused")
    data = {"code": code, "message": "refused"}
    if status == 404:
        return discord.NotFound(response, data)
    if status == 403:
        return discord.Forbidden(response, data)
    return discord.HTTPException(response, data)


class Webhook:
    """An interaction's webhook: records its edits of ``@original``, or refuses them."""

    def __init__(self, clock: FakeClock, refuse: discord.HTTPException | None = None) -> None:
        self.clock = clock
        self.refuse = refuse
        self.edits: list[tuple[float, str]] = []

    async def edit_message(self, message_id: Any, **kw: Any) -> None:
        assert message_id == ORIGINAL and kw["allowed_mentions"] is NO_PINGS
        if self.refuse is not None:
            raise self.refuse
        self.edits.append((self.clock.now, kw["content"]))


class Channel:
    """The table message through the channel's route (the bot's token)."""

    def __init__(self, message_id: int = MESSAGE) -> None:
        self.id = message_id
        self.edits: list[str] = []

    async def edit(self, **kw: Any) -> None:
        self.edits.append(kw["content"])


def table(message_id: int | None = MESSAGE) -> Any:
    return SimpleNamespace(id=TABLE, game=SimpleNamespace(table_message_id=message_id))


def keeper(clock: FakeClock, message_id: int | None = MESSAGE) -> TableTokens:
    found = table(message_id)
    return TableTokens(lambda tid: found if tid == TABLE else None, clock.time, clock.sleep)


def answered_offer(tokens: TableTokens, webhook: Webhook, message_id: int = MESSAGE) -> None:
    tokens.offer(TABLE, message_id, webhook).answered.set()  # type: ignore[arg-type]


async def test_a_fresh_token_edits_until_the_margin_then_the_channel_does() -> None:
    clock = FakeClock()
    tokens = keeper(clock)
    webhook, channel = Webhook(clock), Channel()
    answered_offer(tokens, webhook)
    assert tokens.exempt(TABLE) and not tokens.exempt(TABLE + 1)
    await tokens.edit(TABLE, channel, MessagePayload("first"))  # type: ignore[arg-type]
    await clock.advance(TOKEN_LIFE - TOKEN_MARGIN - 1)
    await tokens.edit(TABLE, channel, MessagePayload("still"))  # type: ignore[arg-type]
    await clock.advance(1)
    assert not tokens.exempt(TABLE) and len(tokens) == 0  # too close to its end: forgotten
    await tokens.edit(TABLE, channel, MessagePayload("late"))  # type: ignore[arg-type]
    assert [text for _, text in webhook.edits] == ["first", "still"]
    assert channel.edits == ["late"] and tokens.edits == 2


async def test_a_token_of_another_message_is_not_used() -> None:
    """A token whose ``@original`` is not the table message (posted again since)."""
    clock = FakeClock()
    tokens = keeper(clock)
    webhook, channel = Webhook(clock), Channel(MESSAGE + 1)
    answered_offer(tokens, webhook)
    await tokens.edit(TABLE, channel, MessagePayload("new message"))  # type: ignore[arg-type]
    assert webhook.edits == [] and channel.edits == ["new message"]


@pytest.mark.parametrize(
    ("status", "code"),
    [(401, 50027), (404, 10015), (404, 10008), (403, 50001)],
    ids=["expired", "unknown webhook", "unknown message", "forbidden"],
)
async def test_a_refused_token_is_forgotten_and_the_channel_edits(status: int, code: int) -> None:
    clock = FakeClock()
    tokens = keeper(clock)
    webhook, channel = Webhook(clock, refuse=http_error(status, code)), Channel()
    answered_offer(tokens, webhook)
    await tokens.edit(TABLE, channel, MessagePayload("edit"))  # type: ignore[arg-type]
    assert channel.edits == ["edit"] and not tokens.exempt(TABLE) and tokens.refused == 1


async def test_another_error_is_not_hidden() -> None:
    clock = FakeClock()
    tokens = keeper(clock)
    webhook, channel = Webhook(clock, refuse=http_error(500, 0)), Channel()
    answered_offer(tokens, webhook)
    with pytest.raises(discord.HTTPException):
        await tokens.edit(TABLE, channel, MessagePayload("edit"))  # type: ignore[arg-type]
    assert channel.edits == [] and tokens.exempt(TABLE)


async def test_one_token_stays_within_its_bucket() -> None:
    clock = FakeClock()
    tokens = keeper(clock)
    webhook, channel = Webhook(clock), Channel()
    answered_offer(tokens, webhook)

    async def edits() -> None:
        for i in range(EDITS_PER_WINDOW + 2):
            await tokens.edit(TABLE, channel, MessagePayload(str(i)))  # type: ignore[arg-type]

    task = asyncio.ensure_future(edits())
    await clock.advance(10.0)
    await task
    times = [when for when, _ in webhook.edits]
    assert len(times) == EDITS_PER_WINDOW + 2 and channel.edits == []
    assert times[EDITS_PER_WINDOW:] == pytest.approx([WINDOW, WINDOW])
    for i in range(len(times) - EDITS_PER_WINDOW):
        assert times[i + EDITS_PER_WINDOW] - times[i] >= WINDOW


async def test_the_press_is_answered_before_its_token_edits_the_table() -> None:
    clock = FakeClock()
    tokens = keeper(clock)
    webhook, channel = Webhook(clock), Channel()
    interaction: Any = SimpleNamespace(extras={})
    token = tokens.offer(TABLE, MESSAGE, webhook)  # type: ignore[arg-type]
    interaction.extras["table_token"] = token
    edit = asyncio.ensure_future(tokens.edit(TABLE, channel, MessagePayload("t")))  # type: ignore[arg-type]
    await settle()
    assert not edit.done() and webhook.edits == []
    tokens.answered(interaction)
    await edit
    assert [text for _, text in webhook.edits] == ["t"]


class Press:
    """A press on a message: acknowledged with a deferred update (type 6)."""

    def __init__(self, message_id: int, webhook: Webhook) -> None:
        self.message = SimpleNamespace(id=message_id)
        self.followup = webhook
        self.extras: dict[str, Any] = {}
        self.deferred: list[dict[str, Any]] = []
        self.response = SimpleNamespace(defer=self._defer)

    async def _defer(self, **kw: Any) -> None:
        self.deferred.append(kw)


async def test_only_a_press_on_the_table_message_gives_its_token() -> None:
    clock = FakeClock()
    tokens = keeper(clock)
    result_post: Any = Press(MESSAGE + 5, Webhook(clock))  # Rematch on the result post
    await tokens.acknowledge(result_post, TABLE)
    assert result_post.deferred == [{"ephemeral": True, "thinking": True}]
    assert not tokens.exempt(TABLE) and "table_token" not in result_post.extras
    press: Any = Press(MESSAGE, Webhook(clock))
    await tokens.acknowledge(press, TABLE)
    assert press.deferred == [{}] and tokens.exempt(TABLE)
    assert tokens.fresh(TABLE) is press.extras["table_token"]
    gone: Any = Press(MESSAGE, Webhook(clock))
    await tokens.acknowledge(gone, TABLE + 1)  # a table no longer known
    assert "table_token" not in gone.extras


async def test_a_fresher_press_replaces_the_token() -> None:
    clock = FakeClock()
    tokens = keeper(clock)
    old, new, channel = Webhook(clock), Webhook(clock), Channel()
    answered_offer(tokens, old)
    await clock.advance(60)
    answered_offer(tokens, new)
    await tokens.edit(TABLE, channel, MessagePayload("e"))  # type: ignore[arg-type]
    assert old.edits == [] and len(new.edits) == 1
    await clock.advance(TOKEN_LIFE - TOKEN_MARGIN - 30)  # the old one would be too old now
    assert tokens.exempt(TABLE)


async def test_an_exempt_edit_takes_no_token_of_the_global_limit() -> None:
    clock = FakeClock()
    budget = GlobalBudget(1.0, 1, clock=clock.time, sleep=clock.sleep)
    await budget.take()  # the budget is spent for a second
    edits: list[tuple[int, float]] = []
    exempt = {1}

    async def edit(key: int) -> None:
        edits.append((key, clock.now))

    pacer = EditPacer(
        0.5, edit, clock=clock.time, sleep=clock.sleep, budget=budget, exempt=exempt.__contains__
    )
    pacer.request(1)  # through a token: at once
    pacer.request(2)  # through the channel: waits for the budget
    await clock.advance(5.0)
    assert edits == [(1, 0.0), pytest.approx((2, 1.0))]
    assert budget.taken == 2  # the one spent above and table 2's
    await pacer.close()
