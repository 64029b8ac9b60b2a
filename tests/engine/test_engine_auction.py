import pytest

from batak import BIDS, PASS, Bid, ChooseTrump, Deal, IllegalAction, Phase, Suit, preset


def new_deal(name: str = "standard", dealer: int = 0, **overrides: object) -> Deal:
    return Deal.from_seed(preset(name, **overrides), seed=11, dealer=dealer)


def test_auction_starts_right_of_the_dealer_and_goes_in_playing_order() -> None:
    deal = new_deal(dealer=2)
    assert deal.to_act == 3
    deal.apply(Bid(5))
    assert deal.to_act == 0
    deal.apply(PASS)
    assert deal.to_act == 1


def test_bids_must_reach_the_minimum_and_beat_the_high_bid() -> None:
    deal = new_deal()
    assert deal.legal_actions() == [PASS, *(BIDS[n] for n in range(5, 14))]
    with pytest.raises(IllegalAction, match="lowest bid is 5"):
        deal.apply(Bid(4))
    deal.apply(Bid(7))
    assert deal.legal_bids() == list(range(8, 14))
    with pytest.raises(IllegalAction, match="higher than 7"):
        deal.apply(Bid(7))
    with pytest.raises(IllegalAction):
        deal.apply(Bid(14))
    assert deal.calls == [(1, 7)]


def test_a_pass_is_final_and_the_auction_ends_when_the_others_passed() -> None:
    deal = new_deal()  # seat 1 opens
    deal.apply(Bid(5))  # 1
    deal.apply(PASS)  # 2
    deal.apply(Bid(6))  # 3
    deal.apply(PASS)  # 0
    assert deal.to_act == 1  # seat 2 passed: skipped
    deal.apply(Bid(7))  # 1
    assert deal.to_act == 3
    deal.apply(PASS)  # 3
    assert deal.phase is Phase.TRUMP
    assert deal.contract is not None
    assert (deal.contract.seat, deal.contract.bid, deal.contract.forced) == (1, 7, False)
    assert deal.to_act == 1


def test_a_bid_of_13_ends_the_auction_at_once() -> None:
    deal = new_deal()
    deal.apply(Bid(13))
    assert deal.phase is Phase.TRUMP
    assert deal.contract is not None and deal.contract.seat == 1 and deal.contract.bid == 13


def test_dealer_forced_the_dealer_may_still_bid() -> None:
    deal = new_deal(dealer=0)
    for _ in range(3):
        deal.apply(PASS)
    assert deal.to_act == 0
    assert PASS in deal.legal_actions() and Bid(5) in deal.legal_actions()
    deal.apply(Bid(5))
    assert deal.contract is not None and deal.contract.forced is False


def test_dealer_forced_four_passes_give_the_dealer_a_forced_contract() -> None:
    deal = new_deal(dealer=3)
    for _ in range(4):
        deal.apply(PASS)
    assert deal.phase is Phase.TRUMP
    assert deal.contract is not None
    assert (deal.contract.seat, deal.contract.bid, deal.contract.forced) == (3, 4, True)
    deal.apply(ChooseTrump(Suit.D))
    assert deal.phase is Phase.PLAY and deal.to_act == 3


def test_dealer_must_bid_forbids_the_dealers_pass() -> None:
    deal = new_deal("classic", dealer=1)
    for _ in range(3):
        deal.apply(PASS)
    assert deal.to_act == 1
    assert PASS not in deal.legal_actions()
    assert deal.legal_actions()[0] == Bid(4)
    with pytest.raises(IllegalAction, match="dealer may not pass"):
        deal.apply(PASS)
    deal.apply(Bid(4))
    assert deal.contract is not None and deal.contract.seat == 1 and not deal.contract.forced


def test_dealer_must_bid_only_when_nobody_bid() -> None:
    deal = new_deal("classic", dealer=1)
    deal.apply(Bid(4))  # seat 2
    deal.apply(PASS)
    deal.apply(PASS)
    assert deal.to_act == 1 and PASS in deal.legal_actions()


def test_fixed_trump_skips_the_trump_choice() -> None:
    deal = new_deal("koz-maca")
    deal.apply(Bid(6))
    for _ in range(3):
        deal.apply(PASS)
    assert deal.phase is Phase.PLAY
    assert deal.trump is Suit.S and deal.contract is not None and deal.contract.trump is Suit.S
    with pytest.raises(IllegalAction):
        deal.apply(ChooseTrump(Suit.H))


def test_blind_bidding_hides_the_hand_until_the_auction_ends() -> None:
    deal = new_deal("kanli")
    assert all(deal.observation(s).hand is None for s in range(4))
    assert deal.legal_actions() == new_deal("standard").legal_actions()
    deal.apply(Bid(5))
    for _ in range(3):
        deal.apply(PASS)
    assert deal.observation(2).hand == deal.hands[2]


def test_the_holder_names_trump_then_leads() -> None:
    deal = new_deal()
    deal.apply(Bid(5))
    for _ in range(3):
        deal.apply(PASS)
    assert deal.legal_actions() == [ChooseTrump(s) for s in Suit]
    deal.apply(ChooseTrump(Suit.H))
    assert deal.to_act == 1 and deal.trump is Suit.H
    assert deal.observation(3).trick_leader == 1  # the holder leads the first trick


def test_wrong_turn_and_wrong_phase_change_nothing() -> None:
    deal = new_deal()
    with pytest.raises(IllegalAction, match="not your turn"):
        deal.apply(Bid(5), seat=2)
    with pytest.raises(IllegalAction, match="auction is not over"):
        deal.apply(ChooseTrump(Suit.H))
    assert deal.calls == [] and deal.to_act == 1


def test_observation_shows_only_the_own_hand() -> None:
    deal = new_deal()
    obs = deal.observation(2)
    assert obs.hand == deal.hands[2]
    assert obs.legal == ()
    assert deal.observation(1).legal == tuple(deal.legal_actions())
    public = {f for f in type(obs).__dataclass_fields__}
    assert "hands" not in public


def test_observations_do_not_reveal_the_legal_sets_of_other_seats() -> None:
    """A legal set is a subset of a hidden hand: only the observer's own is shown."""
    from batak import Match

    match = Match(preset("standard"), seed=3)
    while len(match.deal.tricks) < 3:
        match.apply(match.legal_actions()[0])
    full = match.deal.tricks
    for seat in range(4):
        seen = match.observation(seat).tricks
        assert [t.cards for t in seen] == [t.cards for t in full]
        for trick, original in zip(seen, full, strict=True):
            for i, mask in enumerate(trick.legal):
                if trick.seat_of(i) == seat:
                    assert mask == original.legal[i] != 0
                else:
                    assert mask == 0
