"""Views built from a real ``batak.Match``, and rendered."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from batak.cards import card_code, cards_of
from batak.deal import Play
from batak.match import Match
from batak.rules import preset
from images import (
    auction_view_from_match,
    deal_summary_view,
    hand_view_from_match,
    match_result_view,
    render_auction,
    render_deal_summary,
    render_hand,
    render_match_result,
    render_table,
    table_view_from_match,
)
from images.build import sort_hand, targets_of
from images.samples import TURKISH, play_until


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def test_table_view_matches_the_engine_mid_trick() -> None:
    m = play_until(
        "standard",
        21,
        lambda x: (
            x.deal.phase.value == "play" and len(x.deal.tricks) >= 3 and len(x.deal.trick) == 2
        ),
    )
    deal = m.deal
    assert deal.contract is not None
    for viewer in range(4):
        view = table_view_from_match(m, TURKISH, viewer)
        assert view.viewer_seat == viewer
        assert view.phase == "play"
        assert view.to_act == deal.to_act
        assert view.contract is not None and view.contract.seat == deal.contract.seat
        assert view.trick is not None
        expected = {(deal.trick_leader + i) % 4: card_code(c) for i, c in enumerate(deal.trick)}
        assert view.trick.by_seat() == expected
        assert view.last_trick is not None and view.last_trick.winner == deal.tricks[-1].winner
        assert view.tricks_won == tuple(deal.tricks_won)
        assert view.totals == tuple(m.totals)
        assert decode(render_table(view)).size == (960, 680)


def test_hand_view_lists_legal_cards() -> None:
    m = play_until("classic", 5, lambda x: x.deal.phase.value == "play" and len(x.deal.trick) == 1)
    seat = m.to_act
    assert seat is not None
    view = hand_view_from_match(m, seat)
    legal = {card_code(a.card) for a in m.legal_actions() if isinstance(a, Play)}
    assert view.legal == frozenset(legal)
    assert sorted(view.cards) == sorted(card_code(c) for c in cards_of(m.deal.hands[seat]))
    other = hand_view_from_match(m, (seat + 1) % 4)
    assert other.legal is None
    decode(render_hand(view))


def test_blind_bidding_hides_the_hand() -> None:
    m = Match(preset("kanli"), seed=3)
    view = hand_view_from_match(m, 1)
    assert view.cards == ()
    decode(render_hand(view))


def test_auction_view() -> None:
    m = play_until("standard", 8, lambda x: len(x.deal.calls) >= 2)
    view = auction_view_from_match(m, TURKISH)
    assert view.calls == tuple(m.deal.calls)
    assert view.to_act == m.deal.to_act
    assert view.min_bid == 5 and view.forced_bid == 4
    decode(render_auction(view))


@pytest.mark.parametrize("name", ["standard", "esli"])
def test_whole_match_summaries(name: str) -> None:
    m = play_until(name, 31, lambda x: False)
    assert m.is_over
    for i in range(len(m.finished)):
        view = deal_summary_view(m, TURKISH, i)
        assert view.scores == tuple(m.finished[i].scores or ())
    last = deal_summary_view(m, TURKISH)
    assert last.totals == tuple(m.totals)
    decode(render_deal_summary(last))
    result = match_result_view(m, TURKISH)
    assert result.winners == tuple(m.winners) and result.winners
    assert len(result.deal_scores) == len(m.finished)
    decode(render_match_result(result))


def test_every_state_of_a_deal_renders() -> None:
    m = Match(preset("koz-maca", deals=1), seed=77)
    from batak.players import RuleOfThumbPlayer

    bots = [RuleOfThumbPlayer(s) for s in range(4)]
    n = 0
    while not m.is_over:
        view = table_view_from_match(m, TURKISH, n % 4)
        assert view.trump == "S"
        if n % 3 == 0:
            render_table(view)
        seat = m.to_act
        assert seat is not None
        m.apply(bots[seat].choose(m.observation(seat)))
        n += 1
    render_table(table_view_from_match(m, TURKISH))


def test_targets() -> None:
    from batak.deal import Contract

    c = Contract(seat=1, bid=7, forced=False)
    assert targets_of(preset("standard"), c) == (1, 7, 1, 1)
    assert targets_of(preset("classic"), c) == (None, 7, None, None)
    assert targets_of(preset("esli"), c) == (None, 7, None, 7)
    assert targets_of(preset("standard"), None) == (None,) * 4


def test_sort_hand_alternates_colours() -> None:
    assert sort_hand(["2D", "AS", "3C", "KH", "TS"]) == ("AS", "TS", "KH", "3C", "2D")


def test_gallery_command_writes_every_sample(tmp_path: object) -> None:
    from pathlib import Path

    from images.__main__ import main
    from images.samples import all_samples

    out = Path(str(tmp_path)) / "gallery"
    assert main(["gallery", str(out)]) == 0
    pngs = sorted(p.name for p in out.glob("*.png"))
    replays = [
        "replay-animated.png",
        *(f"replay-frame-{k}.png" for k in ("deal", "auction", "trick", "score")),
    ]
    assert len(pngs) == len(all_samples()) + 1 and len(pngs) >= 44  # + the animation
    assert set(replays) <= set(pngs)  # /batak replay's pictures too
    assert (out / "index.html").read_text(encoding="utf-8").count("<img") == len(pngs)
    for name in ("table-forced.png", "table-esli.png", "tr-table.png", "leaderboard.png"):
        assert decode((out / name).read_bytes()).width > 0
