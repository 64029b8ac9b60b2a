"""The post-deal review: par, turning card, and judgements from the seat's own view."""

from __future__ import annotations

import pytest

from batak import preset
from batak.ai.bots import NormalPlayer
from batak.cards import SUIT_MASKS
from batak.deal import Deal, IllegalAction, Play
from batak.review import (
    Decision,
    costliest,
    deal_actions,
    double_dummy_path,
    judge,
    review_deal,
    turning_card,
)


def played_deal(seed: int, name: str = "standard") -> Deal:
    deal = Deal.from_seed(preset(name), seed)
    bots = [NormalPlayer(seed + i) for i in range(4)]
    while not deal.is_over:
        deal.apply(bots[deal.to_act].choose(deal.observation(deal.to_act)))
    return deal


def replay_prefix(deal: Deal, hands: list[int], moves: int) -> Deal:
    """``deal``'s first ``moves`` actions on other starting hands (IllegalAction if
    they do not fit)."""
    other = Deal(deal.rules, hands, deal.dealer, deal.seed)
    for seat, action in deal_actions(deal)[:moves]:
        other.apply(action, seat)
    return other


def swapped_worlds(deal: Deal, seat: int, move: int) -> list[Deal]:
    """The deal at ``move`` with two not-yet-played cards of one suit swapped between
    two other seats: every other seat's hidden cards change, what ``seat`` saw does not."""
    at = replay_prefix(deal, list(deal.initial_hands), move)
    others = [s for s in range(4) if s != seat]
    worlds = []
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            for suit in SUIT_MASKS:
                ca = at.hands[a] & suit
                cb = at.hands[b] & suit
                if not ca or not cb:
                    continue
                x = ca & -ca
                y = cb & -cb
                hands = list(deal.initial_hands)
                hands[a] ^= x | y
                hands[b] ^= x | y
                try:
                    worlds.append(replay_prefix(deal, hands, move))
                except IllegalAction:
                    continue
    return worlds


@pytest.mark.parametrize("seed", [3, 11])
def test_a_judgement_uses_only_what_the_seat_saw(seed: int) -> None:
    deal = played_deal(seed)
    actions = deal_actions(deal)
    checked = 0
    for move, (seat, action) in enumerate(actions):
        if not isinstance(action, Play) or move < len(deal.calls) + 8:
            continue
        at = replay_prefix(deal, list(deal.initial_hands), move)
        obs = at.observation(seat)
        if len(obs.legal) < 2:
            continue
        mine = judge(obs, action, budget=0.01)
        if mine is None:  # every legal card is equivalent: nothing to judge
            continue
        worlds = swapped_worlds(deal, seat, move)
        assert worlds, "no consistent swap found"
        for other in worlds:
            assert other.hands != at.hands  # the hidden cards really differ
            assert other.observation(seat) == obs  # and the seat saw the same things
            assert judge(other.observation(seat), action, budget=0.01) == mine
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_the_double_dummy_path_ends_with_the_real_tricks() -> None:
    deal = played_deal(5)
    path = double_dummy_path(deal, par_nodes=20_000, step_nodes=4_000)
    assert deal.contract is not None
    holder = deal.contract.seat
    assert len(path) == 1 + 4 * len(deal.tricks)
    assert path[-1] == deal.tricks_won[holder]
    # the count only moves by whole tricks and never past 13
    assert all(p is None or 0 <= p <= 13 for p in path)
    # the late positions are small: the solver always finishes the last trick
    assert all(p is not None for p in path[-4:])


def test_the_turning_card_is_the_first_crossing_to_the_outcome() -> None:
    deal = played_deal(5)
    assert deal.contract is not None
    bid = deal.contract.bid
    made = deal.tricks_won[deal.contract.seat] >= bid
    n = 1 + 4 * len(deal.tricks)
    final = deal.tricks_won[deal.contract.seat]
    good, bad = (bid, bid - 1) if made else (bid - 1, bid)
    # the verdict leaves the outcome at card 3, comes back at card 6, leaves and comes back
    path: list[int | None] = [good] * n
    for k in (3, 4, 5, 9):
        path[k] = bad
    path[-1] = final
    turn = turning_card(deal, path)
    assert turn is not None
    assert (turn.before, turn.after) == (bad, good)
    assert turn.trick == 2 and turn.trick == (6 - 1) // 4 + 1
    # unknown counts are skipped: the crossing is measured from the last known one
    path[6] = None
    turn = turning_card(deal, path)
    assert turn is not None and turn.trick == 2  # card 7, still trick 2
    # no crossing at all: no turn
    assert turning_card(deal, [good] * (n - 1) + [final]) is None


def test_a_review_is_complete_and_its_costs_are_sorted() -> None:
    deal = played_deal(9)
    review = review_deal(deal, seats=[0, 2], par_nodes=20_000, step_nodes=4_000, budget=0.01)
    assert deal.contract is not None
    assert review.holder == deal.contract.seat and review.bid == deal.contract.bid
    assert set(review.decisions) == {0, 2}
    assert review.about is not None
    for decisions in review.decisions.values():
        costs = [d.cost for d in decisions]
        assert costs == sorted(costs, reverse=True) and len(costs) <= 3
        assert all(d.cost >= 0.05 and d.chosen != d.better for d in decisions)
    if review.turn is not None:
        # a double-dummy count only moves against the side that played the card
        losing_holder = not review.made
        holder_side = review.turn.seat == review.holder
        assert holder_side == losing_holder


def test_costliest_drops_noise_and_keeps_the_worst() -> None:
    def d(move: int, got: float, kept: float) -> Decision:
        return Decision(0, move, "play", 1, "play 2S", "play AS", got, kept)

    picked = costliest([d(1, 1.0, 1.01), d(2, 0.0, 3.0), d(3, 0.0, 5.0), d(4, 0.0, 3.0)], keep=2)
    assert [x.move for x in picked] == [3, 2]
