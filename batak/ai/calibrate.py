"""Self-play calibration of the bidding model (:data:`batak.ai.bidding.MODELS`).

:func:`calibrate` plays deals in which a chosen seat holds the contract with
its best trump, records the rule-of-thumb estimate of its hand and the tricks
its side took, and fits ``tricks ≈ intercept + slope × estimate`` with the
residual spread. Run it with the level whose play the model should describe.
"""

from __future__ import annotations

import math
import random

from batak.ai import make_player
from batak.ai.easy import best_trump, estimate_tricks
from batak.cards import SUITS
from batak.deal import BIDS, PASS, TRUMPS, Deal, Phase
from batak.rules import Rules
from batak.scoring import side_tricks


def collect(
    rules: Rules, deals: int, seed: int, kind: str = "normal", blind: bool = False
) -> list[tuple[float, int]]:
    """(estimate, tricks taken by the holder's side) for ``deals`` deals."""
    rng = random.Random(seed)
    out = []
    for i in range(deals):
        deal = Deal.from_seed(rules, rng.randrange(1 << 62), i % 4)
        holder = rng.randrange(4)
        hand = deal.hands[holder]
        if rules.fixed_trump is not None:
            trump = rules.fixed_trump
            est = estimate_tricks(hand, trump)
        else:
            trump, est = best_trump(hand)
        bid = max(rules.min_bid, min(13, round(est + 1)))
        while deal.phase is Phase.AUCTION:
            deal.apply(BIDS[bid] if deal.to_act == holder else PASS)
        if deal.phase is Phase.TRUMP:
            deal.apply(TRUMPS[trump])
        players = [make_player(kind, seed * 4 + s) for s in range(4)]
        while deal.phase is not Phase.DONE:
            seat = deal.to_act
            deal.apply(players[seat].choose(deal.observation(seat)))
        took = side_tricks(rules, deal.tricks_won, holder)
        out.append((0.0 if blind else est, took))
    return out


def fit(samples: list[tuple[float, int]]) -> tuple[float, float, float]:
    """Least squares (intercept, slope, residual sd)."""
    n = len(samples)
    mx = sum(x for x, _ in samples) / n
    my = sum(y for _, y in samples) / n
    sxx = sum((x - mx) ** 2 for x, _ in samples)
    sxy = sum((x - mx) * (y - my) for x, y in samples)
    slope = sxy / sxx if sxx else 0.0
    intercept = my - slope * mx
    res = [y - (intercept + slope * x) for x, y in samples]
    sd = math.sqrt(sum(r * r for r in res) / max(1, n - 2))
    return intercept, slope, sd


def calibrate(
    rules: Rules, deals: int = 2000, seed: int = 0, kind: str = "normal"
) -> tuple[float, float, float]:
    return fit(collect(rules, deals, seed, kind))


__all__ = ["SUITS", "calibrate", "collect", "fit"]
