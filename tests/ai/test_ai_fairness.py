"""A computer player sees only its seat's observation and cannot reach other hands."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from batak.ai.experimental.playfit import PlayFitPlayer
from batak.ai.experimental.weigh import WeighedBidder
from batak.ai.knowledge import infer, sample_hands
from batak.deal import BIDS, PASS, Action, Deal, Observation, Phase
from batak.players import Player, make_player
from batak.rules import preset

KINDS = ("easy", "normal", "hard")


def _make(kind: str, seed: int) -> Player:
    return make_player(kind, seed, budget=0.01)


def _strip(obs: Observation) -> Observation:
    """The observation without the per-card legal sets of finished tricks."""
    return replace(obs, tricks=tuple(t._replace(legal=()) for t in obs.tricks))


def _history(rules_name: str, seed: int, stop_after: int) -> tuple[Deal, list[Action]]:
    rules = preset(rules_name)
    deal = Deal.from_seed(rules, seed, seed % 4)
    players = [make_player("normal", s) for s in range(4)]
    actions: list[Action] = []
    while deal.phase is not Phase.DONE and len(actions) < stop_after:
        seat = deal.to_act
        action = players[seat].choose(deal.observation(seat))
        actions.append(action)
        deal.apply(action)
    return deal, actions


def _other_world(deal: Deal, actions: list[Action], seat: int, rng: random.Random) -> Deal | None:
    """The same history from a different deal of the hidden cards that fits it exactly."""
    know = infer(deal.observation(seat))
    hands = sample_hands(know, rng)
    if hands is None:
        return None
    full = list(hands)
    for trick in deal.tricks:
        for i, card in enumerate(trick.cards):
            full[(trick.leader + i) % 4] |= 1 << card
    for i, card in enumerate(deal.trick):
        full[(deal.trick_leader + i) % 4] |= 1 << card
    other = Deal(deal.rules, full, deal.dealer)
    for action in actions:
        other.apply(action)  # legal: the inferences are exactly the rules' constraints
    return other


@pytest.mark.parametrize("rules_name", ["standard", "classic", "esli"])
def test_decisions_ignore_the_hidden_cards(rules_name: str) -> None:
    rng = random.Random(5)
    checked = differ = 0
    for seed in range(6):
        for stop in (9, 17, 30):
            deal, actions = _history(rules_name, 100 + seed, stop)
            if deal.phase is not Phase.PLAY:
                continue
            seat = deal.to_act
            other = _other_world(deal, actions, seat, rng)
            assert other is not None
            a, b = deal.observation(seat), other.observation(seat)
            differ += any(other.hands[s] != deal.hands[s] for s in range(4))
            assert _strip(a) == _strip(b)
            for kind in KINDS:
                assert _make(kind, 3).choose(a) == _make(kind, 3).choose(b), kind
            fit_a = PlayFitPlayer(3, budget=0.01, play_fit=0.7, clock=lambda: 0.0).choose(a)
            assert fit_a == PlayFitPlayer(3, budget=0.01, play_fit=0.7, clock=lambda: 0.0).choose(b)
            checked += 1
    assert checked >= 10
    assert differ >= checked // 2


def test_auction_decisions_depend_only_on_own_hand() -> None:
    rules = preset("standard")
    deal = Deal.from_seed(rules, 11, 0)
    seat = deal.to_act
    hands = list(deal.hands)
    others = [s for s in range(4) if s != seat]
    swapped = list(hands)
    swapped[others[0]], swapped[others[1]] = hands[others[1]], hands[others[0]]
    other = Deal(rules, swapped, 0)
    a, b = deal.observation(seat), other.observation(seat)
    assert a == b
    for kind in KINDS:
        assert _make(kind, 1).choose(a) == _make(kind, 1).choose(b)


def test_players_hold_no_reference_to_a_deal() -> None:
    rules = preset("standard")
    deal = Deal.from_seed(rules, 3, 0)
    players = [_make(k, 0) for k in ("easy", "normal", "hard", "random")]
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        deal.apply(players[seat].choose(deal.observation(seat)))
    for p in players:
        for value in vars(p).values() if hasattr(p, "__dict__") else ():
            assert not isinstance(value, Deal)


@pytest.mark.parametrize("rules_name", ["standard", "esli"])
def test_weighed_bids_read_only_the_seat_observation(rules_name: str) -> None:
    """The bidder that plays out every call samples the hidden hands from the seat's
    observation: the same calls with the other hands dealt differently give the same
    figures for every call."""
    rules = preset(rules_name)
    checked = 0
    for seed in range(4):
        deal = Deal.from_seed(rules, 300 + seed, seed % 4)
        callers = [make_player("normal", s) for s in range(4)]
        for _ in range(seed % 3):
            deal.apply(callers[deal.to_act].choose(deal.observation(deal.to_act)))
        if deal.phase is not Phase.AUCTION:
            continue
        seat = deal.to_act
        others = [s for s in range(4) if s != seat]
        hands = list(deal.hands)
        swapped = list(hands)
        swapped[others[0]], swapped[others[2]] = hands[others[2]], hands[others[0]]
        other = Deal(rules, swapped, deal.dealer)
        for seat_, bid in deal.calls:
            assert other.to_act == seat_
            other.apply(PASS if bid is None else BIDS[bid])
        a, b = deal.observation(seat), other.observation(seat)
        assert a == b
        first = WeighedBidder(2, budget=0.02)
        second = WeighedBidder(2, budget=0.02)
        assert first.bid(a) == second.bid(b)
        assert first.last_calls is not None and second.last_calls is not None
        assert first.last_calls.values == second.last_calls.values
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("rules_name", ["standard", "esli"])
def test_the_audit_judges_from_the_seat_observation_only(rules_name: str) -> None:
    """The blunder audit (:mod:`batak.ai.audit`) samples the hidden hands from the seat's
    observation: the same history with the other hands dealt differently gives the same
    verdict for every card the seat could have played."""
    from batak.ai.audit import judge_card
    from batak.deal import Play

    rng = random.Random(8)
    checked = 0
    for seed in range(4):
        for stop in (17, 30, 41):
            deal, actions = _history(rules_name, 200 + seed, stop)
            if deal.phase is not Phase.PLAY:
                continue
            seat = deal.to_act
            other = _other_world(deal, actions, seat, rng)
            assert other is not None
            a, b = deal.observation(seat), other.observation(seat)
            assert any(other.hands[s] != deal.hands[s] for s in range(4))
            for action in a.legal:
                assert isinstance(action, Play)
                key = f"{seed}|{stop}"
                assert judge_card(a, action.card, key) == judge_card(b, action.card, key)
            checked += 1
    assert checked >= 6
