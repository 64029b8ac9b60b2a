"""The hard level's budget, its wall-clock guard and its cheaper sampling.

A decision the guard cuts short must never be worse than the normal level's move; a
decision the guard leaves alone plays out its whole budget; the compiled dealing loop
and the per-decision auction fit give what the code before them gave.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from batak.ai.bidding import model_for
from batak.ai.bots import (
    MAX_WORLDS,
    PLAYS_PER_SECOND,
    TRUSTED_WORLDS,
    HardPlayer,
    NormalPlayer,
    _played_by,
    auction_fit,
    fit_function,
    normal_card,
)
from batak.ai.easy import best_trump, estimate_tricks, hand_best_trump, hand_estimate
from batak.ai.knowledge import Knowledge, infer, sample_hands
from batak.cards import SUITS, CardMask
from batak.deal import Deal, Observation, Phase
from batak.play import partner
from batak.rules import preset


def _positions(name: str, deal_seed: int, count: int) -> list[Observation]:
    """Card decisions with a choice, from a deal four normal players play."""
    deal = Deal.from_seed(preset(name), deal_seed, deal_seed % 4)
    players = [NormalPlayer(s) for s in range(4)]
    out: list[Observation] = []
    while deal.phase is not Phase.DONE:
        obs = deal.observation(deal.to_act)
        if obs.phase is Phase.PLAY and len(obs.legal) > 1:
            out.append(obs)
        deal.apply(players[obs.seat].choose(obs))
    return out[:count]


def _jumping(after_calls: int) -> Callable[[], float]:
    """A clock that stands still for ``after_calls`` readings, then jumps an hour."""
    calls = [0]

    def clock() -> float:
        calls[0] += 1
        return 0.0 if calls[0] <= after_calls else 3600.0

    return clock


def test_a_decision_cut_at_once_plays_the_normal_levels_card() -> None:
    checked = 0
    for name in ("standard", "esli"):
        for obs in _positions(name, 11, 12):
            player = HardPlayer(3, clock=_jumping(1))  # the deadline, then an hour later
            action = player.choose(obs)
            analysis = player.last_analysis
            assert analysis is not None
            if len(analysis.stats) == 1:
                continue  # one distinct card: nothing simulated, nothing cut
            assert analysis.worlds == 0 and analysis.notes["cut"] == 1.0
            assert player.decisions == 1 and player.decisions_cut == 1
            assert action == NormalPlayer(0).choose(obs)
            assert analysis.best == normal_card(obs, infer(obs))
            checked += 1
    assert checked >= 10


def test_a_decision_cut_after_enough_deals_ranks_by_the_deals_done() -> None:
    for obs in _positions("standard", 12, 6):
        player = HardPlayer(3, clock=_jumping(TRUSTED_WORLDS + 5))
        analysis = player.analyse_play(obs, force=True)
        if len(analysis.stats) == 1:
            continue
        assert analysis.notes["cut"] == 1.0 and TRUSTED_WORLDS <= analysis.worlds < 40
        best = max(analysis.stats, key=lambda st: (round(st.value, 9), -st.card))
        assert analysis.best == best.card


def test_a_cut_bid_is_legal_and_counted() -> None:
    deal = Deal.from_seed(preset("standard"), 21, 0)
    obs = deal.observation(deal.to_act)
    player = HardPlayer(3, clock=_jumping(1))
    assert player.choose(obs) in obs.legal
    assert player.decisions_cut == 1


def test_no_decision_is_cut_while_the_clock_stands_still() -> None:
    player = HardPlayer(3, clock=lambda: 0.0)
    positions = _positions("esli", 13, 8)
    for obs in positions:
        player.choose(obs)
    assert player.decisions_cut == 0 and 0 < player.decisions <= len(positions)


def test_a_card_decision_plays_out_its_whole_budget() -> None:
    """No stopping rule ends a decision early: it plays sampled deals until its work
    budget is spent (or the cap is reached), for every card alike (the stopping rule
    that ended settled decisions cost strength: docs/computer-players.md)."""
    checked = 0
    for name in ("standard", "esli"):
        for obs in _positions(name, 14, 10):
            player = HardPlayer(5, clock=lambda: 0.0)
            analysis = player.analyse_play(obs)
            if len(analysis.stats) == 1 or analysis.exact:
                continue
            per_deal = sum(obs.hand_sizes) * len(analysis.stats)
            budget = player.budget * PLAYS_PER_SECOND
            assert analysis.worlds == MAX_WORLDS or analysis.worlds * per_deal >= budget
            assert (analysis.worlds - 1) * per_deal < budget  # and no more than that
            assert all(len(st.values) == analysis.worlds for st in analysis.stats)
            checked += 1
    assert checked >= 8


def _old_auction_fit(obs: Observation, hands: list[CardMask]) -> float:
    """The auction fit as it was computed before (estimate_tricks for every call)."""
    rules = obs.rules
    if rules.blind_bidding or not obs.calls:
        return 1.0
    model = model_for(rules)
    high, high_seat, penalty = 0, -1, 0.0
    seen: dict[int, float] = {}
    for seat, bid in obs.calls:
        if seat == obs.seat:
            if bid is not None:
                high, high_seat = bid, seat
            continue
        if bid is None and rules.partnership and high_seat == partner(seat):
            continue
        if seat not in seen:
            hand = hands[seat]
            if rules.fixed_trump is not None:
                est = estimate_tricks(hand, rules.fixed_trump)
            elif obs.contract is not None and obs.contract.seat == seat and obs.trump is not None:
                est = estimate_tricks(hand, obs.trump)
            else:
                est = best_trump(hand)[1]
            seen[seat] = model.intercept + model.slope * est
        mean = seen[seat]
        if bid is None:
            d = mean - (max(high + 1, rules.min_bid) + 0.5)
        else:
            d = (bid - 0.8) - mean
            high, high_seat = bid, seat
        if d > 0:
            penalty += d * d
    return math.exp(-0.5 * penalty)


def test_the_per_decision_fit_weighs_deals_as_before() -> None:
    rng = random.Random(4)
    compared = 0
    for name in ("standard", "esli", "classic"):
        for obs in _positions(name, 14, 30)[::5]:
            fit = fit_function(obs)
            know = infer(obs)
            for _ in range(20):
                hands = sample_hands(know, rng)
                assert hands is not None
                full = [h | p for h, p in zip(hands, _played_by(obs), strict=True)]
                old = _old_auction_fit(obs, full)
                assert math.isclose(fit(full), old, rel_tol=1e-9, abs_tol=1e-12)
                assert math.isclose(auction_fit(obs, full), old, rel_tol=1e-9, abs_tol=1e-12)
                compared += 1
    assert compared >= 200


def test_the_table_estimate_is_estimate_tricks() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        cards = rng.sample(range(52), 13)
        hand = sum(1 << c for c in cards)
        for trump in SUITS:
            assert math.isclose(hand_estimate(hand, int(trump)), estimate_tricks(hand, trump))
        assert math.isclose(hand_best_trump(hand)[1], best_trump(hand)[1])


def _old_sample_hands(know: Knowledge, rng: random.Random, tries: int = 60) -> list[int] | None:
    """The dealing loop as it was in Python before it was compiled."""
    seat = know.seat
    others = [s for s in range(4) if s != seat]
    cards: list[tuple[int, int]] = []
    m = know.unseen
    poss = know.possible
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        opts = sum(1 << s for s in others if poss[s] & low)
        if not opts:
            return None
        cards.append((opts.bit_count(), c))
    cards.sort()
    for _ in range(tries):
        hands = [0, 0, 0, 0]
        hands[seat] = know.hand
        room = list(know.sizes)
        ok = True
        order = sorted(cards, key=lambda t: (t[0], rng.random())) if len(cards) > 1 else cards
        for _n, c in order:
            bitc = 1 << c
            total = sum(room[s] for s in others if poss[s] & bitc and room[s] > 0)
            if total == 0:
                ok = False
                break
            r = rng.random() * total
            for s in others:
                if poss[s] & bitc and room[s] > 0:
                    r -= room[s]
                    if r < 0:
                        hands[s] |= bitc
                        room[s] -= 1
                        break
            else:
                for s in reversed(others):
                    if poss[s] & bitc and room[s] > 0:
                        hands[s] |= bitc
                        room[s] -= 1
                        break
        if ok and all(room[s] == 0 for s in others):
            return hands
    return None


def test_the_dealing_loop_draws_the_same_hands_as_before() -> None:
    drawn = 0
    for name in ("standard", "esli"):
        for obs in _positions(name, 15, 40)[::4]:
            know = infer(obs)
            for seed in range(5):
                new = sample_hands(know, random.Random(seed))
                assert new == _old_sample_hands(know, random.Random(seed))
                drawn += 1
    assert drawn >= 40
