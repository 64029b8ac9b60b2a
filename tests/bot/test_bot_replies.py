"""How an interaction is answered (cogs.replies), against a small stand-in for
discord.py's Interaction that keeps Discord's rule about deferrals: while the original
response is a deferral's "thinking" message, the answer is an edit of it; a follow-up
there is the deprecated fallback, counted here as a fault. Open hands are edited
through the route that fits the message (``@original`` or a follow-up's id)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from batak import Match, preset
from cogs.live import LiveHands
from cogs.payload import Drawn, MessagePayload
from cogs.replies import NOTES, Languages, fail, original_id, send, thinking
from data import Store
from tables import ServiceError, Table
from tests.bot.test_bot_render import fake_table

Kind = discord.InteractionResponseType


@dataclass
class Sent:
    id: int


@dataclass
class Response:
    owner: FakeInteraction
    type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return self.type is not None

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        assert self.type is None, "answered twice"
        if thinking or self.owner.message is None:
            self.type = Kind.deferred_channel_message
            self.owner.loading = True
            self.owner.ephemeral = ephemeral
        else:
            self.type = Kind.deferred_message_update
        self.owner.calls.append(("defer", self.type.value))

    async def send_message(self, content: str, **kwargs: Any) -> None:
        assert self.type is None, "answered twice"
        self.type = Kind.channel_message
        self.owner.calls.append(("respond", content))


@dataclass
class Followup:
    owner: FakeInteraction

    async def send(self, content: str, *, wait: bool = False, **kwargs: Any) -> Sent:
        owner = self.owner
        assert owner.response.is_done(), "a follow-up before any acknowledgement"
        if owner.loading:
            owner.deprecated.append(content)  # what Discord deprecates (and may refuse)
        owner.calls.append(("followup", content))
        owner.next_id += 1
        return Sent(owner.next_id)

    async def edit_message(self, message_id: int | str, **kwargs: Any) -> None:
        """Edit Webhook Message: a follow-up by its id, the original as ``@original``."""
        self.owner.calls.append(("edit", message_id))


@dataclass
class FakeInteraction:
    """The parts of ``discord.Interaction`` the replies and open hands use."""

    message: Sent | None = None
    """The message whose component was pressed (None: a slash command)."""
    extras: dict[str, Any] = field(default_factory=dict)
    calls: list[tuple[Any, ...]] = field(default_factory=list)
    deprecated: list[str] = field(default_factory=list)
    loading: bool = False
    ephemeral: bool = False
    next_id: int = 1000
    fail_delete: bool = False
    user: Any = field(default_factory=lambda: SimpleNamespace(id=7))
    guild_id: int = 1
    locale: str = "en-US"
    guild_locale: str = "en-US"
    command: Any = None
    data: Any = None

    def __post_init__(self) -> None:
        self.response = Response(self)
        self.followup = Followup(self)

    async def edit_original_response(self, **kwargs: Any) -> Sent:
        assert self.response.is_done(), "no original response yet"
        self.loading = False
        self.calls.append(("edit_original", kwargs.get("content")))
        return Sent(self.message.id if self.message is not None else 500)

    async def delete_original_response(self) -> None:
        if self.fail_delete:
            raise discord.HTTPException(SimpleNamespace(status=500, reason="boom"), "boom")
        self.loading = False
        self.calls.append(("delete_original",))


def routes(interaction: FakeInteraction) -> list[str]:
    return [str(c[0]) for c in interaction.calls]


async def settle() -> None:
    """Let the open hands' edit tasks run (no time passes: the pacer's interval is 0)."""
    for _ in range(10):
        await asyncio.sleep(0)


async def test_the_first_answer_after_thinking_edits_the_thinking_message() -> None:
    i: Any = FakeInteraction()
    await i.response.defer(ephemeral=True, thinking=True)
    assert thinking(i)
    first = await send(i, "hello")
    assert first is not None and first.id == 500 and original_id(i) == 500
    assert not thinking(i)
    later = await send(i, "and more")  # a second message is a real follow-up
    assert later is not None and later.id == 1001
    assert routes(i) == ["defer", "edit_original", "followup"]
    assert i.deprecated == []


async def test_a_first_response_and_a_deferred_update_are_not_thinking() -> None:
    i: Any = FakeInteraction()
    assert not thinking(i)
    assert await send(i, "at once") is None
    assert routes(i) == ["respond"] and not thinking(i)
    # A press answered by a deferred update (type 6): no loading message to edit; a new
    # private message is a follow-up, and the pressed message is the original.
    press: Any = FakeInteraction(message=Sent(42))
    await press.response.defer()
    assert not thinking(press) and original_id(press) == 42
    msg = await send(press, "a private note")
    assert msg is not None and msg.id != 42
    assert routes(press) == ["defer", "followup"] and press.deprecated == []


@pytest.fixture
async def languages(tmp_path: Path) -> Any:
    store = await Store.open(tmp_path / "replies.db")
    try:
        yield Languages(store)
    finally:
        await store.close()


async def test_an_error_after_a_private_deferral_replaces_the_thinking_message(
    languages: Languages,
) -> None:
    i: Any = FakeInteraction()
    await i.response.defer(ephemeral=True, thinking=True)
    await fail(i, ServiceError("error.no_table"), languages)
    assert routes(i) == ["defer", "edit_original"] and i.deprecated == []


async def test_an_error_after_a_public_deferral_is_told_privately(languages: Languages) -> None:
    i: Any = FakeInteraction()
    i.extras["public"] = True
    await i.response.defer(thinking=True)
    await fail(i, ServiceError("error.no_table"), languages)
    # The public "thinking" message is taken away; the answer is then a new message.
    assert routes(i) == ["defer", "delete_original", "followup"] and i.deprecated == []
    # If it cannot be taken away, it is the one answered (never a deprecated follow-up).
    j: Any = FakeInteraction(fail_delete=True)
    j.extras["public"] = True
    await j.response.defer(thinking=True)
    await fail(j, ServiceError("error.no_table"), languages)
    assert routes(j) == ["defer", "edit_original"] and j.deprecated == []


async def test_an_open_hand_is_edited_through_the_route_of_its_message() -> None:
    async def render(table: Table, seat: int | None, lang: str, shown: Any) -> Drawn:
        match = table.match
        assert match is not None
        return Drawn(MessagePayload(f"move {match.move_number}", view=None))

    table = fake_table(Match(preset("standard"), seed=3))
    live = LiveHands(render, lambda _id: table, 0.0)
    try:
        # A hand that replaced the thinking message of "Show hand": it is @original.
        shown: Any = FakeInteraction()
        await shown.response.defer(ephemeral=True, thinking=True)
        hand = await send(shown, "your hand")
        assert hand is not None
        live.opened(table, 1, shown, hand.id, "en")
        live.redraw(hand.id)
        await settle()
        assert shown.calls[-1] == ("edit", "@original")
        # A hand sent as a real follow-up (something answered first): edited by its id.
        later: Any = FakeInteraction()
        await later.response.defer(ephemeral=True, thinking=True)
        await send(later, "first answer")
        second = await send(later, "a hand")
        assert second is not None
        live.opened(table, 3, later, second.id, "en")
        live.redraw(second.id)
        await settle()
        assert later.calls[-1] == ("edit", second.id)
        # A press on a hand (deferred update): that press's @original is the hand.
        press: Any = FakeInteraction(message=Sent(second.id))
        await press.response.defer()
        live.opened(table, 3, press, second.id, "en")
        live.redraw(second.id)
        await settle()
        assert press.calls[-1] == ("edit", "@original")
        assert shown.deprecated == later.deprecated == press.deprecated == []
    finally:
        await live.close()


@dataclass
class Kept:
    """Notes kept for a person (what cogs.access.Access keeps): given once."""

    notes: list[str]

    async def take(self, interaction: discord.Interaction[Any]) -> list[str]:
        taken, self.notes = self.notes, []
        return taken


async def test_a_private_answer_carries_what_the_person_still_has_to_hear() -> None:
    i: Any = FakeInteraction()
    i.extras[NOTES] = Kept(["⚠️ a permission"])
    await i.response.defer(ephemeral=True, thinking=True)
    await send(i, "done")
    assert i.calls[-1] == ("edit_original", "done\n⚠️ a permission")
    # A message with buttons (a hand, redrawn later): the note comes on its own after it.
    j: Any = FakeInteraction()
    j.extras[NOTES] = Kept(["⚠️ a permission"])
    await j.response.defer(ephemeral=True, thinking=True)
    await send(j, "a hand", view=discord.ui.View())
    assert j.calls[1:] == [("edit_original", "a hand"), ("followup", "⚠️ a permission")]
    assert j.deprecated == []
    # A public answer never carries them: they wait for a private one.
    k: Any = FakeInteraction()
    k.extras[NOTES] = kept = Kept(["⚠️ a permission"])
    await k.response.defer(thinking=True)
    k.extras["public"] = True
    await send(k, "the leaderboard", ephemeral=False)
    assert k.calls[-1] == ("edit_original", "the leaderboard") and kept.notes
