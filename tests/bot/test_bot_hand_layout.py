"""A hand that reads like a hand; public pictures drawn for spectators; texts that name
only buttons on screen."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from batak import Match, card_label, preset
from batak.players import make_player
from cogs import pictures
from cogs.components import hand_view
from cogs.components.views import PER_ROW, ROWS, card_rows
from cogs.i18n import catalogues
from cogs.text.summaries import hand_text
from images.views import AuctionView, TableView
from tests.bot.test_bot_render import fake_table

SUIT_ORDER = "SHCD"  # the hand's order: ♠ ♥ ♣ ♦, colours alternate


def rows_of(view: discord.ui.View) -> list[list[Any]]:
    """The buttons of a view by row, as discord.py will lay them out."""
    out: dict[int, list[Any]] = {}
    for item in view.children:
        assert item.row is not None
        out.setdefault(item.row, []).append(item)
    return [out[r] for r in sorted(out)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(SUIT_ORDER), min_size=0, max_size=13))
def test_card_rows_fit_discord_and_keep_suits_together(suits: list[str]) -> None:
    suits = sorted(suits, key=SUIT_ORDER.index)  # a hand is sorted by suit
    rows = card_rows(suits)
    assert len(rows) == len(suits)
    assert rows == sorted(rows)  # the hand's order, row after row
    used = sorted(set(rows))
    assert used == list(range(len(used))) and len(used) <= ROWS - 1  # a row left for Hint
    for r in used:
        assert rows.count(r) <= PER_ROW
    per_suit = [suits.count(s) for s in SUIT_ORDER if suits.count(s)]
    if sum(-(-n // PER_ROW) for n in per_suit) <= ROWS - 1:
        # A row per suit fits: then no row mixes suits, and each suit starts a row.
        for r in used:
            assert len({s for s, row in zip(suits, rows, strict=True) if row == r}) == 1
        assert len(used) == sum(-(-n // PER_ROW) for n in per_suit)


def test_hand_buttons_follow_the_text_line_and_colour_the_red_suits() -> None:
    for seed in range(6):
        match = Match(preset("standard"), seed=seed)
        bots = [make_player("easy", s) for s in range(4)]
        table = fake_table(match)
        while not match.is_over and match.deal_number == 1:
            seat = match.to_act
            assert seat is not None
            view = hand_view(table, seat, "en")
            assert view is not None
            rows = rows_of(view)
            assert len(rows) <= ROWS and all(len(r) <= PER_ROW for r in rows)
            assert [b.custom_id.split(":")[-1] for b in rows[-1]][-1] == "ref"
            buttons = [getattr(b, "item", b) for b in view.children]
            cards = [b for b in buttons if b.custom_id.split(":")[-1].startswith("c")]
            if cards:
                # The buttons' order is the text line's order.
                text = hand_text(table, seat, "en").splitlines()[1]
                labels = re.findall(r"(?:10|[2-9JQKA])[♠♥♦♣]", text)
                assert [b.label.replace("\ufe0f", "") for b in cards] == labels
                for b in cards:
                    red = b.label[-2] in "♥♦"
                    assert b.label.endswith("\ufe0f")  # emoji: drawn red or black
                    if not b.disabled:
                        want = discord.ButtonStyle.danger if red else discord.ButtonStyle.primary
                        assert b.style == want
            match.apply(bots[seat].choose(match.observation(seat)), seat)


def test_every_public_picture_is_drawn_for_a_spectator() -> None:
    """No public picture is built from a seat's point of view ("you")."""
    match = Match(preset("standard", deals=1), seed=4)
    bots = [make_player("easy", s) for s in range(4)]
    table = fake_table(match)
    kinds: set[str] = set()
    while not match.is_over:
        drawing = pictures.table_picture(table, "en")
        assert drawing is not None
        assert isinstance(drawing.view, TableView | AuctionView)
        assert drawing.view.spectator, type(drawing.view).__name__
        kinds.add(type(drawing.view).__name__)
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].choose(match.observation(seat)), seat)
    assert kinds == {"TableView", "AuctionView"}
    # Deal and match pictures: nothing in them depends on a viewer seat.
    for drawing in (pictures.deal_picture(table, 0, "en"), pictures.result_picture(table, "en")):
        assert drawing is not None
        mine = drawing.renderer(drawing.view)
        assert drawing.renderer(replace(drawing.view, viewer_seat=2)) == mine
    # The auction picture says "you" only in a seat's own view, never in the public one.
    match = Match(preset("standard", deals=1), seed=4)
    drawing = pictures.table_picture(fake_table(match), "en")
    assert drawing is not None and isinstance(drawing.view, AuctionView)
    public = drawing.renderer(drawing.view)
    assert drawing.renderer(replace(drawing.view, spectator=False)) != public


NAMES_PUBLIC_BUTTONS = {
    "new.opened": ("join", "start"),
    "lobby.started": ("show",),
    "rematch.opened": ("start",),
    "new.house_hint": ("rules",),
    "error.not_seated_watch": ("watch",),
}
"""Replies (in the reader's language) that tell where to press on the table message (in
the table's language): they name the buttons through placeholders filled with the table
message's own labels."""


@pytest.mark.parametrize("lang", sorted(catalogues()))
def test_replies_name_only_buttons_on_screen(lang: str) -> None:
    cat = catalogues()[lang]
    labels = {
        "join": cat["button.join"],
        "start": cat["button.start"],
        "show": cat["button.show_hand"],
        "rules": cat["button.house_rules"],
        "watch": cat["button.watch"],
    }
    for key, named in NAMES_PUBLIC_BUTTONS.items():
        text = cat[key]
        for name in named:
            assert "{" + name + "}" in text, (lang, key)
        for label in labels.values():
            assert not re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text), (lang, key, label)
    # Texts shown with a hand name its buttons in the hand's own language.
    assert "Refresh" not in cat["hand.waiting"]


def test_the_clock_is_a_discord_timestamp() -> None:
    match = Match(preset("standard"), seed=2)
    table = fake_table(match)
    seat = match.to_act
    assert seat is not None
    table.deadline, table.deadline_move = 1_800_000_000.4, match.move_number
    assert "<t:1800000000:R>" in hand_text(table, seat, "en")
    assert "<t:" not in hand_text(table, (seat + 1) % 4, "en")
    table.deadline_move = match.move_number - 1  # another turn's: not shown
    assert "<t:" not in hand_text(table, seat, "en")
    assert card_label(0)  # the engine's labels stay plain (emoji only on buttons)
