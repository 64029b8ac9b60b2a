"""The deal summary picture shows the four hands as they were dealt (the deal is over)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from batak import card_code, cards_of
from images.build import deal_summary_view, sort_hand
from images.results import render_deal_summary
from images.samples import play_until


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as im:
        return im.size


def test_the_summary_of_a_finished_deal_carries_its_hands_as_dealt() -> None:
    match = play_until("esli", 11, lambda m: bool(m.finished))
    deal = match.finished[0]
    view = deal_summary_view(match, ["A", "B", "C", "D"], 0)
    assert view.hands == tuple(
        sort_hand([card_code(c) for c in cards_of(h)]) for h in deal.initial_hands
    )
    assert sorted(code for hand in view.hands for code in hand) == sorted(
        card_code(c) for c in range(52)
    )
    with_hands = _size(render_deal_summary(view, "light", four_colour=True, lang="tr"))
    without = _size(render_deal_summary(replace(view, hands=())))
    assert with_hands[0] == without[0] == 720
    assert with_hands[1] > without[1] + 300  # the four hands, two by two, under the scores


def test_hands_need_one_per_seat() -> None:
    match = play_until("standard", 3, lambda m: bool(m.finished))
    view = deal_summary_view(match, ["A", "B", "C", "D"], 0)
    with pytest.raises(ValueError, match="hands needs one value per seat"):
        replace(view, hands=view.hands[:3])
