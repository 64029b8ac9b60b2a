"""Auction, deal summary, match result, hand and leaderboard pictures."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from images import (
    AuctionView,
    ContractView,
    DealSummaryView,
    HandView,
    LeaderboardRow,
    LeaderboardView,
    MatchResultView,
    Player,
    render_auction,
    render_deal_summary,
    render_hand,
    render_leaderboard,
    render_match_result,
)
from images.cards import FACE, card_size
from images.hand import CARD_W, HEAD, STEP, hand_width
from images.samples import HOSTILE, LONG, MORE_HOSTILE, UKRAINIAN, handmade_samples, render_sample
from images.theme import DARK, LIGHT

HOSTILE_SETS = [HOSTILE, MORE_HOSTILE, LONG]


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im.convert("RGB")


def players(names: tuple[str, ...]) -> tuple[Player, Player, Player, Player]:
    return (Player(names[0]), Player(names[1]), Player(names[2]), Player(names[3]))


def close(p: tuple[int, int, int], q: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(p, q, strict=True))


@pytest.mark.parametrize("names", [UKRAINIAN, *HOSTILE_SETS])
def test_auction(names: tuple[str, ...]) -> None:
    view = AuctionView(
        players(names),
        dealer=3,
        calls=((0, 5), (1, None), (2, 6), (3, None), (0, 7)),
        to_act=2,
        min_bid=5,
    )
    assert view.high == (0, 7)
    assert view.passed(1) and not view.passed(2)
    for theme in ("dark", "light"):
        im = decode(render_auction(view, theme))
        assert im.width == 720 and 300 < im.height < 900


def test_auction_empty_and_finished() -> None:
    empty = AuctionView(players(UKRAINIAN), dealer=0, to_act=1)
    assert empty.high is None
    decode(render_auction(empty))
    done = AuctionView(
        players(UKRAINIAN), dealer=0, calls=((1, 13),), to_act=None, contract=ContractView(1, 13)
    )
    decode(render_auction(done))


@pytest.mark.parametrize("names", [UKRAINIAN, *HOSTILE_SETS])
def test_deal_summary(names: tuple[str, ...]) -> None:
    view = DealSummaryView(
        players(names),
        ContractView(2, 4, True, "D"),
        (4, 3, 3, 3),
        (1, 1, 4, 1),
        (13, 12, -40, 12),
        (66, -8, 21, 43),
    )
    assert view.made(2) is False and view.made(0) is True
    im = decode(render_deal_summary(view))
    assert im.size[0] == 720


def test_deal_summary_partnership_pools_tricks() -> None:
    view = DealSummaryView(
        players(UKRAINIAN),
        ContractView(1, 7, False, "S"),
        (2, 4, 4, 3),
        (1, 7, 1, 7),
        (6, 7, 6, 7),
        (6, 7, 6, 7),
        partnership=True,
        preset="esli",
    )
    assert view.team_tricks(1) == 7 and view.made(3) is True
    decode(render_deal_summary(view, "light"))


@pytest.mark.parametrize("deals", [0, 1, 8, 20])
def test_match_result(deals: int) -> None:
    rows = tuple((10 + i, -40, 12, 11) for i in range(deals))
    totals = tuple(sum(r[s] for r in rows) for s in range(4))
    view = MatchResultView(
        players(HOSTILE),
        rows,
        (totals[0], totals[1], totals[2], totals[3]),
        winners=(0,) if deals else (),
        deal_count=8,
    )
    im = decode(render_match_result(view))
    assert im.width == 720 and im.height < 1400


def test_hand_lifts_legal_cards() -> None:
    cards = ("AS", "KS", "QH", "TH", "AC", "9C", "2D")
    legal = frozenset({"QH", "TH"})
    im = decode(render_hand(HandView(cards, legal, "H")))
    assert im.size[0] == hand_width(len(cards))
    cw, _ = card_size(CARD_W)
    x0 = (im.width - ((len(cards) - 1) * STEP + cw)) // 2
    # just under the top of a lifted card: the face of a lifted card, background otherwise
    for i, code in enumerate(cards):
        x = x0 + i * STEP + 48
        p = im.getpixel((x, HEAD + 5))
        assert isinstance(p, tuple)
        assert close(p[:3], FACE, 16) == (code in legal), code


def test_hand_without_legal_set_and_empty() -> None:
    decode(render_hand(HandView(("AS", "2C"))))
    im = decode(render_hand(HandView((), title="")))
    assert im.width >= 500
    with pytest.raises(ValueError):
        HandView(("AS",) * 14)


def test_leaderboard_ten_rows_and_limits() -> None:
    rows = tuple(
        LeaderboardRow(i + 1, n, 1500 - i, 10 - i, 20)
        for i, n in enumerate([*HOSTILE, *MORE_HOSTILE, *LONG[:2]])
    )
    assert len(rows) == 10
    for theme in (DARK, LIGHT):
        im = decode(render_leaderboard(LeaderboardView(rows, highlight_rank=4), theme))
        assert im.width == 720
    decode(render_leaderboard(LeaderboardView(())))
    with pytest.raises(ValueError):
        LeaderboardView(rows + rows[:1])
    zero = LeaderboardRow(1, "New", 1500, 0, 0)
    decode(render_leaderboard(LeaderboardView((zero,))))


def test_handmade_gallery_samples_all_render() -> None:
    for sample in handmade_samples():
        png = render_sample(sample)
        assert decode(png).width > 0
        assert len(png) < 150 * 1024


def test_turkish_labels() -> None:
    from images.labels import text_for, upper

    assert text_for("tr", "img.wins", name="Ayşe") == "Ayşe kazandı!"
    assert text_for("xx", "img.pass") == "Pass"
    assert upper("tr", "Eşli oynayacak") == "EŞLİ OYNAYACAK"
    for sample in handmade_samples():
        if sample.kind in ("table", "leaderboard", "deal"):
            from dataclasses import replace

            en = render_sample(replace(sample, lang="en"))
            tr = render_sample(replace(sample, lang="tr"))
            assert decode(tr).size == decode(en).size
            assert tr != en
