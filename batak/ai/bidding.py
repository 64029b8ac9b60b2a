"""Bidding and trump by expected score.

The number of tricks a hand takes as contract holder with a given trump is
modelled as a normal distribution whose mean is a linear function of the
rule-of-thumb count :func:`batak.ai.easy.estimate_tricks`; the coefficients
(``MODELS``) were fitted by self-play (see :func:`batak.ai.calibrate`). A bid is
worth its expected utility (own score minus the mean of the others, as in
play), compared with the expected utility of defending against someone else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from batak.ai.easy import estimate_tricks
from batak.cards import SUITS, CardMask, Suit
from batak.deal import BIDS, PASS, Action, Bid, Observation
from batak.play import partner
from batak.rules import Rules


@dataclass(frozen=True, slots=True)
class TrickModel:
    """Holder's tricks ≈ Normal(intercept + slope × estimate, sd)."""

    intercept: float
    slope: float
    sd: float
    blind_mean: float
    blind_sd: float


# Fitted by batak.ai.calibrate.calibrate (normal-level play, 2000 deals each on
# standard and esli; classic gave the same solo figures; the blind figures are the
# mean and spread of tricks for a random hand that names its best trump).
MODELS: dict[str, TrickModel] = {
    "solo": TrickModel(-0.48, 1.10, 1.05, 4.57, 1.73),
    "team": TrickModel(3.85, 0.755, 1.57, 7.4, 1.81),
}


def model_for(rules: Rules) -> TrickModel:
    return MODELS["team" if rules.partnership else "solo"]


def tricks_mean(rules: Rules, hand: CardMask, trump: Suit) -> float:
    m = model_for(rules)
    return m.intercept + m.slope * estimate_tricks(hand, trump)


def trick_distribution(mean: float, sd: float) -> list[float]:
    """P(T = t) for t = 0..13 from a normal rounded to whole tricks."""
    cdf = [0.5 * (1 + math.erf((t + 0.5 - mean) / (sd * math.sqrt(2)))) for t in range(14)]
    probs = [cdf[0]] + [cdf[t] - cdf[t - 1] for t in range(1, 13)] + [1 - cdf[12]]
    return [max(0.0, p) for p in probs]


def _holder_utility(rules: Rules, tricks: int, bid: int) -> float:
    """Utility of the holder side taking ``tricks`` with the others sharing the rest."""
    rest = 13 - tricks
    if rules.partnership:
        own = _score(rules.scoring, tricks, True, bid)
        opp = _score(rules.scoring, rest, False, bid)
        return (2.0 / 3.0) * (own - opp)
    own = _score(rules.scoring, tricks, True, bid)
    each = rest / 3.0
    d = _defender_score(rules.scoring, each)
    return own - d


def _score(scoring: str, tricks: float, holder: bool, bid: int) -> float:
    if scoring == "tens":
        target = bid if holder else 1
        return 10 * target + (tricks - target) if tricks >= target else -10.0 * target
    if holder:
        return tricks if tricks >= bid else -float(bid)
    return tricks


def _defender_score(scoring: str, mean_tricks: float) -> float:
    """Expected score of a defender whose tricks average ``mean_tricks``."""
    if scoring != "tens":
        return mean_tricks
    p0 = math.exp(-mean_tricks * 0.75)  # chance of a trickless defence
    return (1 - p0) * (10 + max(0.0, mean_tricks - 1)) - p0 * 10


def bid_value(rules: Rules, mean: float, sd: float, bid: int) -> tuple[float, float]:
    """(expected utility, chance of making) of holding the contract at ``bid``."""
    dist = trick_distribution(mean, sd)
    ev = 0.0
    make = 0.0
    for t, p in enumerate(dist):
        ev += p * _holder_utility(rules, t, bid)
        if t >= bid:
            make += p
    return ev, make


def defend_value(rules: Rules, bid: int) -> float:
    """Expected utility of defending against a contract of ``bid`` held by someone else."""
    dist = trick_distribution(bid + 0.4, 1.6)
    ev = 0.0
    for t, p in enumerate(dist):
        rest = 13 - t
        if rules.partnership:
            own = _score(rules.scoring, rest, False, bid)
            opp = _score(rules.scoring, t, True, bid)
            ev += p * (2.0 / 3.0) * (own - opp)
        else:
            own = _defender_score(rules.scoring, rest / 3.0)
            holder = _score(rules.scoring, t, True, bid)
            ev += p * (own - (holder + 2 * own) / 3.0)
    return ev


@dataclass(frozen=True, slots=True)
class BidChoice:
    """A bidding decision and the figures behind it."""

    action: Action
    trump: Suit | None
    mean: float
    make: float
    value: float
    pass_value: float
    max_bid: int | None
    """The highest bid still worth more than passing (None: none is)."""


def choose_bid(
    obs: Observation,
    mean_by_suit: dict[Suit, float] | None = None,
    sd: float | None = None,
    team_pass: bool = True,
) -> BidChoice:
    """The call with the best expected utility for the seat to act.

    ``mean_by_suit`` overrides the model's expected tricks per trump (the hard
    level refines them by sampling). In partnerships, passing while the partner
    holds the high bid is valued as the team holding it (:func:`partner_holds_value`),
    so partners do not bid against each other; ``team_pass=False`` values it as
    defending, as this module did before (partners then outbid each other up to 10
    or more, and lost in the arena: ``docs/computer-players.md``).
    """
    rules = obs.rules
    model = model_for(rules)
    legal_bids = [a.tricks for a in obs.legal if isinstance(a, Bid)]
    may_pass = PASS in obs.legal
    trump: Suit | None
    if obs.hand is None:
        mean, spread = model.blind_mean, model.blind_sd
        trump = rules.fixed_trump
    else:
        if mean_by_suit is None:
            suits = (rules.fixed_trump,) if rules.fixed_trump is not None else SUITS
            mean_by_suit = {s: tricks_mean(rules, obs.hand, s) for s in suits}
        trump = max(mean_by_suit, key=lambda s: (mean_by_suit[s], -int(s)))
        mean = mean_by_suit[trump]
        spread = model.sd
    if sd is not None:
        spread = sd
    if rules.partnership:
        mean += _partner_bonus(obs)
    high = obs.high_bid or 0
    everyone_passed = sum(1 for _s, b in obs.calls if b is None) == 3 and high == 0
    if may_pass and everyone_passed and rules.all_pass == "dealer-forced":
        forced = rules.forced_bid or rules.min_bid
        pass_value, pass_make = bid_value(rules, mean, spread, forced)
    elif team_pass and partner_holds_high(obs):
        pass_value, pass_make = partner_holds_value(rules, mean, spread, high)
    else:
        pass_value = defend_value(rules, max(high + 1, rules.min_bid))
        pass_make = 0.0
    best_bid = None
    best_value = -1e9
    best_make = 0.0
    max_bid = None
    for b in legal_bids:
        value, make = bid_value(rules, mean, spread, b)
        if value > pass_value or not may_pass:
            max_bid = b
        if value > best_value:
            best_bid, best_value, best_make = b, value, make
    if best_bid is None:
        return BidChoice(PASS, trump, mean, pass_make, pass_value, pass_value, None)
    if may_pass and best_value <= pass_value:
        return BidChoice(PASS, trump, mean, pass_make, pass_value, pass_value, None)
    # Bid the amount with the best expected utility (under "tens" a higher contract
    # scores more; under "tricks" that is usually the lowest bid).
    return BidChoice(BIDS[best_bid], trump, mean, best_make, best_value, pass_value, max_bid)


def partner_holds_high(obs: Observation) -> bool:
    """Whether, in partnerships, the seat's partner made the highest bid so far."""
    if not obs.rules.partnership:
        return False
    bids = [s for s, b in obs.calls if b is not None]
    return bool(bids) and bids[-1] == partner(obs.seat)


def partner_holds_value(rules: Rules, mean: float, sd: float, high: int) -> tuple[float, float]:
    """(expected utility, chance of making) of letting the partner keep its bid of
    ``high``: the team holds at that level with at least the tricks the partner's bid
    promised (``high`` + 0.4, as :func:`defend_value` assumes of a holder) and at least
    the team's tricks with this seat's own best trump (``mean``)."""
    return bid_value(rules, max(mean, high + 0.4), sd, high)


def _partner_bonus(obs: Observation) -> float:
    """Extra team tricks when the partner has shown strength by bidding."""
    mate = partner(obs.seat)
    bids = [b for s, b in obs.calls if s == mate and b is not None]
    if obs.hand is None or not bids:
        return 0.0
    return 0.6


def choose_trump(
    obs: Observation, mean_by_suit: dict[Suit, float] | None = None, sd: float | None = None
) -> tuple[Suit, float, float]:
    """(trump, expected tricks, chance of making the contract) for the holder."""
    assert obs.hand is not None and obs.contract is not None
    rules = obs.rules
    spread = model_for(rules).sd if sd is None else sd
    if mean_by_suit is None:
        mean_by_suit = {s: tricks_mean(rules, obs.hand, s) for s in SUITS}
    means = mean_by_suit
    bid = obs.contract.bid
    best = max(means, key=lambda s: (bid_value(rules, means[s], spread, bid)[0], means[s], -int(s)))
    _v, make = bid_value(rules, means[best], spread, bid)
    return best, mean_by_suit[best], make
