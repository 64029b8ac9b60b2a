"""The weight the other seats' played cards give a sampled deal
(batak.ai.experimental.playfit)."""

from __future__ import annotations

import math
import random

import pytest

from batak.ai.bots import HardPlayer, _table
from batak.ai.experimental.playfit import PLAY_FIT, PlayFit, PlayFitPlayer, equal_cards
from batak.ai.knowledge import infer, sample_hands
from batak.cards import CardMask, parse_card, parse_cards
from batak.deal import Deal, Observation, Phase
from batak.players import make_player
from batak.rules import preset


def _observations(rules_name: str, seed: int) -> list[tuple[list[CardMask], Observation]]:
    """Every play-phase observation (after the first card) of a deal played by normal
    players, with the real hands at that moment."""
    deal = Deal.from_seed(preset(rules_name), seed, seed % 4)
    players = [make_player("normal", s) for s in range(4)]
    out = []
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        obs = deal.observation(seat)
        if deal.phase is Phase.PLAY and (obs.tricks or obs.trick):
            out.append((list(deal.hands), obs))
        deal.apply(players[seat].choose(obs))
    return out


@pytest.mark.parametrize("rules_name", ["standard", "esli"])
def test_the_real_deal_of_policy_players_explains_every_card(rules_name: str) -> None:
    """The normal level plays the card policy from what it knows, so the real hands of a
    deal it played weigh 1, while deals sampled from the same observation mostly do not."""
    rng = random.Random(4)
    checked = lower = 0
    for seed in range(3):
        for real, obs in _observations(rules_name, 40 + seed)[::5]:
            fit = PlayFit(obs, _table(obs), 0.5)
            assert fit.weight(real) == 1.0
            know = infer(obs)
            samples = [sample_hands(know, rng) for _ in range(20)]
            weights = [fit.weight(h) for h in samples if h is not None]
            lower += sum(weights) / len(weights) < 1.0
            checked += 1
    assert checked >= 20
    assert lower >= checked // 2


def test_each_unexplained_card_costs_the_mismatch_factor() -> None:
    """A sampled deal is worth ``mismatch`` to the power of the cards it does not explain."""
    rng = random.Random(8)
    seen = set()
    for _real, obs in _observations("esli", 51)[10:40:6]:
        know = infer(obs)
        for _ in range(30):
            hands = sample_hands(know, rng)
            assert hands is not None
            half = PlayFit(obs, _table(obs), 0.5).weight(hands)
            third = PlayFit(obs, _table(obs), 1 / 3).weight(hands)
            k = round(-math.log2(half))
            assert half == pytest.approx(0.5**k)
            assert third == pytest.approx((1 / 3) ** k)
            assert PlayFit(obs, _table(obs), 1.0).weight(hands) == 1.0
            seen.add(k)
    assert 0 in seen and max(seen) >= 2


def test_the_observers_own_cards_are_not_weighed() -> None:
    """Only the other seats' cards are weighed: the observer knows why it played its own."""
    for _real, obs in _observations("standard", 60)[:12]:
        fit = PlayFit(obs, _table(obs), 0.5)
        assert all(p.step.seat != obs.seat for p in fit.plays)
        assert len(fit.plays) <= len(obs.trick) + 4 * len(obs.tricks)


def test_equal_cards() -> None:
    hand = parse_cards(["QS", "JS", "9S", "3H"])
    gone = parse_cards(["TS"])  # played already
    unplayed = ((1 << 52) - 1) & ~gone
    q, j, nine = parse_card("QS"), parse_card("JS"), parse_card("9S")
    assert equal_cards(q, j, hand, unplayed)
    assert equal_cards(nine, q, hand, unplayed)  # the ten between them is gone
    assert not equal_cards(nine, q, hand, unplayed | gone)  # the ten is still out
    assert not equal_cards(q, parse_card("3H"), hand, unplayed)


@pytest.mark.parametrize("mismatch", [0.0, -0.5, 1.5])
def test_a_mismatch_outside_zero_to_one_is_refused(mismatch: float) -> None:
    obs = _observations("standard", 61)[3][1]
    with pytest.raises(ValueError, match="mismatch"):
        PlayFit(obs, _table(obs), mismatch)
    with pytest.raises(ValueError, match="play_fit"):
        PlayFitPlayer(1, play_fit=mismatch)


def test_hard_with_the_play_fit_is_deterministic() -> None:
    """Two players with the same seed and observation choose alike (see also
    ``test_ai_fairness``: the choice ignores the real hidden cards)."""
    checked = 0
    for _real, obs in _observations("esli", 70)[6:40:7]:
        one = PlayFitPlayer(5, budget=0.02, clock=lambda: 0.0).analyse_play(obs, True)
        two = PlayFitPlayer(5, budget=0.02, clock=lambda: 0.0).analyse_play(obs, True)
        assert one.best == two.best
        assert [st.value for st in one.stats] == [st.value for st in two.stats]
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("rules_name", ["standard", "esli"])
def test_only_the_experimental_player_weighs_the_play(rules_name: str) -> None:
    """The hard level weighs its samples by the auction alone; the experimental player
    with a factor of 1.0 decides exactly as it does, and with 0.4 weighs differently."""
    _real, obs = _observations(rules_name, 72)[8]
    assert PLAY_FIT == 0.7
    hard = HardPlayer(1, budget=0.01, clock=lambda: 0.0).analyse_play(obs, True)
    level = PlayFitPlayer(1, budget=0.01, play_fit=1.0, clock=lambda: 0.0).analyse_play(obs, True)
    assert [(st.card, st.values, st.weight) for st in level.stats] == [
        (st.card, st.values, st.weight) for st in hard.stats
    ]
    assert level.notes == hard.notes
    table = _table(obs)
    by_auction = HardPlayer(1).world_weight(obs, table)
    by_play = PlayFitPlayer(1, play_fit=0.4).world_weight(obs, table)
    fit = PlayFit(obs, table, 0.4)
    rng = random.Random(3)
    samples = [h for h in (sample_hands(infer(obs), rng) for _ in range(30)) if h is not None]
    assert samples
    for hands in samples:
        assert by_play(hands) == by_auction(hands) * fit.weight(hands)
    assert any(by_play(h) < by_auction(h) for h in samples)
