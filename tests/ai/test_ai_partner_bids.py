"""Partners do not bid against each other (:func:`batak.ai.bidding.choose_bid`)."""

from __future__ import annotations

from batak.ai.bidding import bid_value, choose_bid, partner_holds_value
from batak.ai.bots import HardPlayer, NormalPlayer, auction_fit
from batak.ai.hints import format_hint_en, hint
from batak.cards import parse_cards
from batak.deal import BIDS, PASS, Deal, Observation
from batak.rules import preset
from cogs.text.hints import hint_message
from data.models import LANGUAGES


def _after(calls: list[int | None], seed: int = 1048, dealer: int = 0) -> Observation:
    deal = Deal.from_seed(preset("esli"), seed, dealer)
    for c in calls:
        deal.apply(PASS if c is None else BIDS[c])
    return deal.observation(deal.to_act)


def test_valued_as_defending_passing_looks_worse_than_outbidding_the_partner() -> None:
    # Seat 0's partner (seat 2) bid 7; the old valuation bid 8 over it.
    obs = _after([None, 7, None])
    assert obs.seat == 0
    assert choose_bid(obs, team_pass=False).action == BIDS[8]


def test_the_seat_leaves_the_contract_to_its_partner() -> None:
    obs = _after([None, 7, None])
    choice = choose_bid(obs)
    assert choice.action == PASS
    assert choice.pass_value == partner_holds_value(obs.rules, choice.mean, 1.57, 7)[0]
    for player in (NormalPlayer(3), HardPlayer(3, clock=lambda: 0.0)):
        assert player.choose(obs) == PASS


def test_an_opponents_high_bid_is_still_valued_as_defending() -> None:
    # Seat 2 bid 7; seat 3, its opponent, is to call.
    obs = _after([None, 7])
    assert obs.seat == 3
    assert choose_bid(obs) == choose_bid(obs, team_pass=False)


def test_the_partners_contract_is_worth_at_least_what_it_promised() -> None:
    rules = preset("esli")
    weak = partner_holds_value(rules, 5.0, 1.57, 8)
    assert weak == bid_value(rules, 8.4, 1.57, 8)
    strong = partner_holds_value(rules, 10.0, 1.57, 8)
    assert strong == bid_value(rules, 10.0, 1.57, 8)
    assert strong[0] > weak[0]


def test_the_hint_says_why_it_passes() -> None:
    obs = _after([None, 7, None])
    h = hint(obs, budget=0.004, seed=3)
    assert h.action == PASS and h.kind == "pass-partner" and h.bid == 7
    assert format_hint_en(h).startswith("Pass: your partner holds the contract at 7.")
    texts = {lang: hint_message(PASS, h, lang) for lang in LANGUAGES}
    assert all("7" in text for text in texts.values())
    assert len(set(texts.values())) == len(texts)  # each language its own words


def test_a_pass_under_the_partners_bid_says_nothing_of_the_hand() -> None:
    # Seat 1 bids 7; seat 2 (its opponent) and seat 3 (its partner) pass; seat 0 to call.
    obs = _after([7, None, None], seed=5)
    assert obs.seat == 0 and obs.calls == ((1, 7), (2, None), (3, None))
    spades = parse_cards(
        ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]
    )
    low = parse_cards(
        ["2H", "3H", "4H", "5H", "2D", "3D", "4D", "5D", "2C", "3C", "4C", "5C", "6C"]
    )
    assert obs.hand is not None
    bidder = spades  # strong enough for its 7 either way

    def fit(two: int, three: int) -> float:
        return auction_fit(obs, [obs.hand or 0, bidder, two, three])

    assert fit(low, spades) == fit(low, low) == 1.0  # the partner's pass: no evidence
    assert fit(spades, low) < 1e-6  # the opponent's pass: it would have bid
