"""batak.scoring: targets, contract made, deal scores, placements and the hand order."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from batak.cards import HAND_SUIT_ORDER, card_code, cards_of, parse_card
from batak.deal import Contract
from batak.rules import PRESET_NAMES, preset
from batak.scoring import (
    Holding,
    contract_made,
    placements,
    score_deal,
    seat_made,
    side_tricks,
    sort_codes,
    sort_hand,
    targets,
    tricks_to_defeat,
    winners,
)

from batak_reference import seat_score as reference_seat_score


@st.composite
def tallies(draw: st.DrawFn) -> list[int]:
    """Four trick counts adding up to 13."""
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]


@given(st.sampled_from(PRESET_NAMES), st.integers(0, 3), st.integers(1, 13), tallies())
def test_scores_targets_and_made_agree_with_the_reference(
    name: str, holder: int, bid: int, won: list[int]
) -> None:
    rules = preset(name)
    contract = Contract(holder, bid, False)
    scores = score_deal(rules, contract, won)
    for s in range(4):
        holder_side = s == holder or (rules.partnership and s % 2 == holder % 2)
        tricks = won[s] + won[(s + 2) % 4] if rules.partnership else won[s]
        assert side_tricks(rules, won, s) == tricks
        goal = bid if holder_side else 1
        assert scores[s] == reference_seat_score(rules.scoring, tricks, goal, holder_side, bid)
        made = seat_made(rules, contract, won, s)
        expected = goal if rules.scoring == "tens" or holder_side else None
        assert targets(rules, contract)[s] == expected
        if made is not None:
            assert made == (scores[s] > 0)
    # The contract is made exactly when the holder scores, and the defenders beat it
    # exactly when they took tricks_to_defeat between them.
    assert contract_made(rules, contract, won) == (scores[holder] > 0)
    against = 13 - side_tricks(rules, won, holder)
    assert contract_made(rules, contract, won) == (against < tricks_to_defeat(contract))


@given(st.lists(st.integers(-200, 200), min_size=4, max_size=4))
def test_placements_alone(totals: list[int]) -> None:
    places = placements(totals)
    for s in range(4):
        assert places[s] == 1 + sum(1 for t in totals if t > totals[s])
        assert (places[s] == 1) == (s in winners(totals))


@given(st.integers(-200, 200), st.integers(-200, 200))
def test_placements_in_partnership_are_shared(a: int, b: int) -> None:
    totals = [a, b, a, b]
    places = placements(totals, partnership=True)
    assert places[0] == places[2] and places[1] == places[3]
    if a == b:
        assert places == [1, 1, 1, 1]
    else:
        assert sorted(places) == [1, 1, 2, 2]  # two pairs, two places: never "3rd"
        assert places[0] == (1 if a > b else 2)


def test_targets_before_a_contract() -> None:
    assert targets(preset("standard"), None) == (None, None, None, None)
    assert targets(preset("standard"), Holding(3, 7)) == (1, 1, 1, 7)


@given(st.sets(st.integers(0, 51)))
def test_hand_order(cards: set[int]) -> None:
    mask = sum(1 << c for c in cards)
    ordered = sort_hand(mask)
    assert sorted(ordered) == cards_of(mask)
    assert sort_hand(cards) == ordered
    assert sort_codes(card_code(c) for c in cards) == [card_code(c) for c in ordered]
    for a, b in pairwise(ordered):
        sa, sb = HAND_SUIT_ORDER.index(a // 13), HAND_SUIT_ORDER.index(b // 13)
        assert sa < sb or (sa == sb and a > b)


def test_hand_order_alternates_colours() -> None:
    assert sort_codes(["2D", "AC", "KH", "QS"]) == ["QS", "KH", "AC", "2D"]
    assert sort_hand([parse_card("TH"), parse_card("JH")]) == [parse_card("JH"), parse_card("TH")]
