"""The buttons as discord.py dynamic items: each family takes exactly the ids the bot
writes (read as discord.py hands them over, through ``from_custom_id``), refuses the
rest, and no id belongs to two families."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.batak_cog import FAMILIES
from cogs.components import HandButton, Press, TableButton, dispatched, matching
from cogs.components.panel import HouseItem, WatchButton, house_id
from cogs.components.seats import SeatButton, answer_id, seat_id
from cogs.components.tournament import TournamentButton, tournament_id
from cogs.review import CompareButton, ReviewButton, compare_id, review_id
from tests.bot.test_bot_trust_units import _written_ids

WRITTEN: dict[type[Press[Any]], list[str]] = {
    HandButton: ["bt:42:0:5:p", "bt:42:1:9:cAS", "bt:42:2:0:ref", "bt:42:3:12:b7", "bt:42:0:1:tH"],
    TableButton: [f"bx:42:{what}" for what in ("show", "join", "rematch")],
    SeatButton: [seat_id(42, "sit"), seat_id(42, "s3"), answer_id(42, 2**64 - 1, True)],
    HouseItem: [house_id(42, "rules"), house_id(42, "opt"), house_id(42, "set", "min_bid")],
    WatchButton: [house_id(42, "watch"), house_id(42, "wref")],
    ReviewButton: [review_id(42, 0), review_id(42, 19)],
    CompareButton: [compare_id("2026-11-30")],
    TournamentButton: [tournament_id(42, "join"), tournament_id(42, "leave")],
}
"""Ids each family writes (the views write many more: see the test below)."""

REFUSED: dict[type[Press[Any]], list[str]] = {
    HandButton: ["bt:042:0:5:p", "bt:42:0:05:p", "bt:42:1:9:cth", "bt:42:3:12:b07", "bt:42:0:1:zz"],
    TableButton: ["bx:042:show", "bx:0:join"],
    SeatButton: ["bs:042:sit", "bs:42:042:y", "bs:42:0:n", f"bs:42:{2**64}:y"],
    HouseItem: ["bh:042:rules", "bh:42:set", "bh:42:opt:min_bid", "bh:42:set:seed"],
    WatchButton: ["bh:042:watch", "bh:0:wref"],
    ReviewButton: ["br:042:0", "br:42:00"],
    CompareButton: ["bd:2026-13-01", "bd:2026-02-30"],
    TournamentButton: ["bz:042:join", "bz:0:leave"],
}
"""Ids that fit a family's template but that the bot never writes (a leading zero, a
lower-case card, an unknown code): read as no click, answered as an unknown button."""


def family_of(custom_id: str) -> type[Press[Any]] | None:
    found = matching(custom_id, FAMILIES)
    return found[0] if found is not None else None


async def received(family: type[Press[Any]], custom_id: str) -> Press[Any]:
    """The item discord.py makes for a press of ``custom_id`` (the template's match)."""
    match = family.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    button: discord.ui.Button[Any] = discord.ui.Button(custom_id=custom_id)
    item = await family.from_custom_id(None, button, match)  # type: ignore[arg-type]
    assert type(item) is family and item.item is button and item.custom_id == custom_id
    return item


def test_every_family_is_registered_once_and_press_itself_never() -> None:
    assert len(set(FAMILIES)) == len(FAMILIES) == len(WRITTEN)
    assert set(FAMILIES) == set(WRITTEN) == set(REFUSED)
    assert Press not in FAMILIES
    assert Press.__discord_ui_compiled_template__.fullmatch("") is None


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.__name__)
async def test_a_family_takes_what_the_bot_writes(family: type[Press[Any]]) -> None:
    for custom_id in WRITTEN[family]:
        assert family_of(custom_id) is family, custom_id
        item = await received(family, custom_id)
        assert item.click is not None, custom_id
        assert item.click == family.read(custom_id)
        names_none = family in (CompareButton, TournamentButton)  # no table
        assert family.table_of(item.click) == (None if names_none else 42)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.__name__)
async def test_a_family_refuses_what_the_bot_never_writes(family: type[Press[Any]]) -> None:
    for custom_id in REFUSED[family]:
        assert family_of(custom_id) is family, custom_id  # discord.py calls this family
        assert (await received(family, custom_id)).click is None, custom_id
    for custom_id in WRITTEN[family]:
        prefix, _number, *rest = custom_id.split(":")
        near = [
            custom_id + ":1",  # an extra field
            custom_id.upper() if custom_id.upper() != custom_id else custom_id + "x",
            " " + custom_id,
            ":".join([prefix, "007", *rest]),
        ]
        for forged in near:
            if family_of(forged) is family:
                assert (await received(family, forged)).click is None, forged
            assert family.read(forged) is None, forged
        for other in FAMILIES:  # another family's id: never this one's, never read by it
            if other is not family:
                for theirs in WRITTEN[other]:
                    assert family.__discord_ui_compiled_template__.fullmatch(theirs) is None
                    assert family.read(theirs) is None, (family, theirs)


def test_every_id_the_views_write_belongs_to_exactly_one_family() -> None:
    written = _written_ids()
    assert len(written) > 500
    for custom_id in written:
        owners = [f for f in FAMILIES if f.__discord_ui_compiled_template__.fullmatch(custom_id)]
        assert len(owners) == 1, (custom_id, owners)
        assert owners[0].read(custom_id) is not None, custom_id


def test_a_drawn_button_is_the_item_that_receives_it() -> None:
    hand = HandButton(42, 1, 9, "cAS", label="A♠", style=discord.ButtonStyle.primary, row=2)
    assert hand.custom_id == "bt:42:1:9:cAS" and hand.row == 2
    assert hand.click == HandButton.read("bt:42:1:9:cAS") and hand.click is not None
    assert hand.to_component_dict()["label"] == "A♠"
    seat = SeatButton(answer_id(42, 77, False), label="Refuse")
    assert seat.click is not None and seat.click.user == 77 and not seat.click.approve
    day = CompareButton("2026-11-30", label="Compare")
    assert day.click is not None and CompareButton.table_of(day.click) is None
    with pytest.raises(ValueError):  # an id outside the family's template is not drawn
        TableButton(42, "explode", label="Boom")


def test_only_ids_of_no_family_are_left_to_the_fallback() -> None:
    for custom_id in ("", "bx:42:explode", "other-bot:42", "bt:42:0:5:p:1", "bz:1:2"):
        assert matching(custom_id, FAMILIES) is None, custom_id


class _Message:
    """The two things :func:`dispatched` reads of a pressed message."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.flags = discord.MessageFlags()
        self.components = [discord.ActionRow(row) for row in rows]  # type: ignore[arg-type]


def test_dispatched_is_discord_py_s_own_lookup() -> None:
    buttons: dict[str, Any] = {
        "type": 1,
        "components": [{"type": 2, "style": 2, "label": "Join", "custom_id": "bx:42:join"}],
    }
    menu: dict[str, Any] = {
        "type": 1,
        "components": [
            {"type": 3, "custom_id": "bh:42:opt", "options": [{"label": "a", "value": "a"}]}
        ],
    }
    message: Any = _Message([buttons, menu])
    assert dispatched(message, 2, "bx:42:join")
    assert dispatched(message, 3, "bh:42:opt")
    assert not dispatched(message, 3, "bx:42:join")  # another kind of component
    assert not dispatched(message, 2, "bx:42:leave")  # not on this message
    assert not dispatched(None, 2, "bx:42:join")  # a press without its message
    # A message discord.py cannot rebuild a view of (a menu sharing a row): it runs
    # nothing, so the cog answers.
    shared: Any = _Message(
        [{**buttons, "components": [*buttons["components"], *menu["components"]]}]
    )
    assert not dispatched(shared, 2, "bx:42:join")


def test_an_open_hand_sees_a_button_enabled_or_disabled() -> None:
    """What a hand shows (``cogs.live.signature``: an edit showing the same is skipped)
    reads the button inside the dynamic item: a card turned playable is a change."""
    from cogs.components import view_of
    from cogs.live import signature
    from cogs.payload import MessagePayload

    def shown(disabled: bool) -> str:
        card = HandButton(42, 1, 9, "cAS", label="A♠", disabled=disabled)
        return signature(MessagePayload("Your hand", view=view_of([card])))

    assert shown(True) != shown(False)
    assert "bt:42:1:9:cAS/True" in shown(True)
